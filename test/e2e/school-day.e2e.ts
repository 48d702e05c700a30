/**
 * A real school from an empty database, end to end in Chromium, on PGlite and on PostgreSQL
 * (when one answers at 127.0.0.1:5432), with the demo off: the first administrator is made with
 * `npm run admin -- create-staff` (its password on standard input), the server starts on that
 * database, and the administrator, in the console, imports a school, 3 classrooms, an IMS QTI 3.0
 * exam package, a test period and 90 pupils; prints the login slips; a pupil logs in with a code
 * read from that PDF (pdftotext) and sits the exam to the end; the administrator saves the results
 * CSV, which holds that pupil's score once the server has scored the exam.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { zipSync } from 'fflate';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LOGIN_CODE_ALPHABET } from '../../contract/session.ts';
import { runCreateStaff } from '../../server/cli/create-staff.ts';
import type { Logger } from '../../server/logger.ts';
import { defaultDistDir, startServer, type RunningServer } from '../../server/main.ts';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../helpers/db.ts';
import { finishExam, launchChromium, loginAndStartExam } from '../helpers/e2e-browser.ts';
import { pdfText } from '../helpers/pdf-tools.ts';

const distDir = process.env.E2E_DIST_DIR ?? defaultDistDir;
const quiet: Logger = { info: () => undefined, error: (line, error) => console.error(line, error) };
const SCREEN_MS = 30_000;
const ADMIN = { loginId: 'school.admin', password: 'a long school password' };
const ROOMS = ['Room 1', 'Room 2', 'Room 3'];
const CODE = new RegExp(`[${LOGIN_CODE_ALPHABET}]{4}-[${LOGIN_CODE_ALPHABET}]{4}-[${LOGIN_CODE_ALPHABET}]{4}`, 'g');
const kinds = await testDatabaseKinds();

/** The school's files, as its office would export them from a spreadsheet. */
function schoolFiles(dir: string): Record<'schools' | 'venues' | 'schedules' | 'pupils' | 'exam', string> {
  const now = Date.now();
  const day = 24 * 3_600_000;
  const files = {
    schools: 'code,name,category,login_method,step_mode,region,rank_display,disabled\nHILL-SCHOOL,Hillside Primary School,SCHOOL,code,no,JP,show,no\n',
    venues: `school,name,region,disabled\n${ROOMS.map((room) => `HILL-SCHOOL,${room},,no`).join('\n')}\n`,
    schedules: `code,school,name,classroom,starts_at,ends_at,mode,exams\nHILL-2026,HILL-SCHOOL,Mathematics day,,${new Date(now - day).toISOString()},${new Date(now + day).toISOString()},group,MA-SAMPLE-1\n`,
    pupils: `school,pupil_id,name,class,classroom,grade,email,language,login_id,schedule\n${Array.from({ length: 90 }, (_, i) => {
      const room = ROOMS[i % 3]!;
      return `HILL-SCHOOL,H-${String(i + 1).padStart(3, '0')},Pupil ${String(i + 1).padStart(2, '0')} Hillside,6${'ABC'[i % 3]},${room},6,,en,,HILL-2026`;
    }).join('\n')}\n`,
  };
  const paths = Object.fromEntries(Object.keys(files).map((kind) => [kind, path.join(dir, `${kind}.csv`)])) as Record<keyof typeof files, string>;
  for (const [kind, text] of Object.entries(files)) writeFileSync(paths[kind as keyof typeof files], text, 'utf8');
  // The IMS QTI 3.0 package of examples/qti-exam, zipped as an item bank exports it.
  const root = path.resolve('examples/qti-exam');
  const entries: Record<string, Uint8Array> = {};
  const walk = (folder: string) => {
    for (const entry of readdirSync(path.join(root, folder), { withFileTypes: true })) {
      const relative = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory()) walk(relative);
      else entries[relative] = readFileSync(path.join(root, relative));
    }
  };
  walk('');
  const exam = path.join(dir, 'exam-package.zip');
  writeFileSync(exam, zipSync(entries));
  return { ...paths, exam };
}

async function signInAsAdministrator(page: Page, origin: string) {
  await page.goto(`${origin}/proctor`);
  await page.getByRole('heading', { name: 'Staff sign-in' }).waitFor({ timeout: SCREEN_MS });
  await page.getByRole('textbox', { name: 'Login ID' }).fill(ADMIN.loginId);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText('Signed in as School Admin · administrator').waitFor({ timeout: SCREEN_MS });
}

async function openSection(page: Page, name: string) {
  await page.getByRole('navigation', { name: 'Administration' }).getByRole('button', { name }).click();
  await page.getByRole('heading', { level: 1, name }).waitFor({ timeout: SCREEN_MS });
}

