/**
 * The demo's exam files (server/seed/demo/exams/): four subjects with at least three levels, exams of at
 * least 20 questions tagged with their subject's units, every stored correct answer correct by
 * server/domain/scoring.ts and in its type's answer format; then, on each database, what the
 * seed wrote, what GET /exam/questions sends (never a correct answer) for every exam, and how
 * POST /exam/answers checks a value by its question's type.
 */
import { and, count, eq } from 'drizzle-orm';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { ExamQuestionsSchema } from '../../contract/exam.ts';
import * as schema from '../../server/db/schema.ts';
import { answerFormatProblem } from '../../server/domain/answers/rules.ts';
import { isCorrect, isWellFormedNumber } from '../../server/domain/scoring.ts';
import { examDigest, startedExamIds } from '../../server/imports/exams/apply.ts';
import { demoExams, demoLevels, demoShortExams, demoSubjects, unitsBySubject } from '../../server/seed/demo-content.ts';
import { seedDemoData } from '../../server/seed/seed.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, useApi } from '../helpers/server-api.ts';
import { addSitting, answerKey } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
/** The units of each subject (seed section 2): what the per-unit analysis groups by. */
const syllabus: Record<number, string[]> = {
  1: ['animals', 'opposites', 'daily life', 'spelling', 'word meaning'],
  2: ['addition', 'subtraction', 'multiplication', 'division', 'place value', 'fractions', 'decimals', 'percentages', 'negative numbers', 'order of operations'],
  3: ['kanji reading', 'kanji writing', 'vocabulary', 'particles'],
  6: ['sequences', 'loops', 'events', 'conditions', 'variables'],
};
const allQuestions = demoExams.flatMap((exam) => exam.questions.map((q, i) => ({ exam, q, label: `${exam.code} #${i + 1}` })));
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** The answer as a whole word (or number) of `text`. */
const mentions = (text: string, answer: string) => new RegExp(`(?<![\\p{L}\\p{N}.])${escape(answer)}(?![\\p{L}\\p{N}]|\\.\\d)`, 'iu').test(text);

