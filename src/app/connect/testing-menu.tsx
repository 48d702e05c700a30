/**
 * The testing menu bound to the session actor (machines/session/session.connect.ts), which
 * decides its states from the server's status at the server's clock.
 */
import { BootingScreen } from '../../screens/booting/booting.tsx';
import { TestingMenuScreen } from '../../screens/testing-menu/testing-menu.tsx';
import { useSession } from './use-session.ts';

export function ConnectedTestingMenu() {
  const api = useSession()?.menu;
  return api ? <TestingMenuScreen api={api} /> : <BootingScreen />;
}
