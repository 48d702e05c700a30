/**
 * The basic information form bound to the session actor (machines/session/session.connect.ts).
 */
import { BootingScreen } from '../../screens/booting/booting.tsx';
import { ExamineeInputInfoScreen } from '../../screens/examinee-input-info/examinee-input-info.tsx';
import { useSession } from './use-session.ts';

export function ConnectedExamineeInputInfo() {
  const api = useSession()?.inputInfo;
  if (!api) return <BootingScreen />;
  return (
    <ExamineeInputInfoScreen
      step={api.step}
      values={api.values}
      errors={api.errors}
      failure={api.failure}
      grades={api.grades}
      onChange={api.change}
      onReview={api.review}
      onBack={api.edit}
      onConfirm={api.confirm}
    />
  );
}
