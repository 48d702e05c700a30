/**
 * The exam list (seed section 2, `exam` and `exam-step-mode`) for examinee logins: a table with
 * the seed's columns (level, exam, score, subject, scoring) and, per row, what the pupil can do:
 * "Start" or "Continue" an open exam, "Completed" once sat. In step mode the levels are shown in
 * order as numbered steps, and a later step stays locked (lock icon and words) until the earlier
 * one is finished. Top-aligned and wide, as the seed says for the exam list.
 *
 * Presentational: the session machine loads the list, orders it and decides what each row offers
 * (machines/session/session.selectors.ts) and what "Start" leads to; this renders the rows.
 */
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useId } from 'react';
import type { ExamListApi, ExamRow } from '../../../machines/session/session.connect.ts';
import { LoadFailed } from '../../components/failure-alert/failure-alert.tsx';
import { CheckIcon, InfoIcon, LockIcon } from '../../components/icon/icons.tsx';
import { LogOutFoot } from '../../components/log-out-foot/log-out-foot.tsx';
import { Page, PageHeading } from '../../components/page/page.tsx';
import { TableHead } from '../../components/table-head/table-head.tsx';
import { SkeletonBlock, SkeletonRegion } from '../../components/skeleton/skeleton.tsx';
import { formatNumber } from '../../i18n/format.ts';
import { useLanguage } from '../../i18n/language-context.tsx';
import { levelName } from '../../i18n/levels.ts';
import { subjectName } from '../../i18n/subjects.ts';
import styles from './exam-list.module.css';

/** The scoring state of a row; "Scoring" here is a state (being scored), not the column's name. */
const scoringNames = {
  not_taken: msg({ message: 'Not taken', context: 'scoring state' }),
  scoring: msg({ message: 'Scoring', context: 'scoring state' }),
  scored: msg({ message: 'Scored', context: 'scoring state' }),
} as const;

function RowAction({ exam, describedBy, onChoose }: { exam: ExamRow; describedBy: string; onChoose(id: number): void }) {
  switch (exam.action) {
    case 'locked':
      return (
        <span className={styles.state} data-state="locked">
          <LockIcon />
          <Trans>Finish the earlier level first</Trans>
        </span>
      );
    case 'start':
    case 'continue':
      return (
        <button
          type="button"
          className={`button ${styles.action}`}
          data-variant="primary"
          aria-describedby={describedBy}
          onClick={() => onChoose(exam.schedule_history_id)}
        >
          {exam.action === 'continue' ? <Trans context="exam in progress">Continue</Trans> : <Trans>Start</Trans>}
        </button>
      );
    case 'completed':
      return (
        <span className={styles.state} data-state="completed">
          <CheckIcon />
          <Trans>Completed</Trans>
        </span>
      );
    default:
      return (
        <span className={styles.state} data-state="closed">
          <InfoIcon />
          {exam.action === 'cancelled' ? <Trans>Cancelled</Trans> : <Trans>Closed</Trans>}
        </span>
      );
  }
}

function ExamTable({ rows, stepMode, onChoose }: { rows: ExamRow[]; stepMode: boolean; onChoose(id: number): void }) {
  const { i18n } = useLingui();
  const { language } = useLanguage();
  const captionId = useId();
  const rowId = useId();
  return (
    <div className={styles.scroll} role="region" aria-labelledby={captionId} tabIndex={0}>
      <table className={styles.table}>
        <caption id={captionId} className={styles.caption}>
          {stepMode ? <Trans>Your exams, step by step</Trans> : <Trans>Your exams</Trans>}
        </caption>
        <TableHead
          columns={[
            <Trans>Level</Trans>,
            <Trans>Exam</Trans>,
            <Trans>Score</Trans>,
            <Trans>Subject</Trans>,
            <Trans>Scoring</Trans>,
            <span className="visually-hidden">
              <Trans>What you can do</Trans>
            </span>,
          ]}
        />
        <tbody>
          {rows.map((exam, index) => {
            const n = formatNumber(index + 1, language);
            const titleId = `${rowId}-${exam.schedule_history_id}`;
            return (
              <tr key={exam.schedule_history_id} data-locked={exam.locked || undefined}>
                <th scope="row" className={styles.level}>
                  {stepMode && (
                    <span className={styles.step}>
                      <Trans>Step {n}</Trans>
                    </span>
                  )}
                  <bdi>{levelName(i18n, exam.level, language)}</bdi>
                </th>
                <td id={titleId} dir="auto">
                  {exam.exam.title}
                </td>
                <td className={styles.number}>
                  {exam.score === null ? (
                    <>
                      <span aria-hidden="true">–</span>
                      <span className="visually-hidden">
                        <Trans>No score yet</Trans>
                      </span>
                    </>
                  ) : (
                    formatNumber(exam.score, language)
                  )}
                </td>
                <td>{subjectName(i18n, exam.subject)}</td>
                <td>{i18n._(scoringNames[exam.scoring])}</td>
                <td className={styles.actionCell}>
                  <RowAction exam={exam} describedBy={titleId} onChoose={onChoose} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function ExamListScreen({ api }: { api: ExamListApi }) {
  const { status, rows, stepMode, error } = api;
  return (
    <Page align="start" width="wide">
      <PageHeading>
        <Trans>Choose an exam</Trans>
      </PageHeading>
      {stepMode && status === 'ready' && rows.length > 0 && (
        <p className={styles.intro}>
          <Trans>Take the levels in order. The next level opens when you finish the one before.</Trans>
        </p>
      )}
      {status === 'loading' && (
        <SkeletonRegion>
          {[0, 1, 2].map((row) => (
            <SkeletonBlock key={row} shape="box" blockSize="3.5rem" />
          ))}
        </SkeletonRegion>
      )}
      {status === 'error' && <LoadFailed code={error} onRetry={api.retry} />}
      {status === 'ready' &&
        (rows.length === 0 ? (
          <div className="alert" data-tone="info">
            <InfoIcon />
            <p>
              <Trans>You have no exams right now.</Trans>
            </p>
          </div>
        ) : (
          <ExamTable rows={rows} stepMode={stepMode} onChoose={api.choose} />
        ))}
      <LogOutFoot onLogout={api.logout} />
    </Page>
  );
}
