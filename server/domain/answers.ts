/**
 * Saving one answer while the exam is DOING.
 *
 * Promises:
 * - Idempotent by the client's key: the same key with the same answer is acknowledged again,
 *   even after Finish; the same key with a different answer is refused (ER_DUP_ENTRY).
 * - One answer per question; the one with the latest answered_at wins, whatever order they
 *   arrive in.
 * - Time: an answer given after the deadline is refused (TIME_END). One given before the
 *   deadline but arriving after it (a terminal that was offline) is accepted within the upload
 *   window and flagged `late`; after the window it is refused too.
 * - The value is in its question type's encoding (contract, QuestionTypeSchema): a single-choice
 *   answer names one of its choices, a number answer is a normalised keypad number, an ordering
 *   answer lists every block id of its question once. An empty value clears the answer.
 *   Otherwise VALIDATION_ERROR (422) on `value`, rule `invalid`.
 * - Nothing is written unless every check passes.
 * - An answer whose key belongs to an attempt an administrator reset (answer_archive) is refused
 *   with ARCHIVE_KEY (seed section 8): it is kept in the archive, never taken into the new attempt.
 * - A terminal a proctor moved the pupil away from (device_moves, server/domain/proctor.ts) may
 *   still deliver what it holds: with its token (revoked by the move) and its X-Device-Token, an
 *   answer of that sitting whose answered_at is not after the move is taken by the same rules
 *   (DOING, deadline and upload window, newest answered_at wins, idempotency); one given after
 *   the move, for another sitting, or from another terminal is refused INCORRECT_DEVICE. It never
 *   moves the deadline, never reopens a finished sitting and never marks contact (the roster's
 *   contact is the new terminal's).
 * - The outcome says how it was taken (saved, duplicate, superseded with the value held instead)
 *   and carries the deadline as it stands, so a terminal learns of extensions with every save.
 *
 * Two ways to the same rules:
 * - `saveAnswerAtOnce`, the usual one: ONE prepared statement (server/db/prepared.ts) checks
 *   the token (live, not revoked or expired, examinee enabled), the sitting (the caller's own,
 *   DOING, bound to this terminal or to none, before the deadline and inside the upload
 *   window, of the question's exam), that the key is new and not archived by a reset, then
 *   stores the answer (newest answered_at wins) and marks contact for the proctor roster. On
 *   PostgreSQL the sitting's row is updated in that statement, so it is locked against a
 *   concurrent Finish, reset or move as the share lock of the careful way locks it (PGlite runs
 *   one statement at a time). A revocation, a reset or a move committed by any process is seen
 *   by the next save: nothing of the token or the sitting is kept between calls. The question's
 *   exam, type and choices are read once per process (the seed writes questions; nothing
 *   changes them afterwards). On PostgreSQL, the saves that arrive while the database is busy
 *   go to it together as ONE statement of the same rules row by row (`SAVE_ANSWERS`,
 *   sent by server/db/batching.ts): on exam day the commit, the round trip and the driver's
 *   work are paid once for many saves. Each save still gets its own outcome, or its own refusal.
 * - `saveAnswer`, the careful one: whenever the one statement does not store the answer (a
 *   resend, a refusal of any kind, a sitting a proctor released), the route takes this way,
 *   which decides and names the refusal in the order above. Nothing was written by then.
 */
import { and, eq, gt, sql } from 'drizzle-orm';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import { isPastUploadWindow } from '../../contract/exam.ts';
import type { Db, Tx } from '../db/client.ts';
import { createBatcher, type Batcher } from '../db/batching.ts';
import { driverOf, prepare, type PreparedStatement, type StatementValue } from '../db/prepared.ts';
import { answerArchive, answers, deviceMoves, questions } from '../db/schema.ts';
import { DomainError, invalidField, isUniqueViolation } from './errors.ts';
import { isPermutationOf, isWellFormedNumber } from './scoring.ts';
import { answeringRefusal } from './schedule-history.ts';
import { loadOwnSitting, MAX_ID } from './sitting.ts';
import { hashToken, TOKEN_PATTERN, type Principal } from './tokens.ts';