describe('the content', () => {
  test('every subject has at least three levels, each with an exam of at least 20 questions', () => {
    for (const subject of demoSubjects) {
      const levels = demoLevels.filter((l) => l.subjectId === subject.id).map((l) => l.position);
      expect(levels.length, subject.name).toBeGreaterThanOrEqual(3);
      for (const level of levels) {
        const exams = demoExams.filter((e) => e.subjectId === subject.id && e.level === level);
        expect(exams.length, `${subject.name} level ${level}`).toBe(1);
        expect(exams[0]!.questions.length, exams[0]!.code).toBeGreaterThanOrEqual(20);
      }
    }
    expect(new Set(demoExams.map((e) => e.code)).size).toBe(demoExams.length);
  });

  test('every question names a unit of its subject\'s syllabus, and every unit of a subject is used', () => {
    for (const { exam, q, label } of allQuestions) expect(syllabus[exam.subjectId], label).toContain(q.unit);
    for (const subject of demoSubjects) {
      const used = new Set(demoExams.filter((e) => e.subjectId === subject.id).flatMap((e) => e.questions.map((q) => q.unit)));
      expect(used, subject.name).toEqual(new Set(syllabus[subject.id]));
      expect(new Set(unitsBySubject[subject.id]), subject.name).toEqual(used);
    }
  });

  test('every stored correct answer is correct, in its type\'s answer format, and not given away by the prompt', () => {
    for (const { q, label } of allQuestions) {
      expect(q.prompt.trim(), label).not.toBe('');
      expect(isCorrect(q, q.correctAnswer), label).toBe(true);
      expect(answerFormatProblem(q, q.correctAnswer), label).toBeUndefined();
      if (q.type === 'single_choice') {
        expect(q.choices.length, label).toBeGreaterThanOrEqual(3);
        expect(new Set(q.choices.map((c) => c.id)).size, label).toBe(q.choices.length);
        expect(new Set(q.choices.map((c) => c.label)).size, label).toBe(q.choices.length);
      } else {
        expect(q.choices, label).toEqual([]);
      }
      if (q.type === 'text') {
        expect(q.input === null || q.input.kind !== 'keypad', label).toBe(true);
        expect(mentions(q.prompt, q.correctAnswer), label).toBe(false);
      }
      if (q.type === 'number') {
        expect(q.input?.kind, label).toBe('keypad');
        expect(isWellFormedNumber(q.correctAnswer), label).toBe(true);
        expect(mentions(q.prompt.replace(/\\\(|\\\)/g, ' '), q.correctAnswer), label).toBe(false);
        // The keypad has the keys the answer needs.
        if (q.input?.kind === 'keypad') {
          if (q.correctAnswer.startsWith('-')) expect(q.input.negative, label).toBe(true);
          if (q.correctAnswer.includes('.')) expect(q.input.decimal, label).toBe(true);
          if (q.correctAnswer.includes('/')) expect(q.input.fraction, label).toBe(true);
        }
      }
      if (q.type === 'ordering') {
        expect(q.blocks.length, label).toBeGreaterThanOrEqual(3);
        expect(new Set(q.blocks.map((b) => b.label)).size, label).toBe(q.blocks.length);
        // Shown in another order than the right one.
        expect(q.blocks.map((b) => b.id).join(','), label).not.toBe(q.correctAnswer);
        // The first block of the right order is the script's hat block (an event).
        const first = q.blocks.find((b) => b.id === q.correctAnswer.split(',')[0]);
        expect(first?.category, label).toBe('event');
      } else {
        expect(q.blocks, label).toEqual([]);
      }
      if (q.math) expect(q.prompt + q.choices.map((c) => c.label).join(''), label).toMatch(/\\\(.+?\\\)/);
    }
  });

  test('each subject uses its question types and input kinds', () => {
    const of = (subjectId: number) => allQuestions.filter(({ exam }) => exam.subjectId === subjectId).map(({ q }) => q);
    const english = of(1);
    expect(new Set(english.map((q) => q.type))).toEqual(new Set(['single_choice', 'text']));
    expect(english.some((q) => q.input?.kind === 'alphabet' && !q.input.upper_case)).toBe(true);
    expect(english.some((q) => q.input?.kind === 'alphabet' && q.input.upper_case)).toBe(true);
    expect(english.some((q) => q.caseSensitive)).toBe(true);

    const calculation = of(2);
    expect(new Set(calculation.map((q) => q.type))).toEqual(new Set(['single_choice', 'number']));
    expect(calculation.some((q) => q.math)).toBe(true);
    const keys = calculation.flatMap((q) => (q.input?.kind === 'keypad' ? [q.input] : []));
    expect(keys.some((k) => k.negative) && keys.some((k) => k.decimal) && keys.some((k) => k.fraction)).toBe(true);
    for (const sign of ['-', '.', '/']) expect(calculation.some((q) => q.type === 'number' && q.correctAnswer.includes(sign)), sign).toBe(true);
    // Level 1 asks for whole numbers only.
    for (const q of demoExams.find((e) => e.code === 'CALC-1')!.questions) {
      if (q.input?.kind === 'keypad') expect([q.input.negative, q.input.decimal, q.input.fraction]).toEqual([false, false, false]);
    }

    const japanese = of(3);
    expect(new Set(japanese.map((q) => q.type))).toEqual(new Set(['single_choice']));
    for (const q of japanese) expect(q.prompt, q.prompt).toMatch(/[\p{Script=Hiragana}\p{Script=Han}]/u);

    const programming = of(6);
    expect(new Set(programming.map((q) => q.type))).toEqual(new Set(['single_choice', 'ordering']));
    for (const exam of demoExams.filter((e) => e.subjectId === 6)) {
      expect(exam.questions.filter((q) => q.type === 'ordering').length, exam.code).toBeGreaterThanOrEqual(5);
    }
  });

  test('EN-1 starts with the questions the journey tests sit: a choice and a typed text among the first', () => {
    const first = demoExams.find((e) => e.code === 'EN-1')!.questions.slice(0, 3);
    expect(first.map((q) => q.type)).toEqual(['single_choice', 'text', 'single_choice']);
    expect(first[0]!.choices.length).toBeGreaterThanOrEqual(2);
  });
});

