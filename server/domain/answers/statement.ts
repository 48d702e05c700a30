/**
 * The usual save (rules.ts): ONE prepared statement (server/db/prepared.ts) checks the token
 * (live, not revoked or expired, examinee enabled), the sitting (the caller's own, DOING, bound
 * to this terminal or to none, before the deadline and inside the upload window, of the
 * question's exam), that the key is new and not archived by a reset, then stores the answer
 * (newest answered_at wins) and marks contact for the proctor roster. On PostgreSQL the saves
 * go as the batch (batch.ts): the same rules row by row, one statement for the saves that
 * arrive while the database is busy; this statement alone is PGlite's, and a PostgreSQL save's
 * whose batch failed.
 *
 * A revocation, a reset or a move committed by any process is seen by the next save: nothing
 * of the token or the sitting is kept between calls. The question's exam, type and choices are
 * read once per process (the seed writes questions; nothing changes them afterwards).
 */
import type { Db } from '../../db/client.ts';
import type { Batcher } from '../../db/batching.ts';
import { driverOf, namedParameters, prepare, type PreparedStatement } from '../../db/prepared.ts';
import { questions } from '../../db/schema.ts';
import { eq } from 'drizzle-orm';
import { isUniqueViolation } from '../errors.ts';
import { MAX_ID } from '../sitting.ts';
import { hashToken, TOKEN_PATTERN, type Principal } from '../tokens.ts';
import { batcherOf, SAVE_ANSWERS, type BatchRow } from './batch.ts';
import {
  answerFormatProblem,
  CLOCK_TOLERANCE_MS,
  CONTACT_GRANULARITY_MS,
  duplicateKey,
  type SaveAnswerInput,
  type SaveAnswerOutcome,
} from './rules.ts';
import {
  boundDevice,
  DEADLINE_MS,
  SAVE_PARAMETERS,
  savableSitting,
  storeAnswer,
  TOKEN_COLUMNS,
  usableToken,
  type SaveParameters,
  type SaveRow,
} from './statement-sql.ts';

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
 * The whole save as one statement, its values named by SAVE_PARAMETERS; one SaveRow when the
 * token is valid.
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
  const v = SAVE_PARAMETERS.sql;
  return {
    name: `gradus_save_answer_3_${driver}`,
    text: `with tok as (
  select ${TOKEN_COLUMNS}
  from auth_tokens t join examinees e on e.id = t.examinee_id
  where ${usableToken(v)}
),
sit as (
  select h.id, h.deadline_at, h.last_contact_at, ${boundDevice(v)} as bound from schedule_histories h, tok
  where ${savableSitting(v)}${driver === 'postgres' ? '\n  for no key update of h' : ''}
),
contact as (
  update schedule_histories h set last_contact_at = ${v.now}
  from sit
  where h.id = sit.id and sit.bound and (sit.last_contact_at is null or sit.last_contact_at < ${v.contactFloor})
),
saved as (
  ${storeAnswer(v, 'sit', 'a.id')}
)
select tok.id as token_id, tok.examinee_id, tok.schedule_history_id, tok.login_type, tok.live,
  ${DEADLINE_MS},
  (select count(*)::int from saved) as saved
from tok left join sit on true`,
  };
}

/** The answer a question holds (after a superseded save). */
const HELD_PARAMETERS = namedParameters<{ sittingId: number; questionId: number }>({ sittingId: 'int', questionId: 'int' });
const HELD_ANSWER = {
  name: 'gradus_held_answer_1',
  text: `select value from answers where schedule_history_id = ${HELD_PARAMETERS.sql.sittingId} and question_id = ${HELD_PARAMETERS.sql.questionId}`,
};

type SaveStatements = {
  driver: 'pglite' | 'postgres';
  /** One save: its statement alone (PGlite, and a PostgreSQL save whose batch failed). */
  save: PreparedStatement<SaveRow>;
  /** One save, batched with those that arrive while the database is busy (PostgreSQL's way). */
  batched: Batcher<SaveParameters, SaveRow[]>;
  held: PreparedStatement<{ value: string }>;
};

const statements = new WeakMap<Db, SaveStatements | null>();

function statementsOf(db: Db): SaveStatements | undefined {
  let known = statements.get(db);
  if (known === undefined) {
    const driver = driverOf(db);
    const save = driver && prepare<SaveRow>(db, saveAnswerStatement(driver));
    const held = prepare<{ value: string }>(db, HELD_ANSWER);
    // Prepared on both (a statement is parsed when it first runs): PGlite takes the batch only
    // when asked (`path`), as it runs the saves one statement at a time, each as quick as the
    // floor's; measured, a batch there costs more than it saves.
    const many = prepare<BatchRow>(db, SAVE_ANSWERS);
    known = driver && save && held && many ? { driver, save, held, batched: batcherOf(save, many) } : null;
    statements.set(db, known);
  }
  return known ?? undefined;
}

/**
 * A save by statement. `path`: the batch (PostgreSQL's way) or the one statement (PGlite's);
 * by default the driver's. `outcome` is set when the answer was taken (saved, or superseded by
 * a later one already held); otherwise nothing was written and the caller goes the careful way,
 * with `principal` when the token was valid, and `movedAway` when that token is one a
 * proctor's move revoked.
 */
export async function saveAnswerAtOnce(
  db: Db,
  token: string,
  deviceToken: string | undefined,
  input: SaveAnswerInput,
  context: { now: Date; uploadWindowMs: number; path?: 'statement' | 'batch' },
): Promise<{ principal?: Principal; movedAway?: boolean; outcome?: SaveAnswerOutcome; path?: 'statement' | 'batch' }> {
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

  const path = context.path ?? (statement.driver === 'postgres' ? 'batch' : 'statement');
  let rows: SaveRow[];
  try {
    const values: SaveParameters = {
      tokenHash: hashToken(token),
      sittingId: input.scheduleHistoryId,
      questionId: input.questionId,
      examId: question.examId,
      value: input.value,
      answeredAt: input.answeredAt,
      now,
      idempotencyKey: input.idempotencyKey,
      deviceToken: deviceToken ?? null,
      windowFloor: new Date(now.getTime() - context.uploadWindowMs),
      latestStart: new Date(answeredAt + CLOCK_TOLERANCE_MS),
      contactFloor: new Date(now.getTime() - CONTACT_GRANULARITY_MS),
    };
    rows = await (path === 'batch' ? statement.batched.run(values) : statement.save.run(SAVE_PARAMETERS.values(values)));
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
  // A token a proctor's move revoked: the careful way decides (saveAnswerCarefully with movedAwayDevice).
  if (row.deadline_ms === null) return row.live ? { principal } : { principal, movedAway: true };
  const deadlineAt = new Date(row.deadline_ms);
  const late = now.getTime() > deadlineAt.getTime();
  if (row.saved > 0) return { principal, path, outcome: { outcome: 'saved', late, deadlineAt } };
  // Superseded: the answer held instead, so the window that sent this one can show it (rare: one more read).
  const [held] = await statement.held.run(HELD_PARAMETERS.values({ sittingId: input.scheduleHistoryId, questionId: input.questionId }));
  return { principal, path, outcome: { outcome: 'superseded', late, deadlineAt, ...(held ? { currentValue: held.value } : {}) } };
}