/** How far a client's answered_at may stray from the server's view (its clock offset is estimated). */
export const CLOCK_TOLERANCE_MS = 2 * 60_000;

export type SaveAnswerInput = {
  scheduleHistoryId: number;
  questionId: number;
  value: string;
  idempotencyKey: string;
  answeredAt: Date;
};

/**
 * saved: stored as the question's current answer; duplicate: this key was already stored;
 * superseded: acknowledged, but a later answer to the same question is already held, whose value
 * is `currentValue` (another window or terminal of the pupil answered it later). `deadlineAt`: the
 * sitting's deadline as it stands now (extensions and time credits move it).
 */
export type SaveAnswerOutcome = {
  outcome: 'saved' | 'duplicate' | 'superseded';
  late: boolean;
  deadlineAt: Date;
  currentValue?: string;
};

/** Whether this key is an archived answer of the sitting (one reset attempt's). */
async function isArchivedKey(tx: Tx, scheduleHistoryId: number, key: string): Promise<boolean> {
  const [row] = await tx
    .select({ key: answerArchive.idempotencyKey })
    .from(answerArchive)
    .where(and(eq(answerArchive.scheduleHistoryId, scheduleHistoryId), eq(answerArchive.idempotencyKey, key)))
    .limit(1);
  return row !== undefined;
}

