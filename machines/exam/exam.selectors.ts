/**
 * Exam snapshot to view: where each answer is kept, the time limits shown, and what the retry
 * dialog shows while a call of the exam runs in the retry machine.
 */
import type { SnapshotFrom } from 'xstate';
import { selectRetryDialog, type RetryDialogView, type RetrySnapshot } from '../retry/retry.selectors.ts';
import type { examMachine } from './exam.machine.ts';
import { DEFAULT_TIME_LIMIT_SECONDS, retriedCalls } from './exam.constants.ts';
import type { AnswerEntry, ExamContext } from './exam.types.ts';

export type ExamSnapshot = SnapshotFrom<typeof examMachine>;

/**
 * The three places an answer can be (plus the moment it is being written), and `replaced`: the
 * server holds another window's later answer, which is the value shown (never as saved here).
 */
export type SaveState = 'server' | 'terminal' | 'saving' | 'none' | 'replaced';

export function selectSaveState(entry: AnswerEntry): SaveState {
  switch (entry.status) {
    case 'saved':
      return 'server';
    case 'local':
      return 'terminal';
    case 'writing':
      return 'saving';
    case 'replaced':
      return 'replaced';
    default:
      // unsaved (no outbox) and rejected (refused for good): not kept anywhere that counts.
      return 'none';
  }
}

/**
 * The time limit the timer counts down from, in seconds: the exam's own, or longer when the
 * server moved the deadline (a proctor's extension, a time credit).
 */
export function selectTimeLimitSeconds(context: Pick<ExamContext, 'details' | 'deadlineAt' | 'startedAt'>): number {
  const own = context.details?.exam.time_limit_seconds ?? DEFAULT_TIME_LIMIT_SECONDS;
  if (context.deadlineAt === null || context.startedAt === null) return own;
  return Math.max(own, Math.ceil((context.deadlineAt - context.startedAt) / 1000));
}

/** The exam's own time limit in whole minutes, as the tutorial and the start screen say it. */
export function selectTimeLimitMinutes(context: Pick<ExamContext, 'details'>): number {
  return Math.round((context.details?.exam.time_limit_seconds ?? DEFAULT_TIME_LIMIT_SECONDS) / 60);
}

/**
 * Whether the retry dialog may tell the pupil their answers are kept on this terminal: once the
 * exam has started or holds an answer. Before Start (the details, Start itself) there is nothing
 * of theirs to keep, and saying so misleads.
 */
export function selectAnswersKept(context: Pick<ExamContext, 'startedAt' | 'answers'>): boolean {
  return context.startedAt !== null || Object.keys(context.answers).length > 0;
}

/** The retry machine now running one of the exam's calls, if any (the retry dialog reads it). */
export function selectRetryCall(snapshot: ExamSnapshot | undefined): RetrySnapshot | undefined {
  if (!snapshot) return undefined;
  const children = snapshot.children as Record<string, { getSnapshot(): unknown } | undefined>;
  for (const id of retriedCalls) {
    const child = children[id];
    // Tests fake these calls with plain promises: only a retry machine has a dialog to show.
    const retry = child?.getSnapshot() as RetrySnapshot | undefined;
    if (retry && 'context' in retry && retry.context && 'variant' in retry.context) return retry;
  }
  return undefined;
}

/** The retry dialog of the call now running in the retry machine, if any. */
export function selectExamRetryDialog(snapshot: ExamSnapshot | undefined): RetryDialogView {
  return selectRetryDialog(selectRetryCall(snapshot));
}
