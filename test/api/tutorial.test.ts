/**
 * GET /api/tutorial-setting (seed section 7) through the API: the pupil's token is required,
 * another pupil's sitting is not found, bad input is a VALIDATION_ERROR naming the field, a
 * closed sitting is refused with Start's code; and for every exam of the demo content, the
 * question types it uses with one practice question each, answered the way the exam's questions
 * of that type are (alphabet keyboard, keypad keys, KaTeX), right by the rules the exam is scored
 * by, and never one of the exam's questions. Reading the tutorial writes nothing.
 */
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import type { AnswerInput, QuestionType } from '../../contract/exam.ts';
import { isPracticeAnswerRight, TutorialSettingSchema, type PracticeQuestion } from '../../contract/tutorial.ts';
import { answers } from '../../server/db/schema.ts';
import { isCorrect } from '../../server/domain/scoring.ts';
import { demoExams, type DemoExam } from '../../server/seed/demo-content.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, TEST_START, useApi } from '../helpers/server-api.ts';
import { addSitting, snapshotTables } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();

/** The exam's question types in the order they first appear (what the tutorial must name). */
function typesOf(exam: DemoExam): QuestionType[] {
  return [...new Set(exam.questions.map((q) => q.type))];
}

/** How the exam's questions of a type are answered, as the practice must copy it. */
function expectedInput(exam: DemoExam, type: QuestionType): AnswerInput | null {
  const ofType = exam.questions.filter((q) => q.type === type);
  if (type === 'number') {
    const keys = { negative: false, decimal: false, fraction: false };
    for (const q of ofType) {
      if (q.input?.kind !== 'keypad') continue;
      keys.negative ||= q.input.negative;
      keys.decimal ||= q.input.decimal;
      keys.fraction ||= q.input.fraction;
    }
    return { kind: 'keypad', ...keys };
  }
  if (type === 'text') {
    const alphabet = ofType.flatMap((q) => (q.input?.kind === 'alphabet' ? [q.input] : []));
    return alphabet.length ? { kind: 'alphabet', upper_case: alphabet.every((input) => input.upper_case) } : null;
  }
  return null;
}

/** A wrong answer of the practice's type, in the contract's encoding. */
function wrongAnswerOf(practice: PracticeQuestion): string {
  switch (practice.question.type) {
    case 'single_choice':
      return practice.question.choices.find((c) => c.id !== practice.answer)!.id;
    case 'text':
      return `${practice.answer}x`;
    case 'number':
      return `${practice.answer}1`;
    case 'ordering':
      return practice.answer.split(',').reverse().join(',');
  }
}

