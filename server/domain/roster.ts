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
 * and the cursor carries the snapshot the answer's rows were read with (PostgreSQL's
 * `pg_current_snapshot()` in the statement that reads them, roster-sql.ts): a row changed since is
 * one whose version that snapshot does not see (`pg_visible_in_snapshot`), committed after it or
 * still running then. So a change that commits after the answer is never missed, one the answer
 * saw is not sent again, and a transaction left open anywhere in the cluster (snapshots are
 * cluster-wide: a backup of another database) costs a poll nothing. A snapshot with more running transactions than a cursor holds
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
import type { Db, Tx } from '../db/client.ts';
import { prepare, type PreparedStatement } from '../db/prepared.ts';
import { examinees, scheduleHistories, schedules, venues } from '../db/schema.ts';
import { DomainError } from './errors.ts';
import { byCode } from './lookups.ts';
import {
  CHANGES_PARAMETERS,
  FULL_PARAMETERS,
  rosterStatement,
  sittingRowText,
  type FullHeaderRow,
  type HeaderRow,
  type PupilRow,
  type RosterKind,
  type RosterRow,
  type RosterScope,
} from './roster-sql.ts';
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
  const row = await byCode(
    (match) =>
      tx
        .select(scheduleColumns)
        .from(schedules)
        .leftJoin(venues, eq(venues.id, schedules.venueId))
        .where(and(match, withinReach(principal, schedules.organizationId)))
        .orderBy(asc(schedules.id))
        .limit(1),
    schedules.scheduleCode,
    code,
  );
  if (!row) throw notFound('No such schedule.');
  return toStaffSchedule(row);
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

