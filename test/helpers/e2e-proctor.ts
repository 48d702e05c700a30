/**
 * The proctor's page (/proctor) for the end-to-end tests, in the words a teacher would use:
 * `signInAsProctor`, `openRoster`, `seePupilState`, `seeAuditRows`. The proctor is the demo
 * school's (server/seed/staff-accounts.json), whose schedule DEMO-2026 the demo pupils sit.
 * Each helper waits for what it acts on, so a wrong screen fails with a clear time-out.
 */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { loadStaffAccounts } from '../../server/seed/staff-accounts.ts';
import { openKiosk, seeScreen } from './e2e-browser.ts';
import type { DemoPupil } from './e2e-demo-accounts.ts';

/** The demo proctor of the demo school, whose schedule DEMO-2026 the demo pupils sit. */
export const demoProctor = (() => {
  const account = loadStaffAccounts().find((a) => a.org_code === 'GRADUS-DEMO' && a.login_refused_with === null);
  if (!account) throw new Error('server/seed/staff-accounts.json has no proctor of GRADUS-DEMO');
  return account;
})();

/** Signs the demo proctor in at /proctor, with the mouse, and waits for the schedules. */
export async function signInAsProctor(page: Page): Promise<void> {
  await openKiosk(page, '/proctor');
  await seeScreen(page, 'Staff sign-in');
  await page.getByRole('textbox', { name: 'Organisation code' }).fill(demoProctor.org_code);
  await page.getByRole('textbox', { name: 'Login ID' }).fill(demoProctor.login_id);
  await page.getByLabel('Password', { exact: true }).fill(demoProctor.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await seeScreen(page, 'Choose a schedule');
}

/** Opens a schedule's live roster from the list of schedules. */
export async function openRoster(page: Page, scheduleCode: string): Promise<void> {
  await page.getByRole('button', { name: new RegExp(scheduleCode) }).click();
  await page.getByRole('table', { name: /^Pupils of / }).waitFor();
}

/** The pupil's row of the roster, found by the pupil's name. */
export function rowOf(page: Page, pupil: DemoPupil): Locator {
  return page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(pupil.name) }) });
}

/** Waits until the pupil's row says this state (the roster updates by itself every 5 s). */
export async function seePupilState(page: Page, pupil: DemoPupil, state: string, timeout = 20_000): Promise<void> {
  await expect
    .poll(async () => (await rowOf(page, pupil).locator('[data-state]').innerText()).split('\n')[0], {
      timeout,
      message: `${pupil.name}'s state on the roster`,
    })
    .toBe(state);
}

/** The audit log's rows as the page shows them: [who, what, pupil, why]. */
export async function seeAuditRows(page: Page): Promise<string[][]> {
  await page.getByRole('button', { name: 'Audit log', exact: true }).click();
  const table = page.getByRole('table', { name: /newest first$/ });
  await table.waitFor();
  const rows = await table.getByRole('row').all();
  const cells: string[][] = [];
  for (const row of rows.slice(1)) cells.push((await row.getByRole('cell').allInnerTexts()).slice(1).map((t) => t.trim()));
  return cells;
}