describe.each(kinds)('the tutorial setting on %s', (kind) => {
  const api = useApi(kind);
  const tutorial = (query: string, token?: string) => api.call('GET', `/api/tutorial-setting${query}`, token ? { token } : {});

  describe('access', () => {
    test('needs the pupil\'s token: without one, or with a made-up one, 401 NOT_LOGGED_IN', async () => {
      const pupil = await addSitting(api.db);
      for (const token of [undefined, 'not-a-real-token']) {
        const response = await tutorial(`?schedule_history_id=${pupil.scheduleHistoryId}`, token);
        expect(response.status).toBe(401);
        expect(errorOf(response).code).toBe('NOT_LOGGED_IN');
      }
    });

    test('of another pupil\'s sitting is 404 NOT_FOUND (ids cannot be probed), as is one that does not exist', async () => {
      const mine = await addSitting(api.db);
      const theirs = await addSitting(api.db);
      const { token } = await api.loginAs(mine.loginCode);
      for (const id of [theirs.scheduleHistoryId, 2_147_483_647, 9_999_999_999]) {
        const response = await tutorial(`?schedule_history_id=${id}`, token);
        expect(response.status, String(id)).toBe(404);
        expect(errorOf(response).code).toBe('NOT_FOUND');
      }
    });

    test.each([
      ['', 'required'],
      ['?schedule_history_id=', 'required'],
      ['?schedule_history_id=abc', 'invalid'],
      ['?schedule_history_id=0', 'invalid'],
      ['?schedule_history_id=-4', 'invalid'],
      ['?schedule_history_id=1.5', 'invalid'],
      ['?schedule_history_id=12345678901', 'invalid'],
    ])('bad input %j is 422 VALIDATION_ERROR, the field %s', async (query, rule) => {
      const pupil = await addSitting(api.db);
      const { token } = await api.loginAs(pupil.loginCode);
      const response = await tutorial(query, token);
      expect(response.status).toBe(422);
      expect(errorOf(response)).toMatchObject({ code: 'VALIDATION_ERROR', issues: [{ field: 'schedule_history_id', rule }] });
    });

    test('is served after Start too (a reload of the exam), and refused once the exam is finished', async () => {
      const pupil = await addSitting(api.db);
      const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
      expect((await tutorial(`?schedule_history_id=${scheduleHistoryId}`, token)).status).toBe(200);
      expect((await api.call('POST', '/api/exam/finish', { token, body: { schedule_history_id: scheduleHistoryId } })).status).toBe(200);
      const response = await tutorial(`?schedule_history_id=${scheduleHistoryId}`, token);
      expect(response.status).toBe(403);
      expect(errorOf(response).code).toBe('ER_SCHEDULE_HISTORY_COMPLETED');
    });
  });

  describe('content', () => {
    test('states the number of questions and the time rules of the pupil\'s exam', async () => {
      const pupil = await addSitting(api.db);
      const { token, scheduleHistoryId } = await api.loginAs(pupil.loginCode);
      const response = await tutorial(`?schedule_history_id=${scheduleHistoryId}`, token);
      expect(response.status).toBe(200);
      const setting = v.parse(TutorialSettingSchema, response.body);
      expect(setting).toMatchObject({
        schedule_history_id: scheduleHistoryId,
        question_count: 20,
        question_types: ['single_choice', 'text'],
        time: { limit_seconds: 2400, starts: 'at_start', at_end: 'finishes_itself', answers_saved: 'as_you_go', answers_changeable: 'until_finished' },
        server_time: TEST_START,
      });
    });

    test.each(demoExams.map((exam) => [exam.code, exam] as const))(
      '%s: one practice question per type the exam uses, answered as its questions are, never one of them',
      async (_code, exam) => {
        const pupil = await addSitting(api.db, { examCode: exam.code });
        const { token, scheduleHistoryId } = await api.loginAs(pupil.loginCode);
        const response = await tutorial(`?schedule_history_id=${scheduleHistoryId}`, token);
        expect(response.status).toBe(200);
        const setting = v.parse(TutorialSettingSchema, response.body);

        expect(setting.question_count).toBe(exam.questions.length);
        expect(setting.time.limit_seconds).toBe(exam.timeLimitSeconds);
        expect(setting.question_types).toEqual(typesOf(exam));
        expect(setting.practice.map((p) => p.question.type)).toEqual(typesOf(exam));
        expect(setting.practice.map((p) => p.question.id)).toEqual(setting.practice.map((_, i) => -(i + 1)));

        const prompts = new Set(exam.questions.map((q) => q.prompt));
        for (const practice of setting.practice) {
          const { question } = practice;
          const label = `${exam.code} ${question.type}`;
          // Fixed practice content, not one of the exam's questions.
          expect(prompts.has(question.prompt), label).toBe(false);
          expect(question.input ?? null, label).toEqual(expectedInput(exam, question.type));
          const usesMath = exam.questions.some((q) => q.type === question.type && q.math);
          if (question.type === 'single_choice' || question.type === 'number') expect(question.math, label).toBe(usesMath);
          if (question.type === 'single_choice') expect(question.choices.map((c) => c.id), label).toContain(practice.answer);
          if (question.type === 'ordering') expect([...practice.answer.split(',')].sort(), label).toEqual(question.blocks!.map((b) => b.id).sort());
          if (question.type === 'number') {
            // The sum needs the most telling key the exam's keypad has.
            const input = question.input as Extract<AnswerInput, { kind: 'keypad' }>;
            const needs = input.fraction ? '/' : input.decimal ? '.' : input.negative ? '-' : null;
            if (needs) expect(practice.answer, label).toContain(needs);
            else expect(practice.answer, label).toMatch(/^\d+$/);
          }
          // Right by the terminal's judge and by the exam's scoring alike; a wrong one is wrong by both.
          const scorable = { type: question.type, correctAnswer: practice.answer, caseSensitive: practice.case_sensitive };
          expect(isPracticeAnswerRight(practice, practice.answer), label).toBe(true);
          expect(isCorrect(scorable, practice.answer), label).toBe(true);
          const wrong = wrongAnswerOf(practice);
          expect(isPracticeAnswerRight(practice, wrong), label).toBe(false);
          expect(isCorrect(scorable, wrong), label).toBe(false);
        }
      },
    );

    test('the Japanese exam practises in Japanese; the others in English', async () => {
      const japanese = await addSitting(api.db, { examCode: 'JA-1' });
      const english = await addSitting(api.db, { examCode: 'EN-1' });
      const promptOf = async (code: string) => {
        const { token, scheduleHistoryId } = await api.loginAs(code);
        const setting = v.parse(TutorialSettingSchema, (await tutorial(`?schedule_history_id=${scheduleHistoryId}`, token)).body);
        return setting.practice[0]!.question.prompt;
      };
      expect(await promptOf(japanese.loginCode)).toMatch(/[\u3040-\u30ff]/);
      expect(await promptOf(english.loginCode)).toMatch(/^[\x20-\x7e]+$/);
    });
  });

  test('reading the tutorial writes nothing: no answer, no change to any table', async () => {
    const pupil = await addSitting(api.db);
    const { token, scheduleHistoryId } = await api.loginAs(pupil.loginCode);
    const before = await snapshotTables(api.db);
    expect((await tutorial(`?schedule_history_id=${scheduleHistoryId}`, token)).status).toBe(200);
    expect(await snapshotTables(api.db)).toEqual(before);
    expect(await api.db.select().from(answers).where(eq(answers.scheduleHistoryId, scheduleHistoryId))).toEqual([]);
  });

  test('a practice question id is refused by the answer endpoint (it can never be saved as an answer)', async () => {
    const pupil = await addSitting(api.db);
    const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
    const setting = v.parse(TutorialSettingSchema, (await tutorial(`?schedule_history_id=${scheduleHistoryId}`, token)).body);
    const practice = setting.practice[0]!;
    const response = await api.call('POST', '/api/exam/answers', { token, body: api.answer(scheduleHistoryId, practice.question.id, practice.answer) });
    expect(response.status).toBe(422);
    expect(errorOf(response).code).toBe('VALIDATION_ERROR');
    expect(await api.db.select().from(answers).where(eq(answers.scheduleHistoryId, scheduleHistoryId))).toEqual([]);
  });
});
