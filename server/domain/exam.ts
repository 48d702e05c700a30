/**
 * The exam lifecycle of one sitting on the server, which is its authority:
 * - details: what the pupil is about to sit (any status);
 * - start: PENDING -> DOING, fixing started_at and deadline_at = now + time limit on the
 *   server's clock; a repeated Start while DOING returns the same deadline (never restarts);
 *   after a proctor's move to another terminal, Start on the new terminal binds it and
 *   resumes the same sitting (same deadline, same answers);
 * - questions: only while DOING, never with correct answers, with the answers saved so far so a
 *   reload resumes;
 * - finish: DOING -> COMPLETED with a receipt (answer count and digest) that a repeated Finish
 *   returns unchanged, and the scoring job enqueued in the same transaction.
 * Every status written here is the schedule history machine's answer (`nextStatus`).
 */
import type { CallerLanguages } from './exam-titles.ts';
import { createHash } from 'node:crypto';
import { and, asc, count, eq, ne } from 'drizzle-orm';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import {
  answersDigestText,
  type ExamDetails,
  type ExamQuestions,
  type FinishExamResponse,
  type StartExamResponse,
} from '../../contract/exam.ts';
import type { Db, Tx } from '../db/client.ts';
import { answers, focusLosses, questions, scheduleHistories } from '../db/schema.ts';
import { DomainError } from './errors.ts';
import { enqueueScoring } from './results-lifecycle.ts';
import { answeringRefusal, finishRefusal, nextStatus, startRefusal, toStatus } from './schedule-history.ts';
import { assertDevice, isSuspended, loadOwnSitting, paysExamFee } from './sitting.ts';
import { bindReleasedSitting, isReleased } from './presence.ts';
import { PaymentStatus } from '../../contract/payments.ts';
import { ownedBy } from './purchases.ts';
import type { Principal } from './tokens.ts';
import { examDetails, questionView, questionViewColumns } from './views.ts';

type WithoutServerTime<T> = Omit<T, 'server_time'>;

export async function getExamDetails(
  db: Db,
  principal: Principal,
  scheduleHistoryId: number,
  now: Date,
  wanted: CallerLanguages,
): Promise<ExamDetails> {
  const sitting = await loadOwnSitting(db, principal, scheduleHistoryId);
  const [row] = await db
    .select({ n: count() })
    .from(questions)
    .where(eq(questions.examId, sitting.history.examId));
  return examDetails(sitting, row?.n ?? 0, now, wanted);
}

export async function startExam(
  db: Db,
  principal: Principal,
  input: { scheduleHistoryId: number; now: Date; deviceToken: string | undefined; locale: string | undefined },
): Promise<WithoutServerTime<StartExamResponse>> {
  const { now } = input;
  return db.transaction(async (tx) => {
    const sitting = await loadOwnSitting(tx, principal, input.scheduleHistoryId, 'update');
    const { history } = sitting;
    const refusal = startRefusal(history.status);
    if (refusal) throw new DomainError(refusal);

    if (history.status === ScheduleHistoryStatus.DOING && history.startedAt && history.deadlineAt) {
      assertDevice(sitting, input.deviceToken);
      // Moved by a proctor (server/domain/proctor.ts): this terminal takes the sitting over and
      // resumes it with the same deadline and answers; nothing restarts.
      if (isReleased(history) && input.deviceToken !== undefined) {
        await bindReleasedSitting(tx, history.id, input.deviceToken, now);
      }
      return {
        status: ScheduleHistoryStatus.DOING,
        started_at: history.startedAt.toISOString(),
        deadline_at: history.deadlineAt.toISOString(),
      };
    }

    if (sitting.organization.disabled) throw new DomainError('DISABLED_ORGANIZATION');
    if (sitting.venueDisabled) throw new DomainError('DISABLED_CLASS');
    if (now < sitting.schedule.startsAt) throw new DomainError('TIME_START');
    if (now > sitting.schedule.endsAt) throw new DomainError('TIME_END');
    if (isSuspended(sitting.schedule, now)) throw new DomainError('SCHEDULE_SUSPENSION_TIME');
    // Pupils who pay online take the test once the exam fee is paid (the testing menu's rule too);
    // in group mode the school has settled it.
    if (paysExamFee(sitting) && (await ownedBy(tx, history.id)).examFee !== PaymentStatus.PAID) {
      throw new DomainError('PAYMENT_REQUIRED', 'The exam fee has not been paid.');
    }
    const next = nextStatus(history.status, {
      type: 'exam.started',
      now: now.getTime(),
      startsAt: sitting.schedule.startsAt.getTime(),
      endsAt: sitting.schedule.endsAt.getTime(),
    });
    if (next !== ScheduleHistoryStatus.DOING) throw new DomainError(startRefusal(history.status) ?? 'GENERIC_ERROR');

    const deadlineAt = new Date(now.getTime() + sitting.exam.timeLimitSeconds * 1000);
    await tx
      .update(scheduleHistories)
      .set({
        status: next,
        startedAt: now,
        deadlineAt,
        deviceToken: input.deviceToken ?? null,
        locale: input.locale ?? null,
      })
      .where(eq(scheduleHistories.id, history.id));
    return { status: ScheduleHistoryStatus.DOING, started_at: now.toISOString(), deadline_at: deadlineAt.toISOString() };
  });
}

