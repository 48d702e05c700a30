/**
 * The exam's rules as pure functions over its context and the calls' results: which refusals are
 * final, which end the exam flow or say it is over, where each answer stands (writing, in the
 * outbox, sent, refused, replaced), how the server's answers and the outbox's unsent ones merge
 * after a (re)load, the answers' idempotency keys, what the terminal caches to resume offline,
 * and the time limit before the exam's own is known. No XState, no I/O: the machine
 * (exam.machine.ts and its regions) decides with these, the selectors and `connect` read them.
 */
import type { ExamDetails, SavedAnswer } from '../../contract/exam.ts';
import type { RetryOutput } from '../retry/retry.types.ts';
import { failureCodeOf, type FailureCode, type OutboxEntry } from '../shared/ports.ts';
import type { AnswerEntry, AnswerSavedElsewhere, AnswerToSave, CachedExam, ExamContext, LoadedExam, LoadInput } from './exam.types.ts';

export { DEFAULT_TIME_LIMIT_SECONDS, retriedCalls } from './exam.constants.ts';

/** Codes after which a save will never succeed; retrying them would loop forever. */
export const finalSaveRefusals: ReadonlySet<FailureCode> = new Set([
  'TIME_END',
  // An answer of an attempt an administrator reset (resent from the outbox after the new login):
  // the server keeps it archived, never takes it.
  'ARCHIVE_KEY',
  'ER_SCHEDULE_HISTORY_COMPLETED',
  'ER_SCHEDULE_HISTORY_CANCELLED',
  'VALIDATION_ERROR',
  'NOT_FOUND',
]);

/** Failures of any exam call that end the exam flow: each raises its exam-level event. */
export const endingCodes: ReadonlySet<FailureCode> = new Set([
  'NOT_LOGGED_IN',
  'ER_SCHEDULE_HISTORY_RETAKE',
  'DURING_MAINTENANCE',
  'INCORRECT_DEVICE',
]);

/** Background saves try again from 1 s, doubling, at most this far apart (seed section 7). */
export const SAVE_RETRY_MAX_MS = 8_000;

/**
 * How long Start waits, its step on screen, for the app shell before the pupil is told this
 * terminal is not ready to work offline and may start without it (the wait goes on meanwhile).
 * A first install on a fresh profile takes a few seconds; the server's clock has not started.
 */
export const SHELL_READY_TIMEOUT_MS = 30_000;

/**
 * Refusals that say the exam is over on the server (time is up, or it was finished from another
 * window): the running exam finishes (the finish call answers the receipt either way).
 */
export const examOverCodes: ReadonlySet<FailureCode> = new Set(['TIME_END', 'ER_SCHEDULE_HISTORY_COMPLETED']);


/** Statuses of answers the server does not hold yet and that are ready to send. */
const unsentStatuses: ReadonlySet<AnswerEntry['status']> = new Set(['local', 'unsaved']);

/**
 * A fall of the measured offset larger than this is the terminal's clock set forward, taken at
 * once; a smaller one is a response that took longer to arrive, and the offset kept stands.
 */
export const CLOCK_JUMP_MS = 2_000;

/**
 * The offset between the server's clock and this terminal's (server minus local), from a
 * response's `server_time`. Each response gives a lower bound: the server stamped it before it
 * travelled. So with the offset kept from earlier responses, the larger one is the nearer, and a
 * slow response does not set this window's clock back (two windows of a terminal then order their
 * answers as the pupil gave them); only a fall beyond CLOCK_JUMP_MS is a changed clock.
 */
export function offsetFrom(serverTime: string, kept?: number): number {
  const measured = Date.parse(serverTime) - Date.now();
  return kept === undefined ? measured : nearerOffset(measured, kept);
}

/**
 * Of a newly measured (or another window's) offset and the one kept, the one to keep: the larger
 * (each is a lower bound), unless the new one falls by more than CLOCK_JUMP_MS (a changed clock).
 */
export function nearerOffset(measured: number, kept: number): number {
  return measured > kept || kept - measured > CLOCK_JUMP_MS ? measured : kept;
}

export function toSave(context: ExamContext, questionId: number, entry: AnswerEntry): AnswerToSave {
  return {
    scheduleHistoryId: context.scheduleHistoryId,
    questionId,
    value: entry.value,
    key: entry.key,
    answeredAt: entry.answeredAt,
  };
}

/**
 * Answers in question order whose status is one of `statuses`. Before the questions are known
 * (a terminal moved away from, reloaded: its outbox is all it has of the exam), by question id.
 */
export function answersIn(context: ExamContext, statuses: ReadonlySet<AnswerEntry['status']>): AnswerToSave[] {
  const ids = context.questions.length > 0 ? context.questions.map((question) => question.id) : Object.keys(context.answers).map(Number);
  return ids.flatMap((id) => {
    const entry = context.answers[id];
    return entry && statuses.has(entry.status) ? [toSave(context, id, entry)] : [];
  });
}