/** Whether `deviceToken` is a terminal the pupil was moved away from after `answeredAt` (device_moves). */
async function isMovedAwayBefore(tx: Tx, scheduleHistoryId: number, deviceToken: string | undefined, answeredAt: Date): Promise<boolean> {
  if (deviceToken === undefined) return false;
  const [row] = await tx
    .select({ movedAt: deviceMoves.movedAt })
    .from(deviceMoves)
    .where(
      and(
        eq(deviceMoves.scheduleHistoryId, scheduleHistoryId),
        eq(deviceMoves.deviceToken, deviceToken),
        gt(deviceMoves.movedAt, answeredAt),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * `movedAwayDevice`: the caller's token was revoked by a proctor's move (tokens.ts,
 * authenticateMovedAway); this is its X-Device-Token, and only an answer given before the move
 * away from it is taken (else INCORRECT_DEVICE). Without it the caller's device was checked already.
 */
export async function saveAnswer(
  db: Db,
  principal: Principal,
  input: SaveAnswerInput,
  context: { now: Date; uploadWindowMs: number; movedAwayDevice?: { deviceToken: string | undefined } },
): Promise<SaveAnswerOutcome> {
  const { now } = context;
  try {
    return await db.transaction(async (tx) => {
      // A share lock lets a pupil's answers run side by side, but not alongside Finish.
      const sitting = await loadOwnSitting(tx, principal, input.scheduleHistoryId, 'share');
      const { history } = sitting;
      if (
        context.movedAwayDevice &&
        !(await isMovedAwayBefore(tx, history.id, context.movedAwayDevice.deviceToken, input.answeredAt))
      ) {
        throw new DomainError('INCORRECT_DEVICE', 'A proctor moved this exam to another terminal.');
      }

      const [previous] = await tx
        .select()
        .from(answers)
        .where(eq(answers.idempotencyKey, input.idempotencyKey))
        .limit(1);
      if (previous) {
        const same =
          previous.scheduleHistoryId === history.id &&
          previous.questionId === input.questionId &&
          previous.value === input.value &&
          previous.answeredAt.getTime() === input.answeredAt.getTime();
        if (!same) throw duplicateKey();
        if (!history.deadlineAt) throw new Error(`Sitting ${history.id} holds answers without a deadline`);
        return { outcome: 'duplicate', late: previous.late, deadlineAt: history.deadlineAt };
      }
      // An answer of an attempt an administrator reset (its key was archived with it): resent
      // from a terminal's outbox after the new login, it must not enter the new attempt. Only a
      // sitting that was reset has archived keys, so other saves pay nothing for this.
      if (history.flagRetake && (await isArchivedKey(tx, history.id, input.idempotencyKey))) {
        throw new DomainError('ARCHIVE_KEY', 'This answer belongs to an attempt an administrator reset.');
      }

      const refusal = answeringRefusal(history.status);
      if (refusal) throw new DomainError(refusal);
      const { startedAt, deadlineAt } = history;
      if (!startedAt || !deadlineAt) throw new Error(`Sitting ${history.id} is DOING without a deadline`);

      const question = input.questionId <= MAX_ID
        ? (
            await tx
              .select({ type: questions.type, choices: questions.choices, blocks: questions.blocks })
              .from(questions)
              .where(and(eq(questions.id, input.questionId), eq(questions.examId, history.examId)))
              .limit(1)
          )[0]
        : undefined;
      if (!question) throw invalidField('question_id', 'This question is not part of the exam.');
      const malformed = answerFormatProblem(question, input.value);
      if (malformed) throw invalidField('value', malformed);

      const answeredAt = input.answeredAt.getTime();
      if (answeredAt > deadlineAt.getTime()) throw new DomainError('TIME_END', 'The time for this exam is over.');
      if (isPastUploadWindow(deadlineAt, now, context.uploadWindowMs)) {
        throw new DomainError('TIME_END', 'Answers for this exam can no longer be sent.');
      }
      if (answeredAt < startedAt.getTime() - CLOCK_TOLERANCE_MS || answeredAt > now.getTime() + CLOCK_TOLERANCE_MS) {
        throw invalidField('answered_at', 'The answer time is outside the exam.');
      }
      const late = now.getTime() > deadlineAt.getTime();

      const stored = await tx
        .insert(answers)
        .values({
          scheduleHistoryId: history.id,
          questionId: input.questionId,
          value: input.value,
          answeredAt: input.answeredAt,
          receivedAt: now,
          idempotencyKey: input.idempotencyKey,
          late,
        })
        .onConflictDoUpdate({
          target: [answers.scheduleHistoryId, answers.questionId],
          set: {
            value: sql`excluded.value`,
            answeredAt: sql`excluded.answered_at`,
            receivedAt: sql`excluded.received_at`,
            idempotencyKey: sql`excluded.idempotency_key`,
            late: sql`excluded.late`,
          },
          setWhere: sql`excluded.answered_at > ${answers.answeredAt}`,
        })
        .returning({ id: answers.id });
      if (stored.length > 0) return { outcome: 'saved', late, deadlineAt };
      // Superseded: the answer held instead, so the window that sent this one can show it (rare: one more read).
      const [held] = await tx
        .select({ value: answers.value })
        .from(answers)
        .where(and(eq(answers.scheduleHistoryId, history.id), eq(answers.questionId, input.questionId)))
        .limit(1);
      return { outcome: 'superseded', late, deadlineAt, ...(held ? { currentValue: held.value } : {}) };
    });
  } catch (error) {
    // Two requests racing with one key for different questions: the database's unique key decides.
    if (isUniqueViolation(error)) throw duplicateKey();
    throw error;
  }
}

/** What a save needs of its question: written by the seed, never changed afterwards. */
type QuestionFacts = {
  examId: number;
  type: string;
  choices: readonly { id: string }[];
  blocks: readonly { id: string }[];
};

/** Per database (tests open several in one process), per question id; only questions that exist. */
const questionFacts = new WeakMap<Db, Map<number, QuestionFacts>>();

async function questionOf(db: Db, questionId: number): Promise<QuestionFacts | undefined> {
  let known = questionFacts.get(db);
  if (!known) questionFacts.set(db, (known = new Map()));
  const cached = known.get(questionId);
  if (cached) return cached;
  const [row] = await db
    .select({ examId: questions.examId, type: questions.type, choices: questions.choices, blocks: questions.blocks })
    .from(questions)
    .where(eq(questions.id, questionId))
    .limit(1);
  if (!row) return undefined;
  const facts: QuestionFacts = {
    examId: row.examId,
    type: row.type,
    choices: row.choices.map((c) => ({ id: c.id })),
    blocks: row.blocks.map((b) => ({ id: b.id })),
  };
  known.set(questionId, facts);
  return facts;
}

/**
 * How often a save marks contact (the roster calls a pupil offline after 30 s without, and the
 * heartbeat marks it every 10 s): a save whose sitting's last contact is younger leaves the row
 * as it is, so nearly every save writes one row (its answer), not two.
 */
export const CONTACT_GRANULARITY_MS = 1000;

/**
 * The rules the statements share, as SQL. A token the save may come with: live, or revoked by a
 * proctor's move (the terminal moved away from; `live` false).
 */
function usableToken(t: string): string {
  return `(${t}.revoked_at is null or ${t}.revoked_reason = 'moved')`;
}

/** A live token from the terminal that holds the sitting (or from any, while none does and none was released). */
function boundDevice(tok: string, h: string, device: string): string {
  return `(${tok}.live and (${h}.device_token = ${device} or (${h}.device_token is null and ${h}.device_released_at is null)))`;
}

/** From a terminal the pupil was moved away from, given before that move (device_moves): this sitting only. */
function movedAwayBefore(h: string, device: string, answeredAt: string): string {
  return `exists (select 1 from device_moves m where m.schedule_history_id = ${h}.id and m.device_token = ${device}
      and m.moved_at > ${answeredAt})`;
}

/**
 * The whole save as one statement. Parameters: $1 token hash, $2 sitting, $3 question, $4 the
 * question's exam, $5 value, $6 answered_at, $7 now, $8 idempotency key, $9 device token (or
 * null), $10 the earliest deadline still inside the upload window (now - window), $11 the
 * latest start the answer time allows (answered_at + clock tolerance), $12 contact older than
 * this is marked again (now - CONTACT_GRANULARITY_MS).
 * One row when the token is valid (no row: the careful way tells why not); `deadline_ms` (the
 * deadline in epoch milliseconds, a float8: cheaper to read than a timestamptz) is null unless
 * every rule passed, and `saved` says whether this answer is now the question's (0: a later one
 * is held).
 * - PostgreSQL: the statement reads the sitting's row FOR NO KEY UPDATE, the row lock an UPDATE
 *   of it takes: that is its lock. Under a concurrent Finish, reset, move, extension or time
 *   credit (each an UPDATE of the row, or FOR UPDATE) it waits, then checks its conditions
 *   again on the row as that left it (read committed's recheck of a locked row), so no answer
 *   lands in a finished or reset sitting; the careful way's FOR SHARE waits for it and it for
 *   that. The lock writes no new version of the row, where an UPDATE on every save did (a row
 *   version, its WAL and its cleanup per save); the contact is then written only when it is
 *   older than CONTACT_GRANULARITY_MS, under the lock the statement already holds.
 * - PGlite runs one statement at a time (and a transaction holds it whole), so nothing can
 *   change the sitting under the statement: it reads it without a lock.
 */
function saveAnswerStatement(driver: 'pglite' | 'postgres') {
  const sitting = `h.id = $2::int and h.examinee_id = tok.examinee_id
    and (tok.schedule_history_id is null or tok.schedule_history_id = h.id)
    and h.status = ${ScheduleHistoryStatus.DOING} and h.exam_id = $4::int
    and (${boundDevice('tok', 'h', '$9::text')}
      or ${movedAwayBefore('h', '$9::text', '$6::timestamptz')})
    and h.deadline_at >= $6::timestamptz and h.deadline_at >= $10::timestamptz and h.started_at <= $11::timestamptz
    and not exists (select 1 from answers k where k.idempotency_key = $8::text)
    and (not h.flag_retake
      or not exists (select 1 from answer_archive r where r.schedule_history_id = h.id and r.idempotency_key = $8::text))`;
  const sit = `sit as (
  select h.id, h.deadline_at, h.last_contact_at, ${boundDevice('tok', 'h', '$9::text')} as bound from schedule_histories h, tok
  where ${sitting}${driver === 'postgres' ? '\n  for no key update of h' : ''}
),
contact as (
  update schedule_histories h set last_contact_at = $7::timestamptz
  from sit
  where h.id = sit.id and sit.bound and (sit.last_contact_at is null or sit.last_contact_at < $12::timestamptz)
)`;
  return {
    name: `gradus_save_answer_3_${driver}`,
    text: `with tok as (
  select t.id, t.examinee_id, t.schedule_history_id, t.login_type, t.revoked_at is null as live
  from auth_tokens t join examinees e on e.id = t.examinee_id
  where t.token_hash = $1::text and ${usableToken('t')} and t.expires_at > $7::timestamptz and not e.disabled
),
${sit},
saved as (
  insert into answers as a (schedule_history_id, question_id, value, answered_at, received_at, idempotency_key, late)
  select sit.id, $3::int, $5::text, $6::timestamptz, $7::timestamptz, $8::text, $7::timestamptz > sit.deadline_at from sit
  on conflict (schedule_history_id, question_id) do update
    set value = excluded.value, answered_at = excluded.answered_at, received_at = excluded.received_at,
      idempotency_key = excluded.idempotency_key, late = excluded.late
    where excluded.answered_at > a.answered_at
  returning a.id
)
select tok.id as token_id, tok.examinee_id, tok.schedule_history_id, tok.login_type, tok.live,
  (extract(epoch from sit.deadline_at) * 1000)::float8 as deadline_ms,
  (select count(*)::int from saved) as saved
from tok left join sit on true`,
  };
}

/** The answer a question holds (after a superseded save): $1 sitting, $2 question. */
const HELD_ANSWER = {
  name: 'gradus_held_answer_1',
  text: 'select value from answers where schedule_history_id = $1::int and question_id = $2::int',
};

type SaveRow = {
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
 * Many saves as one statement (PostgreSQL; server/db/batching.ts sends the saves that arrive
 * while the database is busy together). The same rules as `saveAnswerStatement`, row by row:
 * each parameter is an array with one element per save ($1 token hash, $2 sitting, $3 question,
 * $4 the question's exam, $5 value, $6 answered_at, $7 now, $8 idempotency key, $9 device token
 * or null, $10 the earliest deadline still inside the upload window, $11 the latest start the
 * answer time allows, $12 contact older than this is marked again), and the rows come back with
 * `ord`, the save's place (from 1), for each save whose token is valid. The batcher never puts
 * two saves of one question or of one key in a batch, so no row is stored twice by one
 * statement, and no two batches at the database hold saves of one sitting. A sitting whose row
 * another transaction holds (a Finish, a reset, a move, a deadline change under way) is SKIPPED, not
 * waited for: that save comes back without `deadline_ms` and goes the careful way, which waits
 * for the row (FOR SHARE) and decides on it as it then stands. So no batch waits for one pupil's
 * sitting, and batches never wait for each other in a cycle.
 */
const SAVE_ANSWERS = {
  name: 'gradus_save_answers_2_postgres',
  text: `with input as (
  select * from unnest($1::text[], $2::int[], $3::int[], $4::int[], $5::text[], $6::timestamptz[], $7::timestamptz[],
      $8::text[], $9::text[], $10::timestamptz[], $11::timestamptz[], $12::timestamptz[])
    with ordinality as i(token_hash, sitting_id, question_id, exam_id, value, answered_at, now_at,
      idempotency_key, device_token, window_floor, latest_start, contact_floor, ord)
),
tok as (
  select i.ord, t.id, t.examinee_id, t.schedule_history_id, t.login_type, t.revoked_at is null as live
  from input i join auth_tokens t on t.token_hash = i.token_hash join examinees e on e.id = t.examinee_id
  where ${usableToken('t')} and t.expires_at > i.now_at and not e.disabled
),
sit as (
  select i.ord, h.id, h.deadline_at, h.last_contact_at, i.contact_floor, i.now_at,
    ${boundDevice('tok', 'h', 'i.device_token')} as bound
  from input i join tok on tok.ord = i.ord join schedule_histories h on h.id = i.sitting_id
  where h.examinee_id = tok.examinee_id
    and (tok.schedule_history_id is null or tok.schedule_history_id = h.id)
    and h.status = ${ScheduleHistoryStatus.DOING} and h.exam_id = i.exam_id
    and (${boundDevice('tok', 'h', 'i.device_token')}
      or ${movedAwayBefore('h', 'i.device_token', 'i.answered_at')})
    and h.deadline_at >= i.answered_at and h.deadline_at >= i.window_floor and h.started_at <= i.latest_start
    and not exists (select 1 from answers k where k.idempotency_key = i.idempotency_key)
    and (not h.flag_retake
      or not exists (select 1 from answer_archive r where r.schedule_history_id = h.id and r.idempotency_key = i.idempotency_key))
  for no key update of h skip locked
),
contact as (
  update schedule_histories h set last_contact_at = c.now_at
  from (select id, max(now_at) as now_at, min(contact_floor) as contact_floor, max(last_contact_at) as last_contact_at
    from sit where bound group by id) c
  where h.id = c.id and (c.last_contact_at is null or c.last_contact_at < c.contact_floor)
),
saved as (
  insert into answers as a (schedule_history_id, question_id, value, answered_at, received_at, idempotency_key, late)
  select sit.id, i.question_id, i.value, i.answered_at, i.now_at, i.idempotency_key, i.now_at > sit.deadline_at
  from sit join input i on i.ord = sit.ord
  on conflict (schedule_history_id, question_id) do update
    set value = excluded.value, answered_at = excluded.answered_at, received_at = excluded.received_at,
      idempotency_key = excluded.idempotency_key, late = excluded.late
    where excluded.answered_at > a.answered_at
  returning a.schedule_history_id, a.question_id
)
select tok.ord::int as ord, tok.id as token_id, tok.examinee_id, tok.schedule_history_id, tok.login_type, tok.live,
  (extract(epoch from sit.deadline_at) * 1000)::float8 as deadline_ms,
  (select count(*)::int from saved s where s.schedule_history_id = sit.id and s.question_id = i.question_id) as saved
from tok join input i on i.ord = tok.ord left join sit on sit.ord = tok.ord`,
};

/** At most this many batches of saves at the database at once (the pool holds 10 connections; the rest serve other calls). */
export const SAVE_BATCHES_IN_FLIGHT = 4;
/** At most this many saves in one statement. */
export const SAVE_BATCH_SIZE = 64;

type SaveStatements = {
  driver: 'pglite' | 'postgres';
  /** One save: its statement alone (PGlite, and a PostgreSQL save whose batch failed). */
  save: PreparedStatement<SaveRow>;
  /** One save, batched with those that arrive while the database is busy (PostgreSQL). */
  batched?: Batcher<StatementValue[], SaveRow[]>;
  held: PreparedStatement<{ value: string }>;
};

const statements = new WeakMap<Db, SaveStatements | null>();

function statementsOf(db: Db): SaveStatements | undefined {
  let known = statements.get(db);
  if (known === undefined) {
    const driver = driverOf(db);
    const save = driver && prepare<SaveRow>(db, saveAnswerStatement(driver));
    const held = prepare<{ value: string }>(db, HELD_ANSWER);
    // PGlite runs the saves one statement at a time, each as quick as the floor's: measured, a
    // batch there costs more than it saves (its join of the array is slower than one row's lookups).
    const many = driver === 'postgres' ? prepare<SaveRow & { ord: number }>(db, SAVE_ANSWERS) : undefined;
    known = driver && save && held ? { driver, save, held, ...(many ? { batched: batcherOf(save, many) } : {}) } : null;
    statements.set(db, known);
  }
  return known ?? undefined;
}

/** The batcher of the PostgreSQL saves: each save's values, as `saveAnswerStatement` takes them. */
function batcherOf(one: PreparedStatement<SaveRow>, many: PreparedStatement<SaveRow & { ord: number }>): Batcher<StatementValue[], SaveRow[]> {
  return createBatcher<StatementValue[], SaveRow[]>({
    maxInFlight: SAVE_BATCHES_IN_FLIGHT,
    maxBatch: SAVE_BATCH_SIZE,
    // $2 sitting, $3 question, $8 idempotency key.
    conflictKeys: (values) => [`q ${String(values[1])} ${String(values[2])}`, `k ${String(values[7])}`],
    // A sitting's saves share a statement, never two at once: each locks the sitting's row.
    ownerKeys: (values) => [`s ${String(values[1])}`],
    async runBatch(items) {
      // Column by column: the n-th parameter of every save as one array.
      const columns = items[0]!.map((_, n) => items.map((values) => values[n] ?? null));
      const rows = await many.run(columns);
      const byPlace: SaveRow[][] = items.map(() => []);
      for (const { ord, ...row } of rows) byPlace[ord - 1]?.push(row);
      return byPlace;
    },
    runOne: (values) => one.run(values),
  });
}

/**
 * The usual save: one statement (see the top of this file). `outcome` is set when the answer
 * was taken (saved, or superseded by a later one already held); otherwise nothing was written
 * and the caller goes the careful way, with `principal` when the token was valid, and
 * `movedAway` when that token is one a proctor's move revoked.
 */
export async function saveAnswerAtOnce(
  db: Db,
  token: string,
  deviceToken: string | undefined,
  input: SaveAnswerInput,
  context: { now: Date; uploadWindowMs: number },
): Promise<{ principal?: Principal; movedAway?: boolean; outcome?: SaveAnswerOutcome }> {
  const statement = statementsOf(db);
  const { now } = context;
  const answeredAt = input.answeredAt.getTime();
  if (
    !statement ||
    !TOKEN_PATTERN.test(token) ||
    input.scheduleHistoryId > MAX_ID ||
    input.questionId > MAX_ID ||
    answeredAt > now.getTime() + CLOCK_TOLERANCE_MS
  ) {
    return {};
  }
  const question = await questionOf(db, input.questionId);
  if (!question || answerFormatProblem(question, input.value) !== undefined) return {};

  let rows: SaveRow[];
  try {
    const values: StatementValue[] = [
      hashToken(token),
      input.scheduleHistoryId,
      input.questionId,
      question.examId,
      input.value,
      input.answeredAt,
      now,
      input.idempotencyKey,
      deviceToken ?? null,
      new Date(now.getTime() - context.uploadWindowMs),
      new Date(answeredAt + CLOCK_TOLERANCE_MS),
      new Date(now.getTime() - CONTACT_GRANULARITY_MS),
    ];
    rows = await (statement.batched ? statement.batched.run(values) : statement.save.run(values));
  } catch (error) {
    // Two requests racing with one key for different questions: the database's unique key decides.
    if (isUniqueViolation(error)) throw duplicateKey();
    throw error;
  }
  const [row] = rows;
  if (!row) return {};
  const principal: Principal = {
    tokenId: row.token_id,
    examineeId: row.examinee_id,
    scheduleHistoryId: row.schedule_history_id,
    loginType: row.login_type,
  };
  // A token a proctor's move revoked: the careful way decides (saveAnswer with movedAwayDevice).
  if (row.deadline_ms === null) return row.live ? { principal } : { principal, movedAway: true };
  const deadlineAt = new Date(row.deadline_ms);
  const late = now.getTime() > deadlineAt.getTime();
  if (row.saved > 0) return { principal, outcome: { outcome: 'saved', late, deadlineAt } };
  // Superseded: the answer held instead, so the window that sent this one can show it (rare: one more read).
  const [held] = await statement.held.run([input.scheduleHistoryId, input.questionId]);
  return { principal, outcome: { outcome: 'superseded', late, deadlineAt, ...(held ? { currentValue: held.value } : {}) } };
}

/** Why `value` is not an answer of this question's type, or undefined when it is one. */
export function answerFormatProblem(
  question: { type: string; choices: readonly { id: string }[]; blocks: readonly { id: string }[] },
  value: string,
): string | undefined {
  if (value === '') return undefined;
  switch (question.type) {
    case 'single_choice':
      return question.choices.some((c) => c.id === value) ? undefined : 'Not one of the choices of this question.';
    case 'number':
      return isWellFormedNumber(value) ? undefined : 'Not a number as the keypad writes it (like -3, 2.5 or 3/4).';
    case 'ordering':
      return isPermutationOf(value, question.blocks.map((b) => b.id))
        ? undefined
        : 'Not an order of exactly the blocks of this question.';
    default:
      return undefined;
  }
}

function duplicateKey(): DomainError {
  return new DomainError('ER_DUP_ENTRY', 'This idempotency key was already used for a different answer.');
}
