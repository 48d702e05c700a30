/**
 * An exam's title in the caller's language, on PGlite and PostgreSQL: with per-language titles in
 * `exams.titles`, GET /api/exams, GET /api/exam-details and GET /api/score-report/results (what the
 * documents print) name the exam in X-Locale's language, else Accept-Language's, else its `title`.
 */
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { ExamDetailsSchema } from '../../contract/exam.ts';
import { ScoreReportSchema } from '../../contract/results.ts';
import { RESULT_RELEASE_MS } from '../../machines/schedule-history/schedule-history.machine.ts';
import { exams } from '../../server/db/schema.ts';
import { titleIn } from '../../server/domain/exam-titles.ts';
import { runDueJobs } from '../../server/jobs/runner.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { useApi } from '../helpers/server-api.ts';
import { addSitting, answerKey, buyItems, historyRow } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();

const titles = { ja: '英語 レベル1', ar: 'اللغة الإنجليزية، المستوى ١', pt: 'Inglês, nível 1', 'yue-Hant': '英文 第一級' };

describe('titleIn', () => {
  const exam = { title: 'English level 1', titles };
  test('the first of the caller\'s languages with a title, through catalog, tag and shorter tags; else the title', () => {
    expect(titleIn(exam, ['ja', 'pt-BR'])).toBe(titles.ja);
    expect(titleIn(exam, [undefined, 'pt-BR'])).toBe(titles.pt);
    expect(titleIn(exam, ['ar-nu-arab'])).toBe(titles.ar);
    expect(titleIn(exam, ['zh_yue_Hant'])).toBe(titles['yue-Hant']);
    expect(titleIn(exam, ['de', 'fr'])).toBe('English level 1');
    expect(titleIn(exam, [undefined, undefined])).toBe('English level 1');
    expect(titleIn({ title: 'Only', titles: {} }, ['ja'])).toBe('Only');
  });
});

describe.each(kinds)('exam titles per language on %s', (kind) => {
  const api = useApi(kind);

  test('the exam list, the exam details and the score report name the exam in the caller\'s language', async () => {
    const pupil = await addSitting(api.db, { isMyPageLogin: true });
    const [exam] = await api.db.select({ title: exams.title }).from(exams).where(eq(exams.id, pupil.examId));
    await api.db.update(exams).set({ titles }).where(eq(exams.id, pupil.examId));
    const { token, scheduleHistoryId } = await api.loginAs(pupil.loginCode);

    const details = async (headers: Record<string, string>) => {
      const response = await api.call('GET', `/api/exam-details?schedule_history_id=${scheduleHistoryId}`, { token, headers });
      expect(response.status).toBe(200);
      return v.parse(ExamDetailsSchema, response.body).exam.title;
    };
    expect(await details({ 'X-Locale': 'ja', 'Accept-Language': 'pt-BR' })).toBe(titles.ja);
    expect(await details({ 'Accept-Language': 'pt-BR,pt;q=0.9' })).toBe(titles.pt);
    expect(await details({ 'X-Locale': 'ar' })).toBe(titles.ar);
    expect(await details({ 'X-Locale': 'de' })).toBe(exam!.title);
    expect(await details({})).toBe(exam!.title);

    const list = await api.call('GET', '/api/exams', { token, headers: { 'X-Locale': 'ja' } });
    expect(list.status).toBe(200);
    const listed = (list.body as { exams: { schedule_history_id: number; exam: { title: string } }[] }).exams;
    expect(listed.find((e) => e.schedule_history_id === scheduleHistoryId)?.exam.title).toBe(titles.ja);

    // Sat, scored, released and bought: the score report (the documents' data) in the caller's language.
    const started = await api.startAs(pupil.loginCode);
    for (const q of await answerKey(api.db, pupil.examId)) {
      expect((await api.call('POST', '/api/exam/answers', { token: started.token, body: api.answer(scheduleHistoryId, q.id, q.correctAnswer) })).status).toBe(201);
    }
    expect((await api.call('POST', '/api/exam/finish', { token: started.token, body: { schedule_history_id: scheduleHistoryId } })).status).toBe(200);
    await runDueJobs(api.db, api.clock);
    api.clock.set(new Date((await historyRow(api.db, scheduleHistoryId)).finishedAt!.getTime() + RESULT_RELEASE_MS + 1000));
    await runDueJobs(api.db, api.clock);
    await buyItems(api.db, scheduleHistoryId, ['result_sheet'], api.clock.now());
    const later = (await api.loginAs(pupil.loginCode)).token;
    const report = async (headers: Record<string, string>) => {
      const response = await api.call('GET', `/api/score-report/results?schedule_history_id=${scheduleHistoryId}`, { token: later, headers });
      expect(response.status).toBe(200);
      return v.parse(ScoreReportSchema, response.body).exam.title;
    };
    expect(await report({ 'X-Locale': 'pt' })).toBe(titles.pt);
    expect(await report({ 'X-Locale': 'en' })).toBe(exam!.title);
  });
});
