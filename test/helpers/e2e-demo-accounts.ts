/**
 * The demo pupils the end-to-end tests log in as, read at test time from
 * server/seed/demo-accounts.json (the list the seed creates and the README shows), with the
 * subject and level names a pupil sees on screen.
 *
 * Each end-to-end run starts the server on a fresh database, but an exam cannot be started
 * over: a test that starts an exam takes a pupil nobody else in the run has taken
 * (`takeJourneyPupil`). Test files run in separate workers, so the pupils taken are noted in
 * a file of the run (E2E_ARTIFACTS_DIR/taken-pupils.txt, removed by scripts/e2e.ts at start).
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadDemoAccounts, type DemoAccount } from '../../server/seed/demo-accounts.ts';
import { demoLevels, demoSubjects } from '../../server/seed/demo-content.ts';

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

/** A demo pupil whose login works and whose exam nobody in this run has started yet. */
export function takeJourneyPupil(): DemoPupil {
  const unavailable = taken();
  const account = loadDemoAccounts().find(
    (a) => a.scenario === 'journey' && a.login_refused_with === null && !unavailable.has(a.login_code),
  );
  if (!account) throw new Error('server/seed/demo-accounts.json has no journey pupil left for this test run');
  takenInThisFile.add(account.login_code);
  if (takenFile) appendFileSync(takenFile, `${account.login_code}\n`);
  return withNames(account);
}

/** The login code the way a hurried pupil types it: lower case, no hyphens. */
export function typedCarelessly(loginCode: string): string {
  return loginCode.replaceAll('-', '').toLowerCase();
}
