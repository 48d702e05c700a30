/**
 * The basic information form bound to the session actor (machines/session/session.connect.ts).
 */
import { BootingScreen } from '../../screens/booting/booting.tsx';
import { ExamineeInputInfoScreen } from '../../screens/examinee-input-info/examinee-input-info.tsx';
import { useSession } from './use-session.ts';

export function ConnectedExamineeInputInfo() {
  const api = useSession()?.inputInfo;
  return api ? <ExamineeInputInfoScreen api={api} /> : <BootingScreen />;
}
