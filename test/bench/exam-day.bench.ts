/**
 * Exam day, simulated, by `npm run bench` (never by `npm test`): N pupils
 * sit an exam over HTTP against the real server (`node server/main.ts`, clustered: one API
 * process per core, WEB_CONCURRENCY) on PostgreSQL, each doing what a terminal does:
 *   POST /api/login (login code) -> POST /api/exam/start -> GET /api/exam/questions ->
 *   30 x POST /api/exam/answers (every question once, then ten of them changed) -> POST /api/exam/finish
 * with its own device token, keep-alive connections, CONCURRENCY pupils at a time, no think time
 * (a closed loop: the figures are the service's capacity on this box, with the load generator
 * on the same cores). It reports throughput, p50/p90/p99/max per call, errors by HTTP status
 * and code, and integrity: every acknowledged answer is the row in `answers` (count and value,
 * newest wins), every receipt's count and digest are the server's and match the answers the
 * pupil saw acknowledged, and no pupil is left unfinished. Fails (after printing) on any error
 * or integrity miss.
 *
 * Proctors (EXAM_DAY_PROCTORS, default 50; 0 for none): the pupils sit in as many classrooms,
 * and each proctor (a staff token from the seed) loads its room's roster in full, then polls its changes since the
 * last answer's cursor every ROSTER_POLL_MS (5 s) at its own phase (proctor i starts i/N of the
 * period late), as proctor pages do, for as long as the pupils sit. Beside it, once a second,
 * the floor: the bare query of one polled room's sittings on a connection of its own; in every
 * phase, once a second, the API's floor: GET /api/health through the same processes. Unless
 * EXAM_DAY_BASELINE=0, the same invocation first runs as many pupils in as many other rooms with
 * no proctor polling (the seed holds both sets), so the save's p99 with and without proctors
 * come from one run; the report prints each phase's calls, the roster update's p50/p99 and rows
 * per poll, the floor's, and the load average at each phase's start and end.
 *
 * Environment (all optional):
 *   EXAM_DAY_PUPILS       pupils (default 1000: a few minutes on a 2-core box), per phase
 *   EXAM_DAY_PROCTORS     proctors polling, one room each (default 50; 0: none, one phase)
 *   EXAM_DAY_BASELINE     0: no phase without proctors (default 1); `last`: that phase after the
 *                         one with proctors (each phase meets the tables the one before it grew);
 *                         `interleave`: one phase of both sets of pupils, the proctors polling and
 *                         pausing in turns of EXAM_DAY_WINDOW_S (30) seconds, each call counted
 *                         in the turn it ends in: with and without proctors under the same drift
 *                         of the machine and the tables
 *   EXAM_DAY_VACUUM       auto (default): where the server runs with autovacuum off, the bench
 *                         vacuums and analyzes the busy tables after the warm-up and between
 *                         phases, as autovacuum would have in that time; 0: never
 *   EXAM_DAY_WARMUP       pupils who sit first, in no classroom, unmeasured (default: twice the
 *                         concurrency), so the first measured phase meets warm processes
 *   EXAM_DAY_CONCURRENCY  pupils at the same time (default 48)
 *   EXAM_DAY_WORKERS      API processes (WEB_CONCURRENCY; default: one per core)
 *   EXAM_DAY_DATABASE_URL PostgreSQL to make the scratch database on (default postgres://postgres@127.0.0.1:5432/test);
 *                         the scratch database `gradus_bench_*` is dropped at the end
 *   EXAM_DAY_REPORT       also write the report as JSON to this file
 *
 *   npm run bench -- test/bench/exam-day.bench.ts
 *   EXAM_DAY_PUPILS=10000 EXAM_DAY_CONCURRENCY=96 npm run bench -- test/bench/exam-day.bench.ts
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { freePort } from '../../scripts/lib/process.ts';
import { availableParallelism, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import pg from 'pg';
import { expect, test } from 'vitest';
import { ROSTER_POLL_MS } from '../../contract/admin.ts';
import { digestOf } from '../../server/domain/exam.ts';
import { createScratchDatabase, seedExamDayRooms, type BenchPupil } from './exam-day-seed.ts';

const PUPILS = Number(process.env.EXAM_DAY_PUPILS ?? 1000);
const CONCURRENCY = Number(process.env.EXAM_DAY_CONCURRENCY ?? 48);
const WORKERS = Number(process.env.EXAM_DAY_WORKERS ?? availableParallelism());
const ADMIN_URL = process.env.EXAM_DAY_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PROCTORS = Number(process.env.EXAM_DAY_PROCTORS ?? 50);
const BASELINE = PROCTORS > 0 && process.env.EXAM_DAY_BASELINE !== '0';
const BASELINE_LAST = BASELINE && process.env.EXAM_DAY_BASELINE === 'last';
const INTERLEAVE = BASELINE && process.env.EXAM_DAY_BASELINE === 'interleave';
const WINDOW_MS = Number(process.env.EXAM_DAY_WINDOW_S ?? 30) * 1000;
const VACUUM = process.env.EXAM_DAY_VACUUM !== '0';
const WARMUP = Number(process.env.EXAM_DAY_WARMUP ?? CONCURRENCY * 2);
const ANSWERS = 30;
const root = path.resolve(import.meta.dirname, '..', '..');

type Call = 'login' | 'start' | 'questions' | 'save' | 'finish' | 'roster full' | 'roster' | 'health';
type Question = { id: number; number: number; type: string; choices: { id: string }[]; blocks?: { id: string }[] };
type PupilResult = {
  pupil: BenchPupil;
  /** The value the server acknowledged last, by question (what the row must hold). */
  acknowledged: Map<number, string>;
  questionNumber: Map<number, number>;
  receipt?: { answer_count: number; digest: string };
  finished: boolean;
};


