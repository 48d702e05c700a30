/**
 * What a proctor sees: the schedules of their organisation and, per schedule (or per room), the
 * roster of pupils with each one's live state, derived here from the data at one instant
 * (contract/admin.ts, rosterStates):
 * - PENDING: `logged_in` while a live token (unrevoked, unexpired) covers the sitting, else
 *   `not_logged_in`. Live rather than "ever issued": a pupil who logged out, or whose tokens a
 *   retake revoked, is not logged in any more, and the roster should say so.
 * - DOING: `moving` after a proctor released the terminal and before Start on the new one;
 *   `time_up` once past the deadline; else `in_exam` when heard from within OFFLINE_AFTER_MS
 *   (30 s; a heartbeat or any successful exam call), `offline` otherwise.
 * - finished statuses: `finished` (with the receipt); cancelled: `cancelled`; EXPIRED: `expired`.
 *
 * Access: a schedule, venue or sitting outside the proctor's organisation is NOT_FOUND, exactly
 * like one that does not exist.
 *
 * A pupil's room is their classroom (`examinees.venue_id`), else their schedule's venue: a room's
 * roster reads that room's pupils through `examinees_venue_idx`, never the whole test period.
 *
 * The roster is polled (contract/admin.ts explains why not SSE): once in full, then for its
 * changes (`since`, a cursor). A sitting's `roster_version` is the transaction that last changed
 * what the roster shows of it (a trigger, migration 0013; a contact-only update changes nothing),
 * and the cursor carries the snapshot the answer was made with (PostgreSQL's `pg_current_snapshot()`,
 * taken before the rows are read): a row changed since is one whose version that snapshot does
 * not see (`pg_visible_in_snapshot`), committed after it or still running then. So a change that
 * commits after the answer is never missed, one the answer saw is not sent again (one that
 * commits between the snapshot and the read may come twice: a merge takes a row again), and a
 * transaction left open anywhere in the cluster (snapshots are cluster-wide: a backup of another
 * database) costs a poll nothing. A snapshot with more running transactions than a cursor holds
 * (ROSTER_CURSOR_MAX_LENGTH) gives the conservative cursor, its oldest running transaction alone:
 * every version from it on counts as changed. What the time alone moves (offline 30 s after
 * the last contact, time up at the deadline, a login's expiry) is found between the cursor's time
 * and now, and the answers saved by the time they were received; both look ROSTER_CURSOR_MARGIN_MS
 * further back, so a save stamped before the last answer but committed after it still counts.
 * Without `since`, `rosterEtag` gives a strong validator over the content (without server_time, the
 * cursor, nor the heartbeat instants of pupils in the exam).
 */
import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { and, asc, count, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  ROSTER_CURSOR_MAX_LENGTH,
  RosterCursorSchema,
  type AdminSchedule,
  type RosterChanges,
  type RosterPupil,
  type RosterResponse,
  type RosterState,
} from '../../contract/admin.ts';
import { OFFLINE_AFTER_MS } from '../../contract/presence.ts';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import type { Tx } from '../db/client.ts';
import { answers, authTokens, examinees, exams, levels, questions, scheduleHistories, schedules, venues } from '../db/schema.ts';
import { DomainError } from './errors.ts';
import { byCode } from './lookups.ts';
import { isFinished, toStatus } from './schedule-history.ts';
import { MAX_ID } from './sitting.ts';
import { withinReach, type StaffPrincipal } from './staff.ts';

const S = ScheduleHistoryStatus;

type Venue = { id: number; name: string };

export type StaffSchedule = {
  id: number;
  code: string;
  name: string;
  startsAt: Date;
  endsAt: Date;
  venue: Venue | null;
};

export function notFound(what = 'Not found.'): DomainError {
  return new DomainError('NOT_FOUND', what);
}

function scheduleView(schedule: StaffSchedule, pupilCount: number): AdminSchedule {
  return {
    code: schedule.code,
    name: schedule.name,
    starts_at: schedule.startsAt.toISOString(),
    ends_at: schedule.endsAt.toISOString(),
    venue: schedule.venue,
    pupil_count: pupilCount,
  };
}

