/**
 * A teacher finds who needs help in a room of 60 (Chromium at 1366x768, a laptop's screen).
 *
 * A server of the test's own (in this process, the demo seed on an in-memory database, no jobs, so
 * nothing moves on its own) holds a test period of the demo school in a room of 60 pupils, written
 * straight to its database: 53 not started, one whose terminal went silent five minutes ago
 * (offline), one past the deadline (time up), one moving to another terminal, three finished and
 * one cancelled. Their names sort the two who need attention last. The demo proctor signs in and
 * opens the room: all 60 rows are on the screen without scrolling the page (each row's box inside
 * the viewport), the offline pupil and the one out of time are the first rows, the state filter
 * counts each group, "Needs attention" keeps those two, and the search finds a pupil by name, by
 * the whole login code from the slip and by its last 4 characters. The offline pupil's actions
 * open and close from the keyboard.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LOGIN_CODE_ALPHABET } from '../../contract/session.ts';
import { ScheduleHistoryStatus as S } from '../../contract/enums.ts';
import * as schema from '../../server/db/schema.ts';
import type { Logger } from '../../server/logger.ts';
import { defaultDistDir, startServer, type RunningServer } from '../../server/main.ts';
import { loadStaffAccounts } from '../../server/seed/staff-accounts.ts';
import { launchChromium } from '../helpers/e2e-browser.ts';

const distDir = process.env.E2E_DIST_DIR ?? defaultDistDir;
const quiet: Logger = { info: () => undefined, error: (line, error) => console.error(line, error) };
const VIEWPORT = { width: 1366, height: 768 };
const ROOM = 'ROOM-60';
const MINUTE = 60_000;

const proctor = (() => {
  const account = loadStaffAccounts().find((a) => a.org_code === 'GRADUS-DEMO' && a.login_refused_with === null);
  if (!account) throw new Error('server/seed/staff-accounts.json has no proctor of GRADUS-DEMO');
  return account;
})();

type Pupil = { name: string; code: string; state: 'not_started' | 'offline' | 'time_up' | 'moving' | 'finished' | 'cancelled' };

/** A login code whose last 4 characters no other pupil of the room has (the roster shows only those). */
function codeOf(index: number): string {
  const a = LOGIN_CODE_ALPHABET;
  const at = (n: number) => a[n % a.length]!;
  return `RM${at(index)}${at(index + 5)}-CAFE-${at(index)}${at(Math.floor(index / a.length))}${at(index * 7)}W`;
}

/** The room: 60 pupils, the two who need attention named to sort last. */
function roomOf60(): Pupil[] {
  const pupils: Array<Omit<Pupil, 'code'>> = [
    ...Array.from({ length: 53 }, (_, i) => ({ name: `Pupil ${String(i + 1).padStart(2, '0')}`, state: 'not_started' as const })),
    { name: 'Pupil 55', state: 'moving' },
    { name: 'Pupil 56', state: 'finished' },
    { name: 'Pupil 57', state: 'finished' },
    { name: 'Pupil 58', state: 'finished' },
    { name: 'Pupil 59', state: 'cancelled' },
    { name: 'Wanda Voss', state: 'time_up' },
    { name: 'Yusuf Zieliński', state: 'offline' },
  ];
  return pupils.map((p, i) => ({ ...p, code: codeOf(i) }));
}