function pupilView(h: PupilRow, now: Date): RosterPupil {
  const state = rosterState(h, now);
  return {
    schedule_history_id: h.id,
    examinee_name: h.examineeName,
    login_code_hint: h.loginCode.slice(-4),
    venue: h.venueId === null || h.venueName === null ? null : { id: h.venueId, name: h.venueName },
    subject_id: h.subjectId,
    level_id: h.levelId,
    level_name: h.levelName,
    exam_title: h.examTitle,
    status: toStatus(h.status),
    state,
    question_index: h.questionIndex,
    question_count: h.questionCount,
    answers_saved: h.answersSaved,
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

/** Which sittings of the schedule are in the room (null: all of them); reads `examinees` (join it). */
export function roomWhere(schedule: StaffSchedule, venue: Venue | null): SQL {
  const inSchedule = eq(scheduleHistories.scheduleId, schedule.id);
  if (venue === null) return inSchedule;
  // The schedule's own venue also holds its pupils who have no classroom.
  const inRoom = schedule.venue?.id === venue.id ? or(eq(examinees.venueId, venue.id), isNull(examinees.venueId))! : eq(examinees.venueId, venue.id);
  return and(inSchedule, inRoom)!;
}

/** The largest bigint: a cursor beyond it is none this database gave (and no bigint to compare with). */
const INT8_MAX = 2n ** 63n - 1n;

type RosterInput = { code: string; venueId?: number | undefined; since?: string | undefined; now: Date; uploadWindowMs: number };

/** Each kind of answer's statement (roster-sql.ts), by scope and kind. */
const ROSTER_STATEMENTS = {
  room: { full: rosterStatement('room', 'full'), changes: rosterStatement('room', 'changes') },
  schedule: { full: rosterStatement('schedule', 'full'), changes: rosterStatement('schedule', 'changes') },
} satisfies Record<RosterScope, Record<RosterKind, { name: string; text: string }>>;

/** The prepared statement of one kind of answer on this database, its rows typed by the caller. */
function statementOf<Row>(db: Db, scope: RosterScope, kind: RosterKind): PreparedStatement<Row> {
  const statement = prepare<Row>(db, ROSTER_STATEMENTS[scope][kind]);
  // A transaction prepares nothing: the roster is read on the database handle itself.
  if (!statement) throw new Error('getRoster runs on the database handle, not in a transaction');
  return statement;
}

/** The header and the pupils of a roster statement's rows, or NOT_FOUND for a schedule or room that is not the staff member's. */
function readRows<Header extends HeaderRow>(rows: RosterRow<Header>[], venueId: number | undefined): { header: Header; venue: Venue | null; pupils: PupilRow[] } {
  const [first, ...rest] = rows;
  if (first?.part !== 0) throw notFound('No such schedule.');
  if (venueId !== undefined && (first.roomId === null || first.roomName === null)) throw notFound('No such room.');
  const venue = first.roomId === null || first.roomName === null ? null : { id: first.roomId, name: first.roomName };
  return { header: first, venue, pupils: rest as PupilRow[] };
}

function scheduleOf(header: HeaderRow): StaffSchedule {
  return toStaffSchedule({
    id: header.scheduleId,
    code: header.scheduleCode,
    name: header.scheduleName,
    startsAt: header.startsAt,
    endsAt: header.endsAt,
    venueId: header.scheduleVenueId,
    venueName: header.scheduleVenueName,
  });
}

/**
 * The roster of a schedule, optionally of one room: in full, or with `since` its changes after
 * that cursor (422 ROSTER_CURSOR_INVALID when it is not one this database gave); the caller adds
 * server_time. One prepared statement (roster-sql.ts) finds the schedule and the room, takes the
 * snapshot and reads the rows with it.
 */
export async function getRoster(db: Db, principal: StaffPrincipal, input: RosterInput & { since?: undefined }): Promise<Omit<RosterResponse, 'server_time'>>;
export async function getRoster(
  db: Db,
  principal: StaffPrincipal,
  input: RosterInput,
): Promise<Omit<RosterResponse, 'server_time'> | Omit<RosterChanges, 'server_time'>>;
export async function getRoster(
  db: Db,
  principal: StaffPrincipal,
  input: RosterInput,
): Promise<Omit<RosterResponse, 'server_time'> | Omit<RosterChanges, 'server_time'>> {
  const { now } = input;
  const cursor = input.since === undefined ? null : readCursor(input.since);
  const cursorXmax = cursor === null ? 0n : (cursor.snapshot?.xmax ?? cursor.xmin);
  if (cursorXmax > INT8_MAX) throw new DomainError('ROSTER_CURSOR_INVALID');
  const scope = input.venueId === undefined ? 'schedule' : 'room';
  const asked = {
    now,
    code: input.code,
    organizationId: principal.organizationId,
    // An id beyond any row's (MAX_ID) asks for a room no row is: 0.
    venueId: input.venueId === undefined ? null : input.venueId > MAX_ID ? 0 : input.venueId,
  };
  if (cursor !== null) {
    const rows = await statementOf<RosterRow<HeaderRow>>(db, scope, 'changes').run(
      CHANGES_PARAMETERS.values({
        ...asked,
        xmin: cursor.xmin.toString(),
        snapshot: cursor.snapshot === null ? null : snapshotText(cursor.snapshot),
        from: new Date(cursor.at - ROSTER_CURSOR_MARGIN_MS),
        to: now,
      }),
    );
    const { header, venue, pupils } = readRows(rows, input.venueId);
    const snapshot = parseSnapshot(header.snapshot);
    // A cursor this database gave never holds a transaction that has not begun yet.
    if (cursorXmax > snapshot.xmax || cursor.at > now.getTime() + 60_000) throw new DomainError('ROSTER_CURSOR_INVALID');
    return {
      kind: 'changes',
      since: input.since!,
      venue,
      pupils: pupils.map((row) => pupilView(row, now)),
      cursor: cursorOf(snapshot, now),
      upload_window_ms: input.uploadWindowMs,
    };
  }
  const rows = await statementOf<RosterRow<FullHeaderRow>>(db, scope, 'full').run(FULL_PARAMETERS.values(asked));
  const { header, venue, pupils } = readRows(rows, input.venueId);
  return {
    kind: 'full',
    schedule: scheduleView(scheduleOf(header), header.pupilCount),
    venue,
    rooms: header.rooms,
    pupils: pupils.map((row) => pupilView(row, now)),
    cursor: cursorOf(parseSnapshot(header.snapshot), now),
    upload_window_ms: input.uploadWindowMs,
  };
}

/** A roster row's instants: `tx.execute` leaves them as PostgreSQL's text (drizzle's drivers read timestamps so). */
const INSTANTS = ['startedAt', 'deadlineAt', 'finishedAt', 'deviceReleasedAt', 'lastContactAt', 'refusedElsewhereAt'] as const;

/** One pupil's roster row (the answer to an action), in the caller's transaction. */
export async function rosterPupil(tx: Tx, scheduleHistoryId: number, now: Date): Promise<RosterPupil> {
  // An ISO instant is plain text: written into the statement as a literal.
  const text = sittingRowText(`'${now.toISOString()}'::timestamptz`);
  const { rows } = (await tx.execute(sql`${sql.raw(text)} where sh.id = ${scheduleHistoryId}`)) as unknown as {
    rows: (Omit<PupilRow, (typeof INSTANTS)[number]> & Record<(typeof INSTANTS)[number], Date | string | null>)[];
  };
  const [row] = rows;
  if (!row) throw new Error(`No schedule history ${scheduleHistoryId}`);
  const instants = Object.fromEntries(INSTANTS.map((key) => [key, typeof row[key] === 'string' ? new Date(row[key]) : row[key]]));
  return pupilView({ ...row, ...instants } as PupilRow, now);
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

