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
 * Environment (all optional):
 *   EXAM_DAY_PUPILS       pupils (default 1000: a few minutes on a 2-core box)
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
import { availableParallelism } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { expect, test } from 'vitest';
import { digestOf } from '../../server/domain/exam.ts';
import { createScratchDatabase, seedExamDay, type BenchPupil } from './exam-day-seed.ts';

const PUPILS = Number(process.env.EXAM_DAY_PUPILS ?? 1000);
const CONCURRENCY = Number(process.env.EXAM_DAY_CONCURRENCY ?? 48);
const WORKERS = Number(process.env.EXAM_DAY_WORKERS ?? availableParallelism());
const ADMIN_URL = process.env.EXAM_DAY_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ANSWERS = 30;
const root = path.resolve(import.meta.dirname, '..', '..');

type Call = 'login' | 'start' | 'questions' | 'save' | 'finish';
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

test(`exam day: ${PUPILS} pupils, ${CONCURRENCY} at a time, ${WORKERS} API processes on PostgreSQL`, { timeout: Math.max(3_600_000, PUPILS * 1000) }, async () => {
  const scratch = await createScratchDatabase(ADMIN_URL);
  let server: ChildProcess | undefined;
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  try {
    const seeding = performance.now();
    const pupils = await seedExamDay(scratch.url, PUPILS);
    console.log(`seeded ${pupils.length} pupils in ${((performance.now() - seeding) / 1000).toFixed(1)} s (database ${scratch.name})`);

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

    const latencies: Record<Call, number[]> = { login: [], start: [], questions: [], save: [], finish: [] };
    const errors = new Map<string, number>();
    let requests = 0;
    const http = (call: Call, method: string, url: string, headers: Record<string, string>, body?: unknown) =>
      new Promise<{ status: number; json: Record<string, unknown> }>((resolve, reject) => {
        const payload = body === undefined ? undefined : JSON.stringify(body);
        const started = performance.now();
        const req = request(
          `${base}${url}`,
          { method, agent, headers: { ...headers, ...(payload ? { 'Content-Type': 'application/json' } : {}) } },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (text += chunk));
            res.on('end', () => {
              latencies[call].push(performance.now() - started);
              requests++;
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
    const queue = [...pupils];
    const started = performance.now();
    let progressAt = started;
    await Promise.all(
      Array.from({ length: Math.min(CONCURRENCY, pupils.length) }, async () => {
        for (let pupil = queue.shift(); pupil !== undefined; pupil = queue.shift()) {
          results.push(await sit(pupil).catch(() => ({ pupil, acknowledged: new Map(), questionNumber: new Map(), finished: false })));
          if (performance.now() - progressAt > 30_000) {
            progressAt = performance.now();
            console.log(`  ${results.length}/${pupils.length} pupils done, ${(requests / ((progressAt - started) / 1000)).toFixed(0)} requests/s`);
          }
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;

    // Integrity, read from the database after the run.
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    const ids = pupils.map((p) => p.scheduleHistoryId);
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

    const perCall = Object.fromEntries(
      (Object.entries(latencies) as [Call, number[]][]).map(([call, values]) => {
        const sorted = [...values].sort((a, b) => a - b);
        return [call, { count: sorted.length, p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN }];
      }),
    );
    const report = {
      pupils: PUPILS,
      concurrency: CONCURRENCY,
      workers: WORKERS,
      seconds,
      requests,
      requestsPerSecond: requests / seconds,
      savesPerSecond: latencies.save.length / seconds,
      pupilsPerMinute: (finished / seconds) * 60,
      perCall,
      errors: Object.fromEntries(errors),
      integrity: { finished, unfinished, acknowledged, answerRows: rows.rowCount, lost, wrongValue, unacknowledgedRows, receiptsMatching, receiptsWrong },
    };
    const ms = (n: number) => `${n.toFixed(1)} ms`;
    console.log(`\nexam day: ${PUPILS} pupils, ${CONCURRENCY} at a time, ${WORKERS} API processes, PostgreSQL`);
    console.log(`  ${seconds.toFixed(1)} s, ${requests} requests: ${report.requestsPerSecond.toFixed(0)} requests/s, ${report.savesPerSecond.toFixed(0)} saves/s, ${report.pupilsPerMinute.toFixed(0)} pupils/min`);
    console.log(`  ${'call'.padEnd(10)} ${'count'.padStart(7)} ${'p50'.padStart(10)} ${'p90'.padStart(10)} ${'p99'.padStart(10)} ${'max'.padStart(10)}`);
    for (const [call, s] of Object.entries(perCall)) {
      console.log(`  ${call.padEnd(10)} ${String(s.count).padStart(7)} ${ms(s.p50).padStart(10)} ${ms(s.p90).padStart(10)} ${ms(s.p99).padStart(10)} ${ms(s.max).padStart(10)}`);
    }
    console.log(`  errors: ${errors.size === 0 ? 'none' : [...errors].map(([k, n]) => `${k} x${n}`).join(', ')}`);
    const i = report.integrity;
    console.log(
      `  integrity: ${i.finished}/${PUPILS} finished (${i.unfinished} unfinished in the database); ${i.acknowledged} answers acknowledged, ${i.answerRows} answer rows, ` +
        `${i.lost} lost, ${i.wrongValue} with another value, ${i.unacknowledgedRows} rows never acknowledged; receipts ${i.receiptsMatching} match, ${i.receiptsWrong} do not`,
    );
    if (process.env.EXAM_DAY_REPORT) writeFileSync(process.env.EXAM_DAY_REPORT, `${JSON.stringify(report, null, 2)}\n`);

    server.kill('SIGTERM');
    expect(await serverExit, 'the server stops cleanly').toBe(0);
    server = undefined;
    expect(report.errors).toEqual({});
    expect(i).toMatchObject({ finished: PUPILS, unfinished: 0, lost: 0, wrongValue: 0, unacknowledgedRows: 0, receiptsMatching: PUPILS, receiptsWrong: 0 });
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
