/**
 * The demo pupils the end-to-end tests log in as, read at test time from
 * server/seed/demo-accounts.json (the list the seed creates and the README shows), with the
 * subject and level names a pupil sees on screen.
 *
 * Each end-to-end run starts its servers on fresh databases, but an exam cannot be started
 * over: a test that starts an exam takes a pupil nobody else on its server has taken
 * (`takeJourneyPupil`, by subject and level; `takeTimeOutPupil` for a one-minute sitting).
 * Test files run in separate processes, one at a time per server, so the pupils taken are
 * noted in a file of the server (E2E_ARTIFACTS_DIR/taken-pupils.txt, in .e2e/server-<n>/,
 * emptied by scripts/e2e.ts at start).
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadDemoAccounts, type DemoAccount } from '../../server/seed/demo-accounts.ts';
import { demoLevels, demoSubjects } from '../../server/seed/demo-content.ts';
import { loadResultsAccounts, type ResultsAccount } from '../../server/seed/results-demo.ts';

export type DemoPupil = DemoAccount & {
  /** The subject's name as the seed stores it, e.g. "English (vocabulary)". */
  subjectName: string;
  /** The level's name as the seed stores it, e.g. "Level 1". */
  levelName: string;
};

function withNames(account: DemoAccount): DemoPupil {
  const subject = demoSubjects.find((s) => s.id === account.subject);
  const level = demoLevels.find((l) => l.subjectId === account.subject && l.position === account.level);
  if (!subject || !level) {
    throw new Error(`demo account ${account.login_code}: no subject ${account.subject} / level ${account.level} in demo-content.ts`);
  }
  return { ...account, subjectName: subject.name, levelName: level.name };
}

const takenInThisFile = new Set<string>();
const takenFile = process.env.E2E_ARTIFACTS_DIR ? path.join(process.env.E2E_ARTIFACTS_DIR, 'taken-pupils.txt') : undefined;

function taken(): Set<string> {
  const inRun = takenFile && existsSync(takenFile) ? readFileSync(takenFile, 'utf8').split('\n') : [];
  return new Set([...takenInThisFile, ...inRun]);
}

/** Takes the first pupil of demo-accounts.json that matches and nobody in this run has taken. */
function take(matches: (account: DemoAccount) => boolean, what: string): DemoPupil {
  const unavailable = taken();
  const account = loadDemoAccounts().find((a) => matches(a) && a.login_refused_with === null && !unavailable.has(a.login_code));
  if (!account) throw new Error(`server/seed/demo-accounts.json has no ${what} left for this test run: add one`);
  takenInThisFile.add(account.login_code);
  if (takenFile) appendFileSync(takenFile, `${account.login_code}\n`);
  return withNames(account);
}

/**
 * A demo pupil (scenario "journey") whose login works and whose exam nobody in this run has
 * started yet; by default one of English level 1, the exam the journey tests sit (its first
 * questions are a choice and a typed text, server/seed/demo/exams/EN-1.json).
 */
export function takeJourneyPupil(exam: { subject: number; level: number } = { subject: 1, level: 1 }): DemoPupil {
  return take(
    (a) => a.scenario === 'journey' && a.subject === exam.subject && a.level === exam.level,
    `journey pupil of subject ${exam.subject} level ${exam.level}`,
  );
}

/**
 * A pupil of this exam whose sitting nobody in this run has started, for a test that needs that
 * paper but sits none of it to the end (the tutorial): a journey pupil the seed does not mark as
 * a spare (takeSparePupil hands those out in whatever order the files run), else the "subject"
 * pupil of that level.
 */
export function takeExamPupil(exam: { subject: number; level: number }): DemoPupil {
  const isSpare = (a: DemoAccount) => a.purpose.includes('spare journey pupil');
  return take(
    (a) => (a.scenario === 'journey' || a.scenario === 'subject') && !isSpare(a) && a.subject === exam.subject && a.level === exam.level,
    `journey or subject pupil of subject ${exam.subject} level ${exam.level} (not a spare)`,
  );
}

/**
 * A journey pupil for a test that needs a sitting but no particular paper (the fault-matrix
 * tests, test/e2e/fault-*.e2e.ts): one the seed marks as a spare ("spare journey pupil", one per
 * exam nobody else sits), else one of English level 1. So the fault cases leave the English
 * level 1 pupils to the tests that need that paper. Any subject: answer with
 * test/helpers/e2e-sitting.ts, which gives each question type its own input.
 */
export function takeSparePupil(): DemoPupil {
  const isSpare = (a: DemoAccount) => a.scenario === 'journey' && a.purpose.includes('spare journey pupil');
  const unavailable = taken();
  const spareLeft = loadDemoAccounts().some((a) => isSpare(a) && a.login_refused_with === null && !unavailable.has(a.login_code));
  return spareLeft ? take(isSpare, 'spare journey pupil') : takeJourneyPupil();
}

/** A pupil booked into a one-minute sitting (scenario "time-out"), for tests where the clock runs out. */
export function takeTimeOutPupil(): DemoPupil {
  return take((a) => a.scenario === 'time-out', 'time-out pupil');
}

/** The login code the way a hurried pupil types it: lower case, no hyphens. */
export function typedCarelessly(loginCode: string): string {
  return loginCode.replaceAll('-', '').toLowerCase();
}

/**
 * A my-page pupil of the results demo (server/seed/results-accounts.json, scenario "journey":
 * English level 1 open now, exam fee unpaid, login ID and password on their organisation's login
 * page) whom nobody in this run has taken. Noted in the same taken-pupils file as the others.
 */
export function takeResultsJourneyPupil(): ResultsAccount {
  const unavailable = taken();
  const account = loadResultsAccounts().find((a) => a.scenario === 'journey' && !unavailable.has(`results:${a.login_id}`));
  if (!account) throw new Error('server/seed/results-accounts.json has no results journey pupil left for this test run: add one');
  const key = `results:${account.login_id}`;
  takenInThisFile.add(key);
  if (takenFile) appendFileSync(takenFile, `${key}\n`);
  return account;
}
