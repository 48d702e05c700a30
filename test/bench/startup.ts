/**
 * Startup time and memory at rest of the real server (`node server/main.ts`), as `npm start`
 * runs it after the build. Not a test and not part of `npm test`:
 *
 *   npm exec -- node test/bench/startup.ts            # PGlite: fresh, then existing data
 *   ROUNDS=3 npm exec -- node test/bench/startup.ts   # more rounds (median printed)
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm exec -- node test/bench/startup.ts
 *
 * Each round starts the server on a free port with its data in a new temporary directory
 * (PGlite), waits for GET /api/health, lets it rest REST_MS (default 10 s), reads the resident
 * memory of the server's processes (VmRSS from /proc, every worker of a cluster added up), and
 * stops it with SIGTERM; then starts it again on the same data ("existing"). Time is from spawn
 * to the first health answer: the process's imports, the database opened and migrated, the
 * demo seed, and the listener. Beside the wall time it prints the CPU time the server used
 * until then (user + system, all its threads, from /proc): on a machine shared with other
 * work the wall time says more about the neighbours, the CPU time does not. Needs a built
 * client (dist/), like `npm start`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');
const rounds = Number(process.env.ROUNDS ?? 1);
const restMs = Number(process.env.REST_MS ?? 10_000);

type Sample = { startMs: number; cpuS: number; rssMb: number; processes: number };

/** User + system CPU seconds of one process so far (all threads). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The pids of `pid` and its descendants (a cluster's workers). */
function family(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return [pid, ...children.flatMap(family)];
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

async function startOnce(dataDir: string): Promise<Sample> {
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, ['server/main.ts'], {
    cwd: root,
    // The demo seed is part of what is measured, on PostgreSQL too.
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'error', GRADUS_DEMO: 'on' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    let url: string | undefined;
    while (url === undefined) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output}`);
      url = /Gradus is running at (http:\/\/\S+)/.exec(output)?.[1];
      if (url === undefined) await new Promise((r) => setTimeout(r, 20));
    }
    for (;;) {
      try {
        if ((await fetch(`${url}/api/health`)).ok) break;
      } catch {
        // not yet
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    const startMs = performance.now() - started;
    const cpuS = family(child.pid!).reduce((sum, pid) => sum + cpuSeconds(pid), 0);
    await new Promise((r) => setTimeout(r, restMs));
    const pids = family(child.pid!);
    const rss = pids.reduce((sum, pid) => sum + rssMb(pid), 0);
    return { startMs, cpuS, rssMb: rss, processes: pids.length };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const fresh: Sample[] = [];
const existing: Sample[] = [];
for (let round = 0; round < rounds; round++) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gradus-startup-'));
  try {
    fresh.push(await startOnce(dataDir));
    existing.push(await startOnce(dataDir));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
const line = (name: string, samples: Sample[]) =>
  `${name.padEnd(9)} start ${(median(samples.map((s) => s.startMs)) / 1000).toFixed(2)} s (cpu ${median(samples.map((s) => s.cpuS)).toFixed(2)} s)   ` +
  `rss at rest ${median(samples.map((s) => s.rssMb)).toFixed(0)} MB   (${samples[0]!.processes} process(es); ` +
  `starts ${samples.map((s) => (s.startMs / 1000).toFixed(2)).join(', ')} s)`;
console.log(`server startup, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ${rounds} round(s), rest ${restMs} ms, load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
console.log(line('fresh', fresh));
console.log(line('existing', existing));
