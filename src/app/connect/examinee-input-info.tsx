/**
 * The basic information form bound to the session actor (machines/session/session.connect.ts).
 */
import { BootingScreen } from '../../screens/booting/booting.tsx';
import { ExamineeInputInfoScreen } from '../../screens/examinee-input-info/examinee-input-info.tsx';
import { useSession } from './use-session.ts';
import { screenProps } from './screen-props.ts';

export function ConnectedExamineeInputInfo() {
  const api = useSession()?.inputInfo;
  // "Change" is the form's `onBack`: the connect's `edit`.
  return api ? <ExamineeInputInfoScreen {...screenProps(api)} onBack={api.edit} /> : <BootingScreen />;
}