const scheduleColumns = {
  id: schedules.id,
  code: schedules.scheduleCode,
  name: schedules.name,
  startsAt: schedules.startsAt,
  endsAt: schedules.endsAt,
  venueId: venues.id,
  venueName: venues.name,
};

function toStaffSchedule(row: { id: number; code: string; name: string; startsAt: Date; endsAt: Date; venueId: number | null; venueName: string | null }): StaffSchedule {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    venue: row.venueId === null || row.venueName === null ? null : { id: row.venueId, name: row.venueName },
  };
}

/** The staff member's organisation's schedule with this code (in any case: lookups.ts `byCode`), or NOT_FOUND. */
export async function findSchedule(tx: Tx, principal: StaffPrincipal, code: string): Promise<StaffSchedule> {
  return (await scheduleRoomAndSnapshot(tx, principal, code, undefined)).schedule;
}

/** A venue (room) of the staff member's organisation, or NOT_FOUND. */
export async function findVenue(tx: Tx, principal: StaffPrincipal, venueId: number): Promise<Venue> {
  if (venueId > MAX_ID) throw notFound('No such room.');
  const [row] = await tx
    .select({ id: venues.id, name: venues.name })
    .from(venues)
    .where(and(eq(venues.id, venueId), withinReach(principal, venues.organizationId)))
    .limit(1);
  if (!row) throw notFound('No such room.');
  return row;
}

/** The organisation's schedules: open ones first (the soonest to end first), then the others newest first. */
export async function listSchedules(tx: Tx, principal: StaffPrincipal, now: Date): Promise<AdminSchedule[]> {
  const rows = await tx
    .select({ ...scheduleColumns, pupilCount: count(scheduleHistories.id) })
    .from(schedules)
    .leftJoin(venues, eq(venues.id, schedules.venueId))
    .leftJoin(scheduleHistories, eq(scheduleHistories.scheduleId, schedules.id))
    .where(withinReach(principal, schedules.organizationId))
    .groupBy(schedules.id, venues.id);
  const isOpen = (r: { startsAt: Date; endsAt: Date }) => r.startsAt <= now && now <= r.endsAt;
  rows.sort((a, b) => {
    const open = Number(isOpen(b)) - Number(isOpen(a));
    if (open !== 0) return open;
    if (isOpen(a)) return a.endsAt.getTime() - b.endsAt.getTime() || a.id - b.id;
    return b.startsAt.getTime() - a.startsAt.getTime() || b.id - a.id;
  });
  return rows.map((r) => scheduleView(toStaffSchedule(r), r.pupilCount));
}

/** The row data a roster entry is derived from. */
type PupilRow = Awaited<ReturnType<typeof selectPupils>>[number];

/** A pupil's room (selectPupils). */
const pupilRoom = alias(venues, 'pupil_room');

