/**
 * The registered basic information bound to the session actor (machines/session/session.connect.ts).
 */
import { BootingScreen } from '../../screens/booting/booting.tsx';
import { ExamineeInfoScreen } from '../../screens/examinee-info/examinee-info.tsx';
import { useSession } from './use-session.ts';

export function ConnectedExamineeInfo() {
  const api = useSession()?.info;
  return api ? <ExamineeInfoScreen api={api} /> : <BootingScreen />;
}
