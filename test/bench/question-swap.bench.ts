/**
 * The question swap, measured in Chromium at 4× CPU throttle (`npm run bench -- test/bench/question-swap.bench.ts`):
 * pressing Next (or Previous) on the exam screen until the other question is
 * committed and laid out, side by side in one browser:
 * - Gradus app: the real app as src/main.tsx boots it (the kiosk, session and exam machines, the
 *   router, the shell, the connected exam screen, Lingui, localStorage where the stored session
 *   keeps the question on screen for a reload, the IndexedDB outbox and exam cache, the clock);
 * - Gradus screen: the exam screen alone (src/screens/exam/exam.tsx with Lingui), its index in
 *   useState: the view's share;
 * - plain React: the same markup with useState and no libraries (question-swap.plain.tsx).
 *
 * How: the page (question-swap.page.html/.tsx) is built from the sources as they are now with
 * question-swap.vite.config.ts (React's production build, as the browser runs it; never dist/,
 * which may be stale), served from a temporary directory on 127.0.0.1, and opened in Debian's
 * Chromium (playwright-core, as the end-to-end tests do), one page per side (so no side's timers
 * run in another's time), each with the CPU slowed 4× (DevTools' Emulation.setCPUThrottlingRate).
 * All three sides show the same markup, checked before anything is timed. Rounds rotate which
 * side runs first; per round each side swaps BENCH_SWAPS times, the sides taking turns swap by swap.
 * Printed per round: the mean and p50 of `commit` (press -> committed, microtasks run, styles
 * and layout worked out: the work before the swap's frame) and the ratio to plain React, and
 * their medians over the rounds (goal ≤ 1.2); `frame` (press -> next frame painted) beside it.
 * Then where the time goes, over every round: the click itself (synchronous: the machine, React's
 * render and commit), on the app side how much of it is the machines' `send` (the exam's position child's, where a swap goes) (XState's
 * transition and what observes it), and the rest of the span (microtasks, a task or frame that
 * comes first, the forced layout).
 *
 * Then, because wall time on a shared machine swings with other load, one traced run per side
 * gives the main thread's CPU time (thread time) of the same span, and its ratios.
 *
 * BENCH_PROFILE=1 also records a CPU profile (V8's sampling profiler through DevTools, as the
 * performance panel records it) of BENCH_SWAPS swaps per side and prints each side's top costs by
 * self time; BENCH_TRACE=<file> writes a Chromium performance trace of one round (open it in the
 * DevTools performance panel). BENCH_ROUNDS (9), BENCH_SWAPS (60), BENCH_THROTTLE (4) tune it.
 * Never asserted on time.
 */
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type CDPSession, type Page } from 'playwright-core';
import { test } from 'vitest';
import { findChromium } from '../../scripts/lib/chromium.ts';
import { localBin, spawnNode, waitForExit } from '../../scripts/lib/process.ts';
import { chromiumFlags } from '../helpers/e2e-browser.ts';
import type { SideName, SwapBench, SwapTimes } from './question-swap.page.tsx';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const SWAPS = Number(process.env.BENCH_SWAPS ?? 60);
const THROTTLE = Number(process.env.BENCH_THROTTLE ?? 4);
const GOAL = 1.2;
/** Swaps a side makes before the next side's turn. */
const CHUNK = 1;
const names: SideName[] = ['Gradus app', 'Gradus screen', 'plain React'];

/** Markup without what differs by nature: React's generated ids, and the second the timer shows. */
function comparable(html: string): string {
  return html.replace(/_r_[0-9a-z]+_/g, 'ID').replace(/>\d\d:\d\d</g, '>MM:SS<');
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/** Builds the bench page into a new temporary directory. */
async function buildPage(): Promise<string> {
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'gradus-question-swap-'));
  const child = spawnNode(localBin('vite'), ['build', '--config', path.join('test', 'bench', 'question-swap.vite.config.ts')], {
    // NODE_ENV: React's production build (the test runner's own is `test`, which builds React's development one).
    env: { ...process.env, NODE_ENV: 'production', BENCH_OUT_DIR: outDir },
  });
  const exit = await waitForExit(child);
  if (exit.code !== 0) throw new Error(`building the bench page failed (exit ${exit.code})`);
  return outDir;
}

