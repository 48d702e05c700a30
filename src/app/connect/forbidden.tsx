/**
 * /403 wired to the kiosk machine (seed section 2, rule 7): the forbidden message alongside
 * the "not logged in" view with the header; both lead to the login page.
 */
import { ForbiddenScreen } from '../../screens/forbidden/forbidden.tsx';
import { NotLoggedInScreen } from '../../screens/not-logged-in/not-logged-in.tsx';
import { useScreen } from '../kiosk-bindings.ts';

export function ConnectedForbidden() {
  const props = useScreen('forbidden');
  return (
    <>
      <NotLoggedInScreen {...props} />
      <ForbiddenScreen {...props} />
    </>
  );
}
