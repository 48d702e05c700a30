/**
 * A full exam of each subject, in real Chromium against the production build and the
 * real server: for English, Calculation, Japanese and Visual Programming (levels 1, 2 and 3
 * among them), a pupil logs in, passes confirm, tutorial and Start, answers every one of the 20
 * questions with its own input (choice tiles, the device keyboard or the on-screen alphabet
 * keyboard, the number keypad, the "Move up" buttons of the program blocks), sees every question
 * answered in the question list, finishes, and the end screen's receipt counts 20 answers.
 *
 * The right answers come from the demo's exam files (server/seed/demo/exams/), read by this
 * test only: the browser never receives them. Each answer counts once the server acknowledged
 * exactly that value, and the receipt's digest must be the one of exactly those answers.
 */
import { describe, expect, test } from 'vitest';
import { isCorrect } from '../../server/domain/scoring.ts';
import { demoExams } from '../../server/seed/demo-content.ts';
import type { ExamQuestions } from '../../contract/exam.ts';
import { answerCorrectly, digestOfAnswers, seeSaveState, watchSavedAnswers } from '../helpers/e2e-answers.ts';
import {
  confirmIdentity,
  goToNextQuestion,
  loginWithCode,
  openFinishDialog,
  openKiosk,
  passTutorial,
  screens,
  seeIdentity,
  seeQuestionCounter,
  seeReceipt,
  seeScreen,
  startExam,
  useKiosk,
} from '../helpers/e2e-browser.ts';
import { takeJourneyPupil } from '../helpers/e2e-demo-accounts.ts';
import { START_TIMEOUT_MS } from '../helpers/e2e-sitting.ts';

const kiosk = useKiosk();

/** The exam paper of a subject and level, as the seed wrote it (with its correct answers). */
function paperOf(subject: number, level: number) {
  const paper = demoExams.find((exam) => exam.subjectId === subject && exam.level === level);
  if (!paper) throw new Error(`no demo exam of subject ${subject} level ${level}`);
  return paper;
}

const subjects = [
  { subject: 1, level: 2, name: 'English' },
  { subject: 2, level: 3, name: 'Calculation' },
  { subject: 3, level: 1, name: 'Japanese' },
  { subject: 6, level: 2, name: 'Visual Programming' },
] as const;

describe('a full exam of each subject', () => {
  test('the exams sat cover every subject, levels 1, 2 and 3, and every way to answer', () => {
    expect(new Set(subjects.map((s) => s.subject))).toEqual(new Set([1, 2, 3, 6]));
    expect(new Set(subjects.map((s) => s.level))).toEqual(new Set([1, 2, 3]));
    const inputs = subjects.flatMap(({ subject, level }) =>
      paperOf(subject, level).questions.map((q) => (q.input?.kind === 'alphabet' ? `alphabet${q.input.upper_case ? ' upper' : ''}` : q.type)),
    );
    expect(new Set(inputs)).toEqual(new Set(['single_choice', 'text', 'alphabet', 'alphabet upper', 'number', 'ordering']));
  });

  test.each(subjects)('$name level $level: every question answered with its own input, finished, receipt of 20', async ({ subject, level }) => {
    const page = kiosk.page;
    const pupil = takeJourneyPupil({ subject, level });
    const paper = paperOf(subject, level);
    const saved = watchSavedAnswers(page);
    const questionsLoaded = page.waitForResponse((r) => r.request().method() === 'GET' && new URL(r.url()).pathname.endsWith('/exam/questions'), {
      timeout: START_TIMEOUT_MS,
    });

    await openKiosk(page, '/login-code');
    await loginWithCode(page, pupil.login_code);
    const identity = await seeIdentity(page);
    expect(identity).toContain(pupil.subjectName);
    expect(identity).toContain(pupil.levelName);
    await confirmIdentity(page);
    await passTutorial(page);
    await startExam(page);

    const { questions } = (await (await questionsLoaded).json()) as ExamQuestions;
    expect(questions).toHaveLength(20);
    expect(questions.map((q) => q.prompt)).toEqual(paper.questions.map((q) => q.prompt));
    expect(await seeQuestionCounter(page)).toEqual({ current: 1, total: 20 });

    const given: { question_id: number; value: string }[] = [];
    for (const [i, shown] of questions.entries()) {
      if (i > 0) await goToNextQuestion(page);
      expect(await seeQuestionCounter(page)).toEqual({ current: i + 1, total: 20 });
      const content = paper.questions[i]!;
      const value = await answerCorrectly(page, shown, content);
      expect(isCorrect(content, value), `${paper.code} #${i + 1}: "${value}" is the right answer`).toBe(true);
      await expect.poll(() => saved.get(shown.id), { timeout: 15_000, message: `${paper.code} #${i + 1} saved on the server` }).toBe(value);
      await seeSaveState(page, 'Saved on the server');
      given.push({ question_id: shown.id, value });
    }
    expect(new Set(questions.map((q) => q.type))).toEqual(new Set(paper.questions.map((q) => q.type)));

    // The question list: every question answered, none left.
    await page.getByRole('button', { name: 'Question list', exact: true }).click();
    const items = page.getByRole('navigation', { name: 'Question list' }).getByRole('button');
    await expect.poll(() => items.count()).toBe(20);
    for (const text of await items.allInnerTexts()) {
      expect(text).toMatch(/Answered/);
      expect(text).not.toMatch(/Not answered/);
    }

    const dialog = await openFinishDialog(page);
    expect(await dialog.textContent()).toContain('You have answered every question.');
    await dialog.getByRole('button', { name: 'Finish', exact: true }).click();
    await seeScreen(page, screens.examEnd);

    // The receipt: 20 answers, and the digest of exactly the answers given.
    const receipt = await seeReceipt(page);
    expect(receipt.answers).toBe(20);
    expect(receipt.receipt.length).toBeGreaterThanOrEqual(8);
    expect(receipt.receipt).toBe(digestOfAnswers(given).slice(0, receipt.receipt.length));
  });
});
