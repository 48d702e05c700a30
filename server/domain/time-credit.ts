/**
 * Automatic time credit (mission row 62): a sitting blocked through no fault of the pupil gets
 * the blocked time back on its deadline, once, audited as the system's action.
 *
 * Blocked time. A sitting runs from started_at to deadline_at; a blocking interval [from, to]
 * that begins before the deadline and ends after the start blocks it from max(from, started_at)
 * to `to`. That whole stretch is credited, even when the deadline fell inside it: the pupil
 * keeps the time they had left when the block began (the deadline moves past `to` by exactly
 * that much).
 *
 * - Maintenance windows (maintenance_windows; every call is refused DURING_MAINTENANCE inside
 *   one): credited as soon as the window has begun (so the new deadline is in place when the
 *   window ends, before any terminal can be refused TIME_END), to every DOING sitting it
 *   blocks. Key "maintenance:<window id>:<sitting id>"; a window edited after it was credited
 *   is not credited again.
 * - Server outages: every beat of a server process (the job runner's, every 15 s) moves the
 *   one server_heartbeat row to now. A beat that finds the previous one older than
 *   OUTAGE_THRESHOLD_MS knows no process ran in between, and credits [previous beat, now]
 *   (less any part a maintenance window covers: that is credited as maintenance) to every
 *   DOING sitting it blocked. Key "outage:<previous beat>:<sitting id>". The beat holds the
 *   heartbeat row's lock while it credits, so with several processes on one PostgreSQL
 *   exactly one of them credits a gap; the others then find a fresh beat.
 *
 * Idempotent by the audit entry's credit_key (a unique index): crediting again inserts nothing
 * and moves nothing. Each credit adds to the sitting's extra_seconds.
 */
import { and, eq, gt, lt, lte, sql } from 'drizzle-orm';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import type { Clock } from '../clock.ts';
import type { Db, Tx } from '../db/client.ts';
import { auditLog, maintenanceWindows, scheduleHistories, serverHeartbeat } from '../db/schema.ts';

/** A heartbeat older than this at the next beat means every process was down: an outage. */
export const OUTAGE_THRESHOLD_MS = 60_000;

const HEARTBEAT_ID = 1;

type Interval = { from: Date; to: Date };
type RunningSitting = { id: number; scheduleId: number; startedAt: Date; deadlineAt: Date };

/** The seconds a blocking interval takes from a sitting (see the module comment); 0 when it does not block it. */
export function blockedSeconds(sitting: { startedAt: Date; deadlineAt: Date }, block: Interval): number {
  if (!(block.from < sitting.deadlineAt && block.to > sitting.startedAt)) return 0;
  const from = Math.max(block.from.getTime(), sitting.startedAt.getTime());
  return Math.max(0, Math.ceil((block.to.getTime() - from) / 1000));
}

/** Seconds of [from, to] covered by the union of `windows`. */
export function coveredSeconds(interval: Interval, windows: readonly Interval[]): number {
  const clipped = windows
    .map((w) => ({ from: Math.max(w.from.getTime(), interval.from.getTime()), to: Math.min(w.to.getTime(), interval.to.getTime()) }))
    .filter((w) => w.to > w.from)
    .sort((a, b) => a.from - b.from);
  let covered = 0;
  let end = -Infinity;
  for (const w of clipped) {
    const start = Math.max(w.from, end);
    if (w.to > start) covered += w.to - start;
    end = Math.max(end, w.to);
  }
  return Math.floor(covered / 1000);
}

/**
 * Credits `seconds` to one sitting once (by creditKey), with its audit entry, inside `tx`.
 * Only a sitting still DOING is credited. Returns whether it was.
 */
async function creditOnce(
  tx: Tx,
  input: {
    sittingId: number;
    seconds: number;
    action: 'outage_credit' | 'maintenance_credit';
    creditKey: string;
    block: Interval;
    reason: string;
    now: Date;
  },
): Promise<boolean> {
  if (input.seconds <= 0) return false;
  const [sitting] = await tx
    .select({ scheduleId: scheduleHistories.scheduleId, deadlineAt: scheduleHistories.deadlineAt, status: scheduleHistories.status })
    .from(scheduleHistories)
    .where(eq(scheduleHistories.id, input.sittingId))
    .for('update');
  if (!sitting || sitting.status !== ScheduleHistoryStatus.DOING || sitting.deadlineAt === null) return false;
  const deadlineAt = new Date(sitting.deadlineAt.getTime() + input.seconds * 1000);
  const inserted = await tx
    .insert(auditLog)
    .values({
      at: input.now,
      staffId: null,
      action: input.action,
      scheduleId: sitting.scheduleId,
      scheduleHistoryId: input.sittingId,
      detail: {
        seconds: input.seconds,
        previous_deadline_at: sitting.deadlineAt.toISOString(),
        deadline_at: deadlineAt.toISOString(),
        from: input.block.from.toISOString(),
        to: input.block.to.toISOString(),
      },
      reason: input.reason,
      creditKey: input.creditKey,
    })
    .onConflictDoNothing({ target: auditLog.creditKey, where: sql`${auditLog.creditKey} is not null` })
    .returning({ id: auditLog.id });
  if (inserted.length === 0) return false;
  await tx
    .update(scheduleHistories)
    .set({ deadlineAt, extraSeconds: sql`${scheduleHistories.extraSeconds} + ${input.seconds}` })
    .where(eq(scheduleHistories.id, input.sittingId));
  return true;
}

