/**
 * `npm test`: everything, in order, stopping at the first failure.
 *
 *   type-check  tsc -p tsconfig.json --noEmit                        ┐ side by side: each
 *   lint        eslint .                                             │ is mostly one core,
 *   catalogs    scripts/check-catalogs.ts (every message translated) │ their output is shown
 *   build       vite build (the production build)                    ┘ whole as each ends
 *   bundle      scripts/check-bundle.ts (the first screen's JS, gzip, within its budget)
 *   vitest      vitest run (machines, model-based, views, API; two files at a time at least)
 *   e2e         scripts/e2e.ts (Chromium against the real servers serving that build, two files
 *               at a time, each against its own server)
 *
 * Vitest and e2e run one after the other: side by side on 2 cores, each slowed the other so much
 * that the pair took longer than in turn (Vitest 1,463 s beside e2e's 1,004 s, against about
 * 630 s alone), and Vitest came near its step's time-out.
 *
 * Every tool runs from node_modules/.bin on the project's Node 24, with its output streamed.
 * Each step's time is printed as the step ends. At the end a summary: one line per step with
 * its time, the model-coverage lines the machine tests printed, the slowest test files (Vitest
 * and end-to-end together, whole-file times from scripts/lib/file-times-reporter.ts), and a
 * closing line `N passed, N failed` (read from the JSON reports). Exit code 0 only when every
 * step passed.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { buildCommands } from './lib/build.ts';
import type { FileTime } from './lib/file-times-reporter.ts';
import { localBin, projectEnv, root, seconds, spawnNode, waitForExit } from './lib/process.ts';

type Counts = { passed: number; failed: number };
type Command = { entry: string; args: string[]; label: string; env?: Record<string, string | undefined> };
type Step = {
  name: string;
  commands: Command[];
  timeoutMinutes: number;
  /** Where the step's Vitest JSON report goes, for the test counts. */
  report?: string;
  /** Where the step's per-file times go (VITEST_FILE_TIMES), for the slowest files. */
  fileTimes?: string;
  /** Steps next to each other with the same group run at the same time (output kept until each ends). */
  group?: string;
};

const resultsDir = path.join(root, 'test-results');
const unitReport = path.join(resultsDir, 'unit.json');
const e2eReport = path.join(resultsDir, 'e2e.json');
const unitFileTimes = path.join(resultsDir, 'unit-files.json');
const e2eFileTimes = path.join(resultsDir, 'e2e-files.json');
const fileTimesReporter = '--reporter=./scripts/lib/file-times-reporter.ts';
/**
 * Vitest's own default is one worker fewer than the cores, which on a 2-core machine is a
 * single file at a time while the second core idles (the main process has little to do once
 * the files are transformed): at least two.
 */
const vitestWorkers = Math.max(2, availableParallelism() - 1);
/** How many of the slowest test files the summary lists. */
const SLOWEST_FILES = 15;

const bin = (name: string, args: string[]): Command => ({ entry: localBin(name), args, label: `${name} ${args.join(' ')}` });
const script = (file: string, env: Record<string, string> = {}): Command => ({ entry: path.join(root, file), args: [], label: `node ${file}`, env });

const steps: Step[] = [
  { name: 'type-check', commands: [bin('tsc', ['-p', 'tsconfig.json', '--noEmit'])], timeoutMinutes: 12, group: 'checks' },
  { name: 'lint', commands: [bin('eslint', ['.'])], timeoutMinutes: 12, group: 'checks' },
  { name: 'catalogs', commands: [script('scripts/check-catalogs.ts')], timeoutMinutes: 6, group: 'checks' },
  { name: 'build', commands: buildCommands.map((c) => bin(c.bin, c.args)), timeoutMinutes: 12, group: 'checks' },
  { name: 'bundle', commands: [script('scripts/check-bundle.ts')], timeoutMinutes: 2 },
  {
    name: 'vitest',
    commands: [
      {
        ...bin('vitest', ['run', '--reporter=default', '--reporter=json', '--outputFile.json=test-results/unit.json', fileTimesReporter, `--maxWorkers=${vitestWorkers}`]),
        env: { VITEST_FILE_TIMES: path.relative(root, unitFileTimes) },
      },
    ],
    timeoutMinutes: 25,
    report: unitReport,
    fileTimes: unitFileTimes,
  },
  {
    name: 'e2e',
    commands: [script('scripts/e2e.ts', { E2E_RESULTS_FILE: path.relative(root, e2eReport), VITEST_FILE_TIMES: path.relative(root, e2eFileTimes) })],
    timeoutMinutes: 25,
    report: e2eReport,
    fileTimes: e2eFileTimes,
  },
];

