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
 * hidden or not, and the exam takes it if it is newer than their own. A message that does not
 * validate is ignored. A browser without BroadcastChannel tells no one: its windows learn the
 * server's answers when shown again, as before.
 */
import * as v from 'valibot';
import type {
  AnswerSavedElsewhere,
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

export function createBrowserTerminal(
  win: Pick<Window, 'addEventListener' | 'removeEventListener' | 'setInterval' | 'clearInterval'> = window,
  doc: Pick<Document, 'addEventListener' | 'removeEventListener' | 'visibilityState'> = document,
  now: () => number = () => Date.now(),
  openChannel: (name: string) => AnswersChannel | null = openBroadcastChannel,
): TerminalPort {
  /** The channel each watched sitting listens on: announcing through it never reaches this window. */
  const listening = new Map<number, AnswersChannel>();
  return {
    // The service worker's module is loaded after the first screen (main.tsx); Start waits for it.
    shellReady: (signal) => import('./service-worker.ts').then((module) => module.shellReady(signal)),
    announce(answer: AnswerSavedElsewhere) {
      const open = listening.get(answer.scheduleHistoryId);
      if (open) return open.postMessage(answer);
      const channel = openChannel(answersChannelName(answer.scheduleHistoryId));
      channel?.postMessage(answer);
      channel?.close();
    },
    watch(emit: (signal: TerminalSignal) => void, sitting?: WatchedSitting) {
      const channel = sitting && !listening.has(sitting.scheduleHistoryId) ? openChannel(answersChannelName(sitting.scheduleHistoryId)) : null;
      const onMessage = (event: Event) => {
        const heard = v.safeParse(AnswerSavedElsewhereSchema, (event as MessageEvent).data);
        if (heard.success) emit({ type: 'answer.savedElsewhere', answer: heard.output });
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