/** DOING sittings whose running time [started_at, deadline_at] meets [from, to]. */
async function sittingsBlockedBy(tx: Tx, block: Interval): Promise<RunningSitting[]> {
  const rows = await tx
    .select({
      id: scheduleHistories.id,
      scheduleId: scheduleHistories.scheduleId,
      startedAt: scheduleHistories.startedAt,
      deadlineAt: scheduleHistories.deadlineAt,
    })
    .from(scheduleHistories)
    .where(
      and(
        eq(scheduleHistories.status, ScheduleHistoryStatus.DOING),
        lt(scheduleHistories.startedAt, block.to),
        gt(scheduleHistories.deadlineAt, block.from),
      ),
    );
  return rows.flatMap((r) => (r.startedAt && r.deadlineAt ? [{ ...r, startedAt: r.startedAt, deadlineAt: r.deadlineAt }] : []));
}

/** Credits every begun maintenance window to the DOING sittings it blocks; returns how many credits were made. */
export async function creditMaintenanceWindows(db: Db, now: Date): Promise<number> {
  const windows = await db
    .select({ id: maintenanceWindows.id, from: maintenanceWindows.startsAt, to: maintenanceWindows.endsAt })
    .from(maintenanceWindows)
    .where(
      and(
        lte(maintenanceWindows.startsAt, now),
        // Only windows a DOING sitting can still meet (an old window cannot have blocked one running now).
        sql`exists (select 1 from ${scheduleHistories} where ${scheduleHistories.status} = ${ScheduleHistoryStatus.DOING} and ${scheduleHistories.startedAt} < ${maintenanceWindows.endsAt} and ${scheduleHistories.deadlineAt} > ${maintenanceWindows.startsAt})`,
      ),
    );
  let credited = 0;
  for (const window of windows) {
    for (const sitting of await sittingsBlockedBy(db, window)) {
      const creditKey = `maintenance:${window.id}:${sitting.id}`;
      const done = await db.transaction((tx) =>
        creditOnce(tx, {
          sittingId: sitting.id,
          seconds: blockedSeconds(sitting, window),
          action: 'maintenance_credit',
          creditKey,
          block: window,
          reason: 'Time credited automatically: the service was in maintenance during the exam.',
          now,
        }),
      );
      if (done) credited++;
    }
  }
  return credited;
}

export type BeatResult = { outage: Interval | null; credited: number };

/**
 * One beat of a server process (see the module comment): moves the heartbeat to `now` and, when
 * the previous beat is older than the threshold, credits the gap. Never moves the heartbeat back.
 */
export async function beat(db: Db, now: Date, options: { thresholdMs?: number } = {}): Promise<BeatResult> {
  const thresholdMs = options.thresholdMs ?? OUTAGE_THRESHOLD_MS;
  return db.transaction(async (tx) => {
    await tx.insert(serverHeartbeat).values({ id: HEARTBEAT_ID, beatAt: now }).onConflictDoNothing();
    const [row] = await tx.select().from(serverHeartbeat).where(eq(serverHeartbeat.id, HEARTBEAT_ID)).for('update');
    if (!row) throw new Error('The server heartbeat row is missing');
    if (now <= row.beatAt) return { outage: null, credited: 0 };
    await tx.update(serverHeartbeat).set({ beatAt: now }).where(eq(serverHeartbeat.id, HEARTBEAT_ID));
    if (now.getTime() - row.beatAt.getTime() <= thresholdMs) return { outage: null, credited: 0 };

    const outage = { from: row.beatAt, to: now };
    const windows = await tx
      .select({ from: maintenanceWindows.startsAt, to: maintenanceWindows.endsAt })
      .from(maintenanceWindows)
      .where(and(lt(maintenanceWindows.startsAt, outage.to), gt(maintenanceWindows.endsAt, outage.from)));
    let credited = 0;
    for (const sitting of await sittingsBlockedBy(tx, outage)) {
      const blockedFrom = new Date(Math.max(outage.from.getTime(), sitting.startedAt.getTime()));
      const seconds = blockedSeconds(sitting, outage) - coveredSeconds({ from: blockedFrom, to: outage.to }, windows);
      const done = await creditOnce(tx, {
        sittingId: sitting.id,
        seconds,
        action: 'outage_credit',
        creditKey: `outage:${outage.from.toISOString()}:${sitting.id}`,
        block: outage,
        reason: 'Time credited automatically: the server was unavailable during the exam.',
        now,
      });
      if (done) credited++;
    }
    return { outage, credited };
  });
}

/**
 * Moves a movable clock without the jump counting as an outage (POST /test/clock): the move
 * happens while this holds the heartbeat row's lock, and the heartbeat follows it, so a beat
 * sees either the old time and beat, or the new time and the new beat.
 */
export async function moveClockWithHeartbeat(db: Db, clock: Clock, move: () => void): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(serverHeartbeat).values({ id: HEARTBEAT_ID, beatAt: clock.now() }).onConflictDoNothing();
    await tx.select().from(serverHeartbeat).where(eq(serverHeartbeat.id, HEARTBEAT_ID)).for('update');
    move();
    await tx.update(serverHeartbeat).set({ beatAt: clock.now() }).where(eq(serverHeartbeat.id, HEARTBEAT_ID));
  });
}