/** An answer of the question's type, different for each `round`. */
function valueFor(question: Question, round: number): string {
  switch (question.type) {
    case 'single_choice':
      return question.choices[round % question.choices.length]!.id;
    case 'number':
      return String(round + 1);
    case 'ordering': {
      const ids = (question.blocks ?? []).map((b) => b.id);
      return [...ids.slice(round % ids.length), ...ids.slice(0, round % ids.length)].join(',');
    }
    default:
      return `answer ${round}`;
  }
}

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!);

const emptyLatencies = (): Record<Call, number[]> => ({ login: [], start: [], questions: [], save: [], finish: [], 'roster full': [], roster: [], health: [] });
/** Each call's latencies of all the records, in one. */
const mergeLatencies = (records: Record<Call, number[]>[]): Record<Call, number[]> => {
  const merged = emptyLatencies();
  // concat, not push(...): a phase of 10,000 pupils holds 300,000 saves, beyond a call's arguments.
  for (const record of records) for (const call of Object.keys(merged) as Call[]) merged[call] = merged[call].concat(record[call]);
  return merged;
};
/** Waits `ms`: true, or false once `signal` aborts. */
const pause = (ms: number, signal: AbortSignal) => sleep(Math.max(0, ms), true, { signal }).catch(() => false);
const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { count: sorted.length, p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN };
};