const writingStatus: ReadonlySet<AnswerEntry['status']> = new Set(['writing']);
/** Everything the server does not hold yet: finishing sends it all. */
const notSavedStatuses: ReadonlySet<AnswerEntry['status']> = new Set(['writing', 'local', 'unsaved']);

/** Whether the server's deadline has passed at this terminal time (epoch ms), on the server's clock. */
export function isPastDeadlineAt(context: Pick<ExamContext, 'deadlineAt' | 'clockOffsetMs'>, now: number): boolean {
  return context.deadlineAt !== null && now + context.clockOffsetMs >= context.deadlineAt;
}

/** Answers the server is known to hold (saved, or replaced by the server's own). */
const serverKnownStatuses: ReadonlySet<AnswerEntry['status']> = new Set(['saved', 'replaced']);
/** Answers still on their way to the server: this window's newest word on the question. */
const pendingStatuses: ReadonlySet<AnswerEntry['status']> = new Set(['writing', 'local', 'unsaved']);

/**
 * Whole seconds left before the deadline as the pupil's clock shows it, between 0 and the time
 * limit. `clockOffsetMs` is server minus local, so the time left is deadlineAt − (localNow +
 * clockOffsetMs), rounded up: 40:00 at the start, 00:00 exactly at the deadline, never below.
 * Never above the limit either: the offset lags the server by a response's travel time and the
 * screen's clock may be one tick old, either of which would otherwise show 40:01 after Start.
 */
export function secondsLeft(deadlineAt: number, clockOffsetMs: number, localNow: number, limitSeconds = Infinity): number {
  return Math.min(limitSeconds, Math.max(0, Math.ceil((deadlineAt - (localNow + clockOffsetMs)) / 1000)));
}

/** What the header announces with the time left: five minutes, one minute, time up (null: nothing). */
export type TimeStage = 'five' | 'one' | 'over';

export function timeStageOf(seconds: number | null): TimeStage | null {
  if (seconds === null) return null;
  if (seconds <= 0) return 'over';
  if (seconds <= 60) return 'one';
  if (seconds <= 300) return 'five';
  return null;
}

/** What the cache keeps of this exam, or null before the exam is loaded. */
export function cachedExamOf(context: ExamContext): CachedExam | null {
  if (!context.details || context.deadlineAt === null || context.questions.length === 0) return null;
  const answers: SavedAnswer[] = context.questions.flatMap((question) => {
    const entry = context.answers[question.id];
    return entry && serverKnownStatuses.has(entry.status)
      ? [{ question_id: question.id, value: entry.value, answered_at: entry.answeredAt }]
      : [];
  });
  return {
    scheduleHistoryId: context.scheduleHistoryId,
    owner: context.answerSeed,
    details: context.details,
    questions: context.questions,
    answers,
    deadlineAt: new Date(context.deadlineAt).toISOString(),
    clockOffsetMs: context.clockOffsetMs,
    questionIndex: context.questionIndex,
  };
}

/**
 * The answers once the server's are known again (a tab switch): where the server holds a value
 * other than this window's acknowledged (or refused) one, the server's replaces it, marked
 * `replaced`; a question only the server has an answer to shows it as saved; answers still on
 * their way are left alone (they are this window's newest word and go out next), and so is an
 * acknowledged answer given after the server's (the read left before that save landed).
 */
export function withServerAnswers(context: ExamContext, held: readonly SavedAnswer[]): Pick<ExamContext, 'answers' | 'revision'> {
  const answers = { ...context.answers };
  let revision = context.revision;
  const known = new Set(context.questions.map((q) => q.id));
  for (const saved of held) {
    if (!known.has(saved.question_id)) continue;
    const local = answers[saved.question_id];
    if (!local) {
      revision += 1;
      answers[saved.question_id] = { value: saved.value, answeredAt: saved.answered_at, key: answerKey(context.answerSeed, revision), status: 'saved' };
    } else if (pendingStatuses.has(local.status)) {
      continue;
    } else if (local.status !== 'rejected' && Date.parse(local.answeredAt) > Date.parse(saved.answered_at)) {
      // A read older than this window's acknowledged answer (it left the server before that save
      // landed): the server keeps the newest, so this window's stands.
      continue;
    } else if (local.value !== saved.value) {
      answers[saved.question_id] = { ...local, value: saved.value, answeredAt: saved.answered_at, status: 'replaced' };
    } else if (local.status === 'rejected') {
      answers[saved.question_id] = { ...local, status: 'saved' };
    }
  }
  return { answers, revision };
}

