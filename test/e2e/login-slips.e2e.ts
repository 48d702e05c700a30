/**
 * The login slips PDF, end to end: a server of this file's own (server/main.ts `startServer`, in
 * this process, PGlite in memory with the demo data, the production build: dist/, or
 * E2E_DIST_DIR) prints GET /api/admin/schedules/:code/slips.pdf with real Chromium from its print
 * route, and the tests read the paper back with pdftotext and pdfinfo: every pupil's name in its
 * own script (Latin, Arabic, Japanese) and login code, each slip's labels in its pupil's language,
 * the test period's dates, A4 portrait, 8 slips a page; one classroom with ?venue=; the print
 * audited; administrators only; the slips token reads nothing else. The command line's `slips`
 * prints the same from a PGlite directory with no server running, with PUBLIC_ORIGIN's login
 * address. Pages are pictured into E2E_ARTIFACTS_DIR/login-slips/ for a person to look at.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runSlips } from '../../server/cli/slips.ts';
import { openDatabase, type Db } from '../../server/db/client.ts';
import { auditLog, examinees, exams, organizations, scheduleHistories, schedules, staff, staffTokens, venues } from '../../server/db/schema.ts';
import { newToken } from '../../server/domain/tokens.ts';
import type { Logger } from '../../server/logger.ts';
import { defaultDistDir, startServer, type RunningServer } from '../../server/main.ts';
import { seedDemoData } from '../../server/seed/seed.ts';
import { createAdminWithToken } from '../helpers/admin-token.ts';
import { randomLoginCode } from '../helpers/server-fixtures.ts';
import { pdfInfo, pdfPictures, pdfText } from '../helpers/pdf-tools.ts';

const distDir = process.env.E2E_DIST_DIR ?? defaultDistDir;
const artifacts = path.join(process.env.E2E_ARTIFACTS_DIR ?? path.resolve('.e2e'), 'login-slips');
const quiet: Logger = { info: () => undefined, error: (line, error) => console.error(line, error) };

/** Words of the catalogs, as the pupil reads them on the slip. */
function catalogWord(locale: string, english: string): string {
  const po = readFileSync(new URL(`../../locales/${locale}/messages.po`, import.meta.url), 'utf8');
  const match = new RegExp(`^msgid "${english}"\\nmsgstr "(.*)"$`, 'm').exec(po);
  if (!match) throw new Error(`locales/${locale}: no "${english}"`);
  return match[1]!;
}
/** Text without the spaces and line breaks the layout put between glyph runs. */
const squeeze = (text: string) => text.replace(/\s+/g, '');

type SlipPupil = { name: string; className: string; room: 0 | 1; locale: string | null };

const roomPupils: SlipPupil[] = [
  { name: 'Ana Souza', className: '6A', room: 0, locale: null },
  { name: 'أمينة الحسن', className: '6A', room: 0, locale: 'ar' },
  { name: '田中 愛子', className: '6A', room: 0, locale: 'ja' },
  { name: 'Björn Åström', className: '6A', room: 0, locale: 'de' },
  { name: 'Chloé Martin', className: '6B', room: 0, locale: 'fr' },
  { name: 'Daniel Kowalski', className: '6B', room: 0, locale: 'pl' },
  { name: 'Emma Brown', className: '6B', room: 0, locale: 'en-gb' },
  { name: 'Farid Haddad', className: '6B', room: 0, locale: 'ar' },
  { name: 'Grace Lee', className: '6C', room: 0, locale: 'en' },
  { name: 'Hiro Sato', className: '6C', room: 0, locale: 'ja' },
  { name: 'Ivan Petrov', className: '6C', room: 1, locale: 'ru' },
];