/** Imports: picks what the file holds and the file, checks it (nothing refused), applies it. */
async function importFile(page: Page, kind: string, file: string) {
  await page.getByLabel('What the file holds').selectOption(kind);
  await page.getByLabel('File', { exact: true }).setInputFiles(file);
  await page.getByRole('button', { name: 'Check file' }).click();
  await page.getByText('Nothing is refused. Nothing has changed yet: apply the file to import it.').waitFor({ timeout: SCREEN_MS });
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByText('The file was imported. Importing it again changes nothing.').waitFor({ timeout: SCREEN_MS });
}

/** Login slips and results: asks for one of the two documents and saves it. */
async function saveDocument(page: Page, button: string, dir: string): Promise<string> {
  await page.getByRole('button', { name: button }).click();
  const save = page.getByRole('link', { name: /^Save / });
  await save.waitFor({ timeout: 120_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), save.click()]);
  const file = path.join(dir, download.suggestedFilename());
  await download.saveAs(file);
  return file;
}

describe.each(kinds)('a school from an empty %s database, the demo off', (kind) => {
  let dir: string;
  let database: TestDatabase | undefined;
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'gradus-school-day-'));
    database = kind === 'postgres' ? await createTestDatabase('postgres', { seed: false }) : undefined;
    const where = database?.url ? { DATABASE_URL: database.url } : { DATA_DIR: path.join(dir, 'data'), GRADUS_DEMO: 'off' };
    const said: string[] = [];
    const created = await runCreateStaff([ADMIN.loginId, '--role', 'admin', '--name', 'School Admin'], {
      out: (line) => said.push(line),
      err: (line) => said.push(line),
      env: where,
      stdin: Readable.from([`${ADMIN.password}\n`]),
    });
    expect(created, said.join('\n')).toBe(0);
    server = await startServer({
      port: 0,
      hostname: '127.0.0.1',
      ...(database?.url ? { databaseUrl: database.url } : { dataDir: where.DATA_DIR }),
      seed: false,
      distDir,
      logger: quiet,
    });
    browser = await launchChromium();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('imports, login slips, a pupil sits the exam with a code from the slips, the results CSV holds the score', async () => {
    const origin = `http://127.0.0.1:${server.port}`;
    const files = schoolFiles(dir);
    const office = await browser.newContext({ viewport: { width: 1366, height: 768 }, acceptDownloads: true });
    const page = await office.newPage();
    await signInAsAdministrator(page, origin);

    // The school, its classrooms, the exam, the test period and the pupils, in that order.
    await openSection(page, 'Imports');
    await importFile(page, 'schools', files.schools);
    await importFile(page, 'venues', files.venues);
    await importFile(page, 'exam', files.exam);
    await importFile(page, 'schedules', files.schedules);
    await importFile(page, 'pupils', files.pupils);

    // The login slips of every classroom, printed by the server.
    await openSection(page, 'Login slips and results');
    const slips = await saveDocument(page, 'Download login slips (PDF)', dir);
    const text = await pdfText(slips);
    for (const n of [1, 45, 90]) expect(text).toContain(`Pupil ${String(n).padStart(2, '0')} Hillside`);
    const codes = [...new Set(text.match(CODE) ?? [])];
    expect(codes).toHaveLength(90);

    // A pupil logs in with a code read from the paper and sits the exam to the end.
    const terminal = await browser.newContext({ viewport: { width: 1024, height: 768 } });
    const pupil = await terminal.newPage();
    await pupil.goto(`${origin}/login-code`);
    await loginAndStartExam(pupil, codes[0]!);
    await finishExam(pupil);
    const name = /Pupil \d\d Hillside/.exec(await pupil.locator('body').innerText())?.[0];

    // The results: the server scores the finished exam on its own; the CSV then holds the score.
    let row: string[] | undefined;
    let header: string[] = [];
    for (let attempt = 0; attempt < 12 && !row?.[header.indexOf('score')]; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 5_000));
      const csv = readFileSync(await saveDocument(page, 'Download results (CSV)', dir), 'utf8');
      expect(csv.charCodeAt(0), 'a byte order mark first').toBe(0xfeff);
      const lines = csv.slice(1).trim().split(/\r\n/).map((line) => line.split(','));
      header = lines[0]!;
      expect(lines).toHaveLength(91);
      row = lines.find((cells) => cells.includes(codes[0]!));
    }
    expect(row, `the results row of ${codes[0]}`).toBeDefined();
    expect(row!.some((cell) => /^Pupil \d\d Hillside$/.test(cell)), 'the pupil is named in the row').toBe(true);
    if (name) expect(row).toContain(name);
    expect(row![header.indexOf('score')]).toMatch(/^\d+$/);
    await terminal.close();
    await office.close();
  }, 600_000);
});