/**
 * The answers once another window of this sitting on this terminal says the server acknowledged
 * `heard`, or null when that changes nothing here: only an answer to a question of the exam, of
 * this login and sitting, given later than this window's (newest answered_at wins, as on the
 * server) counts. This window's answer, whatever its status, gives way: where it showed another
 * value (or already showed another window's), it becomes `replaced` with the other's value, so
 * the pupil sees that answer and that it was replaced; otherwise it is saved. `stale`: this
 * window's own answer if it was still on its way (the server keeps the later one anyway), for
 * the outbox to forget.
 */
export function withAnswerSavedElsewhere(
  context: Pick<ExamContext, 'scheduleHistoryId' | 'answerSeed' | 'questions' | 'answers'>,
  heard: AnswerSavedElsewhere,
): { answers: Record<number, AnswerEntry>; stale: string[] } | null {
  if (heard.scheduleHistoryId !== context.scheduleHistoryId || heard.owner !== context.answerSeed) return null;
  if (!context.questions.some((question) => question.id === heard.questionId)) return null;
  const local = context.answers[heard.questionId];
  if (local && (local.key === heard.key || !(Date.parse(heard.answeredAt) > Date.parse(local.answeredAt)))) return null;
  const replaced = local !== undefined && (local.value !== heard.value || local.status === 'replaced');
  return {
    answers: {
      ...context.answers,
      [heard.questionId]: { value: heard.value, answeredAt: heard.answeredAt, key: heard.key, status: replaced ? 'replaced' : 'saved' },
    },
    stale: local && pendingStatuses.has(local.status) ? [local.key] : [],
  };
}

/** What this window tells the others of the answer with this key, once the server acknowledged it (null: no such saved answer). */
export function savedElsewhereOf(context: ExamContext, key: string): AnswerSavedElsewhere | null {
  for (const [id, entry] of Object.entries(context.answers)) {
    if (entry.key !== key || entry.status !== 'saved') continue;
    return {
      scheduleHistoryId: context.scheduleHistoryId,
      owner: context.answerSeed,
      questionId: Number(id),
      value: entry.value,
      answeredAt: entry.answeredAt,
      key: entry.key,
    };
  }
  return null;
}

/** Marks the answer with this key replaced by the server's value (a later answer from another window). */
export function replacedBy(answers: Record<number, AnswerEntry>, key: string, value: string | undefined): Record<number, AnswerEntry> {
  const next: Record<number, AnswerEntry> = {};
  for (const [id, entry] of Object.entries(answers)) {
    next[Number(id)] = entry.key === key ? { ...entry, value: value ?? entry.value, status: 'replaced' } : entry;
  }
  return next;
}

export function firstUnsent(context: ExamContext): AnswerToSave | undefined {
  return answersIn(context, unsentStatuses)[0];
}

/** The key of the answer being sent, if any (a list, as removeFromOutbox takes). */
export function firstUnsentKeys(context: ExamContext): string[] {
  const first = firstUnsent(context);
  return first ? [first.key] : [];
}

export function firstUnwritten(context: ExamContext): AnswerToSave | undefined {
  return answersIn(context, writingStatus)[0];
}

export function allNotSaved(context: ExamContext): AnswerToSave[] {
  return answersIn(context, notSavedStatuses);
}

const rejectedStatus: ReadonlySet<AnswerEntry['status']> = new Set(['rejected']);
/** Answers given on this terminal that the server refused for good (given after a move, past the deadline...). */
export function allRefused(context: ExamContext): AnswerToSave[] {
  return answersIn(context, rejectedStatus);
}

/**
 * How many answers given on this terminal the server refused for good, since the move away:
 * those counted before a reload (the stored session's moved_away_refused) and this page's.
 */
export function refusedOnThisTerminal(context: ExamContext): number {
  return (context.stored?.movedAwayRefused ?? 0) + allRefused(context).length;
}

/**
 * The answers a terminal's outbox holds, as the exam keeps them before it knows its questions
 * (a terminal moved away from, reloaded): each question's newest, in the outbox and not sent yet.
 */
export function answersFromOutbox(entries: readonly OutboxEntry[]): Record<number, AnswerEntry> {
  const answers: Record<number, AnswerEntry> = {};
  for (const entry of entries) {
    const kept = answers[entry.questionId];
    if (kept && Date.parse(kept.answeredAt) >= Date.parse(entry.answeredAt)) continue;
    answers[entry.questionId] = { value: entry.value, answeredAt: entry.answeredAt, key: entry.key, status: 'local' };
  }
  return answers;
}

/** Sets the status of the answer with this key (a newer revision of the question is left alone). */
export function withStatus(answers: Record<number, AnswerEntry>, key: string, status: AnswerEntry['status']): Record<number, AnswerEntry> {
  const next: Record<number, AnswerEntry> = {};
  for (const [id, entry] of Object.entries(answers)) next[Number(id)] = entry.key === key ? { ...entry, status } : entry;
  return next;
}

