/**
 * `npm test`: everything, in order, stopping at the first failure.
 *
 *   type-check  tsc -p tsconfig.json --noEmit
 *   lint        eslint .
 *   catalogs    scripts/check-catalogs.ts (every message translated in en and ja)
 *   vitest      vitest run (machines, model-based, views, API)
 *   build       vite build (the production build)
 *   bundle      scripts/check-bundle.ts (the first screen's JS, gzip, within its budget)
 *   e2e         scripts/e2e.ts (Chromium against the real server serving that build)
 *
 * Every tool runs from node_modules/.bin on the project's Node 24, with its output streamed.
 * Each step's time is printed as the step ends. At the end a summary: one line per step with
 * its time, the model-coverage lines the machine tests printed, the slowest test files (Vitest
 * and end-to-end together, whole-file times from scripts/lib/file-times-reporter.ts), and a
 * closing line `N passed, N failed` (read from the JSON reports). Exit code 0 only when every
 * step passed.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
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
};

const resultsDir = path.join(root, 'test-results');
const unitReport = path.join(resultsDir, 'unit.json');
const e2eReport = path.join(resultsDir, 'e2e.json');
const unitFileTimes = path.join(resultsDir, 'unit-files.json');
const e2eFileTimes = path.join(resultsDir, 'e2e-files.json');
const fileTimesReporter = '--reporter=./scripts/lib/file-times-reporter.ts';
/** How many of the slowest test files the summary lists. */
const SLOWEST_FILES = 15;

const bin = (name: string, args: string[]): Command => ({ entry: localBin(name), args, label: `${name} ${args.join(' ')}` });
const script = (file: string, env: Record<string, string> = {}): Command => ({ entry: path.join(root, file), args: [], label: `node ${file}`, env });

const steps: Step[] = [
  { name: 'type-check', commands: [bin('tsc', ['-p', 'tsconfig.json', '--noEmit'])], timeoutMinutes: 8 },
  { name: 'lint', commands: [bin('eslint', ['.'])], timeoutMinutes: 8 },
  { name: 'catalogs', commands: [script('scripts/check-catalogs.ts')], timeoutMinutes: 4 },
  {
    name: 'vitest',
    commands: [
      {
        ...bin('vitest', ['run', '--reporter=default', '--reporter=json', '--outputFile.json=test-results/unit.json', fileTimesReporter]),
        env: { VITEST_FILE_TIMES: path.relative(root, unitFileTimes) },
      },
    ],
    timeoutMinutes: 25,
    report: unitReport,
    fileTimes: unitFileTimes,
  },
  { name: 'build', commands: buildCommands.map((c) => bin(c.bin, c.args)), timeoutMinutes: 10 },
  { name: 'bundle', commands: [script('scripts/check-bundle.ts')], timeoutMinutes: 2 },
  {
    name: 'e2e',
    commands: [script('scripts/e2e.ts', { E2E_RESULTS_FILE: path.relative(root, e2eReport), VITEST_FILE_TIMES: path.relative(root, e2eFileTimes) })],
    timeoutMinutes: 20,
    report: e2eReport,
    fileTimes: e2eFileTimes,
  },
];

type Outcome = { step: Step; ok: boolean; ms: number; counts?: Counts; problem?: string };
const outcomes: Outcome[] = [];
const coverageLines = new Set<string>();
let interrupted = false;
let current: ReturnType<typeof spawnNode> | undefined;

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    interrupted = true;
    // On Ctrl-C the terminal already sent SIGINT to the whole process group.
    if (signal === 'SIGTERM') current?.kill('SIGTERM');
  });
}

mkdirSync(resultsDir, { recursive: true });
const started = Date.now();

for (const step of steps) {
  console.log(`\n━━ ${step.name} ${'━'.repeat(Math.max(0, 60 - step.name.length))}`);
  if (step.report) rmSync(step.report, { force: true });
  if (step.fileTimes) rmSync(step.fileTimes, { force: true });
  const stepStarted = Date.now();
  let problem: string | undefined;
  const output: string[] = [];
  for (const command of step.commands) {
    console.log(`$ ${command.label}`);
    problem = await run(command, step, output);
    if (problem) break;
  }
  const counts = step.report ? readCounts(step.report, output.join('')) : undefined;
  if (!problem && counts && counts.failed > 0) problem = `${counts.failed} test(s) failed`;
  const ms = Date.now() - stepStarted;
  outcomes.push({ step, ok: !problem, ms, counts, problem });
  console.log(`━━ ${step.name} ${problem ? 'FAILED' : 'done'} in ${seconds(ms)} (${seconds(Date.now() - started)} since the start)`);
  if (problem) break;
}

printSummary();
process.exit(outcomes.every((o) => o.ok) && outcomes.length === steps.length ? 0 : interrupted ? 130 : 1);

/** Runs one command; resolves to a problem description, or undefined when it succeeded. */
async function run(command: Command, step: Step, output: string[]): Promise<string | undefined> {
  const tee = step.report !== undefined;
  const child = spawnNode(command.entry, command.args, {
    env: projectEnv(command.env),
    stdio: tee ? ['inherit', 'pipe', 'inherit'] : 'inherit',
  });
  current = child;
  let kept = 0;
  child.stdout?.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
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
  current = undefined;
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
