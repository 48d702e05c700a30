/**
 * The browser terminal's word between the windows of one sitting (src/platform/terminal.ts), over
 * a real BroadcastChannel (Node's, as the browser's): an answer one window announces, or the clock
 * offset it shares, reaches the others watching the same sitting, never itself, nor a window of
 * another sitting; a message that does not validate is ignored; nothing is heard after stop.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AnswerSavedElsewhere, TerminalSignal } from '../../machines/exam/exam.types.ts';
import { answersChannelName, createBrowserTerminal } from '../../src/platform/terminal.ts';

/** A page without ticks or page events: only the answers of other windows are watched here. */
function quietPage() {
  const target = new EventTarget();
  const win = Object.assign(target, { setInterval: () => 0, clearInterval: () => undefined }) as unknown as Window;
  const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' }) as unknown as Document;
  return createBrowserTerminal(win, doc);
}

const answer: AnswerSavedElsewhere = {
  scheduleHistoryId: 7,
  owner: '0f0e0d0c-0b0a-4908-8706-050403020100',
  questionId: 101,
  value: 'b',
  answeredAt: '2026-11-22T09:05:00.000Z',
  key: '0f0e0d0c-0b0a-4908-8706-000000000009',
};
const sitting = { scheduleHistoryId: 7, owner: answer.owner };

/** Lets the channel deliver (messages arrive in a later task). */
const delivered = () => new Promise((resolve) => setTimeout(resolve, 50));

const stops: Array<() => void> = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

function watching(terminal: ReturnType<typeof quietPage>, watched: { scheduleHistoryId: number; owner: string }) {
  const heard: TerminalSignal[] = [];
  stops.push(terminal.watch((signal) => heard.push(signal), watched));
  return heard;
}

describe('the windows of one sitting', () => {
  it("hear each other's saved answers, never their own, and no other sitting's", async () => {
    const [a, b, other] = [quietPage(), quietPage(), quietPage()];
    const heardByA = watching(a, sitting);
    const heardByB = watching(b, sitting);
    const heardByOther = watching(other, { ...sitting, scheduleHistoryId: 8 });
    a.announce!(answer);
    await delivered();
    expect(heardByB).toEqual([{ type: 'answer.savedElsewhere', answer }]);
    expect(heardByA).toEqual([]);
    expect(heardByOther).toEqual([]);
  });

  it('ignores a message that is not an answer, and hears nothing after stop', async () => {
    const [a, b] = [quietPage(), quietPage()];
    watching(a, sitting);
    const heard: TerminalSignal[] = [];
    const stop = b.watch((signal) => heard.push(signal), sitting);
    const stranger = new BroadcastChannel(answersChannelName(7));
    stranger.postMessage({ ...answer, answeredAt: 'yesterday' });
    stranger.postMessage('hello');
    await delivered();
    expect(heard).toEqual([]);
    stop();
    a.announce!(answer);
    await delivered();
    expect(heard).toEqual([]);
    stranger.close();
  });

  it("hear each other's clock offsets on the same channel; one that does not validate is ignored", async () => {
    const [a, b] = [quietPage(), quietPage()];
    const heardByA = watching(a, sitting);
    const heardByB = watching(b, sitting);
    const clock = { scheduleHistoryId: 7, owner: answer.owner, clockOffsetMs: -1_250 };
    a.shareClock!(clock);
    const stranger = new BroadcastChannel(answersChannelName(7));
    stranger.postMessage({ ...clock, clockOffsetMs: 'soon' });
    stranger.postMessage({ ...clock, clockOffsetMs: Number.POSITIVE_INFINITY });
    await delivered();
    expect(heardByB).toEqual([{ type: 'clock.shared', clock }]);
    expect(heardByA).toEqual([]);
    stranger.close();
  });

  it('a window that watches no sitting still announces, on a channel of its own for the moment', async () => {
    const [a, b] = [quietPage(), quietPage()];
    const heard = watching(b, sitting);
    a.announce!(answer);
    await delivered();
    expect(heard).toEqual([{ type: 'answer.savedElsewhere', answer }]);
  });
});