type Outcome = { step: Step; ok: boolean; ms: number; counts?: Counts; problem?: string };
const outcomes: Outcome[] = [];
const coverageLines = new Set<string>();
let interrupted = false;
const running = new Set<ReturnType<typeof spawnNode>>();

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    interrupted = true;
    // On Ctrl-C the terminal already sent SIGINT to the whole process group.
    if (signal === 'SIGTERM') for (const child of running) child.kill('SIGTERM');
  });
}

mkdirSync(resultsDir, { recursive: true });
const started = Date.now();

for (let next = 0; next < steps.length; ) {
  const first = steps[next]!;
  let end = next + 1;
  while (first.group !== undefined && end < steps.length && steps[end]!.group === first.group) end++;
  const batch = steps.slice(next, end);
  next = end;
  if (batch.length > 1) console.log(`\n━━ ${batch.map((s) => s.name).join(', ')}: side by side, each shown as it ends`);
  const results = await Promise.all(batch.map((step) => runStep(step, batch.length > 1)));
  outcomes.push(...results);
  if (results.some((o) => !o.ok)) break;
}

printSummary();
process.exit(outcomes.every((o) => o.ok) && outcomes.length === steps.length ? 0 : interrupted ? 130 : 1);

/**
 * Runs a step's commands in order and prints its time as it ends. `together`: other steps run
 * at the same time, so its output is kept and printed whole, under its heading, when it ends.
 */
async function runStep(step: Step, together: boolean): Promise<Outcome> {
  const held: string[] = [];
  const say = (text: string) => (together ? held.push(text) : process.stdout.write(text));
  say(`\n━━ ${step.name} ${'━'.repeat(Math.max(0, 60 - step.name.length))}\n`);
  if (step.report) rmSync(step.report, { force: true });
  if (step.fileTimes) rmSync(step.fileTimes, { force: true });
  const stepStarted = Date.now();
  let problem: string | undefined;
  const output: string[] = [];
  for (const command of step.commands) {
    say(`$ ${command.label}\n`);
    problem = await run(command, step, output, together ? held : undefined);
    if (problem) break;
  }
  const counts = step.report ? readCounts(step.report, output.join('')) : undefined;
  if (!problem && counts && counts.failed > 0) problem = `${counts.failed} test(s) failed`;
  const ms = Date.now() - stepStarted;
  say(`━━ ${step.name} ${problem ? 'FAILED' : 'done'} in ${seconds(ms)} (${seconds(Date.now() - started)} since the start)\n`);
  if (together) process.stdout.write(held.join(''));
  return { step, ok: !problem, ms, counts, problem };
}

/**
 * Runs one command; resolves to a problem description, or undefined when it succeeded.
 * With `held`, its output (stdout and stderr) goes there instead of to the terminal.
 */
