/**
 * Automatic time credit (mission row 62, server/domain/time-credit.ts), on the injectable clock:
 * - a server outage (no process beat for more than a minute) is credited once to every sitting
 *   it blocked, audited as the system's 'outage_credit', also when two processes beat at once;
 *   a restarted server's runner credits it at start; a deliberate clock jump is no outage;
 * - a maintenance window is credited once to every DOING sitting it blocks, as soon as it
 *   begins; a deadline inside the window moves past its end by the time that was left;
 * - an outage that a maintenance window covered is not credited twice.
 */
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { AuditResponseSchema } from '../../contract/admin.ts';
import { HeartbeatResponseSchema } from '../../contract/presence.ts';
import { createFakeClock } from '../../server/clock.ts';
import { openDatabase } from '../../server/db/client.ts';
import { auditLog, maintenanceWindows, serverHeartbeat } from '../../server/db/schema.ts';
import { beat, blockedSeconds, coveredSeconds, creditMaintenanceWindows, moveClockWithHeartbeat } from '../../server/domain/time-credit.ts';
import { startJobRunner } from '../../server/jobs/runner.ts';
import { ScheduleHistoryStatus as S } from '../../contract/enums.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { useApi, type ApiContext } from '../helpers/server-api.ts';
import { addSitting, historyRow } from '../helpers/server-fixtures.ts';
import { addClassmate, addStaff, staffLogin, terminal } from '../helpers/admin-api.ts';

const kinds = await testDatabaseKinds();
const MINUTE = 60_000;
const at = (base: Date, ms: number) => new Date(base.getTime() + ms);
const silent = { info: () => {}, error: () => {} };

async function creditsOf(api: ApiContext, scheduleHistoryId: number) {
  return api.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.scheduleHistoryId, scheduleHistoryId));
}

describe('blocked time', () => {
  const started = new Date('2026-06-01T10:00:00Z');
  const sitting = { startedAt: started, deadlineAt: at(started, 40 * MINUTE) };
  test('is the stretch from the later of block start and exam start to the block end, when the block meets the running time', () => {
    expect(blockedSeconds(sitting, { from: at(started, 10 * MINUTE), to: at(started, 15 * MINUTE) })).toBe(300);
    // A deadline inside the block: the whole stretch, so the time left at its start is kept.
    expect(blockedSeconds(sitting, { from: at(started, 35 * MINUTE), to: at(started, 60 * MINUTE) })).toBe(1500);
    expect(blockedSeconds(sitting, { from: at(started, -10 * MINUTE), to: at(started, 5 * MINUTE) })).toBe(300);
    expect(blockedSeconds(sitting, { from: at(started, 40 * MINUTE), to: at(started, 50 * MINUTE) })).toBe(0);
    expect(blockedSeconds(sitting, { from: at(started, -20 * MINUTE), to: started })).toBe(0);
  });
  test('covered time counts overlapping windows once', () => {
    const interval = { from: started, to: at(started, 30 * MINUTE) };
    expect(
      coveredSeconds(interval, [
        { from: at(started, -5 * MINUTE), to: at(started, 5 * MINUTE) },
        { from: at(started, 3 * MINUTE), to: at(started, 8 * MINUTE) },
        { from: at(started, 25 * MINUTE), to: at(started, 40 * MINUTE) },
      ]),
    ).toBe(13 * 60);
    expect(coveredSeconds(interval, [])).toBe(0);
  });
});

