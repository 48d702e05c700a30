/**
 * The registered basic information (seed section 2, `examinee-info`): name, grade and email as
 * they were registered, and that they cannot be changed (seed section 5). One way on:
 * "Continue" to the testing menu.
 */
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import type { InfoApi } from '../../../machines/session/session.connect.ts';
import { InfoIcon } from '../../components/icon/icons.tsx';
import { DetailRow, Details } from '../../components/details/details.tsx';
import { CardPage } from '../../components/page/card-page.tsx';
import { gradeName } from '../../i18n/grades.ts';
import { useLanguage } from '../../i18n/language-context.tsx';

export function ExamineeInfoScreen({ api }: { api: InfoApi }) {
  const { info } = api;
  const { i18n } = useLingui();
  const { language } = useLanguage();
  return (
    <CardPage heading={<Trans>Your basic information</Trans>}>
      <Details>
        <DetailRow label={<Trans>Name</Trans>} dir="auto">{info.examinee_name}</DetailRow>
        <DetailRow label={<Trans>Grade</Trans>}>{gradeName(i18n, info.grade_id, language)}</DetailRow>
        <DetailRow label={<Trans>Email</Trans>} className="ltr-isolate">{info.email}</DetailRow>
      </Details>
      <div className="alert" data-tone="info">
        <InfoIcon />
        <p>
          <Trans>This information is registered and cannot be changed. If something is wrong, please tell your teacher.</Trans>
        </p>
      </div>
      <button type="button" className="button" data-variant="primary" onClick={api.acknowledge}>
        <Trans>Continue</Trans>
      </button>
    </CardPage>
  );
}
