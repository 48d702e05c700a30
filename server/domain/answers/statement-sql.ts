/**
 * The SQL the two statements of the save share (the one statement, statement.ts; the batch,
 * batch.ts): their parameters by name, and each rule of rules.ts written once as SQL over
 * named values. A rule's values come as SQL expressions: the one statement's placeholders
 * (`SAVE_PARAMETERS.sql.sittingId`, `$2::int`) or the batch's columns of its input rows
 * (`i.sitting_id`), so the rules read the same in both and no reader counts dollars.
 */
import { ScheduleHistoryStatus } from '../../../contract/enums.ts';
import { namedParameters } from '../../db/prepared.ts';

/** What a statement save is given, by name. */
export type SaveParameters = {
  /** SHA-256 of the bearer token (server/domain/tokens.ts). */
  tokenHash: string;
  sittingId: number;
  questionId: number;
  /** The question's exam: the sitting must be of it. */
  examId: number;
  value: string;
  answeredAt: Date;
  now: Date;
  idempotencyKey: string;
  /** The caller's X-Device-Token, or null. */
  deviceToken: string | null;
  /** The earliest deadline still inside the upload window (now - window). */
  windowFloor: Date;
  /** The latest start the answer time allows (answered_at + clock tolerance). */
  latestStart: Date;
  /** Contact older than this is marked again (now - CONTACT_GRANULARITY_MS). */
  contactFloor: Date;
};

/** The save's parameters in the order the statements take them (this object's key order). */
export const SAVE_PARAMETERS = namedParameters<SaveParameters>({
  tokenHash: 'text',
  sittingId: 'int',
  questionId: 'int',
  examId: 'int',
  value: 'text',
  answeredAt: 'timestamptz',
  now: 'timestamptz',
  idempotencyKey: 'text',
  deviceToken: 'text',
  windowFloor: 'timestamptz',
  latestStart: 'timestamptz',
  contactFloor: 'timestamptz',
});

/** Each named value as an SQL expression of the statement that uses it. */
export type SaveValuesSql = { readonly [K in keyof SaveParameters]: string };

/**
 * One row per statement save whose token is valid (none: the careful way tells why not).
 * `deadline_ms` (the deadline in epoch milliseconds, a float8: cheaper to read than a
 * timestamptz) is null unless every rule passed, and `saved` says whether this answer is now
 * the question's (0: a later one is held).
 */
export type SaveRow = {
  token_id: number;
  examinee_id: number;
  schedule_history_id: number | null;
  login_type: number | null;
  /** False: a token a proctor's move revoked (the terminal moved away from). */
  live: boolean;
  deadline_ms: number | null;
  saved: number;
};

/**
 * A token the save may come with, `t` in auth_tokens joined with its examinee `e`: unexpired,
 * examinee enabled, and live or revoked by a proctor's move (the terminal moved away from; `live` false).
 */
export function usableToken(v: SaveValuesSql): string {
  return `t.token_hash = ${v.tokenHash} and (t.revoked_at is null or t.revoked_reason = 'moved')
    and t.expires_at > ${v.now} and not e.disabled`;
}

/** The token's columns the save reads (`tok`). */
export const TOKEN_COLUMNS = 't.id, t.examinee_id, t.schedule_history_id, t.login_type, t.revoked_at is null as live';

/** A live token from the terminal that holds the sitting `h` (or from any, while none does and none was released). */
export function boundDevice(v: SaveValuesSql): string {
  return `(tok.live and (h.device_token = ${v.deviceToken} or (h.device_token is null and h.device_released_at is null)))`;
}

/** From a terminal the pupil was moved away from, given before that move (device_moves): this sitting only. */
function movedAwayBefore(v: SaveValuesSql): string {
  return `exists (select 1 from device_moves m where m.schedule_history_id = h.id and m.device_token = ${v.deviceToken}
      and m.moved_at > ${v.answeredAt})`;
}

/**
 * The sitting `h` takes this answer from the token `tok`: the token's own (and its login's
 * sitting), DOING, of the question's exam, from its terminal (or the one moved away from,
 * given before the move), given by the deadline, the deadline inside the upload window, the
 * answer time not before the start (beyond the clock tolerance), and the key new and not
 * archived by a reset.
 */
export function savableSitting(v: SaveValuesSql): string {
  return `h.id = ${v.sittingId} and h.examinee_id = tok.examinee_id
    and (tok.schedule_history_id is null or tok.schedule_history_id = h.id)
    and h.status = ${ScheduleHistoryStatus.DOING} and h.exam_id = ${v.examId}
    and (${boundDevice(v)} or ${movedAwayBefore(v)})
    and h.deadline_at >= ${v.answeredAt} and h.deadline_at >= ${v.windowFloor} and h.started_at <= ${v.latestStart}
    and not exists (select 1 from answers k where k.idempotency_key = ${v.idempotencyKey})
    and (not h.flag_retake
      or not exists (select 1 from answer_archive r where r.schedule_history_id = h.id and r.idempotency_key = ${v.idempotencyKey}))`;
}

/**
 * Stores the answer for each row of `from` (which names the savable sitting `sit`): the newest
 * answered_at wins (a later one held stays), late when it arrives after the deadline.
 */
export function storeAnswer(v: SaveValuesSql, from: string, returning: string): string {
  return `insert into answers as a (schedule_history_id, question_id, value, answered_at, received_at, idempotency_key, late)
  select sit.id, ${v.questionId}, ${v.value}, ${v.answeredAt}, ${v.now}, ${v.idempotencyKey}, ${v.now} > sit.deadline_at
  from ${from}
  on conflict (schedule_history_id, question_id) do update
    set value = excluded.value, answered_at = excluded.answered_at, received_at = excluded.received_at,
      idempotency_key = excluded.idempotency_key, late = excluded.late
    where excluded.answered_at > a.answered_at
  returning ${returning}`;
}

/** The deadline as `deadline_ms` (see SaveRow). */
export const DEADLINE_MS = '(extract(epoch from sit.deadline_at) * 1000)::float8 as deadline_ms';