/** Writes the room's test period and its pupils into the server's database. */
async function bookRoom(server: RunningServer, pupils: Pupil[]): Promise<void> {
  const { db } = server.database;
  const now = Date.now();
  const [org] = await db.select({ id: schema.organizations.id }).from(schema.organizations).where(eq(schema.organizations.code, 'GRADUS-DEMO'));
  const [exam] = await db.select({ id: schema.exams.id }).from(schema.exams).where(eq(schema.exams.code, 'EN-1'));
  const [venue] = await db.insert(schema.venues).values({ organizationId: org!.id, name: 'Computer Lab 3', disabled: false }).returning({ id: schema.venues.id });
  const [schedule] = await db
    .insert(schema.schedules)
    .values({
      scheduleCode: ROOM,
      name: 'Room of sixty',
      organizationId: org!.id,
      venueId: venue!.id,
      startsAt: new Date(now - 60 * MINUTE),
      endsAt: new Date(now + 24 * 60 * MINUTE),
    })
    .returning({ id: schema.schedules.id });
  for (const pupil of pupils) {
    const [examinee] = await db
      .insert(schema.examinees)
      .values({ organizationId: org!.id, name: pupil.name, gradeId: 4, loginCode: pupil.code })
      .returning({ id: schema.examinees.id });
    const started = { startedAt: new Date(now - 20 * MINUTE), questionIndex: 3 };
    const state = {
      not_started: { status: S.PENDING },
      cancelled: { status: S.CANCELED_PENDING },
      offline: { status: S.DOING, ...started, deadlineAt: new Date(now + 20 * MINUTE), deviceToken: randomUUID(), lastContactAt: new Date(now - 5 * MINUTE) },
      time_up: { status: S.DOING, ...started, deadlineAt: new Date(now - MINUTE), deviceToken: randomUUID(), lastContactAt: new Date(now - MINUTE) },
      moving: { status: S.DOING, ...started, deadlineAt: new Date(now + 20 * MINUTE), deviceToken: null, deviceReleasedAt: new Date(now - MINUTE), lastContactAt: new Date(now - 2 * MINUTE) },
      finished: {
        status: S.COMPLETED, ...started, deadlineAt: new Date(now - MINUTE), finishedAt: new Date(now - 2 * MINUTE),
        answerCount: 20, answersDigest: 'ab'.repeat(32), lastContactAt: new Date(now - 2 * MINUTE),
      },
    }[pupil.state];
    await db.insert(schema.scheduleHistories).values({
      examineeId: examinee!.id,
      scheduleId: schedule!.id,
      examId: exam!.id,
      userKey: randomUUID(),
      testKey: randomUUID(),
      ...state,
    });
  }
}

// --- The proctor's page, in the words a teacher would use -----------------------------------

async function signInAsProctor(page: Page): Promise<void> {
  await page.goto('/proctor');
  await page.getByRole('heading', { level: 1, name: 'Staff sign-in' }).waitFor();
  await page.getByRole('textbox', { name: /^Organisation code/ }).fill(proctor.org_code);
  await page.getByRole('textbox', { name: 'Login ID' }).fill(proctor.login_id);
  await page.getByLabel('Password', { exact: true }).fill(proctor.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

async function openRoom(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: new RegExp(ROOM) }).click();
  const table = page.getByRole('table', { name: 'Pupils of Room of sixty' });
  await table.waitFor();
  return table;
}

/** The names of the rows shown, top to bottom (column by column). */
async function namesShown(page: Page): Promise<string[]> {
  return page.getByRole('rowheader').evaluateAll((cells) => cells.map((cell) => cell.querySelector('span')?.textContent ?? ''));
}

async function seeRows(page: Page, count: number): Promise<void> {
  await expect.poll(async () => page.getByRole('rowheader').count(), { message: `${count} rows shown` }).toBe(count);
}

async function filterCounts(page: Page): Promise<string[]> {
  return page
    .getByRole('group', { name: 'Show pupils' })
    .getByRole('button')
    .evaluateAll((buttons) => buttons.map((button) => (button.textContent ?? '').replace(/\s+/g, ' ').trim()));
}

/** Presses one of the state filter's buttons ("All", "Needs attention"...). */
async function show(page: Page, filter: string): Promise<void> {
  await page.getByRole('group', { name: 'Show pupils' }).getByRole('button', { name: new RegExp(`^${filter} \\d+$`) }).click();
}

async function search(page: Page, text: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Search by name or code' }).fill(text);
}