function selectPupils(tx: Tx, where: SQL | undefined, now: Date) {
  const at = sql`${now.toISOString()}::timestamptz`;
  // Per paper rather than per pupil: a lateral join PostgreSQL memoizes by exam (a room sits a
  // few papers), where a subquery in the select list runs for every row.
  const questionCount = tx
    .select({ n: sql<number>`count(*)::int`.as('n') })
    .from(questions)
    .where(eq(questions.examId, scheduleHistories.examId))
    .as('question_count');
  return tx
    .select({
      history: {
        id: scheduleHistories.id,
        status: scheduleHistories.status,
        startedAt: scheduleHistories.startedAt,
        deadlineAt: scheduleHistories.deadlineAt,
        finishedAt: scheduleHistories.finishedAt,
        deviceToken: scheduleHistories.deviceToken,
        deviceReleasedAt: scheduleHistories.deviceReleasedAt,
        lastContactAt: scheduleHistories.lastContactAt,
        questionIndex: scheduleHistories.questionIndex,
        waitingAnswers: scheduleHistories.waitingAnswers,
        refusedElsewhereAt: scheduleHistories.refusedElsewhereAt,
        extraSeconds: scheduleHistories.extraSeconds,
        flagRetake: scheduleHistories.flagRetake,
        answerCount: scheduleHistories.answerCount,
        answersDigest: scheduleHistories.answersDigest,
      },
      examineeName: examinees.name,
      loginCode: examinees.loginCode,
      examTitle: exams.title,
      levelId: levels.id,
      levelName: levels.name,
      subjectId: levels.subjectId,
      // The pupil's room: their classroom, else the schedule's venue.
      venueId: sql<number | null>`coalesce(${examinees.venueId}, ${schedules.venueId})`,
      venueName: pupilRoom.name,
      questionCount: questionCount.n,
      answersSaved: sql<number>`(select count(*)::int from ${answers} where ${answers.scheduleHistoryId} = ${scheduleHistories.id} and ${answers.value} <> '')`,
      loggedIn: sql<boolean>`exists (select 1 from ${authTokens} where ${authTokens.revokedAt} is null and ${authTokens.expiresAt} > ${at} and (${authTokens.scheduleHistoryId} = ${scheduleHistories.id} or (${authTokens.scheduleHistoryId} is null and ${authTokens.examineeId} = ${scheduleHistories.examineeId})))`,
    })
    // The sitting's schedule, the pupil, the paper, the room and the paper's length.
    .from(scheduleHistories)
    .innerJoin(schedules, eq(schedules.id, scheduleHistories.scheduleId))
    .innerJoin(examinees, eq(examinees.id, scheduleHistories.examineeId))
    .innerJoin(exams, eq(exams.id, scheduleHistories.examId))
    .innerJoin(levels, eq(levels.id, exams.levelId))
    .leftJoin(pupilRoom, eq(pupilRoom.id, sql`coalesce(${examinees.venueId}, ${schedules.venueId})`))
    .innerJoinLateral(questionCount, sql`true`)
    .where(where)
    .orderBy(asc(examinees.name), asc(scheduleHistories.id));
}

/** A pupil's live state at `now` (see the module comment). */
export function rosterState(
  row: {
    status: number;
    deadlineAt: Date | null;
    deviceToken: string | null;
    deviceReleasedAt: Date | null;
    lastContactAt: Date | null;
    loggedIn: boolean;
  },
  now: Date,
): RosterState {
  const { status } = row;
  if (status === S.PENDING) return row.loggedIn ? 'logged_in' : 'not_logged_in';
  if (status === S.DOING) {
    if (row.deviceReleasedAt !== null && row.deviceToken === null) return 'moving';
    if (row.deadlineAt !== null && now > row.deadlineAt) return 'time_up';
    const heard = row.lastContactAt !== null && now.getTime() - row.lastContactAt.getTime() <= OFFLINE_AFTER_MS;
    return heard ? 'in_exam' : 'offline';
  }
  if (status === S.CANCELED_PENDING || status === S.CANCELED_COMPLETED) return 'cancelled';
  if (status === S.EXPIRED) return 'expired';
  if (isFinished(status)) return 'finished';
  throw new Error(`Not a schedule history status: ${status}`);
}

function pupilView(row: PupilRow, now: Date): RosterPupil {
  const h = row.history;
  const state = rosterState({ ...h, loggedIn: Boolean(row.loggedIn) }, now);
  return {
    schedule_history_id: h.id,
    examinee_name: row.examineeName,
    login_code_hint: row.loginCode.slice(-4),
    venue: row.venueId === null || row.venueName === null ? null : { id: row.venueId, name: row.venueName },
    subject_id: row.subjectId,
    level_id: row.levelId,
    level_name: row.levelName,
    exam_title: row.examTitle,
    status: toStatus(h.status),
    state,
    question_index: h.questionIndex,
    question_count: Number(row.questionCount),
    answers_saved: Number(row.answersSaved),
    waiting_answers: h.status === S.DOING ? h.waitingAnswers : 0,
    refused_elsewhere_at: h.status === S.DOING ? (h.refusedElsewhereAt?.toISOString() ?? null) : null,
    last_contact_at: h.lastContactAt?.toISOString() ?? null,
    started_at: h.startedAt?.toISOString() ?? null,
    deadline_at: h.deadlineAt?.toISOString() ?? null,
    extra_seconds: h.extraSeconds,
    device_bound: h.deviceToken !== null,
    flag_retake: h.flagRetake,
    receipt:
      isFinished(h.status) && h.finishedAt !== null && h.answerCount !== null && h.answersDigest !== null
        ? { answer_count: h.answerCount, digest: h.answersDigest, finished_at: h.finishedAt.toISOString() }
        : null,
  };
}

