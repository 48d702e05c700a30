/**
 * The examinee-info screen wired to the kiosk machine: its props come from useScreen('examinee-info').
 */
import { ExamineeInfoScreen } from '../../screens/examinee-info/examinee-info.tsx';
import { useScreen } from '../kiosk-bindings.ts';

export function ConnectedExamineeInfo() {
  return <ExamineeInfoScreen {...useScreen('examinee-info')} />;
}
