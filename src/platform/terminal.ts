/**
 * The browser's TerminalPort (machines/exam/exam.types.ts): the exam's DOM edge for time. A tick
 * every second with the wall clock, and visibilitychange, focus and online as they happen, each
 * with the wall clock and whether the page is visible; and pagehide, the page going away (a
 * reload, the window closed, another address), always as not visible.
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
 */
import type { PageChangeCause, TerminalPort, TerminalSignal } from '../../machines/exam/exam.types.ts';

/** How often the exam re-derives the time left. */
export const TICK_MS = 1_000;

export function createBrowserTerminal(
  win: Pick<Window, 'addEventListener' | 'removeEventListener' | 'setInterval' | 'clearInterval'> = window,
  doc: Pick<Document, 'addEventListener' | 'removeEventListener' | 'visibilityState'> = document,
  now: () => number = () => Date.now(),
): TerminalPort {
  return {
    watch(emit: (signal: TerminalSignal) => void) {
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
        win.clearInterval(tick);
        doc.removeEventListener('visibilitychange', onVisibility);
        win.removeEventListener('focus', onFocus);
        win.removeEventListener('online', onOnline);
        win.removeEventListener('pagehide', onPageHide);
      };
    },
  };
}