const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

/** Serves `dir` on 127.0.0.1 (a secure context: crypto.randomUUID, IndexedDB). */
async function serve(dir: string) {
  const server = createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    const file = path.join(dir, path.normalize(pathname === '/' ? '/test/bench/question-swap.page.html' : pathname));
    if (!file.startsWith(dir)) return void response.writeHead(403).end();
    const stream = createReadStream(file);
    stream.on('open', () => response.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' }));
    stream.on('error', () => response.writeHead(404).end());
    stream.pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
}

function run(page: Page, count: number): Promise<SwapTimes> {
  return page.evaluate((n) => window.swapBench.then((b) => b.run(n)), count);
}
const markupOf = (page: Page) => page.evaluate(() => window.swapBench.then((b) => b.markup()));
const swapOnce = (page: Page) => page.evaluate(() => window.swapBench.then((b: SwapBench) => b.swap()));

type TraceEvent = { name: string; cat: string; ph: string; ts: number; dur?: number; tdur?: number; pid: number; tid: number; args?: { name?: string } };
const traceCategories = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'toplevel'];

/**
 * The main thread's CPU time (thread time, not wall time) of each swap's `commit` span: every
 * task of the page's main thread that overlaps the span between the marks `swap-pressed` and
 * `swap-laid-out` (question-swap.page.tsx), counted whole. Time the thread waited for the CPU
 * (another process's load, the 4× throttle's pauses) is not in it, so it holds still on a busy
 * machine; the throttle scales every side's time alike, so its ratios are those at 4×.
 */
async function cpuPerSwap(page: Page, count: number): Promise<number[]> {
  const browser = page.context().browser()!;
  await browser.startTracing(page, { categories: traceCategories, screenshots: false });
  await run(page, count);
  const { traceEvents } = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
  const pressed = traceEvents.filter((e) => e.name === 'swap-pressed' && e.cat.includes('blink.user_timing'));
  const laidOut = traceEvents.filter((e) => e.name === 'swap-laid-out' && e.cat.includes('blink.user_timing'));
  const pid = pressed[0]?.pid;
  const main = traceEvents.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === pid && e.args?.name === 'CrRendererMain')?.tid;
  if (pid === undefined || main === undefined || pressed.length !== count || laidOut.length !== count) {
    throw new Error(`the trace has ${pressed.length}/${laidOut.length} swap marks of ${count}, main thread ${main}`);
  }
  const tasks = traceEvents.filter((e) => e.pid === pid && e.tid === main && e.ph === 'X' && e.name === 'RunTask' && e.tdur !== undefined);
  pressed.sort((a, b) => a.ts - b.ts);
  laidOut.sort((a, b) => a.ts - b.ts);
  return pressed.map((start, i) => {
    const end = laidOut[i]!.ts;
    const overlapping = tasks.filter((task) => task.ts <= end && task.ts + (task.dur ?? 0) >= start.ts);
    return overlapping.reduce((sum, task) => sum + task.tdur!, 0) / 1000;
  });
}

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };

