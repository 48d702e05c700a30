/**
 * The shell's binding, in the chakra-ui/zag style: `connect(snapshot, send)` turns a snapshot of
 * the kiosk (the root, with its children as they run now) into exactly what the frame around
 * every screen renders and the events it may send: the progress bar, which screen is current,
 * the retry dialog over it, and the way from a login screen to the terminal check. Pure: no
 * React, no DOM. The screens bind to their own actors; this is the frame only.
 */
import { selectAnswersKept, selectRetryCall, type ExamSnapshot } from '../exam/exam.selectors.ts';
import { connectRetryDialog, type RetryDialogEvent } from '../retry/retry.connect.ts';
import type { RetryDialogView } from '../retry/retry.selectors.ts';
import { selectScreen, type KioskSnapshot, type ScreenName } from './kiosk.selectors.ts';
import type { KioskEvent } from './kiosk.types.ts';

export type { KioskSnapshot, ScreenName } from './kiosk.selectors.ts';

export interface KioskApi {
  /** A call the pupil (or the proctor, or the terminal check) waits for is under way: the progress bar. */
  busy: boolean;
  /** The screen the active child shows; `booting` while it shows none yet (restoring, judging a URL). */
  screen: ScreenName;
  /** The retry dialog over the screen (the exam's call waits for the network), or null. */
  retryDialog: RetryDialogView;
  /** Whether the dialog says the pupil's answers are kept on this terminal (not before the exam started). */
  retryAnswersKept: boolean;
  /** The retry dialog's Retry: the failed call runs again now (the exam's own event; nothing without a dialog). */
  retry(): void;
  /** The retry dialog's OK: it closes and the call gives up (the exam's own event; nothing without a dialog). */
  closeDialog(): void;
  /** "Check this terminal" on a login screen: the terminal check, whatever the session is doing. */
  checkTerminal(): void;
}

type Tagged = { getSnapshot(): { hasTag(tag: string): boolean } } | undefined;

function isBusy(...children: Tagged[]): boolean {
  return children.some((child) => child?.getSnapshot().hasTag('busy') ?? false);
}

export function connect(snapshot: KioskSnapshot, send: (event: KioskEvent) => void): KioskApi {
  const { children } = snapshot;
  const exam = children.exam;
  // The exam's retry dialog, through the retry machine's own binding: its buttons go to the exam.
  const toExam = (event: RetryDialogEvent) => exam?.send(event);
  const examSnapshot = exam?.getSnapshot() as ExamSnapshot | undefined;
  const dialog = connectRetryDialog(selectRetryCall(examSnapshot), toExam, examSnapshot?.context ? selectAnswersKept(examSnapshot.context) : false);
  return {
    // The results (the session's child) load and download while their screens show.
    busy: isBusy(children.session, children.session?.getSnapshot().children.results as Tagged, exam, children.proctor, children.connectivity),
    screen: selectScreen(snapshot),
    retryDialog: dialog?.view ?? null,
    retryAnswersKept: dialog?.answersKept ?? false,
    retry: () => dialog?.retry(),
    closeDialog: () => dialog?.close(),
    checkTerminal: () => send({ type: 'connectivity.requested' }),
  };
}
