/**
 * The careful way to the save's rules (rules.ts): step by step in one transaction, for every
 * save neither statement took (a resend, a refusal of any kind, a sitting a proctor released).
 * It decides in the order of rules.ts and names the refusal with its code; nothing is written
 * unless every check passes. A share lock on the sitting lets a pupil's answers run side by
 * side, but not alongside Finish, a reset or a move (nor beside a statement save's row lock).
 */
import { and, eq, gt, sql } from 'drizzle-orm';
import { isPastUploadWindow } from '../../../contract/exam.ts';
import type { Db, Tx } from '../../db/client.ts';
import { answerArchive, answers, deviceMoves, questions } from '../../db/schema.ts';
import { DomainError, invalidField, isUniqueViolation } from '../errors.ts';
import { answeringRefusal } from '../schedule-history.ts';
import { loadOwnSitting, MAX_ID } from '../sitting.ts';
import type { Principal } from '../tokens.ts';
import { answerFormatProblem, CLOCK_TOLERANCE_MS, duplicateKey, type SaveAnswerInput, type SaveAnswerOutcome } from './rules.ts';

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
export async function saveAnswerCarefully(
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
