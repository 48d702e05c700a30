/**
 * Page not found, at /404 (seed section 2: any unknown path goes here). One way on: the login
 * page; the machine decides what that means for a pupil who is logged in.
 */
import { Trans } from '@lingui/react/macro';
import type { SessionApi } from '../../../machines/session/session.connect.ts';
import { CardPage } from '../../components/page/card-page.tsx';

export function NotFoundScreen({ api }: { api: Pick<SessionApi, 'goToLogin'> }) {
  return (
    <CardPage heading={<Trans>Page not found</Trans>}>
      <p>
        <Trans>There is nothing at this address.</Trans>
      </p>
      <button type="button" className="button" data-variant="link" onClick={api.goToLogin}>
        <Trans>Go to the login page</Trans>
      </button>
    </CardPage>
  );
}
