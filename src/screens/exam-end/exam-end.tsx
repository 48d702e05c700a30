/**
 * The end of the test (seed section 2, `exam-end`): the header with placeholders (seed: the
 * header appears here), then either "Test complete" with the server's receipt of what it holds,
 * or, when the test was cancelled, that the answers could not be sent and what happens next, or,
 * when a proctor moved the pupil to another terminal, that the test goes on there, with what this
 * terminal still sends and how many of its answers the server did not take.
 * One action: log out, so the next pupil finds a clean terminal.
 */
import { Plural, Trans } from '@lingui/react/macro';
import { useLingui } from '@lingui/react';
import { explainedCancellations } from '../../../machines/exam/exam.rules.ts';
import type { ExamEndApi } from '../../../machines/exam/exam.connect.ts';
import type { FailureCode } from '../../../machines/shared/ports.ts';
import { failureMessages } from '../../i18n/failure-messages.ts';
import { Fact } from '../../components/details/details.tsx';
import { ExamHeader } from '../../components/exam-header/exam-header.tsx';
import { CheckIcon, WarningIcon } from '../../components/icon/icons.tsx';
import { Page, PageHeading } from '../../components/page/page.tsx';
import { useLanguage } from '../../i18n/language-context.tsx';
import { formatNumber } from '../../i18n/format.ts';
import styles from './exam-end.module.css';

/** A cancellation the end screen explains with the code's own message (the exam's rule). */
function isExplained(code: FailureCode | null): code is FailureCode {
  return code !== null && explainedCancellations.has(code);
}

export function ExamEndScreen({ api }: { api: ExamEndApi }) {
  const { outcome, receipt, errorCode, movedAway } = api;
  const { language } = useLanguage();
  const { i18n } = useLingui();
  const waiting = movedAway ? formatNumber(movedAway.waiting, language) : '';
  const refused = movedAway?.refused ?? 0;
  const allKept = movedAway !== null && movedAway.waiting === 0 && refused === 0;
  return (
    <div className={styles.end}>
      <ExamHeader questionNumber={null} questionCount={null} deadlineAt={null} clockOffsetMs={0} />
      <Page align="start">
        {movedAway ? (
          <>
            <div className={styles.mark} data-outcome={allKept ? 'sent' : 'cancelled'}>
              {allKept ? <CheckIcon /> : <WarningIcon />}
            </div>
            <PageHeading>
              <Trans>Your test goes on at another terminal</Trans>
            </PageHeading>
            {allKept ? (
              <p className={styles.lead} role="status">
                <Trans>Your teacher moved your test to another terminal. The answers given on this terminal were sent.</Trans>
              </p>
            ) : movedAway.waiting === 0 ? (
              <p className={styles.lead} role="status">
                <Trans>Your teacher moved your test to another terminal.</Trans>
              </p>
            ) : (
              <>
                <p className={styles.lead} role="status">
                  <Trans>Answers given on this terminal and not sent yet: {waiting}</Trans>
                </p>
                <p>
                  <Trans>They are kept on this terminal and sent as soon as the network is back. Please leave this terminal switched on.</Trans>
                </p>
              </>
            )}
            {refused > 0 && (
              <p>
                <Plural
                  value={refused}
                  one="# answer given on this terminal could not be kept. Please tell your teacher."
                  other="# answers given on this terminal could not be kept. Please tell your teacher."
                />
              </p>
            )}
          </>
        ) : outcome === 'sent' ? (
          <>
            <div className={styles.mark} data-outcome="sent">
              <CheckIcon />
            </div>
            <PageHeading>
              <Trans>Test complete</Trans>
            </PageHeading>
            <p className={styles.lead}>
              <Trans>Your answer data has been sent.</Trans>
            </p>
            <p>
              <Trans>Results will be available later.</Trans>
            </p>
            {receipt && (
              <dl className={styles.receipt}>
                <Fact term={<Trans>Answers received</Trans>}>{formatNumber(receipt.answer_count, language)}</Fact>
                <Fact term={<Trans>Receipt</Trans>} className={`${styles.digest} ltr-isolate`}>{receipt.digest.slice(0, 8)}</Fact>
              </dl>
            )}
          </>
        ) : (
          <>
            <div className={styles.mark} data-outcome="cancelled">
              <WarningIcon />
            </div>
            <PageHeading>
              <Trans>The test was cancelled</Trans>
            </PageHeading>
            {isExplained(errorCode) ? (
              <p className={styles.lead} role="alert" data-error-code={errorCode}>
                {i18n._(failureMessages[errorCode])}
              </p>
            ) : (
              <p className={styles.lead}>
                <Trans>Your answers could not be sent.</Trans>
              </p>
            )}
            <p>
              <Trans>Please tell your teacher or the exam supervisor. They will tell you what to do next, for example when you can take the test again.</Trans>
            </p>
          </>
        )}
        {api.canLogout && (
          <button type="button" className="button" data-variant="primary" onClick={api.logout}>
            <Trans>Log out</Trans>
          </button>
        )}
      </Page>
    </div>
  );
}