export async function getQuestions(
  db: Db,
  principal: Principal,
  scheduleHistoryId: number,
  deviceToken?: string,
  now: Date = new Date(),
): Promise<WithoutServerTime<ExamQuestions>> {
  const sitting = await loadOwnSitting(db, principal, scheduleHistoryId);
  assertDevice(sitting, deviceToken);
  const refusal = answeringRefusal(sitting.history.status);
  if (refusal) throw new DomainError(refusal);
  if (!sitting.history.deadlineAt) throw new Error(`Sitting ${sitting.history.id} is DOING without a deadline`);
  // After a proctor's move the pupil's new terminal resumes straight into the questions (it never
  // presses Start again): loading them binds the sitting to it, so no third terminal can join in.
  if (isReleased(sitting.history) && deviceToken !== undefined) {
    if (!(await bindReleasedSitting(db, sitting.history.id, deviceToken, now))) {
      throw new DomainError('INCORRECT_DEVICE', 'This exam was started on another terminal.');
    }
  }

  // Selected column by column (views.ts): the correct answer is never read for the browser.
  const rows = await db
    .select(questionViewColumns)
    .from(questions)
    .where(eq(questions.examId, sitting.history.examId))
    .orderBy(asc(questions.number));
  const saved = await db
    .select({ question_id: answers.questionId, value: answers.value, answeredAt: answers.answeredAt })
    .from(answers)
    .innerJoin(questions, eq(questions.id, answers.questionId))
    .where(eq(answers.scheduleHistoryId, sitting.history.id))
    .orderBy(asc(questions.number));

  return {
    questions: rows.map(questionView),
    answers: saved.map((a) => ({ question_id: a.question_id, value: a.value, answered_at: a.answeredAt.toISOString() })),
    deadline_at: sitting.history.deadlineAt.toISOString(),
  };
}

export async function finishExam(
  db: Db,
  principal: Principal,
  input: { scheduleHistoryId: number; now: Date; deviceToken?: string | undefined },
): Promise<WithoutServerTime<FinishExamResponse>> {
  return db.transaction(async (tx) => {
    const sitting = await loadOwnSitting(tx, principal, input.scheduleHistoryId, 'update');
    assertDevice(sitting, input.deviceToken);
    const { history } = sitting;
    const refusal = finishRefusal(history.status);
    if (refusal) throw new DomainError(refusal);

    if (history.status !== ScheduleHistoryStatus.DOING) {
      // Already finished: the same receipt again.
      if (history.finishedAt === null || history.answerCount === null || history.answersDigest === null) {
        throw new Error(`Finished sitting ${history.id} has no receipt`);
      }
      return {
        status: toStatus(history.status),
        answer_count: history.answerCount,
        digest: history.answersDigest,
        finished_at: history.finishedAt.toISOString(),
      };
    }

    const next = nextStatus(history.status, { type: 'exam.finished' });
    if (next !== ScheduleHistoryStatus.COMPLETED) throw new DomainError(finishRefusal(history.status) ?? 'GENERIC_ERROR');
    const receipt = await receiptOf(tx, history.id);
    await tx
      .update(scheduleHistories)
      .set({
        status: next,
        finishedAt: input.now,
        answerCount: receipt.answerCount,
        answersDigest: receipt.digest,
      })
      .where(eq(scheduleHistories.id, history.id));
    await enqueueScoring(tx, history.id, input.now);
    return {
      status: next,
      answer_count: receipt.answerCount,
      digest: receipt.digest,
      finished_at: input.now.toISOString(),
    };
  });
}

/** Count and SHA-256 of the non-empty saved answers in question order (contract: answersDigestText). */
export async function receiptOf(tx: Tx, scheduleHistoryId: number): Promise<{ answerCount: number; digest: string }> {
  const saved = await tx
    .select({ question_id: answers.questionId, value: answers.value })
    .from(answers)
    .innerJoin(questions, eq(questions.id, answers.questionId))
    .where(and(eq(answers.scheduleHistoryId, scheduleHistoryId), ne(answers.value, '')))
    .orderBy(asc(questions.number));
  return { answerCount: saved.length, digest: digestOf(saved) };
}

export function digestOf(saved: readonly { question_id: number; value: string }[]): string {
  return createHash('sha256').update(answersDigestText(saved), 'utf8').digest('hex');
}

/**
 * A terminal's report of focus losses (window blur, hidden tab) during the exam: stored for
 * audit while the exam is DOING on this terminal; otherwise ignored quietly (it never blocks).
 */
export async function recordFocusLoss(
  db: Db,
  principal: Principal,
  input: { scheduleHistoryId: number; count: number; at: Date; now: Date; deviceToken: string | undefined },
): Promise<void> {
  const sitting = await loadOwnSitting(db, principal, input.scheduleHistoryId);
  assertDevice(sitting, input.deviceToken);
  await db.insert(focusLosses).values({
    scheduleHistoryId: sitting.history.id,
    count: input.count,
    at: input.at,
    receivedAt: input.now,
    deviceToken: input.deviceToken ?? null,
  });
}