async function run(command: Command, step: Step, output: string[], held?: string[]): Promise<string | undefined> {
  const tee = step.report !== undefined;
  const child = spawnNode(command.entry, command.args, {
    env: projectEnv(command.env),
    stdio: held ? ['ignore', 'pipe', 'pipe'] : tee ? ['inherit', 'pipe', 'inherit'] : 'inherit',
  });
  running.add(child);
  if (held) child.stderr?.on('data', (chunk: Buffer) => held.push(chunk.toString('utf8')));
  let kept = 0;
  child.stdout?.on('data', (chunk: Buffer) => {
    if (held) held.push(chunk.toString('utf8'));
    else process.stdout.write(chunk);
    const text = chunk.toString('utf8');
    for (const line of stripAnsi(text).split('\n')) {
      const coverage = /model coverage [^:\n]+: \d+\/\d+ transitions/.exec(line)?.[0];
      if (coverage) coverageLines.add(coverage);
    }
    if (kept < 2_000_000) {
      output.push(text);
      kept += text.length;
    }
  });
  const timer = setTimeout(() => {
    console.error(`\n${step.name}: still running after ${step.timeoutMinutes} min, stopping it`);
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  }, step.timeoutMinutes * 60_000);
  const exit = await waitForExit(child);
  clearTimeout(timer);
  running.delete(child);
  if (interrupted) return 'interrupted';
  if (exit.code === 0) return undefined;
  return `\`${command.label}\` ${exit.signal ? `was stopped (${exit.signal})` : `exited with code ${exit.code}`}`;
}

/** Passed and failed tests from a Vitest JSON report, else from the printed summary. */
function readCounts(report: string, printed: string): Counts | undefined {
  if (existsSync(report)) {
    try {
      const json = JSON.parse(readFileSync(report, 'utf8')) as {
        numPassedTests: number;
        numFailedTests: number;
        testResults?: Array<{ status: string; assertionResults?: Array<{ status: string }> }>;
      };
      // A file that failed to load has no failed test but did fail: count it as one.
      const brokenFiles = (json.testResults ?? []).filter(
        (file) => file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed'),
      ).length;
      return { passed: json.numPassedTests, failed: json.numFailedTests + brokenFiles };
    } catch {
      // fall through to the printed summary
    }
  }
  const line = stripAnsi(printed).split('\n').reverse().find((l) => /^\s*Tests\s+/.test(l));
  if (!line) return undefined;
  return {
    passed: Number(/(\d+) passed/.exec(line)?.[1] ?? 0),
    failed: Number(/(\d+) failed/.exec(line)?.[1] ?? 0),
  };
}

/** The per-file times a step's Vitest run wrote (scripts/lib/file-times-reporter.ts); none when missing. */
function readFileTimes(file: string): FileTime[] {
  if (!existsSync(file)) return [];
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { files: FileTime[] }).files;
  } catch {
    return [];
  }
}

function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\x1b\[[0-9;]*m/g, '');
}

function printSummary(): void {
  const width = Math.max(...steps.map((s) => s.name.length));
  console.log(`\n━━ summary ${'━'.repeat(53)}`);
  for (const step of steps) {
    const outcome = outcomes.find((o) => o.step === step);
    const name = step.name.padEnd(width);
    if (!outcome) {
      console.log(`  ·  ${name}  not run`);
      continue;
    }
    const counts = outcome.counts ? `  ${outcome.counts.passed} passed, ${outcome.counts.failed} failed` : '';
    console.log(`  ${outcome.ok ? '✓' : '✗'}  ${name}  ${seconds(outcome.ms).padStart(8)}${counts}`);
  }
  for (const line of [...coverageLines].sort()) console.log(`  ${line}`);
  const slowest = steps
    .flatMap((step) => (step.fileTimes ? readFileTimes(step.fileTimes) : []))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, SLOWEST_FILES);
  if (slowest.length > 0) {
    console.log(`  the ${slowest.length} slowest test files (whole file: environment, setup, import, tests and hooks):`);
    for (const file of slowest) {
      console.log(`  ${seconds(file.ms).padStart(8)}  ${file.file}  (import ${seconds(file.collect)}, tests ${seconds(file.tests)})`);
    }
  }
  const failedStep = outcomes.find((o) => !o.ok);
  if (failedStep) console.log(`\nnpm test FAILED at ${failedStep.step.name}: ${failedStep.problem}`);
  else if (outcomes.length === steps.length) console.log(`\nnpm test passed in ${seconds(Date.now() - started)}`);
  const passed = outcomes.reduce((n, o) => n + (o.counts?.passed ?? 0), 0);
  const failed = outcomes.reduce((n, o) => n + (o.counts?.failed ?? 0), 0);
  console.log(`${passed} passed, ${failed} failed`);
}
