/**
 * Ready to start (seed section 2, `exam-start`): the one place where the pupil is told, plainly
 * and before pressing, that the time limit starts now and the test cannot be started over
 * (seed sections 4, 5 and 9). Top-aligned, as the seed says for this screen.
 */
import { Trans } from '@lingui/react/macro';
import type { ExamStartApi } from '../../../machines/exam/exam.connect.ts';
import { FailureAlert } from '../../components/failure-alert/failure-alert.tsx';
import { WarningIcon } from '../../components/icon/icons.tsx';
import { Page, PageHeading } from '../../components/page/page.tsx';
import { formatNumber } from '../../i18n/format.ts';
import { useLanguage } from '../../i18n/language-context.tsx';
import styles from './exam-start.module.css';

export function ExamStartScreen({ api }: { api: ExamStartApi }) {
  const { busy, offline, error, timeLimitMinutes: minutes } = api;
  const { language } = useLanguage();
  // The message's placeholder keeps its name: the number in the language's own digits.
  const timeLimitMinutes = formatNumber(minutes, language);
  return (
    <Page align="start">
      <PageHeading>
        <Trans>Ready to start</Trans>
      </PageHeading>
      {error && <FailureAlert code={error} />}
      <div className="alert" data-tone="warning">
        <WarningIcon />
        <p className={styles.warning}>
          <Trans>Once you press Start, the {timeLimitMinutes} minutes begin and you cannot start the test over.</Trans>
        </p>
      </div>
      <p>
        <Trans>Make sure you are ready, then press the button.</Trans>
      </p>
      {offline === 'unavailable' ? (
        <>
          <div className="alert" data-tone="warning" role="alert">
            <WarningIcon />
            <p>
              <Trans>
                This terminal could not get ready to work offline. You can still start: your answers are saved as usual, but if the
                network drops, keep this page open and do not reload it.
              </Trans>
            </p>
          </div>
          <button type="button" className={`button ${styles.start}`} data-variant="primary" onClick={() => api.startAnyway()}>
            <Trans>Start anyway</Trans>
          </button>
        </>
      ) : (
        <button
          type="button"
          className={`button ${styles.start}`}
          data-variant="primary"
          aria-busy={busy || undefined}
          aria-disabled={busy || undefined}
          onClick={() => {
            if (!busy) api.start();
          }}
        >
          {offline === 'preparing' ? (
            <Trans>Preparing this terminal to work offline…</Trans>
          ) : busy ? (
            <Trans>Starting…</Trans>
          ) : (
            <Trans>Start the test</Trans>
          )}
        </button>
      )}
    </Page>
  );
}
