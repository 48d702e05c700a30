/**
 * The browser's TerminalPort (machines/exam/exam.types.ts): the exam's DOM edge for time and for
 * the other windows of the sitting. A tick every second with the wall clock, and visibilitychange,
 * focus and online as they happen, each with the wall clock and whether the page is visible;
 * pagehide, the page going away (a reload, the window closed, another address), always as not
 * visible; the answers another window of the sitting had saved (see below); and whether the app
 * shell is ready for a reload without the network (`shellReady`, src/platform/service-worker.ts),
 * which Start waits for.
 *
 * Why pagehide: the exam reports the question on screen to the stored session once the pupil
 * pauses (machines/exam/exam.machine.ts, the `position` region), and at once when the page is
 * hidden. Every browser fires pagehide when the page goes away (the HTML spec's "unload a
 * document"); a visibilitychange to hidden comes after it, if at all (only where the browser
 * implements that step at unload), so the position must not wait for it. visibilityState may
 * still say visible during pagehide, so its signal says not visible itself. beforeunload adds
 * nothing: an unload it announces always brings pagehide, and it may be cancelled.
 *
 * Why ticks and not one timer to the deadline: a laptop whose lid was closed (or a background
 * tab) pauses page timers, and a long timer then fires late; a tick (or the wake-up event that
 * comes first) reads the wall clock again, so the exam sees the deadline has passed at once.
 *
 * Why a BroadcastChannel: two windows (tabs) of one terminal share the stored session, so both run
 * the same sitting, and the pupil may answer a question in one and change it in the other. Each
 * window tells the others of every answer the server acknowledged (`announce`) on a channel named
 * per sitting (`answersChannelName`); the others hear it as `answer.savedElsewhere` at once,
 * hidden or not, and the exam takes it if it is newer than their own. On the same channel each
 * tells the others the server's clock offset it holds (`shareClock`, heard as `clock.shared`): the
 * windows share this terminal's clock, so the nearest offset any measured serves all of them. A
 * message that does not validate is ignored. A browser without BroadcastChannel tells no one: its windows learn the
 * server's answers when shown again, as before.
 */
import * as v from 'valibot';
import type {
  AnswerSavedElsewhere,
  ClockShared,
  PageChangeCause,
  TerminalPort,
  TerminalSignal,
  WatchedSitting,
} from '../../machines/exam/exam.types.ts';

/** How often the exam re-derives the time left. */
export const TICK_MS = 1_000;

/** The channel the windows of one sitting on this terminal tell each other of their saved answers on. */
export function answersChannelName(scheduleHistoryId: number): string {
  return `gradus-exam-answers-${scheduleHistoryId}`;
}

/** The part of a BroadcastChannel the terminal uses (tests may give their own). */
export type AnswersChannel = Pick<BroadcastChannel, 'postMessage' | 'close' | 'addEventListener' | 'removeEventListener'>;

/** The browser's BroadcastChannel, or null where there is none. */
function openBroadcastChannel(name: string): AnswersChannel | null {
  return typeof BroadcastChannel === 'function' ? new BroadcastChannel(name) : null;
}

const AnswerSavedElsewhereSchema = v.object({
  scheduleHistoryId: v.pipe(v.number(), v.integer(), v.minValue(1)),
  owner: v.pipe(v.string(), v.minLength(1)),
  questionId: v.pipe(v.number(), v.integer()),
  value: v.string(),
  answeredAt: v.pipe(v.string(), v.isoTimestamp()),
  key: v.pipe(v.string(), v.minLength(1)),
});

const ClockSharedSchema = v.object({
  scheduleHistoryId: v.pipe(v.number(), v.integer(), v.minValue(1)),
  owner: v.pipe(v.string(), v.minLength(1)),
  clockOffsetMs: v.pipe(v.number(), v.finite()),
});

/** What another window of the sitting says: an answer it had saved, or the clock offset it holds. */
function heardSignal(data: unknown): TerminalSignal | null {
  const answer = v.safeParse(AnswerSavedElsewhereSchema, data);
  if (answer.success) return { type: 'answer.savedElsewhere', answer: answer.output };
  const clock = v.safeParse(ClockSharedSchema, data);
  return clock.success ? { type: 'clock.shared', clock: clock.output } : null;
}

export function createBrowserTerminal(
  win: Pick<Window, 'addEventListener' | 'removeEventListener' | 'setInterval' | 'clearInterval'> = window,
  doc: Pick<Document, 'addEventListener' | 'removeEventListener' | 'visibilityState'> = document,
  now: () => number = () => Date.now(),
  openChannel: (name: string) => AnswersChannel | null = openBroadcastChannel,
): TerminalPort {
  /** The channel each watched sitting listens on: announcing through it never reaches this window. */
  const listening = new Map<number, AnswersChannel>();
  /** Posts to the other windows of the sitting: on the channel this window listens on, or one opened for the moment. */
  const tell = (scheduleHistoryId: number, message: AnswerSavedElsewhere | ClockShared) => {
    const open = listening.get(scheduleHistoryId);
    if (open) return open.postMessage(message);
    const channel = openChannel(answersChannelName(scheduleHistoryId));
    channel?.postMessage(message);
    channel?.close();
  };
  return {
    // The service worker's module is loaded after the first screen (main.tsx); Start waits for it.
    shellReady: (signal) => import('./service-worker.ts').then((module) => module.shellReady(signal)),
    announce: (answer) => tell(answer.scheduleHistoryId, answer),
    shareClock: (clock) => tell(clock.scheduleHistoryId, clock),
    watch(emit: (signal: TerminalSignal) => void, sitting?: WatchedSitting) {
      const channel = sitting && !listening.has(sitting.scheduleHistoryId) ? openChannel(answersChannelName(sitting.scheduleHistoryId)) : null;
      const onMessage = (event: Event) => {
        const heard = heardSignal((event as MessageEvent).data);
        if (heard) emit(heard);
      };
      if (sitting && channel) {
        channel.addEventListener('message', onMessage);
        listening.set(sitting.scheduleHistoryId, channel);
      }
      const tick = win.setInterval(() => emit({ type: 'clock.ticked', now: now() }), TICK_MS);
      const changed = (cause: PageChangeCause) => () =>
        emit({ type: 'page.changed', now: now(), visible: cause !== 'pagehide' && doc.visibilityState === 'visible', cause });
      const onVisibility = changed('visibilitychange');
      const onFocus = changed('focus');
      const onOnline = changed('online');
      const onPageHide = changed('pagehide');
      doc.addEventListener('visibilitychange', onVisibility);
      win.addEventListener('focus', onFocus);
      win.addEventListener('online', onOnline);
      win.addEventListener('pagehide', onPageHide);
      return () => {
        if (sitting && channel) {
          channel.removeEventListener('message', onMessage);
          channel.close();
          listening.delete(sitting.scheduleHistoryId);
        }
        win.clearInterval(tick);
        doc.removeEventListener('visibilitychange', onVisibility);
        win.removeEventListener('focus', onFocus);
        win.removeEventListener('online', onOnline);
        win.removeEventListener('pagehide', onPageHide);
      };
    },
  };
}
