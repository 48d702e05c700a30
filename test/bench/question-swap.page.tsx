/**
 * The question-swap bench's page, run in Chromium by question-swap.bench.ts (built by
 * question-swap.vite.config.ts). It mounts one side, the one its query names (`?side=plain%20React`),
 * so no other side's timers or work fall into its time (the bench opens one page per side): the Gradus app (question-swap.gradus.tsx: the kiosk with the real machines, the
 * router, the shell, the connected exam screen, Lingui, localStorage, the IndexedDB outbox and
 * exam cache, the browser terminal's ticks), the Gradus exam screen alone, and plain React
 * (question-swap.plain.tsx). `window.swapBench` times its swaps:
 * - `commit`: from the press (Next or Previous, clicked in the page) until React has committed,
 *   the microtasks queued meanwhile have run and the browser has worked out styles and layout
 *   of what changed (forced at the end): the work the swap puts before its frame;
 * - `frame`: from the press until the next frame is painted and the task after it ran.
 * Before each press the page waits for a frame and the task after it, so one swap's after-paint
 * work (the heading's focus) never falls into the next swap's time. The marks `swap-pressed` and
 * `swap-laid-out` (User Timing) let a performance trace find each swap's `commit` span.
 */
import '../../src/styles/tokens.css';
import '../../src/styles/base.css';
import type { Question } from '../../contract/exam.ts';
import { gradusSwap, screenSwap } from './question-swap.gradus.tsx';
import { plainSwap } from './question-swap.plain.tsx';
import type { SwapUnderTest } from './question-swap.mount.tsx';

/** Three single-choice questions of four choices, as a vocabulary exam has them. */
const questions: Question[] = [
  ['A baby dog is a…', ['puppy', 'kitten', 'calf', 'foal']],
  ['Which word means "big"?', ['large', 'small', 'quick', 'quiet']],
  ['Which is a colour?', ['blue', 'run', 'under', 'seven']],
].map(([prompt, labels], i) => ({
  id: 101 + i,
  number: i + 1,
  type: 'single_choice' as const,
  prompt: prompt as string,
  choices: (labels as string[]).map((label, c) => ({ id: 'abcd'[c]!, label })),
}));

export const sideNames = ['Gradus app', 'Gradus screen', 'plain React'] as const;
export type SideName = (typeof sideNames)[number];
export interface SwapTimes {
  commit: number[];
  frame: number[];
  /** Press -> the swap's click returned (the click, the machine, React's render and commit: flushSync). */
  sync: number[];
  /** Of `sync`, the time in the machines' `send` (the exam's and its position child's) (the app side; 0 elsewhere). */
  machine: number[];
}
export interface SwapBench {
  markup(): string;
  /** One swap, untimed (the markup check steps through). */
  swap(): Promise<void>;
  run(count: number): Promise<SwapTimes>;
}

const nextTask = () =>
  new Promise<void>((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(0);
  });
const afterFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

const mounts: Record<SideName, (questions: Question[]) => Promise<SwapUnderTest>> = {
  'Gradus app': gradusSwap,
  'Gradus screen': screenSwap,
  'plain React': plainSwap,
};

async function start(name: SideName): Promise<SwapBench> {
  const side = await mounts[name](questions);
  return {
    markup: () => side.markup(),
    async swap() {
      side.swap();
      await afterFrame();
    },
    async run(count) {
      const times: SwapTimes = { commit: [], frame: [], sync: [], machine: [] };
      for (let i = 0; i < count; i++) {
        await afterFrame();
        side.machineTime?.();
        const pressed = performance.now();
        performance.mark('swap-pressed');
        side.swap();
        times.sync.push(performance.now() - pressed);
        times.machine.push(side.machineTime?.() ?? 0);
        await nextTask();
        document.body.getBoundingClientRect();
        performance.mark('swap-laid-out');
        times.commit.push(performance.now() - pressed);
        await afterFrame();
        times.frame.push(performance.now() - pressed);
      }
      return times;
    },
  };
}

declare global {
  interface Window {
    swapBench: Promise<SwapBench>;
  }
}
const name = new URLSearchParams(location.search).get('side') as SideName;
if (!sideNames.includes(name)) throw new Error(`?side= names none of ${sideNames.join(', ')}`);
window.swapBench = start(name);