/** A school with two classrooms and a test period of the demo English exam, its pupils booked. */
async function school(db: Db) {
  const tag = randomUUID().slice(0, 8);
  const [org] = await db.insert(organizations).values({ code: `SLIPS-${tag}`, name: `Sakura Primary ${tag}`, category: 'SCHOOL', loginMethod: 1 }).returning({ id: organizations.id, name: organizations.name });
  const rooms = await db
    .insert(venues)
    .values([
      { organizationId: org!.id, name: `Room 1 ${tag}` },
      { organizationId: org!.id, name: `Room 2 ${tag}` },
    ])
    .returning({ id: venues.id, name: venues.name });
  const [schedule] = await db
    .insert(schedules)
    .values({ scheduleCode: `SLIPS-${tag}`, name: 'Spring test', organizationId: org!.id, startsAt: new Date('2026-03-16T01:00:00Z'), endsAt: new Date('2026-03-20T08:00:00Z') })
    .returning({ id: schedules.id, code: schedules.scheduleCode });
  const [exam] = await db.select({ id: exams.id }).from(exams).where(eq(exams.code, 'EN-1')).orderBy(asc(exams.version)).limit(1);
  const pupils: (SlipPupil & { loginCode: string })[] = [];
  for (const pupil of roomPupils) {
    const loginCode = randomLoginCode();
    const [examinee] = await db
      .insert(examinees)
      .values({ organizationId: org!.id, name: pupil.name, loginCode, className: pupil.className, venueId: rooms[pupil.room]!.id, locale: pupil.locale })
      .returning({ id: examinees.id });
    await db.insert(scheduleHistories).values({ examineeId: examinee!.id, scheduleId: schedule!.id, examId: exam!.id, userKey: randomUUID(), testKey: randomUUID() });
    pupils.push({ ...pupil, loginCode });
  }
  return { orgId: org!.id, orgName: org!.name, scheduleId: schedule!.id, code: schedule!.code, rooms, pupils };
}

/** A proctor of the school with a live staff token. */
async function proctorToken(db: Db, organizationId: number): Promise<string> {
  const [row] = await db
    .insert(staff)
    .values({ organizationId, role: 'proctor', loginId: `proctor.${randomUUID().slice(0, 8)}`, name: 'Proctor', passwordHash: 'x' })
    .returning({ id: staff.id });
  const { token, tokenHash } = newToken();
  await db.insert(staffTokens).values({ tokenHash, staffId: row!.id, createdAt: new Date(), expiresAt: new Date(Date.now() + 3_600_000) });
  return token;
}

/** The PDF's text (layout kept), its page count and page size. */
async function readPdf(file: string) {
  const { pages, width, height } = await pdfInfo(file);
  return { text: await pdfText(file), pages, width, height };
}

/** Each page as a PNG for a person to look at. */
async function picture(file: string): Promise<void> {
  await pdfPictures(file, { resolution: 50 });
}