describe('a room of 60 on a 1366x768 screen', () => {
  let server: RunningServer;
  let browser: Browser;
  const pupils = roomOf60();
  const offline = pupils.find((p) => p.state === 'offline')!;

  beforeAll(async () => {
    server = await startServer({ port: 0, hostname: '127.0.0.1', memory: true, seed: true, runJobs: false, distDir, logger: quiet });
    await bookRoom(server, pupils);
    browser = await launchChromium();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  test('every row on one screen, who needs help first, the state filter counts each group, the search finds by name and by code', async () => {
    expect(new Set(pupils.map((p) => p.code.slice(-4))).size, 'each code ends differently').toBe(60);
    const context = await browser.newContext({ baseURL: server.url, viewport: VIEWPORT, locale: 'en-US' });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      await signInAsProctor(page);
      const table = await openRoom(page);
      await seeRows(page, 60);

      // All 60 rows are inside the viewport, and the page does not scroll.
      const boxes = await table.getByRole('row').evaluateAll((rows) =>
        rows.map((row) => {
          const box = row.getBoundingClientRect();
          return { top: box.top, bottom: box.bottom, left: box.left, right: box.right };
        }),
      );
      expect(boxes).toHaveLength(61); // the headings and 60 pupils
      const outside = boxes.filter((b) => b.top < 0 || b.left < 0 || b.bottom > VIEWPORT.height || b.right > VIEWPORT.width);
      expect(outside, 'rows outside the 1366x768 viewport').toEqual([]);
      expect(await page.evaluate(() => [window.scrollY, document.documentElement.scrollHeight <= window.innerHeight])).toEqual([0, true]);

      // Who needs help comes first: the offline pupil, then the one whose time is up.
      expect((await namesShown(page)).slice(0, 2)).toEqual(['Yusuf Zieliński', 'Wanda Voss']);
      const first = page.getByRole('row').nth(1);
      expect(await first.locator('[data-state]').innerText()).toBe('Offline');
      expect(await page.getByRole('row').nth(2).locator('[data-state]').innerText()).toBe('Time is up');

      // The state filter counts each group of the room, and keeps only its own.
      expect(await filterCounts(page)).toEqual([
        'All 60',
        'Needs attention 2',
        'Not started 53',
        'In the exam 3',
        'Finished 3',
        'Cancelled or expired 1',
      ]);
      await show(page, 'Needs attention');
      await seeRows(page, 2);
      expect(await namesShown(page)).toEqual(['Yusuf Zieliński', 'Wanda Voss']);
      await show(page, 'In the exam');
      await seeRows(page, 3);
      await show(page, 'All');
      await seeRows(page, 60);

      // The search: by name (without the accent), by the whole code from the slip, by its end.
      await search(page, 'zielinski');
      await seeRows(page, 1);
      expect(await namesShown(page)).toEqual([offline.name]);
      await search(page, '');
      await seeRows(page, 60);
      await search(page, offline.code);
      await seeRows(page, 1);
      expect(await namesShown(page)).toEqual([offline.name]);
      await search(page, offline.code.slice(-4).toLowerCase());
      await seeRows(page, 1);
      expect(await namesShown(page)).toEqual([offline.name]);
      // Every word is part of the name: "0" is in Pupil 01 to 09, 10, 20, 30, 40 and 50.
      await search(page, 'pupil 0');
      await seeRows(page, 14);
      // The counts stay the room's whatever the search.
      expect((await filterCounts(page))[0]).toBe('All 60');
      await search(page, '');
      await seeRows(page, 60);

      // The offline pupil's actions, from the keyboard: Enter opens them, Tab reaches Move, Escape closes them.
      const actions = first.getByRole('button', { name: 'Actions' });
      await actions.focus();
      await page.keyboard.press('Enter');
      const move = first.getByRole('button', { name: 'Move to another terminal', exact: true });
      await move.waitFor();
      await page.keyboard.press('Tab');
      expect(await move.evaluate((button) => button === document.activeElement)).toBe(true);
      const menuBox = await move.boundingBox();
      expect(menuBox && menuBox.y + menuBox.height <= VIEWPORT.height, 'the action inside the viewport').toBe(true);
      await page.keyboard.press('Escape');
      await move.waitFor({ state: 'detached' });
      expect(await actions.evaluate((button) => button === document.activeElement)).toBe(true);
    } finally {
      await context.close();
    }
  });
});
