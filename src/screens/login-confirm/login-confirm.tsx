/**
 * "Is this you?" (seed section 2, `login-confirm`): the candidate's name, subject and level from
 * /exam-details, so a pupil who sits at the wrong terminal or typed someone else's code logs
 * out before starting. Presentational: it renders the status it is given.
 */
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import type { LoginConfirmApi } from '../../../machines/exam/exam.connect.ts';
import { LoadFailed } from '../../components/failure-alert/failure-alert.tsx';
import { DetailRow, Details } from '../../components/details/details.tsx';
import { CardPage } from '../../components/page/card-page.tsx';
import { SkeletonBlock, SkeletonRegion } from '../../components/skeleton/skeleton.tsx';
import { useLanguage } from '../../i18n/language-context.tsx';
import { levelName } from '../../i18n/levels.ts';
import { subjectName } from '../../i18n/subjects.ts';
import styles from './login-confirm.module.css';

export function LoginConfirmScreen({ api }: { api: LoginConfirmApi }) {
  const { status, details, error } = api;
  const { i18n } = useLingui();
  const { language } = useLanguage();
  return (
    <CardPage heading={<Trans>Is this you?</Trans>}>

      {status === 'loading' && (
        <SkeletonRegion>
          {[0, 1, 2].map((row) => (
            <div key={row} className={styles.skeletonRow}>
              <SkeletonBlock inlineSize="6rem" />
              <SkeletonBlock inlineSize="14rem" blockSize="1.75rem" />
            </div>
          ))}
          <div className="button-row">
            <SkeletonBlock shape="button" inlineSize="12rem" />
            <SkeletonBlock shape="button" inlineSize="10rem" />
          </div>
        </SkeletonRegion>
      )}

      {status === 'error' && (
        <LoadFailed code={error} onRetry={api.retry}>
          <button type="button" className="button" onClick={api.reject}>
            <Trans>No, log out</Trans>
          </button>
        </LoadFailed>
      )}

      {status === 'ready' && details && (
        <>
          <Details>
            <DetailRow label={<Trans>Name</Trans>} className={styles.name} dir="auto">
              {details.examinee_name}
            </DetailRow>
            <DetailRow label={<Trans>Subject</Trans>}>{subjectName(i18n, details.subject)}</DetailRow>
            <DetailRow label={<Trans>Level</Trans>} dir="auto">{levelName(i18n, details.level, language)}</DetailRow>
          </Details>
          <p className={styles.ask}>
            <Trans>If this is not you, log out and tell your teacher.</Trans>
          </p>
          <div className="button-row">
            <button type="button" className="button" data-variant="primary" onClick={api.confirm}>
              <Trans>Yes, continue</Trans>
            </button>
            <button type="button" className="button" onClick={api.reject}>
              <Trans>No, log out</Trans>
            </button>
          </div>
        </>
      )}
    </CardPage>
  );
}
