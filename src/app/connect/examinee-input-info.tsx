/**
 * The examinee-input-info screen wired to the kiosk machine: its props come from useScreen('examinee-input-info').
 */
import { ExamineeInputInfoScreen } from '../../screens/examinee-input-info/examinee-input-info.tsx';
import { useScreen } from '../kiosk-bindings.ts';

export function ConnectedExamineeInputInfo() {
  return <ExamineeInputInfoScreen {...useScreen('examinee-input-info')} />;
}
