// @vitest-environment jsdom
/**
 * The page going away (src/platform/terminal.ts): pagehide (a reload, the window closed, another
 * address) reaches the exam as a page change that says not visible, even while the document still
 * says it is visible (the browser updates visibilityState after pagehide, if at all), so the exam
 * reports the question on screen before the page is gone; nothing after stop.
 */
import { describe, expect, it } from 'vitest';
import type { TerminalSignal } from '../../machines/exam/exam.types.ts';
import { createBrowserTerminal } from '../../src/platform/terminal.ts';

describe('the browser terminal on pagehide', () => {
  it('reports the page going away as not visible, at once, and nothing once stopped', () => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
    const signals: TerminalSignal[] = [];
    const stop = createBrowserTerminal(window, document, () => 5_000).watch((signal) => signals.push(signal));
    window.dispatchEvent(new Event('pagehide'));
    expect(signals).toEqual([{ type: 'page.changed', now: 5_000, visible: false, cause: 'pagehide' }]);
    stop();
    window.dispatchEvent(new Event('pagehide'));
    expect(signals).toHaveLength(1);
  });
});
