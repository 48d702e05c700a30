/**
 * The registered basic information (seed section 2, `examinee-info`): name, grade and email as
 * they were registered, and that they cannot be changed (seed section 5). One way on:
 * "Continue" to the testing menu.
 */
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { InfoIcon } from '../../components/icon/icons.tsx';
import { Page, PageHeading } from '../../components/page/page.tsx';
import { gradeName } from '../../i18n/grades.ts';
import { useLanguage } from '../../i18n/language-context.tsx';
import styles from './examinee-info.module.css';

export interface ExamineeInfoScreenProps {
  info: { examinee_name: string; grade_id: number; email: string };
  onContinue(): void;
}

export function ExamineeInfoScreen({ info, onContinue }: ExamineeInfoScreenProps) {
  const { i18n } = useLingui();
  const { language } = useLanguage();
  return (
    <Page align="center">
      <div className="card">
        <PageHeading>
          <Trans>Your basic information</Trans>
        </PageHeading>
        <dl className={styles.details}>
          <div className={styles.row}>
            <dt>
              <Trans>Name</Trans>
            </dt>
            <dd dir="auto">{info.examinee_name}</dd>
          </div>
          <div className={styles.row}>
            <dt>
              <Trans>Grade</Trans>
            </dt>
            <dd>{gradeName(i18n, info.grade_id, language)}</dd>
          </div>
          <div className={styles.row}>
            <dt>
              <Trans>Email</Trans>
            </dt>
            <dd className="ltr-isolate">{info.email}</dd>
          </div>
        </dl>
        <div className="alert" data-tone="info">
          <InfoIcon />
          <p>
            <Trans>This information is registered and cannot be changed. If something is wrong, please tell your teacher.</Trans>
          </p>
        </div>
        <button type="button" className="button" data-variant="primary" onClick={onContinue}>
          <Trans>Continue</Trans>
        </button>
      </div>
    </Page>
  );
}