/**
 * The answers after a (re)load: the server's, with the outbox's unsent ones merged over them
 * where they were given later. Returns the merged answers and the outbox keys now stale.
 */
export function mergeAnswers(
  loaded: LoadedExam,
  keyOf: (index: number) => string,
): { answers: Record<number, AnswerEntry>; stale: string[] } {
  const answers: Record<number, AnswerEntry> = {};
  loaded.answers.forEach((saved, i) => {
    answers[saved.question_id] = { value: saved.value, answeredAt: saved.answered_at, key: keyOf(i), status: 'saved' };
  });
  const known = new Set(loaded.questions.map((q) => q.id));
  const stale: string[] = [];
  const byTime = [...loaded.unsent].sort((a, b) => Date.parse(a.answeredAt) - Date.parse(b.answeredAt));
  for (const entry of byTime) {
    const current = answers[entry.questionId];
    if (!known.has(entry.questionId) || (current && Date.parse(current.answeredAt) >= Date.parse(entry.answeredAt))) {
      stale.push(entry.key);
      continue;
    }
    if (current && current.status !== 'saved') stale.push(current.key);
    answers[entry.questionId] = { value: entry.value, answeredAt: entry.answeredAt, key: entry.key, status: 'local' };
  }
  return { answers, stale };
}

/** A failed call's code from its error event, as a guard's or an action's parameter. */
export const failureOfError = ({ event }: { event: { error: unknown } }): FailureCode => failureCodeOf(event.error);

/**
 * Why a call run in the retry machine failed for good, from its done event, as a guard's or an
 * action's parameter; null when it answered.
 */
export const failureOfOutput = ({ event }: { event: { output: RetryOutput } }): FailureCode | null =>
  event.output.ok ? null : event.output.error;

/**
 * The value a call run in the retry machine answered. The retry machine runs any call, so its
 * output's value is unknown: the caller names what its call answers.
 */
export function valueOf<T>(output: RetryOutput): T {
  return (output.ok ? output.value : undefined) as T;
}

/** The exam details a successful loadExamDetails delivered, undefined when it failed. */
export function detailsOf(output: RetryOutput): ExamDetails | undefined {
  return output.ok ? (output.value as ExamDetails) : undefined;
}

/** Marks the answers whose keys the server acknowledged (a newer version stays unsent). */
export function markSaved(answers: Record<number, AnswerEntry>, keys: readonly string[]): Record<number, AnswerEntry> {
  const acknowledged = new Set(keys);
  const next: Record<number, AnswerEntry> = {};
  for (const [id, entry] of Object.entries(answers)) {
    next[Number(id)] = acknowledged.has(entry.key) ? { ...entry, status: 'saved' } : entry;
  }
  return next;
}

/**
 * The idempotency key of an answer's revision: the session's uuid (made on this terminal at
 * login) with the revision number in its last 12 hex digits. Unique per session and answer,
 * still a valid v4 UUID, and reproducible, so a replayed exam sends the same keys. After a
 * (re)load the revisions continue from the server's time in ms, so a reload never reuses a key
 * it made before (the server would refuse it as ER_DUP_ENTRY).
 */
export function answerKey(seed: string, revision: number): string {
  return `${seed.slice(0, 24)}${revision.toString(16).padStart(12, '0')}`;
}


/** The loading calls' input: the sitting, and whose cached exam may stand in offline. */
export function loadInputOf(context: ExamContext): LoadInput {
  return { scheduleHistoryId: context.scheduleHistoryId, owner: context.answerSeed };
}


/** An answer counts as given once it holds more than blanks (the list, the finish dialog, the indicator). */
export function isAnswered(value: string | undefined): boolean {
  return value !== undefined && value.trim() !== '';
}

/**
 * The questions the finish dialog counts as not answered: neither given (`isAnswered`) nor being
 * typed right now (`typing`, the text not yet handed over, which Finish hands over first).
 */
export function unansweredCount(
  questions: readonly { id: number }[],
  answers: Readonly<Record<number, { value: string } | undefined>>,
  typing: { questionId: number; value: string } | null,
): number {
  return questions.filter((q) => !(typing?.questionId === q.id && isAnswered(typing.value)) && !isAnswered(answers[q.id]?.value)).length;
}

/**
 * Cancellations the end screen explains with the code's own message (seed section 2, rule 5):
 * another terminal pressed Start, or an administrator reset the account. Any other code keeps
 * the general words.
 */
export const explainedCancellations: ReadonlySet<FailureCode> = new Set(['INCORRECT_DEVICE', 'ER_SCHEDULE_HISTORY_RETAKE']);