/**
 * How much further back than its time a cursor looks for answers received and for states the
 * time moved: a save or heartbeat is stamped with its request's time and may commit a little
 * later, after an answer made meanwhile (a save's p99 is about 0.1 s on exam day, docs/performance.md).
 * A save that commits more than this after its request began is counted at the pupil's next
 * change. Every answer received within it comes again in the next poll (two or three polls at
 * ROSTER_POLL_MS), so it is kept short.
 */
export const ROSTER_CURSOR_MARGIN_MS = 2_000;

/**
 * A transaction snapshot (PostgreSQL's `pg_snapshot`): every transaction before `xmin` had ended,
 * none from `xmax` on had begun, and `xip` (ascending, within them) were running.
 */
export type RosterSnapshot = { xmin: bigint; xmax: bigint; xip: bigint[] };

/**
 * A cursor as the server reads it: the answer's time (ms) and its snapshot, or (the conservative
 * form) only the snapshot's `xmin`: every version from it on counts as changed.
 */
export type RosterCursorParts = { at: number; xmin: bigint; snapshot: RosterSnapshot | null };

/**
 * The cursor of an answer made at `now` with `snapshot`: `<xmin>.<ms>.<xmax - xmin>` and, when
 * transactions were running, `.<each - xmin, joined by _>`; the conservative `<xmin>.<ms>` when
 * that is longer than ROSTER_CURSOR_MAX_LENGTH (a great many running at once).
 */
export function cursorOf(snapshot: RosterSnapshot, now: Date): string {
  const conservative = `${snapshot.xmin}.${now.getTime()}`;
  const running = snapshot.xip.map((xid) => (xid - snapshot.xmin).toString()).join('_');
  const exact = `${conservative}.${snapshot.xmax - snapshot.xmin}${running === '' ? '' : `.${running}`}`;
  return exact.length <= ROSTER_CURSOR_MAX_LENGTH && v.is(RosterCursorSchema, exact) ? exact : conservative;
}

/** `since` as the server reads it, or 422 ROSTER_CURSOR_INVALID when it is not a cursor's shape. */
export function readCursor(since: string): RosterCursorParts {
  if (!v.is(RosterCursorSchema, since)) throw new DomainError('ROSTER_CURSOR_INVALID');
  const [xminText, atText, span, running] = since.split('.') as [string, string, string?, string?];
  const xmin = BigInt(xminText);
  const at = Number(atText);
  if (span === undefined) return { at, xmin, snapshot: null };
  const xmax = xmin + BigInt(span);
  const xip = running === undefined ? [] : running.split('_').map((offset) => xmin + BigInt(offset));
  // As PostgreSQL writes a snapshot: the running ones ascending, from xmin and before xmax.
  if (xip.some((xid, i) => xid >= xmax || (i > 0 && xid <= xip[i - 1]!))) throw new DomainError('ROSTER_CURSOR_INVALID');
  return { at, xmin, snapshot: { xmin, xmax, xip } };
}

/** The snapshot's text as PostgreSQL reads a `pg_snapshot`: `xmin:xmax:xip,...`. */
function snapshotText(snapshot: RosterSnapshot): string {
  return `${snapshot.xmin}:${snapshot.xmax}:${snapshot.xip.join(',')}`;
}

/** A `pg_snapshot`'s text (`xmin:xmax:xip,...`) read. */
function parseSnapshot(text: string): RosterSnapshot {
  const match = /^(\d+):(\d+):([\d,]*)$/.exec(text);
  if (!match) throw new Error(`Not a snapshot: ${text}`);
  const xip = match[3] === '' ? [] : match[3]!.split(',').map(BigInt);
  return { xmin: BigInt(match[1]!), xmax: BigInt(match[2]!), xip: xip.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) };
}

const askedRoom = alias(venues, 'asked_room');

/**
 * The staff member's organisation's schedule with this code (in any case: lookups.ts `byCode`),
 * or NOT_FOUND; in the same statement, what a roster answer reads before its rows: the room asked
 * for (as findVenue; null when none is) and the current snapshot (`pg_current_snapshot()`).
 */