describe('login slips PDF through Chromium', () => {
  let server: RunningServer;
  let made: Awaited<ReturnType<typeof school>>;
  let admin: { token: string; staffId: number };

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    server = await startServer({ port: 0, hostname: '127.0.0.1', memory: true, distDir, runJobs: false, logger: quiet });
    made = await school(server.database.db);
    admin = await createAdminWithToken(server.database.db);
  }, 300_000);
  afterAll(async () => {
    await server?.close();
  });

  const get = (pathname: string, token?: string, accept = 'application/pdf') =>
    fetch(`http://127.0.0.1:${server.port}/api${pathname}`, { headers: { Accept: accept, ...(token ? { Authorization: `Bearer ${token}` } : {}) } });

  async function download(pathname: string, name: string) {
    const response = await get(pathname, admin.token);
    expect(response.status, response.status === 200 ? '' : await response.clone().text()).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const file = path.join(artifacts, `${name}.pdf`);
    writeFileSync(file, bytes);
    await picture(file);
    return { response, file, ...(await readPdf(file)) };
  }

  test('every pupil of the test period: name in its own script, code, labels in the pupil’s language, 8 slips to an A4 page', async () => {
    const pdf = await download(`/admin/schedules/${made.code}/slips.pdf`, 'all');
    expect(pdf.response.headers.get('content-disposition')).toBe(`attachment; filename="login-slips-${made.code}.pdf"`);
    // A4 portrait (595 x 842 pt); 11 slips: a full page of 8 and a second of 3.
    expect(Math.round(pdf.width)).toBe(595);
    expect(Math.round(pdf.height)).toBe(842);
    expect(pdf.pages).toBe(2);
    const flat = squeeze(pdf.text);
    for (const pupil of made.pupils) {
      expect(flat, pupil.name).toContain(squeeze(pupil.name));
      expect(pdf.text, pupil.name).toContain(pupil.loginCode);
    }
    const firstPage = squeeze(pdf.text.split('\f')[0]!);
    expect(made.pupils.filter((p) => firstPage.includes(p.loginCode)).length).toBe(8);
    // Each slip in its pupil's language: English (no locale), Japanese, Arabic, German, Russian.
    expect(flat).toContain(squeeze(catalogWord('en', 'Login code')));
    expect(flat).toContain(squeeze(catalogWord('ja', 'Login code')));
    expect(flat).toContain(squeeze(catalogWord('ja', 'Test period')));
    expect(flat).toContain(squeeze(catalogWord('de', 'Classroom')));
    expect(flat).toContain(squeeze(catalogWord('ru', 'Log in at')));
    expect(flat).toContain(squeeze(catalogWord('ar', 'Login code')));
    // The school, where to log in and the test period's dates (English: MM/DD/YYYY; Japanese: long).
    expect(flat).toContain(squeeze(made.orgName));
    expect(flat).toContain(`127.0.0.1:${server.port}/login-code`);
    expect(flat).toContain('03/16/2026');
    expect(flat).toContain('03/20/2026');
    expect(flat).toContain(squeeze(new Intl.DateTimeFormat('ja', { dateStyle: 'long' }).format(new Date('2026-03-16T01:00:00Z'))));
    expect(flat).toContain(made.rooms[0]!.name.replace(/\s+/g, ''));
  });

  test('?venue= prints one classroom; the print is audited with who and where', async () => {
    const room = made.rooms[1]!;
    const pdf = await download(`/admin/schedules/${made.code}/slips.pdf?venue=${room.id}`, 'one-room');
    expect(pdf.pages).toBe(1);
    expect(pdf.text).toContain(made.pupils.find((p) => p.room === 1)!.loginCode);
    for (const pupil of made.pupils.filter((p) => p.room === 0)) expect(pdf.text).not.toContain(pupil.loginCode);
    const entries = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.scheduleId, made.scheduleId), eq(auditLog.action, 'slips_print')))
      .orderBy(asc(auditLog.id));
    expect(entries.at(-1)).toMatchObject({ staffId: admin.staffId, entity: `schedule:${made.code}` });
    expect(entries.at(-1)!.detail).toMatchObject({ venue_id: room.id, slips: 1 });
  });

  test('a proctor is refused 403, an unknown test period 404; the slips data answers only its own print’s token', async () => {
    const proctor = await proctorToken(server.database.db, made.orgId);
    expect((await get(`/admin/schedules/${made.code}/slips.pdf`, proctor)).status).toBe(403);
    expect((await get('/admin/schedules/NO-SUCH-PERIOD/slips.pdf', admin.token)).status).toBe(404);
    // The print route's data: neither a staff token nor no token; nothing said about the test period.
    expect((await get(`/admin/schedules/${made.code}/slips`, admin.token, 'application/json')).status).toBe(401);
    expect((await get('/admin/schedules/NO-SUCH-PERIOD/slips', undefined, 'application/json')).status).toBe(401);
  });
});

describe('npm run admin -- slips, with no server running', () => {
  test('prints a classroom named by its name from a PGlite directory, with PUBLIC_ORIGIN’s login address', { timeout: 300_000 }, async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'gradus-slips-cli-'));
    try {
      const database = await openDatabase({ dataDir, prepare: async (db) => void (await seedDemoData(db)) });
      const made = await school(database.db);
      await database.close();
      const out = path.join(artifacts, 'cli.pdf');
      const lines: string[] = [];
      const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l), env: { DATA_DIR: dataDir, PUBLIC_ORIGIN: 'https://gradus.example.org' }, distDir };
      const code = await runSlips([made.code, '--venue', made.rooms[1]!.name, '--out', out], io);
      expect(code, lines.join('\n')).toBe(0);
      expect(lines.join('\n')).toContain(`Wrote 1 login slip(s) of test period "${made.code}"`);
      const pdf = await readPdf(out);
      expect(pdf.pages).toBe(1);
      const ivan = made.pupils.find((p) => p.room === 1)!;
      expect(squeeze(pdf.text)).toContain(squeeze(ivan.name));
      expect(pdf.text).toContain(ivan.loginCode);
      expect(squeeze(pdf.text)).toContain('https://gradus.example.org/login-code');

      expect(await runSlips([made.code], io)).toBe(2);
      expect(await runSlips(['NO-SUCH-PERIOD', '--out', out], io)).toBe(1);
      expect(await runSlips([made.code, '--out', out], { ...io, distDir: path.join(dataDir, 'no-build') })).toBe(1);
      expect(lines.join('\n')).toContain('Run `npm run build` first.');

      const reopened = await openDatabase({ dataDir });
      const entries = await reopened.db.select().from(auditLog).where(and(eq(auditLog.scheduleId, made.scheduleId), eq(auditLog.action, 'slips_print')));
      await reopened.close();
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ staffId: null, reason: 'command line' });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