/** A side's top costs by self time, from a DevTools CPU profile of `count` swaps. */
async function profile(cdp: CDPSession, page: Page, name: SideName, count: number): Promise<string[]> {
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  await run(page, count);
  const { profile: cpu } = (await cdp.send('Profiler.stop')) as unknown as {
    profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  };
  const byId = new Map(cpu.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  cpu.samples.forEach((id, i) => {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === '(idle)') return;
    const where = frame.url ? ` ${path.basename(new URL(frame.url).pathname)}:${frame.lineNumber + 1}` : '';
    const key = `${frame.functionName || '(anonymous)'}${where}`;
    self.set(key, (self.get(key) ?? 0) + (cpu.timeDeltas[i] ?? 0) / 1000);
  });
  // Total time: each sample counts for every function on its stack (once per function).
  const parent = new Map<number, number>();
  for (const node of cpu.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const keyOf = (frame: ProfileNode['callFrame']) =>
    `${frame.functionName || '(anonymous)'}${frame.url ? ` ${path.basename(new URL(frame.url).pathname)}:${frame.lineNumber + 1}` : ''}`;
  const inclusive = new Map<string, number>();
  cpu.samples.forEach((id, i) => {
    if (byId.get(id)!.callFrame.functionName === '(idle)') return;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const key = keyOf(byId.get(at)!.callFrame);
      if (key === '(root)' || seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + (cpu.timeDeltas[i] ?? 0) / 1000);
    }
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const top = (times: Map<string, number>, n: number) =>
    [...times.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([key, ms]) => `  ${(ms / count).toFixed(2)} ms  ${((100 * ms) / total).toFixed(1)}%  ${key}`);
  return [
    `${name}: ${(total / count).toFixed(2)} ms busy per swap (sampled, idle left out); top self time per swap:`,
    ...top(self, 15),
    `${name}: top total time (with what it called) per swap:`,
    ...top(inclusive, 120),
  ];
}

test('question swap in Chromium at 4× CPU: Gradus beside plain React', { timeout: 30 * 60_000 }, async () => {
  const found = findChromium();
  if ('error' in found) throw new Error(found.error);
  const outDir = await buildPage();
  const server = await serve(outDir);
  const browser = await chromium.launch({ executablePath: found.path, args: chromiumFlags });
  try {
    const errors: string[] = [];
    const pages = {} as Record<SideName, Page>;
    const cdps = {} as Record<SideName, CDPSession>;
    for (const name of names) {
      const page = await browser.newPage({ viewport: { width: 1024, height: 768 } });
      page.on('pageerror', (error) => errors.push(`${name}: ${error.message}`));
      await page.goto(`${server.url}?side=${encodeURIComponent(name)}`);
      await page.evaluate(() => window.swapBench.then(() => undefined));
      pages[name] = page;
    }
    if (errors.length) throw new Error(`the bench page failed: ${errors.join('\n')}`);

    for (const step of ['question 1', 'question 2']) {
      const plain = await markupOf(pages['plain React']);
      for (const name of names) {
        const markup = await markupOf(pages[name]);
        if (comparable(markup) !== comparable(plain)) throw new Error(`${name}: not the same markup as plain React on ${step}:\n${markup}\n${plain}`);
      }
      for (const name of names) await swapOnce(pages[name]);
    }

    for (const name of names) {
      cdps[name] = await pages[name].context().newCDPSession(pages[name]);
      await cdps[name].send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
      await run(pages[name], 10); // warm-up: JIT, IndexedDB opened
    }

    const rows: string[] = [];
    /** Every round's swaps per side, for where the time goes. */
    const all = Object.fromEntries(names.map((name) => [name, { commit: [], frame: [], sync: [], machine: [] }])) as unknown as Record<SideName, SwapTimes>;
    const ratios: Record<'app' | 'screen' | 'appP50' | 'screenP50', number[]> = { app: [], screen: [], appP50: [], screenP50: [] };
    const trace = process.env.BENCH_TRACE;
    for (let round = 1; round <= ROUNDS; round++) {
      const order = names.map((_, i) => names[(i + round) % names.length]!);
      if (trace && round === 1) await browser.startTracing(undefined, { path: path.resolve(trace), screenshots: false });
      // Interleaved a few swaps at a time, so load from elsewhere on the machine falls on every side alike.
      const times = Object.fromEntries(names.map((name) => [name, { commit: [], frame: [], sync: [], machine: [] }])) as unknown as Record<SideName, SwapTimes>;
      for (let done = 0; done < SWAPS; done += CHUNK) {
        for (const name of order) {
          const chunk = await run(pages[name], Math.min(CHUNK, SWAPS - done));
          times[name].commit.push(...chunk.commit);
          times[name].frame.push(...chunk.frame);
          times[name].sync.push(...chunk.sync);
          times[name].machine.push(...chunk.machine);
          all[name].commit.push(...chunk.commit);
          all[name].sync.push(...chunk.sync);
          all[name].machine.push(...chunk.machine);
        }
      }
      if (trace && round === 1) await browser.stopTracing();
      const [app, screen, plain] = names.map((name) => times[name]);
      const cell = (t: SwapTimes) =>
        `${mean(t.commit).toFixed(2)} (p50 ${median(t.commit).toFixed(2)}; frame ${median(t.frame).toFixed(1)})`;
      const ratio = (t: SwapTimes) => mean(t.commit) / mean(plain!.commit);
      const ratioP50 = (t: SwapTimes) => median(t.commit) / median(plain!.commit);
      ratios.app.push(ratio(app!));
      ratios.screen.push(ratio(screen!));
      ratios.appP50.push(ratioP50(app!));
      ratios.screenP50.push(ratioP50(screen!));
      rows.push(
        `| ${round} | ${cell(app!)} | ${cell(screen!)} | ${cell(plain!)} | ${ratio(app!).toFixed(2)} (p50 ${ratioP50(app!).toFixed(2)}) | ` +
          `${ratio(screen!).toFixed(2)} (p50 ${ratioP50(screen!).toFixed(2)}) |`,
      );
    }
    const verdict = (r: number) => `${r.toFixed(2)} (goal ≤ ${GOAL}: ${r <= GOAL ? 'goal met' : 'above goal'})`;
    const lines = [
      '',
      `question swap (${found.version}, CPU throttled ${THROTTLE}×, ${ROUNDS} rounds of ${SWAPS} swaps a side, order rotated): ms per swap, press -> committed and laid out`,
      '| round | Gradus app | Gradus screen | plain React | app / plain | screen / plain |',
      '|---|---|---|---|---|---|',
      ...rows,
      `median ratio of means, Gradus app to plain React: ${verdict(median(ratios.app))}; of p50s: ${verdict(median(ratios.appP50))}`,
      `median ratio of means, Gradus screen to plain React: ${verdict(median(ratios.screen))}; of p50s: ${verdict(median(ratios.screenP50))}`,
    ];
    if (trace) lines.push(`performance trace of round 1: ${path.resolve(trace)}`);
    // Where the time goes: the swap's click (the machine and React, synchronous), then the rest of
    // the span (microtasks, any task or frame that comes first, the forced layout).
    const phase = (name: SideName) => {
      const t = all[name];
      const rest = mean(t.commit) - mean(t.sync);
      const machine = name === 'Gradus app' ? `; of it the machines' send (the exam's position) ${mean(t.machine).toFixed(2)} (p50 ${median(t.machine).toFixed(2)})` : '';
      return `| ${name} | ${mean(t.sync).toFixed(2)} (p50 ${median(t.sync).toFixed(2)})${machine} | ${rest.toFixed(2)} |`;
    };
    lines.push(
      `where the time goes (ms per swap, every round): the click (the machine, React's render and commit) and the rest up to layout:`,
      '| side | click | rest |',
      '|---|---|---|',
      ...names.map(phase),
    );

    // CPU time: one traced run of SWAPS swaps per side (tracing is one page at a time).
    const cpu = {} as Record<SideName, number[]>;
    for (const name of names) cpu[name] = await cpuPerSwap(pages[name], SWAPS);
    const cpuCell = (name: SideName) => `${mean(cpu[name]).toFixed(2)} (p50 ${median(cpu[name]).toFixed(2)})`;
    const cpuRatio = (name: SideName) =>
      `${(mean(cpu[name]) / mean(cpu['plain React'])).toFixed(2)} (p50 ${(median(cpu[name]) / median(cpu['plain React'])).toFixed(2)})`;
    lines.push(
      `main-thread CPU time of the same span (trace thread time, ${SWAPS} swaps a side; another process's load and the throttle's pauses left out), ms per swap:`,
      `| Gradus app | Gradus screen | plain React | app / plain | screen / plain |`,
      `|---|---|---|---|---|`,
      `| ${cpuCell('Gradus app')} | ${cpuCell('Gradus screen')} | ${cpuCell('plain React')} | ${cpuRatio('Gradus app')} | ${cpuRatio('Gradus screen')} |`,
    );
    if (process.env.BENCH_PROFILE) {
      for (const name of names) {
        await cdps[name].send('Profiler.enable');
        lines.push(...(await profile(cdps[name], pages[name], name, SWAPS)));
      }
    }
    if (errors.length) throw new Error(`the bench page failed: ${errors.join('\n')}`);
    console.log(lines.join('\n'));
  } finally {
    await browser.close();
    server.close();
    rmSync(outDir, { recursive: true, force: true });
  }
});