describe.each(kinds)('automatic time credit on %s', (kind) => {
  const api = useApi(kind);
  const freshHeartbeat = () => api.db.delete(serverHeartbeat);

  test('a server outage is credited once to the sittings it blocked, audited as the system', async () => {
    await freshHeartbeat();
    const t0 = api.clock.now();
    const running = await addSitting(api.db, { organization: {} });
    const waiting = await addClassmate(api.db, running);
    const finished = await addClassmate(api.db, running);
    const lab = terminal(api);
    const sitting = await lab.sit(running.loginCode);
    const doneLab = terminal(api);
    const done = await doneLab.sit(finished.loginCode);
    await doneLab.call('POST', '/api/exam/finish', done.token, { schedule_history_id: done.scheduleHistoryId });
    const finishedBefore = await historyRow(api.db, finished.scheduleHistoryId);

    expect(await beat(api.db, t0)).toEqual({ outage: null, credited: 0 });
    expect(await beat(api.db, at(t0, 15_000))).toEqual({ outage: null, credited: 0 });
    expect(await beat(api.db, at(t0, 60_000))).toEqual({ outage: null, credited: 0 });
    const down = at(t0, 60_000);
    const up = at(down, 5 * MINUTE);
    const result = await beat(api.db, up);
    expect(result.outage).toEqual({ from: down, to: up });
    expect(result.credited).toBeGreaterThanOrEqual(1);

    const deadline = at(new Date(sitting.deadlineAt), 5 * MINUTE);
    expect(await historyRow(api.db, sitting.scheduleHistoryId)).toMatchObject({ deadlineAt: deadline, extraSeconds: 300 });
    expect(await historyRow(api.db, finished.scheduleHistoryId)).toEqual(finishedBefore);
    expect(await historyRow(api.db, waiting.scheduleHistoryId)).toMatchObject({ status: S.PENDING, deadlineAt: null, extraSeconds: 0 });

    // Beating again (or a second process finding the same gap) credits nothing more.
    expect(await beat(api.db, up)).toEqual({ outage: null, credited: 0 });
    expect((await historyRow(api.db, sitting.scheduleHistoryId)).extraSeconds).toBe(300);

    // The terminal learns the new deadline from its heartbeat; the proctor sees the entry.
    api.clock.set(at(up, 1000));
    const heartbeat = v.parse(HeartbeatResponseSchema, (await lab.heartbeat(sitting.token, sitting.scheduleHistoryId)).body);
    expect(heartbeat.deadline_at).toBe(deadline.toISOString());
    const proctor = await addStaff(api.db, running);
    const audit = await api.call('GET', `/api/admin/audit?schedule=${running.scheduleCode}`, { token: await staffLogin(api, proctor) });
    expect(v.parse(AuditResponseSchema, audit.body).entries).toEqual([
      expect.objectContaining({
        actor: 'system',
        staff_name: null,
        action: 'outage_credit',
        schedule_history_id: sitting.scheduleHistoryId,
        at: up.toISOString(),
        detail: {
          seconds: 300,
          previous_deadline_at: sitting.deadlineAt,
          deadline_at: deadline.toISOString(),
          from: down.toISOString(),
          to: up.toISOString(),
        },
        reason: expect.stringMatching(/server was unavailable/),
      }),
    ]);
  });

  test('two processes beating at once after an outage: exactly one credits it', async () => {
    await freshHeartbeat();
    const t0 = api.clock.now();
    const pupil = await addSitting(api.db, { organization: {} });
    const sitting = await terminal(api).sit(pupil.loginCode);
    await beat(api.db, t0);
    const up = at(t0, 3 * MINUTE);

    const second = kind === 'postgres' ? await openDatabase({ databaseUrl: api.database.url! }) : undefined;
    try {
      const results = await Promise.all([beat(api.db, up), beat(second?.db ?? api.db, up), beat(api.db, up)]);
      expect(results.filter((r) => r.outage !== null)).toHaveLength(1);
    } finally {
      await second?.close();
    }
    expect((await historyRow(api.db, sitting.scheduleHistoryId)).extraSeconds).toBe(180);
    expect((await creditsOf(api, sitting.scheduleHistoryId)).map((e) => e.action)).toEqual(['outage_credit']);
  });

  test('a server restarted after an outage credits it at start, before any job runs', async () => {
    await freshHeartbeat();
    const clock = createFakeClock(api.clock.now());
    const pupil = await addSitting(api.db, { organization: {} });
    const sitting = await terminal(api).sit(pupil.loginCode);

    const first = startJobRunner({ db: api.db, clock, logger: silent, intervalMs: 3_600_000 });
    await first.stop();
    expect((await api.db.select().from(serverHeartbeat))[0]?.beatAt).toEqual(clock.now());

    clock.advance(10 * MINUTE); // the server was down for ten minutes
    const restarted = startJobRunner({ db: api.db, clock, logger: silent, intervalMs: 3_600_000 });
    await restarted.stop();
    expect(await historyRow(api.db, sitting.scheduleHistoryId)).toMatchObject({
      deadlineAt: at(new Date(sitting.deadlineAt), 10 * MINUTE),
      extraSeconds: 600,
    });
  });

  test('a deliberate jump of a movable clock (POST /test/clock) is not an outage', async () => {
    await freshHeartbeat();
    const clock = createFakeClock(api.clock.now());
    const pupil = await addSitting(api.db, { organization: {} });
    const sitting = await terminal(api).sit(pupil.loginCode);
    await beat(api.db, clock.now());
    await moveClockWithHeartbeat(api.db, clock, () => clock.advance(30 * MINUTE));
    expect(await beat(api.db, at(clock.now(), 15_000))).toEqual({ outage: null, credited: 0 });
    expect((await historyRow(api.db, sitting.scheduleHistoryId)).extraSeconds).toBe(0);
  });

  test('a maintenance window is credited once, as soon as it begins; a deadline inside it keeps the time that was left', async () => {
    const t0 = api.clock.now();
    const school = await addSitting(api.db, { organization: {} });
    const early = await addClassmate(api.db, school);
    const waiting = await addClassmate(api.db, school);
    // One pupil started 25 minutes before t0 (deadline t0 + 15 min), one at t0 (deadline t0 + 40 min).
    api.clock.set(at(t0, -25 * MINUTE));
    const earlySitting = await terminal(api).sit(early.loginCode);
    api.clock.set(t0);
    const lab = terminal(api);
    const sitting = await lab.sit(school.loginCode);
    const [window] = await api.db
      .insert(maintenanceWindows)
      .values({ startsAt: at(t0, 10 * MINUTE), endsAt: at(t0, 20 * MINUTE), note: 'test window' })
      .returning();

    try {
      expect(await creditMaintenanceWindows(api.db, at(t0, 5 * MINUTE))).toBe(0); // not begun yet
      expect(await creditMaintenanceWindows(api.db, at(t0, 10 * MINUTE + 1000))).toBeGreaterThanOrEqual(2);
      expect(await creditMaintenanceWindows(api.db, at(t0, 12 * MINUTE))).toBe(0);

      expect(await historyRow(api.db, sitting.scheduleHistoryId)).toMatchObject({ deadlineAt: at(t0, 50 * MINUTE), extraSeconds: 600 });
      // 5 minutes were left when the window began: they are there again when it ends.
      expect(await historyRow(api.db, earlySitting.scheduleHistoryId)).toMatchObject({ deadlineAt: at(t0, 25 * MINUTE), extraSeconds: 600 });
      expect(await historyRow(api.db, waiting.scheduleHistoryId)).toMatchObject({ deadlineAt: null, extraSeconds: 0 });
      const [entry] = await creditsOf(api, sitting.scheduleHistoryId);
      expect(entry).toMatchObject({
        action: 'maintenance_credit',
        staffId: null,
        creditKey: `maintenance:${window!.id}:${sitting.scheduleHistoryId}`,
        detail: { seconds: 600, from: at(t0, 10 * MINUTE).toISOString(), to: at(t0, 20 * MINUTE).toISOString() },
      });

      api.clock.set(at(t0, 21 * MINUTE)); // after the window: the terminal hears of its new deadline
      const heartbeat = v.parse(HeartbeatResponseSchema, (await lab.heartbeat(sitting.token, sitting.scheduleHistoryId)).body);
      expect(heartbeat.deadline_at).toBe(at(t0, 50 * MINUTE).toISOString());
    } finally {
      await api.db.delete(maintenanceWindows).where(eq(maintenanceWindows.id, window!.id));
    }
  });

  test('an outage during a maintenance window is not credited twice', async () => {
    await freshHeartbeat();
    const t0 = api.clock.now();
    const pupil = await addSitting(api.db, { organization: {} });
    const sitting = await terminal(api).sit(pupil.loginCode);
    await beat(api.db, t0);
    // The server was down from t0 to t0 + 12 min; a maintenance window ran from t0 + 2 to t0 + 7 min.
    const [window] = await api.db
      .insert(maintenanceWindows)
      .values({ startsAt: at(t0, 2 * MINUTE), endsAt: at(t0, 7 * MINUTE), note: 'inside the outage' })
      .returning();
    try {
      const up = at(t0, 12 * MINUTE);
      await beat(api.db, up);
      await creditMaintenanceWindows(api.db, up);
      expect((await historyRow(api.db, sitting.scheduleHistoryId)).extraSeconds).toBe(12 * 60);
      const credits = await creditsOf(api, sitting.scheduleHistoryId);
      expect(Object.fromEntries(credits.map((c) => [c.action, (c.detail as { seconds: number }).seconds]))).toEqual({
        outage_credit: 7 * 60,
        maintenance_credit: 5 * 60,
      });
    } finally {
      await api.db.delete(maintenanceWindows).where(eq(maintenanceWindows.id, window!.id));
    }
  });
});
