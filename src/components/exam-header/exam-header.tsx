/**
 * The exam header (seed section 2): the product name, "Question n of total" and the timer
 * counting down against the time limit (40:00). Without an exam in progress (exam-end, the
 * not-logged-in view) it shows placeholders ("--:--" for the time). A polite live region says when five
 * minutes and one minute remain; the timer itself stays silent (role "timer").
 */
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { useLingui as useLinguiMacro } from '@lingui/react/macro';
import { memo } from 'react';
import { DEFAULT_TIME_LIMIT_SECONDS, secondsLeft, timeStageOf, type TimeStage } from '../../../machines/exam/exam.rules.ts';
import { PRODUCT_NAME } from '../../app/product.ts';
import { formatClock, formatNumber } from '../../i18n/format.ts';
import { useLanguage } from '../../i18n/language-context.tsx';
import { ClockIcon, WarningIcon } from '../icon/icons.tsx';
import { useNow } from '../../platform/clock.ts';
import styles from './exam-header.module.css';

export interface ExamHeaderProps {
  /** 1-based number of the question on screen; null shows a placeholder. */
  questionNumber: number | null;
  questionCount: number | null;
  /** The deadline in epoch ms on the server's clock; null shows "--:--". */
  deadlineAt: number | null;
  /** Server clock minus local clock, in ms. */
  clockOffsetMs: number;
  /** The exam's time limit (the exam machine's; without one, seed section 9's 40 minutes). */
  timeLimitSeconds?: number;
}

const PLACEHOLDER = '--:--';
const COUNT_PLACEHOLDER = '--';
const announcements = {
  five: msg`5 minutes left.`,
  one: msg`1 minute left.`,
  over: msg`Time is up.`,
} satisfies Record<TimeStage, unknown>;

export function ExamHeader({ questionNumber, questionCount, deadlineAt, clockOffsetMs, timeLimitSeconds = DEFAULT_TIME_LIMIT_SECONDS }: ExamHeaderProps) {
  // Strings, not <Trans> elements: three components less on every question swap.
  const { t } = useLinguiMacro();
  const { language } = useLanguage();
  // Four times a second, so the display never lags the deadline by more than a quarter second.
  const now = useNow(250, deadlineAt !== null);
  const seconds = deadlineAt === null ? null : secondsLeft(deadlineAt, clockOffsetMs, now, timeLimitSeconds);
  const stage = timeStageOf(seconds);
  const n = questionNumber === null ? COUNT_PLACEHOLDER : formatNumber(questionNumber, language);
  const total = questionCount === null ? COUNT_PLACEHOLDER : formatNumber(questionCount, language);

  return (
    <header className={styles.header}>
      <div className={styles.inner}>
        <span className={styles.brand}>{PRODUCT_NAME}</span>
        <p className={styles.counter}>
          {t`Question ${n} of ${total}`}
        </p>
        <ExamTime seconds={seconds} stage={stage} timeLimitSeconds={timeLimitSeconds} />
      </div>
      <Announcement stage={stage} />
    </header>
  );
}

/**
 * The timer and the time limit. Memoized like the announcement below: a question swap changes
 * the counter and renders neither again; a tick renders them.
 */
const ExamTime = memo(function ExamTime({ seconds, stage, timeLimitSeconds }: { seconds: number | null; stage: TimeStage | null; timeLimitSeconds: number }) {
  const { i18n } = useLingui();
  const { language } = useLanguage();
  return (
    <div className={styles.time} data-urgent={stage !== null && stage !== 'over' ? 'true' : undefined}>
      {stage === null ? <ClockIcon /> : <WarningIcon />}
      <span role="timer" aria-label={i18n._(msg`Time left`)} className={`${styles.clock} ltr-isolate`}>
        {seconds === null ? PLACEHOLDER : formatClock(seconds, language)}
      </span>
      <span className={`${styles.limit} ltr-isolate`} aria-hidden="true">
        / {formatClock(timeLimitSeconds, language)}
      </span>
    </div>
  );
});

/** Five minutes, one minute left, time up: said once each by a polite live region. */
const Announcement = memo(function Announcement({ stage }: { stage: TimeStage | null }) {
  const { i18n } = useLingui();
  return (
    <p className="visually-hidden" aria-live="polite">
      {stage ? i18n._(announcements[stage]) : ''}
    </p>
  );
});
