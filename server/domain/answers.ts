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
 * - The outcome says how it was taken (saved, duplicate, superseded with the value held instead)
 *   and carries the deadline as it stands, so a terminal learns of extensions with every save.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { answerArchive, answers, questions } from '../db/schema.ts';
import { DomainError, invalidField, isUniqueViolation } from './errors.ts';
import { isPermutationOf, isWellFormedNumber } from './scoring.ts';
import { answeringRefusal } from './schedule-history.ts';
import { loadOwnSitting, MAX_ID } from './sitting.ts';
import type { Principal } from './tokens.ts';

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

export async function saveAnswer(
  db: Db,
  principal: Principal,
  input: SaveAnswerInput,
  context: { now: Date; uploadWindowMs: number },
): Promise<SaveAnswerOutcome> {
  const { now } = context;
  try {
    return await db.transaction(async (tx) => {
      // A share lock lets a pupil's answers run side by side, but not alongside Finish.
      const sitting = await loadOwnSitting(tx, principal, input.scheduleHistoryId, 'share');
      const { history } = sitting;

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
      if (now.getTime() > deadlineAt.getTime() + context.uploadWindowMs) {
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
