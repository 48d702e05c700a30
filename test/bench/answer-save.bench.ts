/**
 * The answer-save path, measured (`npm run bench`), never asserted on time in tests.
 *
 * - server: POST /api/exam/answers over HTTP (autocannon, BENCH_CONNECTIONS keep-alive
 *   connections, default 50) against the real API and, in the same run, its floor: a bare Hono
 *   route that stores the same body with one upsert. On PGlite and, when it answers at
 *   127.0.0.1:5432, on PostgreSQL (a fresh database of test/helpers/db.ts). The four servers
 *   run in a child process (answer-save-servers.ts); rounds are interleaved (the order turns
 *   each round) so load from elsewhere on the machine falls on all of them alike. Prints
 *   saves/s, p50 and p99 per server and the ratio real / floor of each round, and the CPU time
 *   the servers' process spent per save (Node only: PostgreSQL's own work is in its processes),
 *   which load from elsewhere inflates less than the wall time, and on PostgreSQL the CPU its own
 *   processes spent per save (from /proc, when it runs on this machine). Every save must be answered
 *   2xx: anything else fails the run (that is correctness, not speed).
 *   BENCH_ROUNDS (5), BENCH_SECONDS (5), BENCH_CONNECTIONS (50), BENCH_PUPILS (= connections)
 *   tune it.
 * - client: the exam machine taking `answer.given` and the server's acknowledgement (the
 *   work the browser does per answer besides the network), with the exam cache in IndexedDB
 *   (fake-indexeddb) as the browser writes it on every acknowledgement: coalesced now
 *   (src/platform/exam-cache.ts), and beside it the write-every-ack it replaced.
 */
import 'fake-indexeddb/auto';
import { fork } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { openDB } from 'idb';
import { describe, test } from 'vitest';
import { createActor } from 'xstate';
import { examImplementations } from '../../machines/exam/exam.actors.ts';
import { examMachine } from '../../machines/exam/exam.machine.ts';
import type { CachedExam, ExamCachePort } from '../../machines/exam/exam.types.ts';
import { sessionFromLogin } from '../../machines/session/session.machine.ts';
import type { ApiPort } from '../../machines/shared/ports.ts';
import { createIndexedDbExamCache } from '../../src/platform/exam-cache.ts';
import { demoExaminee, demoQuestions } from '../helpers/fake-api.ts';
import { never } from '../helpers/never.ts';
import type { BenchTarget, ServersReady } from './answer-save-servers.ts';
import { postAnswers, type LoadResult } from './load.ts';

/**
 * CPU time (user + system, µs) used so far by the PostgreSQL server's processes on this machine,
 * the backends that have exited included (the postmaster's children's time); undefined where
 * /proc shows none (another OS, or PostgreSQL elsewhere). 100 clock ticks a second, as Linux reports them.
 */
function postgresCpu(): number | undefined {
  let ticks = 0;
  let found = false;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  for (const pid of entries) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    if (!stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).startsWith('postgres')) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime; and for the postmaster (parent not a postgres process) cutime, cstime: its exited children.
    ticks += Number(fields[11]) + Number(fields[12]);
    const parent = Number(fields[1]);
    if (!isPostgres(parent)) ticks += Number(fields[13]) + Number(fields[14]);
    found = true;
  }
  return found ? ticks * 10_000 : undefined;
}

function isPostgres(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).startsWith('postgres');
  } catch {
    return false;
  }
}

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const GOALS = { pglite: 0.9, postgres: 0.8 } as const;

