/**
 * Saving one answer while the exam is DOING: the rules every way to it keeps.
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
 * Three ways to the same rules (this folder), chosen in `save.ts` (`saveAnswer`, what the route calls):
 * - the one statement (`statement.ts`, `saveAnswerAtOnce`): ONE prepared statement
 *   (server/db/prepared.ts) checks the token, the sitting, the key and the time, stores the
 *   answer and marks contact. PGlite's usual way.
 * - the batch (`batch.ts`): the same rules row by row for the saves that arrive while the
 *   database is busy, as ONE statement (sent by server/db/batching.ts). PostgreSQL's usual way.
 * - the careful way (`careful.ts`, `saveAnswerCarefully`): step by step in a transaction,
 *   whenever neither statement stores the answer (a resend, a refusal of any kind, a sitting a
 *   proctor released); it decides and names the refusal in the order above. Nothing was written
 *   by then.
 * The two statements share their SQL (`statement-sql.ts`); test/api/answer-paths.test.ts runs
 * one table of cases through all three ways on both databases.
 */
import { DomainError } from '../errors.ts';
import { isPermutationOf, isWellFormedNumber } from '../scoring.ts';

/** How far a client's answered_at may stray from the server's view (its clock offset is estimated). */
export const CLOCK_TOLERANCE_MS = 2 * 60_000;

/**
 * How often a save marks contact (the roster calls a pupil offline after 30 s without, and the
 * heartbeat marks it every 10 s): a save whose sitting's last contact is younger leaves the row
 * as it is, so nearly every save writes one row (its answer), not two.
 */
export const CONTACT_GRANULARITY_MS = 1000;

/** The ways to the rules (see above): which one took a save, or which one a save tries first. */
export type SavePath = 'statement' | 'batch' | 'careful';

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

/** The same key for a different answer (or two requests racing with one key: the database's unique key decides). */
export function duplicateKey(): DomainError {
  return new DomainError('ER_DUP_ENTRY', 'This idempotency key was already used for a different answer.');
}
