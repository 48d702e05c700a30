/**
 * The job queue and the results jobs (server/jobs/) on PGlite and PostgreSQL: enqueue is
 * idempotent by key, two runners claim disjoint jobs (on PostgreSQL over separate connections,
 * really at once), a stale lock is taken over, a failed job is retried after its backoff, and
 * the lifecycle jobs (auto-finish, score, expire, statistics, release) move sittings only the
 * way the schedule history machine allows, once.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull, like } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import { createFakeClock } from '../../server/clock.ts';
import { examinees, jobs, results, scheduleHistories, unitStatistics } from '../../server/db/schema.ts';
import { scoreSitting } from '../../server/domain/results-lifecycle.ts';
import { claimJobs, enqueueJob, markDone, retryDelayMs, type Job } from '../../server/jobs/queue.ts';
import { runDueJobs, startJobRunner } from '../../server/jobs/runner.ts';
import { sweep } from '../../server/jobs/sweep.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { useApi } from '../helpers/server-api.ts';
import { addSitting, answerKey, historyRow } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
const S = ScheduleHistoryStatus;
const DAY = 86_400_000;

describe.each(kinds)('jobs on %s', (kind) => {
  const api = useApi(kind);
  const tag = () => randomUUID().slice(0, 8);

  test('enqueue is idempotent by key while the job is pending, and possible again once done', async () => {
    const key = `test:${tag()}`;
    const now = api.clock.now();
    expect(await enqueueJob(api.db, { kind: 'release', key, payload: { scheduleHistoryId: 1 }, runAt: now })).toBe(true);
    expect(await enqueueJob(api.db, { kind: 'release', key, payload: { scheduleHistoryId: 1 }, runAt: now })).toBe(false);
    expect(await api.db.select().from(jobs).where(eq(jobs.key, key))).toHaveLength(1);
    await api.db.update(jobs).set({ doneAt: now }).where(eq(jobs.key, key));
    expect(await enqueueJob(api.db, { kind: 'release', key, payload: { scheduleHistoryId: 1 }, runAt: now })).toBe(true);
    expect(await api.db.select().from(jobs).where(eq(jobs.key, key))).toHaveLength(2);
  });

  test('two runners claim disjoint jobs, and between them every due job', async () => {
    const prefix = `disjoint-${tag()}`;
    // Far in the future, so nothing else in the database is due with them.
    const runAt = new Date('2090-01-01T00:00:00Z');
    for (let i = 0; i < 30; i++) await enqueueJob(api.db, { kind: 'release', key: `${prefix}:${i}`, payload: { scheduleHistoryId: 1 }, runAt });
    const now = new Date('2090-01-01T00:00:01Z');
    const claimedBy = new Map<string, Job[]>([['a', []], ['b', []]]);
    for (;;) {
      const [a, b] = await Promise.all([
        claimJobs(api.db, { workerId: 'a', now, limit: 4 }),
        claimJobs(api.db, { workerId: 'b', now, limit: 4 }),
      ]);
      claimedBy.get('a')!.push(...a);
      claimedBy.get('b')!.push(...b);
      if (a.length === 0 && b.length === 0) break;
    }
    const ours = (list: Job[]) => list.filter((j) => j.key.startsWith(prefix)).map((j) => j.id);
    const a = ours(claimedBy.get('a')!);
    const b = ours(claimedBy.get('b')!);
    expect(a.filter((id) => b.includes(id))).toEqual([]);
    expect(new Set([...a, ...b]).size).toBe(30);
    expect(a.length + b.length).toBe(30);
    const rows = await api.db.select().from(jobs).where(like(jobs.key, `${prefix}:%`));
    for (const row of rows) {
      expect(row.lockedBy).toBe(a.includes(row.id) ? 'a' : 'b');
      expect(row.attempts).toBe(1);
    }
  });

  test('two runners running due jobs at once run each job exactly once', async () => {
    const prefix = `once-${tag()}`;
    const runAt = new Date('2091-01-01T00:00:00Z');
    for (let i = 0; i < 12; i++) await enqueueJob(api.db, { kind: 'release', key: `${prefix}:${i}`, payload: { scheduleHistoryId: 1 }, runAt });
    const clock = createFakeClock('2091-01-01T00:00:01Z');
    const ran: string[] = [];
    const handlers = {
      release: async (_tx: unknown, _payload: unknown) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
      },
    };
    const [a, b] = await Promise.all(
      ['a', 'b'].map((workerId) => runDueJobs(api.db, clock, { workerId, batchSize: 2, handlers: { release: handlers.release } })),
    );
    for (const summary of [a!, b!]) ran.push(...summary.jobs.filter((j) => j.key.startsWith(prefix) && j.ok).map((j) => j.key));
    expect(ran.sort()).toEqual(Array.from({ length: 12 }, (_, i) => `${prefix}:${i}`).sort());
    const rows = await api.db.select().from(jobs).where(like(jobs.key, `${prefix}:%`));
    expect(rows.every((r) => r.doneAt !== null && r.attempts === 1)).toBe(true);
  });

  test('a stale lock is reclaimed; the first runner can then no longer mark the job done', async () => {
    const key = `stale-${tag()}`;
    const runAt = new Date('2092-01-01T00:00:00Z');
    await enqueueJob(api.db, { kind: 'release', key, payload: { scheduleHistoryId: 1 }, runAt });
    const mine = (list: Job[]) => list.filter((j) => j.key === key);
    const [first] = mine(await claimJobs(api.db, { workerId: 'dead', now: runAt, limit: 50 }));
    expect(first).toBeDefined();
    expect(mine(await claimJobs(api.db, { workerId: 'b', now: new Date(runAt.getTime() + 60_000), limit: 50 }))).toEqual([]);
    const [again] = mine(await claimJobs(api.db, { workerId: 'b', now: new Date(runAt.getTime() + 301_000), limit: 50 }));
    expect(again).toMatchObject({ id: first!.id, lockedBy: 'b', attempts: 2 });
    await expect(api.db.transaction((tx) => markDone(tx, first!, 'dead', runAt))).rejects.toThrow(/no longer locked/);
    await api.db.transaction((tx) => markDone(tx, again!, 'b', runAt));
    const [row] = await api.db.select().from(jobs).where(eq(jobs.key, key));
    expect(row!.doneAt).not.toBeNull();
  });

  test('a failed job is retried after its backoff, then succeeds', async () => {
    const key = `retry-${tag()}`;
    const clock = createFakeClock('2093-01-01T00:00:00Z');
    await enqueueJob(api.db, { kind: 'release', key, payload: { scheduleHistoryId: 1, key }, runAt: clock.now() });
    let calls = 0;
    const release = async (_tx: unknown, payload: unknown) => {
      if ((payload as { key?: string }).key !== key) return;
      calls++;
      if (calls === 1) throw new Error('the database blinked');
    };
    const first = await runDueJobs(api.db, clock, { handlers: { release } });
    expect(first.jobs.filter((j) => j.key === key)).toEqual([expect.objectContaining({ ok: false })]);
    let [row] = await api.db.select().from(jobs).where(eq(jobs.key, key));
    expect(row).toMatchObject({ doneAt: null, lockedBy: null, lastError: 'the database blinked', attempts: 1 });
    expect(row!.runAt.getTime()).toBe(clock.now().getTime() + retryDelayMs(1));
    // Not again before the backoff.
    expect((await runDueJobs(api.db, clock, { handlers: { release } })).jobs.filter((j) => j.key === key)).toEqual([]);
    clock.advance(retryDelayMs(1));
    const second = await runDueJobs(api.db, clock, { handlers: { release } });
    expect(second.jobs.filter((j) => j.key === key)).toEqual([expect.objectContaining({ ok: true })]);
    [row] = await api.db.select().from(jobs).where(eq(jobs.key, key));
    expect(row).toMatchObject({ attempts: 2 });
    expect(row!.doneAt).not.toBeNull();
    expect(calls).toBe(2);
  });

  test('auto-finish: a sitting left DOING is finished once the upload window is over, then scored', async () => {
    const pupil = await addSitting(api.db);
    const { deadlineAt } = await api.startAs(pupil.loginCode);
    const deadline = new Date(deadlineAt);
    const window = 3_600_000;
    api.clock.set(new Date(deadline.getTime() + window));
    await runDueJobs(api.db, api.clock, { uploadWindowMs: window });
    expect((await historyRow(api.db, pupil.scheduleHistoryId)).status).toBe(S.DOING);
    api.clock.advance(1);
    await runDueJobs(api.db, api.clock, { uploadWindowMs: window });
    const row = await historyRow(api.db, pupil.scheduleHistoryId);
    expect(row.status).toBe(S.SCORING_COMPLETED);
    expect(row.finishedAt!.toISOString()).toBe(deadline.toISOString());
    expect(row.answerCount).toBe(0);
  });

  test('scoring is idempotent: a second run changes nothing', async () => {
    const pupil = await addSitting(api.db);
    const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
    const [first] = await answerKey(api.db, pupil.examId);
    await api.call('POST', '/api/exam/answers', { token, body: api.answer(scheduleHistoryId, first!.id, first!.correctAnswer) });
    await api.call('POST', '/api/exam/finish', { token, body: { schedule_history_id: scheduleHistoryId } });
    const pending = await api.db.select().from(jobs).where(and(eq(jobs.key, `score:${scheduleHistoryId}`), isNull(jobs.doneAt)));
    expect(pending).toHaveLength(1);
    await runDueJobs(api.db, api.clock);
    const [scored] = await api.db.select().from(results).where(eq(results.scheduleHistoryId, scheduleHistoryId));
    expect(scored).toMatchObject({ score: 1, correctCount: 1 });
    expect(await api.db.transaction((tx) => scoreSitting(tx, scheduleHistoryId, api.clock.now()))).toBe(false);
    const [again] = await api.db.select().from(results).where(eq(results.scheduleHistoryId, scheduleHistoryId));
    expect(again).toEqual(scored);
    // A sweep asks for nothing more for it.
    await sweep(api.db, api.clock.now(), { uploadWindowMs: 86_400_000 });
    expect(await api.db.select().from(jobs).where(and(like(jobs.key, `%:${scheduleHistoryId}`), isNull(jobs.doneAt)))).toEqual([]);
  });

  test('a test period that ends: untaken exams expire, the cohort is ranked and averaged, results released after a week', async () => {
    const start = api.clock.now().getTime();
    const schedule = { startsAt: new Date(start - DAY).toISOString(), endsAt: new Date(start + DAY).toISOString() };
    const first = await addSitting(api.db, { schedule, organization: {} });
    // Three more pupils of the same organisation and test period: by hand, the fixture books one per call.
    const others = [] as { loginCode: string; id: number }[];
    for (let i = 0; i < 3; i++) {
      const p = await addSitting(api.db, { schedule, organization: {} });
      await api.db.update(scheduleHistories).set({ scheduleId: first.scheduleId }).where(eq(scheduleHistories.id, p.scheduleHistoryId));
      await api.db.update(examinees).set({ organizationId: first.organizationId }).where(eq(examinees.id, p.examineeId));
      others.push({ loginCode: p.loginCode, id: p.scheduleHistoryId });
    }
    const sat = [{ loginCode: first.loginCode, id: first.scheduleHistoryId }, others[0]!, others[1]!];
    const key = await answerKey(api.db, first.examId);
    for (const [index, pupil] of sat.entries()) {
      const { token } = await api.startAs(pupil.loginCode);
      for (const q of key.slice(0, 5 + index * 5)) {
        await api.call('POST', '/api/exam/answers', { token, body: api.answer(pupil.id, q.id, q.correctAnswer) });
      }
      await api.call('POST', '/api/exam/finish', { token, body: { schedule_history_id: pupil.id } });
    }
    await runDueJobs(api.db, api.clock);
    const statusOf = async (id: number) => (await historyRow(api.db, id)).status;
    for (const p of sat) expect(await statusOf(p.id)).toBe(S.SCORING_COMPLETED);
    expect(await statusOf(others[2]!.id)).toBe(S.PENDING);

    // The period ends: the untaken exam expires, then the closed cohort is ranked.
    api.clock.set(new Date(start + DAY + 1));
    await runDueJobs(api.db, api.clock);
    expect(await statusOf(others[2]!.id)).toBe(S.EXPIRED);
    const ranked = await api.db.select().from(results).where(inArray(results.scheduleHistoryId, sat.map((p) => p.id)));
    expect(ranked.map((r) => [r.score, r.rank])).toEqual(expect.arrayContaining([[5, 3], [10, 2], [15, 1]]));
    // The level's rank counts every closed cohort at the level, ours included.
    for (const r of ranked) expect(r.rankTotal).toBeGreaterThanOrEqual(3);
    for (const p of sat) expect(await statusOf(p.id)).toBe(S.STATISTIC_COMPLETED);
    const perOrganization = await api.db.select().from(unitStatistics).where(eq(unitStatistics.organizationId, first.organizationId));
    expect(perOrganization.length).toBeGreaterThan(0);
    expect(perOrganization.every((s) => s.examineeCount === 3)).toBe(true);

    api.clock.set(new Date(start + 8 * DAY));
    await runDueJobs(api.db, api.clock);
    for (const p of sat) expect(await statusOf(p.id)).toBe(S.RESULT_PUBLIC);
    const released = await api.db.select().from(results).where(inArray(results.scheduleHistoryId, sat.map((p) => p.id)));
    expect(released.every((r) => r.releasedAt !== null)).toBe(true);
  });

  test('the in-process runner runs due jobs on demand and stops cleanly', async () => {
    const key = `runner-${tag()}`;
    const clock = createFakeClock('2094-01-01T00:00:00Z');
    await enqueueJob(api.db, { kind: 'release', key, payload: { scheduleHistoryId: 1 }, runAt: clock.now() });
    const runner = startJobRunner({ db: api.db, clock, logger: { info: () => {}, error: () => {} }, intervalMs: 3_600_000 });
    const summary = await runner.runNow();
    await runner.stop();
    expect(summary.jobs.filter((j) => j.key === key)).toEqual([expect.objectContaining({ ok: true })]);
  });
});