const name = (t: BenchTarget) => `${t.database === 'pglite' ? 'PGlite' : 'PostgreSQL'} ${t.server === 'real' ? 'Gradus' : 'floor '}`;
const range = (xs: number[], digits = 0) => {
  const f = (x: number) => x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return `${f(Math.min(...xs))}–${f(Math.max(...xs))}`;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe('server: save one answer over HTTP, beside its floor', () => {
  test('the real API and the bare floor, PGlite and PostgreSQL, interleaved rounds', { timeout: 60 * 60_000 }, async () => {
    const child = fork(fileURLToPath(new URL('./answer-save-servers.ts', import.meta.url)), [], {
      execArgv: [],
      env: { ...process.env, BENCH_PUPILS: process.env.BENCH_PUPILS ?? String(CONNECTIONS) },
    });
    try {
      const [ready] = (await once(child, 'message')) as [ServersReady];
      type Slot = LoadResult & { cpuPerSave: number; postgresCpuPerSave: number | undefined };
      const results = new Map<BenchTarget, Slot[]>(ready.targets.map((t) => [t, []]));
      const cpu = async () => {
        child.send('cpu');
        const [answer] = (await once(child, 'message')) as [{ cpu: number }];
        return answer.cpu;
      };
      const load = async (target: BenchTarget, seconds: number): Promise<Slot> => {
        const before = await cpu();
        const postgresBefore = target.database === 'postgres' ? postgresCpu() : undefined;
        const result = await postAnswers(target.url, ready.pupils[target.database], { connections: CONNECTIONS, seconds });
        const used = (await cpu()) - before;
        const postgresAfter = postgresBefore === undefined ? undefined : postgresCpu();
        const saves = Math.max(1, result.savesPerSecond * seconds);
        return {
          ...result,
          cpuPerSave: used / saves,
          postgresCpuPerSave: postgresBefore === undefined || postgresAfter === undefined ? undefined : (postgresAfter - postgresBefore) / saves,
        };
      };

      const started = loadavg()[0]!.toFixed(2);
      // Warm-up (JIT, plans, caches): not counted.
      for (const target of ready.targets) await load(target, 2);
      for (let round = 0; round < ROUNDS; round++) {
        const order = ready.targets.map((_, i) => ready.targets[(i + round) % ready.targets.length]!);
        for (const target of order) {
          const result = await load(target, SECONDS);
          results.get(target)!.push(result);
          const failed = Object.keys(result.failures).length > 0 ? ` FAILURES ${JSON.stringify(result.failures)}` : '';
          console.log(
            `round ${round + 1} ${name(target)}: ${result.savesPerSecond.toFixed(0)} saves/s, p50 ${result.p50} ms, ` +
              `p99 ${result.p99} ms, server CPU ${result.cpuPerSave.toFixed(0)} µs/save` +
              `${result.postgresCpuPerSave === undefined ? '' : `, PostgreSQL CPU ${result.postgresCpuPerSave.toFixed(0)} µs/save`}${failed}`,
          );
        }
      }

      const lines = [
        '',
        `answer save over HTTP: ${ROUNDS} interleaved rounds of ${SECONDS} s, ${CONNECTIONS} connections, ` +
          `${availableParallelism()} cores, load average ${started} at the start`,
        '| server | saves/s | p50 ms | p99 ms | ratio to its floor (saves/s, per round) | Node CPU µs/save | floor / Gradus CPU | PostgreSQL CPU µs/save |',
        '|---|---|---|---|---|---|---|---|',
      ];
      for (const database of ['pglite', 'postgres'] as const) {
        const real = ready.targets.find((t) => t.database === database && t.server === 'real');
        const floor = ready.targets.find((t) => t.database === database && t.server === 'floor');
        if (!real || !floor) continue;
        const r = results.get(real)!;
        const f = results.get(floor)!;
        const ratios = r.map((x, i) => x.savesPerSecond / f[i]!.savesPerSecond);
        const cpuRatios = r.map((x, i) => f[i]!.cpuPerSave / x.cpuPerSave);
        const verdict = median(ratios) >= GOALS[database] ? 'goal met' : 'below goal';
        const postgres = (xs: Slot[]) => {
          const known = xs.map((x) => x.postgresCpuPerSave).filter((x): x is number => x !== undefined);
          return known.length === xs.length ? range(known) : '–';
        };
        lines.push(
          `| ${name(real)} | ${range(r.map((x) => x.savesPerSecond))} | ${range(r.map((x) => x.p50))} | ${range(r.map((x) => x.p99))} | ` +
            `${range(ratios, 2)} (median ${median(ratios).toFixed(2)}; goal ≥ ${GOALS[database]}: ${verdict}) | ` +
            `${range(r.map((x) => x.cpuPerSave))} | ${range(cpuRatios, 2)} (median ${median(cpuRatios).toFixed(2)}) | ${postgres(r)} |`,
          `| ${name(floor)} | ${range(f.map((x) => x.savesPerSecond))} | ${range(f.map((x) => x.p50))} | ${range(f.map((x) => x.p99))} | – | ` +
            `${range(f.map((x) => x.cpuPerSave))} | – | ${postgres(f)} |`,
        );
      }
      console.log(lines.join('\n'));

      const failures = [...results].filter(([, rs]) => rs.some((x) => Object.keys(x.failures).length > 0));
      if (failures.length > 0) {
        throw new Error(`saves failed: ${failures.map(([t, rs]) => `${name(t)} ${JSON.stringify(rs.map((x) => x.failures))}`).join('; ')}`);
      }
    } finally {
      child.send('close');
      await once(child, 'exit');
    }
  });
});

describe('client: the exam machine takes an answer and its acknowledgement', () => {
  const now = new Date().toISOString();
  const details = {
    schedule_history_id: 7, examinee_name: 'A', subject: { id: 1, name: 'E' }, level: { id: 1, name: 'L' },
    exam: { id: 1, title: 'E', question_count: 3, time_limit_seconds: 2400 }, status: 6, started_at: now,
    deadline_at: new Date(Date.now() + 2_400_000).toISOString(), server_time: now,
  };

  /** An exam under way; `cache` receives what the kiosk's cacheExam action writes (exam.actors.ts). */
  function answering(cache?: ExamCachePort) {
    const machine = examMachine.provide({
      actors: { loadExamDetails: never(), startExam: never(), loadQuestions: never(), storeAnswer: never(), saveAnswer: never(), flushAnswers: never(), finishExam: never() },
      actions: {
        reportProgress: () => {}, reportCompleted: () => {}, reportFinishing: () => {}, reportMovedAway: () => {}, requestLogout: () => {}, reportUnauthorized: () => {},
        // The kiosk's own action (exam.actors.ts), writing to `cache`.
        ...(cache ? { cacheExam: examImplementations({ api: {} as ApiPort, examCache: cache }).actions.cacheExam } : {}),
      },
    });
    const session = sessionFromLogin({ access_token: 't', examinee: demoExaminee, server_time: now }, randomUUID());
    const actor = createActor(machine, { input: { session } }).start();
    actor.send({ type: 'INIT_TEST' });
    // Loading runs in the retry machine: its output wraps the details.
    actor.send({ type: 'xstate.done.actor.loadExamDetails', output: { ok: true, value: details } } as never);
    actor.send({ type: 'xstate.done.actor.loadQuestions', output: { ok: true, value: {
      questions: demoQuestions, answers: [], unsent: [], deadline_at: details.deadline_at, server_time: now,
    } } } as never);
    return () => {
      actor.send({ type: 'answer.given', questionId: 102, value: 'cold' });
      const key = actor.getSnapshot().context.answers[102]!.key;
      actor.send({ type: 'xstate.done.actor.storeAnswer', output: key } as never);
      if (actor.getSnapshot().context.answers[102]!.status !== 'local') throw new Error('answer not in the outbox');
      actor.send({ type: 'xstate.done.actor.saveAnswer', output: { key, serverTime: now, deadlineAt: details.deadline_at } } as never);
      if (actor.getSnapshot().context.answers[102]!.status !== 'saved') throw new Error('answer not marked saved');
    };
  }

  /** The exam cache as it was before: every put one IndexedDB transaction (read the others, delete them, put). */
  function writeEveryAck(name: string): ExamCachePort {
    const db = openDB(name, 1, { upgrade: (d) => void d.createObjectStore('exams', { keyPath: 'scheduleHistoryId' }) });
    return {
      async put(exam: CachedExam) {
        const tx = (await db).transaction('exams', 'readwrite');
        const others = ((await tx.store.getAll()) as CachedExam[]).filter((kept) => kept.owner !== exam.owner);
        await Promise.all([...others.map((kept) => tx.store.delete(kept.scheduleHistoryId)), tx.store.put(structuredClone(exam)), tx.done]);
      },
      get: async () => null,
      clear: async () => {},
    };
  }

  // The browser gets back to its event loop between acknowledgements (each is a network answer).
  const turn = () => new Promise((resolve) => setImmediate(resolve));

  test('answer.given, written to the outbox, and its acknowledgement', async ({ bench }) => {
    const ack = answering();
    await bench('answer.given then xstate.done.actor.storeAnswer then xstate.done.actor.saveAnswer', ack).run();
  });

  test('the same with the exam cache written on acknowledgement', async ({ bench }) => {
    const coalesced = answering(createIndexedDbExamCache(`bench-cache-${randomUUID()}`));
    const everyAck = answering(writeEveryAck(`bench-cache-${randomUUID()}`));
    await bench('ack + exam cache, coalesced (src/platform/exam-cache.ts)', async () => {
      coalesced();
      await turn();
    }).run();
    await bench('ack + exam cache, one IndexedDB write per ack (before)', async () => {
      everyAck();
      await turn();
    }).run();
  });
});