test(`exam day: ${PUPILS} pupils, ${CONCURRENCY} at a time, ${WORKERS} API processes, ${PROCTORS} proctors polling on PostgreSQL`, { timeout: Math.max(3_600_000, PUPILS * 2000) }, async () => {
  const scratch = await createScratchDatabase(ADMIN_URL);
  let server: ChildProcess | undefined;
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  try {
    const seeding = performance.now();
    const phases = BASELINE ? 2 : 1;
    const seeded = await seedExamDayRooms(scratch.url, PUPILS * phases, { rooms: PROCTORS * phases, proctors: PROCTORS, warmUp: WARMUP });
    const { pupils } = seeded;
    // The polled rooms are the first PROCTORS; a baseline's pupils sit in the others.
    const polledRooms = seeded.rooms.slice(0, PROCTORS);
    const polled = new Set(polledRooms);
    const unpolledPupils = pupils.filter((p) => !polled.has(p.venueId!));
    const polledPupils = pupils.filter((p) => polled.has(p.venueId!));
    // Interleaved: a pupil of a polled room, then one of another, and so on.
    const bothInTurn = polledPupils.flatMap((pupil, i) => [pupil, ...(unpolledPupils[i] ? [unpolledPupils[i]] : [])]);
    const phasePupils = !BASELINE
      ? [pupils]
      : INTERLEAVE
        ? [bothInTurn]
        : BASELINE_LAST
          ? [polledPupils, unpolledPupils]
          : [unpolledPupils, polledPupils];
    console.log(`seeded ${pupils.length} pupils in ${seeded.rooms.length} rooms and ${seeded.warmUp.length} to warm up in ${((performance.now() - seeding) / 1000).toFixed(1)} s (database ${scratch.name})`);

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, ['server/main.ts'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: scratch.url, WEB_CONCURRENCY: String(WORKERS), PORT: String(port), LOG_LEVEL: 'warn', METRICS_PORT: '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const serverExit = new Promise<number | null>((resolve) => server!.once('exit', (code) => resolve(code)));
    // Ready when every worker is (the primary's line), or the single process's banner.
    await new Promise<void>((resolve, reject) => {
      let output = '';
      server!.once('exit', (code) => reject(new Error(`the server exited (${code}) before it was ready`)));
      server!.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (/API processes \(WEB_CONCURRENCY\) share|Gradus is running at/.test(output) && (WORKERS === 1 || output.includes('API processes'))) {
          output = '';
          resolve();
        }
      });
    });
    server.stdout!.removeAllListeners('data');
    server.stdout!.resume();

    let latencies = emptyLatencies();
    const errors = new Map<string, number>();
    let requests = 0;
    const http = (call: Call, method: string, url: string, headers: Record<string, string>, body?: unknown, via: Agent = agent) =>
      new Promise<{ status: number; json: Record<string, unknown> }>((resolve, reject) => {
        const payload = body === undefined ? undefined : JSON.stringify(body);
        const started = performance.now();
        const req = request(
          `${base}${url}`,
          { method, agent: via, headers: { ...headers, ...(payload ? { 'Content-Type': 'application/json' } : {}) } },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (text += chunk));
            res.on('end', () => {
              latencies[call].push(performance.now() - started);
              if (call !== 'health') requests++;
              let json: Record<string, unknown> = {};
              try {
                json = JSON.parse(text) as Record<string, unknown>;
              } catch {
                // not JSON: counted by status below
              }
              const status = res.statusCode ?? 0;
              if (status >= 300) {
                const key = `${call} ${status} ${typeof json.code === 'string' ? json.code : '-'}`;
                errors.set(key, (errors.get(key) ?? 0) + 1);
              }
              resolve({ status, json });
            });
          },
        );
        req.on('error', (error) => {
          const key = `${call} network ${(error as NodeJS.ErrnoException).code ?? error.message}`;
          errors.set(key, (errors.get(key) ?? 0) + 1);
          reject(error);
        });
        req.end(payload);
      });

    // Each pupil's answer times rise like a terminal's clock: one pupil's later answer is later.
    // Per pupil, not shared: at well over 1,000 saves a second, one shared counter stepping 1 ms
    // a save runs ahead of the clock until the server refuses answer times in the future.
    const answerClock = () => {
      let last = 0;
      return () => {
        last = Math.max(Date.now(), last + 1);
        return new Date(last).toISOString();
      };
    };

    const sit = async (pupil: BenchPupil): Promise<PupilResult> => {
      const result: PupilResult = { pupil, acknowledged: new Map(), questionNumber: new Map(), finished: false };
      const answeredAt = answerClock();
      const device = { 'X-Device-Token': `bench-terminal-${randomUUID()}`, 'X-Locale': 'en' };
      const login = await http('login', 'POST', '/api/login', device, { login_type: 0, login_code: pupil.loginCode });
      if (login.status !== 200) return result;
      const auth = { ...device, Authorization: `Bearer ${String(login.json.access_token)}` };
      const id = pupil.scheduleHistoryId;
      if ((await http('start', 'POST', '/api/exam/start', auth, { schedule_history_id: id })).status !== 200) return result;
      const exam = await http('questions', 'GET', `/api/exam/questions?schedule_history_id=${id}`, auth);
      if (exam.status !== 200) return result;
      const questions = exam.json.questions as Question[];
      for (const q of questions) result.questionNumber.set(q.id, q.number);
      for (let i = 0; i < ANSWERS; i++) {
        const question = questions[i % questions.length]!;
        const value = valueFor(question, Math.floor(i / questions.length));
        const saved = await http('save', 'POST', '/api/exam/answers', auth, {
          schedule_history_id: id,
          question_id: question.id,
          value,
          idempotency_key: randomUUID(),
          answered_at: answeredAt(),
        });
        if (saved.status === 201 || saved.status === 200) {
          // saved: this value is the answer; superseded: the server's current value is.
          result.acknowledged.set(question.id, saved.json.outcome === 'superseded' ? String(saved.json.current_value) : value);
        }
      }
      const finish = await http('finish', 'POST', '/api/exam/finish', auth, { schedule_history_id: id });
      if (finish.status === 200) {
        result.finished = true;
        result.receipt = { answer_count: Number(finish.json.answer_count), digest: String(finish.json.digest) };
      }
      return result;
    };

    const results: PupilResult[] = [];
    const runPupils = async (group: BenchPupil[]) => {
      const queue = [...group];
      const started = performance.now();
      const requestsBefore = requests;
      let progressAt = started;
      let done = 0;
      await Promise.all(
        Array.from({ length: Math.min(CONCURRENCY, group.length) }, async () => {
          for (let pupil = queue.shift(); pupil !== undefined; pupil = queue.shift()) {
            results.push(await sit(pupil).catch(() => ({ pupil, acknowledged: new Map(), questionNumber: new Map(), finished: false })));
            done++;
            if (performance.now() - progressAt > 30_000) {
              progressAt = performance.now();
              console.log(`  ${done}/${group.length} pupils done, ${((requests - requestsBefore) / ((progressAt - started) / 1000)).toFixed(0)} requests/s`);
            }
          }
        }),
      );
      return (performance.now() - started) / 1000;
    };

    // The proctors: each loads its room in full, then polls its changes every
    // ROSTER_POLL_MS at its own phase until `stop`; the floor once a second beside them.
    // A proctor's connection idles between polls; the server keeps it (IDLE_CONNECTION_MS).
    /** Interleaved: whether the proctors poll in this turn, and each turn's calls. */
    const turns = { polling: true, with: emptyLatencies(), without: emptyLatencies(), count: 0 };
    const proctorAgent = new Agent({ keepAlive: true, maxSockets: Math.max(1, PROCTORS) });
    const rowsPerPoll: number[] = [];
    const floorTimes: number[] = [];
    const startProctors = async () => {
      const stop = new AbortController();
      const signed = await Promise.all(
        seeded.proctors.map(async (proctor, i) => {
          const auth = { Authorization: `Bearer ${proctor.token}` };
          const room = polledRooms[i]!;
          const path = `/api/admin/schedules/${seeded.scheduleCode}/roster?venue_id=${room}`;
          const roster = await http('roster full', 'GET', path, auth, undefined, proctorAgent);
          expect(roster.status, 'a room in full').toBe(200);
          return { auth, path, cursor: String(roster.json.cursor) };
        }),
      );
      const polling = signed.map(async (proctor, i) => {
        let next = performance.now() + (i * ROSTER_POLL_MS) / signed.length;
        while (await pause(next - performance.now(), stop.signal)) {
          if (!turns.polling) {
            next += ROSTER_POLL_MS;
            continue;
          }
          const answer = await http('roster', 'GET', `${proctor.path}&since=${encodeURIComponent(proctor.cursor)}`, proctor.auth, undefined, proctorAgent).catch(() => null);
          if (answer?.status === 200) {
            if (answer.json.kind !== 'changes') errors.set('roster not changes', (errors.get('roster not changes') ?? 0) + 1);
            proctor.cursor = String(answer.json.cursor);
            rowsPerPoll.push((answer.json.pupils as unknown[]).length);
          }
          // The next poll at this proctor's phase (one late beyond a period skips ahead).
          next += ROSTER_POLL_MS;
          while (next < performance.now()) next += ROSTER_POLL_MS;
        }
      });
      const floorClient = new pg.Client({ connectionString: scratch.url });
      await floorClient.connect();
      const floor = (async () => {
        for (let i = 0; await pause(1_000, stop.signal); i++) {
          const started = performance.now();
          await floorClient.query(
            'select sh.* from schedule_histories sh join examinees e on e.id = sh.examinee_id join schedules s on s.id = sh.schedule_id where s.schedule_code = $1 and e.venue_id = $2',
            [seeded.scheduleCode, polledRooms[i % polledRooms.length]],
          );
          floorTimes.push(performance.now() - started);
        }
      })();
      return async () => {
        stop.abort();
        await Promise.all([...polling, floor]);
        await floorClient.end();
      };
    };

    // The warm-up: JIT, connection pools and PostgreSQL's caches, before anything is measured.
    if (seeded.warmUp.length > 0) {
      console.log(`  warm-up: ${seeded.warmUp.length} pupils, not measured`);
      await runPupils(seeded.warmUp);
      requests = 0;
    }

    /** `use` on a connection of its own to the scratch database, closed after. */
    const onScratch = async <T,>(use: (client: pg.Client) => Promise<T>): Promise<T> => {
      const client = new pg.Client({ connectionString: scratch.url });
      await client.connect();
      try {
        return await use(client);
      } finally {
        await client.end();
      }
    };

    /** What each phase leaves the next: the busy tables' live and dead rows and autovacuum's visits. */
    const printTables = async (when: string) => {
      const { rows } = await onScratch((client) =>
        client.query<{ relname: string; live: string; dead: string; vacuums: string; analyzes: string }>(
          `select relname, n_live_tup as live, n_dead_tup as dead, autovacuum_count as vacuums, autoanalyze_count as analyzes
           from pg_stat_user_tables where relname in ('answers', 'schedule_histories', 'auth_tokens') order by relname`,
        ),
      );
      console.log(`  tables ${when}: ${rows.map((r) => `${r.relname} ${r.live} live, ${r.dead} dead, ${r.vacuums} autovacuums, ${r.analyzes} autoanalyzes`).join('; ')}`);
    };

    /**
     * Where the server runs with autovacuum off (a test box's setting; a deployment keeps
     * PostgreSQL's default), what autovacuum would have done before the next phase: the busy
     * tables vacuumed and analyzed, so that each phase meets tables as a deployment keeps them.
     */
    const vacuumBetween = async (when: string) => {
      if (!VACUUM) return;
      await onScratch(async (client) => {
        const { rows } = await client.query<{ autovacuum: string }>('show autovacuum');
        if (rows[0]?.autovacuum === 'on') return;
        const started = performance.now();
        await client.query('vacuum (analyze) answers, schedule_histories, auth_tokens');
        console.log(`  autovacuum is off: vacuumed and analyzed answers, schedule_histories and auth_tokens ${when} (${((performance.now() - started) / 1000).toFixed(1)} s, not measured)`);
      });
    };

    /**
     * The API's own floor in every phase: GET /api/health once a second on a connection of its
     * own, through the same processes, event loops and database pool as the pupils' calls (one
     * `select 1`), where the roster floor above is a query on a connection of its own.
     */
    const healthAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    const startHealth = () => {
      const stop = new AbortController();
      const probing = (async () => {
        while (await pause(1_000, stop.signal)) {
          const answer = await http('health', 'GET', '/api/health', {}, undefined, healthAgent).catch(() => null);
          if (answer?.status !== 200) errors.set('health not 200', (errors.get('health not 200') ?? 0) + 1);
        }
      })();
      return async () => {
        stop.abort();
        await probing;
      };
    };

    type Phase = { proctors: number; seconds: number; load: [number, number]; latencies: Record<Call, number[]> };
    const phaseReports: Phase[] = [];
    await vacuumBetween('before phase 1');
    for (const [index, group] of phasePupils.entries()) {
      const proctors = !BASELINE || INTERLEAVE || group === polledPupils ? PROCTORS : 0;
      latencies = emptyLatencies();
      const stopProctors = proctors > 0 ? await startProctors() : undefined;
      const loadAtStart = loadavg()[0]!;
      console.log(`  phase ${index + 1}: ${group.length} pupils, ${proctors} proctors polling (load average ${loadAtStart.toFixed(1)})`);
      const stopHealth = startHealth();
      // Interleaved: the turns, without proctors first; `latencies` is the current turn's.
      const turnTimer = INTERLEAVE
        ? (() => {
            const flip = () => {
              turns.polling = !turns.polling;
              turns.count++;
              latencies = turns.polling ? turns.with : turns.without;
            };
            flip();
            return setInterval(flip, WINDOW_MS);
          })()
        : undefined;
      const phaseSeconds = await runPupils(group);
      clearInterval(turnTimer);
      // The phase's calls: both turns' (a new record: `latencies` is one of theirs).
      if (INTERLEAVE) latencies = mergeLatencies([turns.with, turns.without]);
      await stopHealth();
      await stopProctors?.();
      phaseReports.push({ proctors, seconds: phaseSeconds, load: [loadAtStart, loadavg()[0]!], latencies });
      await printTables(`after phase ${index + 1}`);
      if (index < phasePupils.length - 1) await vacuumBetween(`after phase ${index + 1}`);
    }
    proctorAgent.destroy();
    healthAgent.destroy();
    const seconds = phaseReports.reduce((sum, phase) => sum + phase.seconds, 0);
    latencies = mergeLatencies(phaseReports.map((phase) => phase.latencies));

    // Integrity, read from the database after the run.
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    const ids = [...pupils, ...seeded.warmUp].map((p) => p.scheduleHistoryId);
    const rows = await client.query<{ schedule_history_id: number; question_id: number; value: string }>(
      'select schedule_history_id, question_id, value from answers where schedule_history_id = any($1::int[])',
      [ids],
    );
    const sittings = await client.query<{ id: number; finished_at: Date | null; answer_count: number | null; answers_digest: string | null }>(
      'select id, finished_at, answer_count, answers_digest from schedule_histories where id = any($1::int[])',
      [ids],
    );
    await client.end();
    const rowsOf = new Map<number, Map<number, string>>();
    for (const row of rows.rows) {
      const held = rowsOf.get(row.schedule_history_id) ?? new Map<number, string>();
      held.set(row.question_id, row.value);
      rowsOf.set(row.schedule_history_id, held);
    }
    const sittingOf = new Map(sittings.rows.map((s) => [s.id, s]));
    let acknowledged = 0;
    let lost = 0;
    let wrongValue = 0;
    let unacknowledgedRows = 0;
    let receiptsMatching = 0;
    let receiptsWrong = 0;
    for (const result of results) {
      const held = rowsOf.get(result.pupil.scheduleHistoryId) ?? new Map<number, string>();
      acknowledged += result.acknowledged.size;
      for (const [questionId, value] of result.acknowledged) {
        if (!held.has(questionId)) lost++;
        else if (held.get(questionId) !== value) wrongValue++;
      }
      for (const questionId of held.keys()) if (!result.acknowledged.has(questionId)) unacknowledgedRows++;
      if (result.receipt) {
        const inOrder = [...result.acknowledged.entries()]
          .filter(([, value]) => value !== '')
          .sort(([a], [b]) => result.questionNumber.get(a)! - result.questionNumber.get(b)!)
          .map(([question_id, value]) => ({ question_id, value }));
        const sitting = sittingOf.get(result.pupil.scheduleHistoryId);
        const ok =
          result.receipt.answer_count === inOrder.length &&
          result.receipt.digest === digestOf(inOrder) &&
          sitting?.answer_count === result.receipt.answer_count &&
          sitting.answers_digest === result.receipt.digest;
        if (ok) receiptsMatching++;
        else receiptsWrong++;
      }
    }
    const finished = results.filter((r) => r.finished).length;
    const unfinished = sittings.rows.filter((s) => s.finished_at === null).length;

    const perCallOf = (of: Record<Call, number[]>) =>
      Object.fromEntries((Object.entries(of) as [Call, number[]][]).filter(([, values]) => values.length > 0).map(([call, values]) => [call, summary(values)]));
    const perCall = perCallOf(latencies);
    const phaseSummaries = phaseReports.map((phase) => ({
      proctors: phase.proctors,
      seconds: phase.seconds,
      loadAverage: phase.load,
      perCall: perCallOf(phase.latencies),
    }));
    const report = {
      pupils: pupils.length,
      proctors: PROCTORS,
      phases: phaseSummaries,
      roster: { rowsPerPoll: summary(rowsPerPoll), floor: summary(floorTimes) },
      ...(INTERLEAVE ? { turns: { count: turns.count, seconds: WINDOW_MS / 1000, with: perCallOf(turns.with), without: perCallOf(turns.without) } } : {}),
      concurrency: CONCURRENCY,
      workers: WORKERS,
      seconds,
      requests,
      requestsPerSecond: requests / seconds,
      savesPerSecond: latencies.save.length / seconds,
      pupilsPerMinute: (results.filter((r) => r.finished && !seeded.warmUp.includes(r.pupil)).length / seconds) * 60,
      perCall,
      errors: Object.fromEntries(errors),
      integrity: { finished, unfinished, acknowledged, answerRows: rows.rowCount, lost, wrongValue, unacknowledgedRows, receiptsMatching, receiptsWrong },
    };
    const ms = (n: number) => `${n.toFixed(1)} ms`;
    console.log(`\nexam day: ${pupils.length} pupils, ${CONCURRENCY} at a time, ${WORKERS} API processes, ${PROCTORS} proctors polling, PostgreSQL`);
    console.log(`  ${seconds.toFixed(1)} s, ${requests} requests: ${report.requestsPerSecond.toFixed(0)} requests/s, ${report.savesPerSecond.toFixed(0)} saves/s, ${report.pupilsPerMinute.toFixed(0)} pupils/min`);
    for (const [index, phase] of phaseSummaries.entries()) {
      console.log(
        `  phase ${index + 1}: ${phasePupils[index]!.length} pupils, ${phase.proctors} proctors polling, ${phase.seconds.toFixed(1)} s, load average ${phase.loadAverage[0].toFixed(1)} at its start, ${phase.loadAverage[1].toFixed(1)} at its end`,
      );
      console.log(`  ${'call'.padEnd(12)} ${'count'.padStart(7)} ${'p50'.padStart(10)} ${'p90'.padStart(10)} ${'p99'.padStart(10)} ${'max'.padStart(10)}`);
      for (const [call, s] of Object.entries(phase.perCall)) {
        console.log(`  ${call.padEnd(12)} ${String(s.count).padStart(7)} ${ms(s.p50).padStart(10)} ${ms(s.p90).padStart(10)} ${ms(s.p99).padStart(10)} ${ms(s.max).padStart(10)}`);
      }
    }
    if (PROCTORS > 0) {
      const { floor, rowsPerPoll: rowsOfPolls } = report.roster;
      console.log(`  roster floor (the bare query of one polled room, once a second): p50 ${ms(floor.p50)}, p99 ${ms(floor.p99)}, ${floor.count} samples; rows per poll p50 ${rowsOfPolls.p50}, p99 ${rowsOfPolls.p99}`);
      if (INTERLEAVE) {
        const on = summary(turns.with.save);
        const off = summary(turns.without.save);
        const health = [summary(turns.with.health), summary(turns.without.health)];
        console.log(`  interleaved, ${turns.count} turns of ${WINDOW_MS / 1000} s: save p50 / p99 with ${PROCTORS} proctors ${ms(on.p50)} / ${ms(on.p99)} (${on.count}), without ${ms(off.p50)} / ${ms(off.p99)} (${off.count})`);
        console.log(`  health p50 / p99 with proctors ${ms(health[0]!.p50)} / ${ms(health[0]!.p99)}, without ${ms(health[1]!.p50)} / ${ms(health[1]!.p99)}`);
        console.log(`  save p99 with ${PROCTORS} proctors / without: ${ms(on.p99)} / ${ms(off.p99)} = ${(on.p99 / off.p99).toFixed(2)}; p50 ${(on.p50 / off.p50).toFixed(2)}`);
      }
      if (phaseSummaries.length === 2) {
        const without = phaseSummaries.find((phase) => phase.proctors === 0)!;
        const withProctors = phaseSummaries.find((phase) => phase.proctors > 0)!;
        const ratio = withProctors.perCall.save!.p99 / without.perCall.save!.p99;
        console.log(`  save p99 with ${PROCTORS} proctors / without: ${ms(withProctors.perCall.save!.p99)} / ${ms(without.perCall.save!.p99)} = ${ratio.toFixed(2)}`);
      }
    }
    console.log(`  errors: ${errors.size === 0 ? 'none' : [...errors].map(([k, n]) => `${k} x${n}`).join(', ')}`);
    const i = report.integrity;
    console.log(
      `  integrity: ${i.finished}/${pupils.length + seeded.warmUp.length} finished (${i.unfinished} unfinished in the database); ${i.acknowledged} answers acknowledged, ${i.answerRows} answer rows, ` +
        `${i.lost} lost, ${i.wrongValue} with another value, ${i.unacknowledgedRows} rows never acknowledged; receipts ${i.receiptsMatching} match, ${i.receiptsWrong} do not`,
    );
    if (process.env.EXAM_DAY_REPORT) writeFileSync(process.env.EXAM_DAY_REPORT, `${JSON.stringify(report, null, 2)}\n`);

    server.kill('SIGTERM');
    expect(await serverExit, 'the server stops cleanly').toBe(0);
    server = undefined;
    expect(report.errors).toEqual({});
    const sat = pupils.length + seeded.warmUp.length;
    expect(i).toMatchObject({ finished: sat, unfinished: 0, lost: 0, wrongValue: 0, unacknowledgedRows: 0, receiptsMatching: sat, receiptsWrong: 0 });
    // Every proctor polled, with answers that are changes (counted as errors above otherwise).
    if (PROCTORS > 0) expect(latencies.roster.length).toBeGreaterThanOrEqual(PROCTORS);
    expect(i.answerRows).toBe(i.acknowledged);
  } finally {
    agent.destroy();
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server!.once('exit', r));
    }
    await scratch.drop();
  }
});