async function scheduleRoomAndSnapshot(
  tx: Tx,
  principal: StaffPrincipal,
  code: string,
  venueId: number | undefined,
): Promise<{ schedule: StaffSchedule; venue: Venue | null; snapshot: RosterSnapshot }> {
  const asked = venueId === undefined || venueId > MAX_ID ? sql`false` : and(eq(askedRoom.id, venueId), withinReach(principal, askedRoom.organizationId))!;
  const row = await byCode(
    (match) =>
      tx
        .select({ ...scheduleColumns, roomId: askedRoom.id, roomName: askedRoom.name, snapshot: sql<string>`pg_current_snapshot()::text` })
        .from(schedules)
        .leftJoin(venues, eq(venues.id, schedules.venueId))
        .leftJoin(askedRoom, asked)
        .where(and(match, withinReach(principal, schedules.organizationId)))
        .orderBy(asc(schedules.id))
        .limit(1),
    schedules.scheduleCode,
    code,
  );
  if (!row) throw notFound('No such schedule.');
  if (venueId !== undefined && (row.roomId === null || row.roomName === null)) throw notFound('No such room.');
  const venue = row.roomId === null || row.roomName === null ? null : { id: row.roomId, name: row.roomName };
  return { schedule: toStaffSchedule(row), venue, snapshot: parseSnapshot(row.snapshot) };
}

/** Which sittings of the schedule are in the room (null: all of them); reads `examinees` (join it). */
export function roomWhere(schedule: StaffSchedule, venue: Venue | null): SQL {
  const inSchedule = eq(scheduleHistories.scheduleId, schedule.id);
  if (venue === null) return inSchedule;
  // The schedule's own venue also holds its pupils who have no classroom.
  const inRoom = schedule.venue?.id === venue.id ? or(eq(examinees.venueId, venue.id), isNull(examinees.venueId))! : eq(examinees.venueId, venue.id);
  return and(inSchedule, inRoom)!;
}

/** The sittings whose row may have changed between the cursor and `now` (see the module comment). */
function changedSince(cursor: RosterCursorParts, now: Date): SQL {
  const iso = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;
  const from = cursor.at - ROSTER_CURSOR_MARGIN_MS;
  const to = now.getTime();
  const h = scheduleHistories;
  // A version before xmin is seen by every snapshot: the range leaves those out before the test.
  const unseen =
    cursor.snapshot === null
      ? sql`${h.rosterVersion} >= ${cursor.xmin.toString()}::bigint`
      : sql`(${h.rosterVersion} >= ${cursor.xmin.toString()}::bigint and not pg_visible_in_snapshot(${h.rosterVersion}::text::xid8, ${snapshotText(cursor.snapshot)}::pg_snapshot))`;
  return sql`(${unseen}
    or (${h.status} = ${S.DOING} and ${h.lastContactAt} >= ${iso(from - OFFLINE_AFTER_MS)} and ${h.lastContactAt} <= ${iso(to - OFFLINE_AFTER_MS)})
    or (${h.status} = ${S.DOING} and ${h.deadlineAt} >= ${iso(from)} and ${h.deadlineAt} <= ${iso(to)})
    or exists (select 1 from ${answers} where ${answers.scheduleHistoryId} = ${h.id} and ${answers.receivedAt} > ${iso(from)})
    or (${h.status} = ${S.PENDING} and exists (select 1 from ${authTokens} where ${authTokens.expiresAt} > ${iso(from)} and ${authTokens.expiresAt} <= ${iso(to)}
      and (${authTokens.scheduleHistoryId} = ${h.id} or (${authTokens.scheduleHistoryId} is null and ${authTokens.examineeId} = ${h.examineeId})))))`;
}

/** The rooms the schedule's pupils sit in, by name. */
async function roomsOfSchedule(tx: Tx, scheduleId: number): Promise<Venue[]> {
  return tx
    .selectDistinct({ id: venues.id, name: venues.name })
    .from(scheduleHistories)
    .innerJoin(schedules, eq(schedules.id, scheduleHistories.scheduleId))
    .innerJoin(examinees, eq(examinees.id, scheduleHistories.examineeId))
    .innerJoin(venues, eq(venues.id, sql`coalesce(${examinees.venueId}, ${schedules.venueId})`))
    .where(eq(scheduleHistories.scheduleId, scheduleId))
    .orderBy(asc(venues.name), asc(venues.id));
}

