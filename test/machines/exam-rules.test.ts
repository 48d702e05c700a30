/**
 * machines/exam/exam.rules.ts stated outright: which refusals are final, end the exam flow or say
 * it is over; where each answer stands and which go out (in question order); how the server's
 * answers and the outbox's merge after a (re)load and after a tab switch; what the terminal
 * caches; the answers' idempotency keys; the deadline on the server's clock.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExamDetails, Question } from '../../contract/exam.ts';
import {
  allNotSaved,
  answerKey,
  answersIn,
  cachedExamOf,
  DEFAULT_TIME_LIMIT_SECONDS,
  detailsOf,
  endingCodes,
  examOverCodes,
  explainedCancellations,
  failureOfError,
  failureOfOutput,
  finalSaveRefusals,
  firstUnsent,
  firstUnsentKeys,
  firstUnwritten,
  isAnswered,
  isPastDeadlineAt,
  loadInputOf,
  markSaved,
  mergeAnswers,
  offsetFrom,
  CLOCK_JUMP_MS,
  replacedBy,
  retriedCalls,
  SAVE_RETRY_MAX_MS,
  toSave,
  unansweredCount,
  valueOf,
  withServerAnswers,
  withStatus,
} from '../../machines/exam/exam.rules.ts';
import type { AnswerEntry, ExamContext, LoadedExam } from '../../machines/exam/exam.types.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';

const seed = '0f8fad5b-d9cb-469f-a165-70867728950e';
const question = (id: number): Question => ({ id, number: id - 100, type: 'single_choice', prompt: `Q${id}`, choices: [] });
const questions = [question(101), question(102), question(103)];
const entry = (value: string, status: AnswerEntry['status'], key = `k-${value}`, answeredAt = '2026-11-22T09:00:00.000Z'): AnswerEntry => ({
  value, status, key, answeredAt,
});

function contextWith(overrides: Partial<ExamContext> = {}): ExamContext {
  return {
    scheduleHistoryId: 7,
    answerSeed: seed,
    revision: 0,
    questionIndex: 0,
    details: null,
    questions,
    answers: {},
    deadlineAt: null,
    startedAt: null,
    visible: true,
    saveAttempts: 0,
    clockOffsetMs: 0,
    error: null,
    receipt: null,
    outcome: null,
    view: { listOpen: false, flagged: [], keyboardOpen: true, upperCase: false },
    focusLosses: 0,
    ...overrides,
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the refusals and codes', () => {
  it('names the final save refusals, the ending codes, the exam-over codes and the explained cancellations', () => {
    expect([...finalSaveRefusals].sort()).toEqual(
      ['ARCHIVE_KEY', 'ER_SCHEDULE_HISTORY_CANCELLED', 'ER_SCHEDULE_HISTORY_COMPLETED', 'NOT_FOUND', 'TIME_END', 'VALIDATION_ERROR'],
    );
    expect([...endingCodes].sort()).toEqual(['DURING_MAINTENANCE', 'ER_SCHEDULE_HISTORY_RETAKE', 'INCORRECT_DEVICE', 'NOT_LOGGED_IN']);
    expect([...examOverCodes].sort()).toEqual(['ER_SCHEDULE_HISTORY_COMPLETED', 'TIME_END']);
    expect([...explainedCancellations].sort()).toEqual(['ER_SCHEDULE_HISTORY_RETAKE', 'INCORRECT_DEVICE']);
    expect(retriedCalls).toEqual(['loadExamDetails', 'loadQuestions', 'flushAnswers', 'finishExam']);
    expect(DEFAULT_TIME_LIMIT_SECONDS).toBe(2_400);
    expect(SAVE_RETRY_MAX_MS).toBe(8_000);
  });

  it('reads the failure of an error event or of a call that ended in the retry machine', () => {
    expect(failureOfError({ event: { error: new ApiFailure('TIMEOUT') } })).toBe('TIMEOUT');
    expect(failureOfError({ event: { error: new Error('boom') } })).toBe('GENERIC_ERROR');
    expect(failureOfError({ event: { error: undefined } })).toBe('GENERIC_ERROR');
    expect(failureOfOutput({ event: { output: { ok: false, error: 'TIME_END' } } })).toBe('TIME_END');
    expect(failureOfOutput({ event: { output: { ok: true, value: 1 } } })).toBeNull();
  });

  it('reads the value and the exam details a successful call delivered', () => {
    const details = { title: 'English' } as unknown as ExamDetails;
    expect(valueOf({ ok: true, value: 42 })).toBe(42);
    expect(detailsOf({ ok: true, value: details })).toBe(details);
    expect(detailsOf({ ok: false, error: 'TIMEOUT' })).toBeUndefined();
  });
});

describe('the answers', () => {
  it('counts an answer as given once it holds more than blanks', () => {
    expect(isAnswered(undefined)).toBe(false);
    expect(isAnswered('')).toBe(false);
    expect(isAnswered(' \t')).toBe(false);
    expect(isAnswered(' a ')).toBe(true);
  });

  it('makes each revision\'s key from the session\'s uuid, still a v4 uuid', () => {
    expect(answerKey(seed, 0)).toBe('0f8fad5b-d9cb-469f-a165-000000000000');
    expect(answerKey(seed, 255)).toBe('0f8fad5b-d9cb-469f-a165-0000000000ff');
    expect(answerKey(seed, 1_763_802_000_000)).toBe('0f8fad5b-d9cb-469f-a165-019aaacaaa80');
  });

  it('sends answers in question order by status, as the outbox keeps them', () => {
    const context = contextWith({
      answers: {
        103: entry('c', 'local'),
        101: entry('a', 'unsaved'),
        102: entry('b', 'writing'),
        999: entry('z', 'local'),
      },
    });
    expect(toSave(context, 101, entry('a', 'unsaved'))).toEqual({
      scheduleHistoryId: 7, questionId: 101, value: 'a', key: 'k-a', answeredAt: '2026-11-22T09:00:00.000Z',
    });
    expect(answersIn(context, new Set(['local'])).map((a) => a.questionId)).toEqual([103]);
    expect(firstUnsent(context)?.questionId).toBe(101);
    expect(firstUnsentKeys(context)).toEqual(['k-a']);
    expect(firstUnwritten(context)?.questionId).toBe(102);
    expect(allNotSaved(context).map((a) => a.questionId)).toEqual([101, 102, 103]);
    expect(firstUnsent(contextWith({ answers: { 102: entry('b', 'local') } }))?.questionId).toBe(102);
    const saved = contextWith({ answers: { 101: entry('a', 'saved'), 102: entry('b', 'rejected'), 103: entry('c', 'replaced') } });
    expect(firstUnsent(saved)).toBeUndefined();
    expect(firstUnsentKeys(saved)).toEqual([]);
    expect(firstUnwritten(saved)).toBeUndefined();
    expect(allNotSaved(saved)).toEqual([]);
  });

  it('sets a status, marks saved or replaced by key only: a newer revision is left alone', () => {
    const answers = { 101: entry('a', 'local', 'k1'), 102: entry('b', 'unsaved', 'k2') };
    expect(withStatus(answers, 'k1', 'unsaved')).toEqual({ 101: entry('a', 'unsaved', 'k1'), 102: answers[102] });
    expect(markSaved(answers, ['k2', 'old'])).toEqual({ 101: answers[101], 102: entry('b', 'saved', 'k2') });
    expect(replacedBy(answers, 'k1', 'server')).toEqual({ 101: entry('server', 'replaced', 'k1'), 102: answers[102] });
    expect(replacedBy(answers, 'k2', undefined)).toEqual({ 101: answers[101], 102: entry('b', 'replaced', 'k2') });
    expect(withStatus(answers, 'none', 'saved')).toEqual(answers);
  });
});

describe('after a (re)load: the server\'s answers with the outbox\'s merged over them', () => {
  const loaded = (unsent: LoadedExam['unsent'], held = [{ question_id: 101, value: 'a', answered_at: '2026-11-22T09:00:10.000Z' }]) =>
    ({ questions, answers: held, unsent }) as unknown as LoadedExam;
  const unsent = (questionId: number, value: string, at: string, key = `u-${questionId}-${value}`) => ({
    scheduleHistoryId: 7, questionId, value, key, answeredAt: at,
  });

  it('keeps the server\'s answers as saved, with keys by position', () => {
    expect(mergeAnswers(loaded([]), (i) => `s${i}`)).toEqual({
      answers: { 101: { value: 'a', answeredAt: '2026-11-22T09:00:10.000Z', key: 's0', status: 'saved' } },
      stale: [],
    });
  });

  it('an unsent answer given later wins; one given earlier, at the same time or to an unknown question is stale', () => {
    const result = mergeAnswers(
      loaded([
        unsent(101, 'same', '2026-11-22T09:00:10.000Z'),
        unsent(999, 'x', '2026-11-22T09:00:30.000Z'),
        unsent(102, 'late', '2026-11-22T09:00:20.000Z'),
        unsent(101, 'early', '2026-11-22T09:00:05.000Z'),
        unsent(101, 'later', '2026-11-22T09:00:11.000Z'),
      ]),
      (i) => `s${i}`,
    );
    expect(result.answers).toEqual({
      101: { value: 'later', answeredAt: '2026-11-22T09:00:11.000Z', key: 'u-101-later', status: 'local' },
      102: { value: 'late', answeredAt: '2026-11-22T09:00:20.000Z', key: 'u-102-late', status: 'local' },
    });
    expect(result.stale).toEqual(['u-101-early', 'u-101-same', 'u-999-x']);
  });

  it('an unsent answer given at the very time of the server\'s is stale: the server\'s stands', () => {
    const result = mergeAnswers(loaded([unsent(101, 'same', '2026-11-22T09:00:10.000Z')]), (i) => `s${i}`);
    expect(result.answers[101]).toMatchObject({ value: 'a', status: 'saved' });
    expect(result.stale).toEqual(['u-101-same']);
  });

  it('of two unsent answers to one question, the later wins and the earlier is stale', () => {
    const result = mergeAnswers(
      loaded([unsent(102, 'second', '2026-11-22T09:00:40.000Z'), unsent(102, 'first', '2026-11-22T09:00:30.000Z')], []),
      (i) => `s${i}`,
    );
    expect(result.answers[102]).toMatchObject({ value: 'second', status: 'local' });
    expect(result.stale).toEqual(['u-102-first']);
  });
});

describe('after a tab switch: the server\'s answers read again', () => {
  it('a question only the server answered shows it saved, with a new key', () => {
    const context = contextWith({ revision: 4 });
    const { answers, revision } = withServerAnswers(context, [
      { question_id: 102, value: 'b', answered_at: '2026-11-22T09:01:00.000Z' },
      { question_id: 999, value: 'x', answered_at: '2026-11-22T09:01:00.000Z' },
    ]);
    expect(revision).toBe(5);
    expect(answers).toEqual({ 102: { value: 'b', answeredAt: '2026-11-22T09:01:00.000Z', key: answerKey(seed, 5), status: 'saved' } });
  });

  it('another value on the server replaces a saved one; answers on their way are left alone; a refused one the server holds is saved', () => {
    const context = contextWith({
      revision: 2,
      answers: {
        101: entry('a', 'saved', 'k1'),
        102: entry('b', 'local', 'k2'),
        103: entry('c', 'rejected', 'k3'),
      },
    });
    const at = '2026-11-22T09:02:00.000Z';
    const { answers, revision } = withServerAnswers(context, [
      { question_id: 101, value: 'other', answered_at: at },
      { question_id: 102, value: 'server', answered_at: at },
      { question_id: 103, value: 'c', answered_at: at },
    ]);
    expect(revision).toBe(2);
    expect(answers).toEqual({
      101: { value: 'other', answeredAt: at, key: 'k1', status: 'replaced' },
      102: entry('b', 'local', 'k2'),
      103: entry('c', 'saved', 'k3'),
    });
    // Written, in the outbox or unsent without one: still on their way, left alone.
    for (const status of ['writing', 'local', 'unsaved'] as const) {
      expect(withServerAnswers(contextWith({ answers: { 101: entry('mine', status, 'k1') } }), [
        { question_id: 101, value: 'server', answered_at: at },
      ]).answers, status).toEqual({ 101: entry('mine', status, 'k1') });
    }
    // Already replaced by the value the server holds: stays replaced.
    expect(withServerAnswers(contextWith({ answers: { 101: entry('c', 'replaced', 'k1') } }), [
      { question_id: 101, value: 'c', answered_at: at },
    ]).answers).toEqual({ 101: entry('c', 'replaced', 'k1') });
    // The same value the server holds: nothing changes.
    expect(withServerAnswers(contextWith({ answers: { 101: entry('a', 'saved', 'k1') } }), [
      { question_id: 101, value: 'a', answered_at: at },
    ]).answers).toEqual({ 101: entry('a', 'saved', 'k1') });
  });

  it('a read that left the server before this window\'s later answer was saved does not replace it', () => {
    // Tab B comes to the front (the read starts), the pupil answers, the save lands, then the
    // read arrives with tab A's older answer: B's stands, as it does on the server.
    const mine = entry('b', 'saved', 'k1', '2026-11-22T09:00:05.000Z');
    const stale = [{ question_id: 101, value: 'a', answered_at: '2026-11-22T09:00:04.000Z' }];
    expect(withServerAnswers(contextWith({ answers: { 101: mine } }), stale).answers).toEqual({ 101: mine });
    // The server's answer is the later one: it replaces this window's.
    const newer = [{ question_id: 101, value: 'a', answered_at: '2026-11-22T09:00:06.000Z' }];
    expect(withServerAnswers(contextWith({ answers: { 101: mine } }), newer).answers).toEqual({
      101: { value: 'a', answeredAt: '2026-11-22T09:00:06.000Z', key: 'k1', status: 'replaced' },
    });
    // A refused answer gives way to what the server holds, whatever its time.
    const refused = entry('b', 'rejected', 'k1', '2026-11-22T09:00:05.000Z');
    expect(withServerAnswers(contextWith({ answers: { 101: refused } }), stale).answers[101]?.status).toBe('replaced');
  });
});

describe('the finish dialog\'s count', () => {
  it('counts questions neither answered (more than blanks) nor being typed', () => {
    const qs = [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }];
    const answers = { 1: { value: 'a' }, 2: { value: '   ' } };
    expect(unansweredCount(qs, answers, null)).toBe(3);
    // The text being typed on question 3 counts as given; blanks being typed do not.
    expect(unansweredCount(qs, answers, { questionId: 3, value: 'cat' })).toBe(2);
    expect(unansweredCount(qs, answers, { questionId: 2, value: ' ' })).toBe(3);
    expect(unansweredCount([], answers, null)).toBe(0);
  });
});

describe('time and the cache', () => {
  it('the offset is the server\'s clock minus this terminal\'s', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-11-22T09:00:00.000Z') });
    expect(offsetFrom('2026-11-22T09:00:02.500Z')).toBe(2_500);
    expect(offsetFrom('2026-11-22T08:59:59.000Z')).toBe(-1_000);
  });

  it('a slow response does not set the kept offset back; a larger one, or a changed clock, is taken', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-11-22T09:00:00.000Z') });
    // Stamped 1.5 s before it arrived: a lower bound below the 500 ms kept, which stands.
    expect(offsetFrom('2026-11-22T08:59:59.000Z', 500)).toBe(500);
    // A tighter bound than the kept one replaces it.
    expect(offsetFrom('2026-11-22T09:00:00.800Z', 500)).toBe(800);
    // More than CLOCK_JUMP_MS below: this terminal's clock was set forward; taken at once.
    expect(offsetFrom('2026-11-22T08:59:57.000Z', 500)).toBe(-3_000);
    expect(500 - -3_000).toBeGreaterThan(CLOCK_JUMP_MS);
  });

  it('the deadline has passed once this terminal\'s time plus the offset reaches it', () => {
    const context = { deadlineAt: 10_000, clockOffsetMs: 1_000 };
    expect(isPastDeadlineAt(context, 8_999)).toBe(false);
    expect(isPastDeadlineAt(context, 9_000)).toBe(true);
    expect(isPastDeadlineAt({ deadlineAt: null, clockOffsetMs: 0 }, Number.MAX_SAFE_INTEGER)).toBe(false);
  });

  it('the loading calls get the sitting and whose cached exam may stand in', () => {
    expect(loadInputOf(contextWith())).toEqual({ scheduleHistoryId: 7, owner: seed });
  });

  it('caches what resumes the exam: answers the server holds, the deadline, the offset, the question on screen', () => {
    const details = { title: 'English' } as unknown as ExamDetails;
    const context = contextWith({
      details,
      deadlineAt: Date.parse('2026-11-22T09:40:00.000Z'),
      clockOffsetMs: -300,
      questionIndex: 2,
      answers: {
        101: entry('a', 'saved', 'k1'),
        102: entry('b', 'local', 'k2'),
        103: entry('c', 'replaced', 'k3', '2026-11-22T09:05:00.000Z'),
      },
    });
    expect(cachedExamOf(context)).toEqual({
      scheduleHistoryId: 7,
      owner: seed,
      details,
      questions,
      answers: [
        { question_id: 101, value: 'a', answered_at: '2026-11-22T09:00:00.000Z' },
        { question_id: 103, value: 'c', answered_at: '2026-11-22T09:05:00.000Z' },
      ],
      deadlineAt: '2026-11-22T09:40:00.000Z',
      clockOffsetMs: -300,
      questionIndex: 2,
    });
    expect(cachedExamOf({ ...context, details: null })).toBeNull();
    expect(cachedExamOf({ ...context, deadlineAt: null })).toBeNull();
    expect(cachedExamOf({ ...context, questions: [] })).toBeNull();
  });
});
