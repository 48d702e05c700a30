/**
 * The retry dialog's binding, in the chakra-ui/zag style: `connectRetryDialog(snapshot, send)`
 * turns a snapshot of the retry machine now running a call into exactly what the dialog renders
 * (src/components/retry-dialog/) and the two events it may send, and nothing else. Pure: no
 * React, no DOM. Strings are the dialog's (Lingui); this gives it the kind.
 *
 * The retry machine is a child (the exam's `loadExamDetails`, `loadQuestions`, `flushAnswers`,
 * `finishExam`): the parent finds it (exam.selectors.ts, `selectRetryCall`) and `send` is the
 * parent's, which passes Retry and OK to the child it runs. The exam's screens (exam.connect.ts)
 * and the shell's frame (kiosk.connect.ts) both show the dialog through this one binding.
 *
 * What does not change between snapshots stays the same object (each dialog kind, the handlers of
 * one `send`), so a memoised dialog sees equal props when only something else moved.
 */
import { memoizeByKey } from '../shared/memoize-by-key.ts';
import { selectRetryDialog, type RetryDialogView, type RetrySnapshot } from './retry.selectors.ts';

/** The dialog's events, as the parent that runs the call takes them (and hands them to the child). */
export type RetryDialogEvent = { type: 'retry.requested' } | { type: 'dialog.closed' };

export interface RetryDialogApi {
  view: Exclude<RetryDialogView, null>;
  /** Whether the dialog says the pupil's answers are kept on this terminal (the caller knows). */
  answersKept: boolean;
  /** Retry: the failed call runs again now. */
  retry(): void;
  /** OK: the dialog closes and the call gives up. */
  close(): void;
}

type Send = (event: RetryDialogEvent) => void;

/** One object per dialog kind, so an unchanged dialog is the same value. */
const dialogViews = {
  connecting: { kind: 'connecting' },
  checkConnection: { kind: 'checkConnection' },
  retry: { kind: 'retry' },
} as const satisfies Record<string, Exclude<RetryDialogView, null>>;

/** The dialog's two handlers, made once per `send`. */
const handlers = memoizeByKey(
  (send: Send): Pick<RetryDialogApi, 'retry' | 'close'> => ({
    retry: () => send({ type: 'retry.requested' }),
    close: () => send({ type: 'dialog.closed' }),
  }),
);

/** The retry dialog over the screen, or null when the call (if any) shows none. */
export function connectRetryDialog(snapshot: RetrySnapshot | undefined, send: Send, answersKept = true): RetryDialogApi | null {
  const view = selectRetryDialog(snapshot);
  if (!view) return null;
  const { retry, close } = handlers(send);
  return { view: dialogViews[view.kind], answersKept, retry, close };
}