type RosterInput = { code: string; venueId?: number | undefined; since?: string | undefined; now: Date; uploadWindowMs: number };

/**
 * The roster of a schedule, optionally of one room: in full, or with `since` its changes after
 * that cursor (422 ROSTER_CURSOR_INVALID when it is not one this database gave); the caller adds
 * server_time.
 */
export async function getRoster(tx: Tx, principal: StaffPrincipal, input: RosterInput & { since?: undefined }): Promise<Omit<RosterResponse, 'server_time'>>;
export async function getRoster(
  tx: Tx,
  principal: StaffPrincipal,
  input: RosterInput,
): Promise<Omit<RosterResponse, 'server_time'> | Omit<RosterChanges, 'server_time'>>;
export async function getRoster(
  tx: Tx,
  principal: StaffPrincipal,
  input: RosterInput,
): Promise<Omit<RosterResponse, 'server_time'> | Omit<RosterChanges, 'server_time'>> {
  const cursor = input.since === undefined ? null : readCursor(input.since);
  // The snapshot is taken before the rows are read: whatever it does not see is after the cursor.
  const { schedule, venue, snapshot } = await scheduleRoomAndSnapshot(tx, principal, input.code, input.venueId);
  // A cursor this database gave never holds a transaction that has not begun yet.
  const cursorXmax = cursor === null ? 0n : (cursor.snapshot?.xmax ?? cursor.xmin);
  if (cursor !== null && (cursorXmax > snapshot.xmax || cursor.at > input.now.getTime() + 60_000)) throw new DomainError('ROSTER_CURSOR_INVALID');
  const room = roomWhere(schedule, venue);
  const next = cursorOf(snapshot, input.now);
  if (cursor !== null) {
    const rows = await selectPupils(tx, and(room, changedSince(cursor, input.now)), input.now);
    return {
      kind: 'changes',
      since: input.since!,
      venue,
      pupils: rows.map((row) => pupilView(row, input.now)),
      cursor: next,
      upload_window_ms: input.uploadWindowMs,
    };
  }
  const rows = await selectPupils(tx, room, input.now);
  const [total] = await tx.select({ n: count() }).from(scheduleHistories).where(eq(scheduleHistories.scheduleId, schedule.id));
  return {
    kind: 'full',
    schedule: scheduleView(schedule, total?.n ?? 0),
    venue,
    rooms: await roomsOfSchedule(tx, schedule.id),
    pupils: rows.map((row) => pupilView(row, input.now)),
    cursor: next,
    upload_window_ms: input.uploadWindowMs,
  };
}

/** One pupil's roster row (the answer to an action). */
export async function rosterPupil(tx: Tx, scheduleHistoryId: number, now: Date): Promise<RosterPupil> {
  const [row] = await selectPupils(tx, eq(scheduleHistories.id, scheduleHistoryId), now);
  if (!row) throw new Error(`No schedule history ${scheduleHistoryId}`);
  return pupilView(row, now);
}

/**
 * A strong ETag over what the roster tells a proctor (never over server_time). Left out: the
 * last contact of a pupil whose state is `in_exam`. Every terminal in the exam beats every
 * 10 s (contract/presence.ts), so with that instant in the ETag a class of any size changed
 * the roster between every two polls, and every poll downloaded and re-rendered it although
 * nothing a proctor reads had changed: `in_exam` already says "heard from within
 * OFFLINE_AFTER_MS as of this answer", and the page says so (machines/proctor/proctor.selectors.ts).
 * The body still carries the instant. The roster changes (new ETag) when the state does (the
 * pupil goes offline: from then on the last contact is in the ETag, and it moves only when the
 * pupil is heard from again, which makes them `in_exam`), and on every question, answer,
 * deadline or other field that moves.
 */
export function rosterEtag(roster: Omit<RosterResponse, 'server_time'>): string {
  const { cursor: _cursor, ...content } = roster;
  const stable = {
    ...content,
    pupils: roster.pupils.map((pupil) => (pupil.state === 'in_exam' ? { ...pupil, last_contact_at: null } : pupil)),
  };
  return `"${createHash('sha256').update(JSON.stringify(stable)).digest('base64url')}"`;
}