describe.each(kinds)('the content on %s', (kind) => {
  const api = useApi(kind);

  test('the seed wrote every question of every exam, with answers that score as correct', async () => {
    for (const exam of demoExams) {
      const [row] = await api.db.select().from(schema.exams).where(eq(schema.exams.code, exam.code));
      expect(row, exam.code).toBeDefined();
      const stored = await api.db.select().from(schema.questions).where(eq(schema.questions.examId, row!.id));
      expect(stored.length, exam.code).toBe(exam.questions.length);
      for (const q of stored) {
        const label = `${exam.code} #${q.number}`;
        expect(isCorrect(q, q.correctAnswer), label).toBe(true);
        expect(answerFormatProblem(q, q.correctAnswer), label).toBeUndefined();
        expect(unitsBySubject[exam.subjectId], label).toContain(q.unit);
        expect({ ...q, id: undefined, examId: undefined, number: undefined }, label).toEqual({
          ...exam.questions[q.number - 1],
          id: undefined,
          examId: undefined,
          number: undefined,
        });
      }
    }
  });

  test('every demo exam came in through the exam import: one version, its file\'s digest, audited', async () => {
    for (const exam of [...demoExams, ...demoShortExams]) {
      const rows = await api.db.select().from(schema.exams).where(eq(schema.exams.code, exam.code));
      expect(rows.map((row) => [row.version, row.contentDigest, row.title, row.timeLimitSeconds, row.passPercent]), exam.code).toEqual([
        [1, examDigest(exam.document), exam.title, exam.timeLimitSeconds, exam.passPercent],
      ]);
      const audited = await api.db.select().from(schema.auditLog).where(and(eq(schema.auditLog.action, 'import'), eq(schema.auditLog.entity, `exam:${exam.code} v1`)));
      expect(audited.length, exam.code).toBe(1);
    }
  });

  test('seeding again writes nothing; a database seeded before the exam files is brought up to date in place', async () => {
    const counts = async () => ({
      exams: (await api.db.select({ n: count() }).from(schema.exams))[0]!.n,
      questions: (await api.db.select({ n: count() }).from(schema.questions))[0]!.n,
      audit: (await api.db.select({ n: count() }).from(schema.auditLog))[0]!.n,
    });
    const before = await counts();
    await seedDemoData(api.db);
    expect(await counts()).toEqual(before);

    // CALC-1 as an earlier seed left it: no digest, a typed-text question without the keypad, and
    // sat by pupils of the results demo (a started exam an import would not change in place).
    const [exam] = await api.db.select().from(schema.exams).where(eq(schema.exams.code, 'CALC-1'));
    expect((await startedExamIds(api.db, [exam!.id])).has(exam!.id)).toBe(true);
    const where = and(eq(schema.questions.examId, exam!.id), eq(schema.questions.number, 1));
    await api.db.update(schema.exams).set({ contentDigest: null }).where(eq(schema.exams.id, exam!.id));
    await api.db.update(schema.questions).set({ type: 'text', input: null, unit: 'sums', prompt: 'old' }).where(where);
    await seedDemoData(api.db);
    const [row] = await api.db.select().from(schema.questions).where(where);
    expect(row).toMatchObject({ type: 'number', unit: 'addition', prompt: '7 + 5 = ?', input: { kind: 'keypad', negative: false } });
    const [updated] = await api.db.select().from(schema.exams).where(eq(schema.exams.id, exam!.id));
    expect(updated!.contentDigest).toBe(examDigest(demoExams.find((e) => e.code === 'CALC-1')!.document));
    expect(await counts()).toEqual({ ...before, audit: before.audit + 1 });
  });

  test.each(demoExams.map((e) => [e.code, e] as const))('GET /exam/questions of %s sends every question and no correct answer', async (_, exam) => {
    const pupil = await addSitting(api.db, { examCode: exam.code });
    const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
    const response = await api.call('GET', `/api/exam/questions?schedule_history_id=${scheduleHistoryId}`, { token });
    expect(response.status).toBe(200);
    const body = v.parse(ExamQuestionsSchema, response.body);
    expect(body.questions).toHaveLength(exam.questions.length);
    // No field that could carry an answer, at any depth (prompts may say "correctly").
    expect(JSON.stringify(response.body)).not.toMatch(/"(?:correct\w*|answer_key|solution|case_?sensitive)"\s*:/i);

    const raw = response.body as { questions: Record<string, unknown>[] };
    for (const [i, sent] of body.questions.entries()) {
      const q = exam.questions[i]!;
      const label = `${exam.code} #${i + 1}`;
      expect(Object.keys(raw.questions[i]!).sort(), label).toEqual(['blocks', 'choices', 'id', 'input', 'math', 'number', 'prompt', 'type', 'unit']);
      expect(sent, label).toMatchObject({
        number: i + 1,
        type: q.type,
        prompt: q.prompt,
        choices: q.choices,
        unit: q.unit,
        math: q.math,
        input: q.input,
        blocks: q.blocks,
      });
      const shown = JSON.stringify(sent);
      if (q.type === 'text') expect(mentions(sent.prompt, q.correctAnswer), label).toBe(false);
      if (q.type === 'ordering') expect(shown, label).not.toContain(q.correctAnswer);
    }
  });

  describe('POST /exam/answers checks the value by its question\'s type', () => {
    // Each answer a second later than the last, so a valid one is saved (201), never superseded.
    const save = (token: string, body: Record<string, unknown>) => {
      api.clock.advance(1000);
      return api.call('POST', '/api/exam/answers', { token, body: { ...body, answered_at: api.clock.now().toISOString() } });
    };

    test('a number answer must be a keypad number', async () => {
      const pupil = await addSitting(api.db, { examCode: 'CALC-3' });
      const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
      const question = (await answerKey(api.db, pupil.examId)).find((q) => q.type === 'number')!;
      for (const value of ['1,5', '1/0', 'five', '-', '1.', ' 3', '3 / 4', '½']) {
        const refused = await save(token, api.answer(scheduleHistoryId, question.id, value));
        expect(refused.status, value).toBe(422);
        expect(errorOf(refused), value).toMatchObject({ code: 'VALIDATION_ERROR', issues: [{ field: 'value', rule: 'invalid' }] });
      }
      for (const value of ['-5', '2.5', '3/4', '']) {
        const saved = await save(token, api.answer(scheduleHistoryId, question.id, value));
        expect(saved.status, value).toBe(201);
      }
    });

    test('an ordering answer must list each of the question\'s blocks once', async () => {
      const pupil = await addSitting(api.db, { examCode: 'VP-1' });
      const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
      const question = (await answerKey(api.db, pupil.examId)).find((q) => q.type === 'ordering')!;
      const ids = question.correctAnswer.split(',');
      expect(ids.length).toBe(3);
      const [x, y, z] = ids as [string, string, string];
      for (const value of [`${x},${y}`, `${x},${x},${y}`, `${x},${y},${z},${z}`, `${x},${y},zz`, `${x}, ${y},${z}`, 'a b c']) {
        const refused = await save(token, api.answer(scheduleHistoryId, question.id, value));
        expect(refused.status, value).toBe(422);
        expect(errorOf(refused), value).toMatchObject({ code: 'VALIDATION_ERROR', issues: [{ field: 'value', rule: 'invalid' }] });
      }
      // Any order of the right blocks is a valid answer (right or wrong is for scoring).
      expect((await save(token, api.answer(scheduleHistoryId, question.id, `${z},${y},${x}`))).status).toBe(201);
      expect((await save(token, api.answer(scheduleHistoryId, question.id, question.correctAnswer))).status).toBe(201);
    });

    test('a single-choice answer must be one of its choices; a text answer may be any text', async () => {
      const pupil = await addSitting(api.db, { examCode: 'EN-3' });
      const { token, scheduleHistoryId } = await api.startAs(pupil.loginCode);
      const key = await answerKey(api.db, pupil.examId);
      const choiceQuestion = key.find((q) => q.type === 'single_choice')!;
      const textQuestion = key.find((q) => q.type === 'text')!;
      expect((await save(token, api.answer(scheduleHistoryId, choiceQuestion.id, 'e'))).status).toBe(422);
      expect((await save(token, api.answer(scheduleHistoryId, choiceQuestion.id, 'a'))).status).toBe(201);
      expect((await save(token, api.answer(scheduleHistoryId, textQuestion.id, '1,5 / not a word'))).status).toBe(201);
    });
  });
});
