// @vitest-environment jsdom
/**
 * The question swap, measured (`npm run bench`; issue 12, item 5): pressing Next (or Previous) on
 * the exam screen until React has committed the other question, side by side in one run:
 * - Gradus app: the real app as src/main.tsx boots it (the kiosk, session and exam machines, the
 *   router, the shell, the connected exam screen, Lingui, this page's localStorage where the
 *   question on screen is kept for a reload, the IndexedDB exam cache);
 * - Gradus screen: the exam screen alone (src/screens/exam/exam.tsx with Lingui), its index in
 *   useState: the view's share;
 * - plain React: the same markup with useState and no libraries (question-swap.plain.tsx).
 * All three show the same markup, checked before anything is timed. Rounds rotate which side runs
 * first; the ratios to plain React's swap time, of the means and of the p50s (the p50 shrugs off
 * the pauses of a shared machine), are printed per round, with their medians (goal ≤ 1.2). React runs its production build, as in the browser. jsdom has no style,
 * layout or paint, which in a browser cost the same on every side: this measures the JavaScript
 * of a swap (machines, React, formatting, storage, jsdom's DOM calls) and so reads higher than a
 * browser's ratio would. Never asserted on time.
 */
import { test, vi } from 'vitest';
import type { Question } from '../../contract/exam.ts';

// React's production build, as the browser runs it (the development build's checks would be most
// of what is measured): chosen before React loads, and the compiled JSX (development calls,
// `jsxDEV`, which the production runtime lacks) sent to the production `jsx`.
process.env.NODE_ENV = 'production';
vi.mock('react/jsx-dev-runtime', async () => {
  const runtime = await import('react/jsx-runtime');
  return { Fragment: runtime.Fragment, jsxDEV: (type: never, props: never, key: never) => runtime.jsx(type, props, key) };
});
const { gradusSwap, screenSwap } = await import('./question-swap.gradus.tsx');
const { plainSwap } = await import('./question-swap.plain.tsx');

const ROUNDS = 5;
/** Each side runs this long per round (ms). */
const ROUND_MS = 1_000;
const GOAL = 1.2;

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

/** Markup without what differs by nature: React's generated ids, and the second the timer shows. */
function comparable(html: string): string {
  return html.replace(/_r_[0-9a-z]+_/g, 'ID').replace(/>\d\d:\d\d</g, '>MM:SS<');
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

test('question swap: Gradus beside plain React', async ({ bench }) => {
  window.scrollTo = (() => {}) as typeof window.scrollTo;
  const sides = {
    'Gradus app': await gradusSwap(questions),
    'Gradus screen': await screenSwap(questions),
    'plain React': await plainSwap(questions),
  };
  const names = Object.keys(sides) as Array<keyof typeof sides>;
  try {
    for (const step of ['question 1', 'question 2']) {
      const plain = comparable(sides['plain React'].markup());
      for (const name of names) {
        const markup = comparable(sides[name].markup());
        if (markup !== plain) throw new Error(`${name}: not the same markup as plain React on ${step}:\n${markup}\n${plain}`);
      }
      for (const name of names) sides[name].swap();
    }

    const rows: string[] = [];
    const ratios: Record<'app' | 'screen' | 'appP50' | 'screenP50', number[]> = { app: [], screen: [], appP50: [], screenP50: [] };
    for (let round = 1; round <= ROUNDS; round++) {
      const order = names.map((_, i) => names[(i + round) % names.length]!);
      const results = await bench.compare(
        ...order.map((name) => bench(`${name}, round ${round}`, sides[name].swap)),
        { time: ROUND_MS, warmupTime: 200 },
      );
      const mean = (name: (typeof names)[number]) => results.get(`${name}, round ${round}`).latency;
      const [app, screen, plain] = [mean('Gradus app'), mean('Gradus screen'), mean('plain React')];
      ratios.app.push(app.mean / plain.mean);
      ratios.screen.push(screen.mean / plain.mean);
      ratios.appP50.push(app.p50 / plain.p50);
      ratios.screenP50.push(screen.p50 / plain.p50);
      const cell = (l: typeof app) => `${l.mean.toFixed(3)} (p50 ${l.p50.toFixed(3)})`;
      rows.push(
        `| ${round} | ${cell(app)} | ${cell(screen)} | ${cell(plain)} | ${(app.mean / plain.mean).toFixed(2)} (p50 ${(app.p50 / plain.p50).toFixed(2)}) | ` +
          `${(screen.mean / plain.mean).toFixed(2)} (p50 ${(screen.p50 / plain.p50).toFixed(2)}) |`,
      );
    }
    const verdict = (ratio: number) => `${ratio.toFixed(2)} (goal ≤ ${GOAL}: ${ratio <= GOAL ? 'goal met' : 'above goal'})`;
    console.log(
      [
        '',
        `question swap (jsdom, React production build, ${ROUNDS} rounds of ${ROUND_MS} ms a side, order rotated): ms per swap`,
        '| round | Gradus app | Gradus screen | plain React | app / plain | screen / plain |',
        '|---|---|---|---|---|---|',
        ...rows,
        `median ratio of means, Gradus app to plain React: ${verdict(median(ratios.app))}; of p50s: ${verdict(median(ratios.appP50))}`,
        `median ratio of means, Gradus screen to plain React: ${verdict(median(ratios.screen))}; of p50s: ${verdict(median(ratios.screenP50))}`,
      ].join('\n'),
    );
  } finally {
    for (const name of names) sides[name].stop();
  }
});
