// @vitest-environment jsdom
/**
 * The exam's DOM edge for time (src/platform/terminal.ts): a tick every second with the wall
 * clock, and visibilitychange, focus and online at once, each with the wall clock and whether the
 * page is visible; nothing after stop.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TerminalSignal } from '../../machines/exam/exam.types.ts';
import { createBrowserTerminal, TICK_MS } from '../../src/platform/terminal.ts';

afterEach(() => {
  vi.useRealTimers();
});

function setVisibility(state: DocumentVisibilityState) {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
}

describe('the browser terminal', () => {
  it('ticks every second with the wall clock', () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-22T09:00:00.000Z') });
    const signals: TerminalSignal[] = [];
    const stop = createBrowserTerminal().watch((signal) => signals.push(signal));
    vi.advanceTimersByTime(2 * TICK_MS);
    expect(signals).toEqual([
      { type: 'clock.ticked', now: Date.parse('2026-11-22T09:00:01.000Z') },
      { type: 'clock.ticked', now: Date.parse('2026-11-22T09:00:02.000Z') },
    ]);
    stop();
    vi.advanceTimersByTime(5 * TICK_MS);
    expect(signals).toHaveLength(2);
  });

  it('reports visibilitychange, focus and online at once, saying whether the page is visible', () => {
    let now = 1_000;
    const signals: TerminalSignal[] = [];
    const stop = createBrowserTerminal(window, document, () => now).watch((signal) => signals.push(signal));
    setVisibility('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    now = 2_000;
    setVisibility('visible');
    document.dispatchEvent(new Event('visibilitychange'));
    window.dispatchEvent(new Event('focus'));
    window.dispatchEvent(new Event('online'));
    expect(signals).toEqual([
      { type: 'page.changed', now: 1_000, visible: false, cause: 'visibilitychange' },
      { type: 'page.changed', now: 2_000, visible: true, cause: 'visibilitychange' },
      { type: 'page.changed', now: 2_000, visible: true, cause: 'focus' },
      { type: 'page.changed', now: 2_000, visible: true, cause: 'online' },
    ]);
    stop();
    window.dispatchEvent(new Event('focus'));
    expect(signals).toHaveLength(4);
  });
});
