/**
 * A proctor in a hurry on a flaky network, in a real browser: while two pupils sit their exams,
 * the proctor extends one of them with the keyboard alone, the answer to that request is lost on
 * the way back (it reached the server), and the proctor presses "Try again". The pupil gets the
 * minutes once, not twice (the action's idempotency key, contract/admin.ts); the other pupil's
 * time does not move; the audit log has one entry. And while nothing changes but the pupils'
 * heartbeats, the roster's polls (its changes since the last cursor) carry no row: a heartbeat
 * that changes nothing the roster shows is no change (server/domain/roster.ts).
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { loginAndStartExam, openKiosk, openTerminal, seeScreen, seeTimeLeft, useKiosk } from '../helpers/e2e-browser.ts';
import { takeSparePupil } from '../helpers/e2e-demo-accounts.ts';
import { demoProctor, rowOf, seeAuditRows, seePupilState } from '../helpers/e2e-proctor.ts';

const kiosk = useKiosk();

/** The time left on a pupil's terminal, and when it was read (this machine's clock). */
async function timeLeftAt(page: Page): Promise<{ seconds: number; at: number }> {
  return { seconds: await seeTimeLeft(page), at: Date.now() };
}

/** What the terminal's timer should show now if nothing moved the deadline since `before`, plus `addedSeconds`. */
function expectedLeft(before: { seconds: number; at: number }, addedSeconds: number): number {
  return before.seconds - (Date.now() - before.at) / 1000 + addedSeconds;
}

describe('a proctor on a flaky network', () => {
  test('"Try again" after a lost answer extends the pupil once; the other pupil is untouched; the roster polls carry no row while only heartbeats come', async () => {
    const pupil = takeSparePupil();
    const other = takeSparePupil();
    const opened: BrowserContext[] = [];
    try {
      const pupilTerminal = kiosk.page;
      const otherTerminal = await openTerminal(kiosk.context);
      const laptop = await openTerminal(kiosk.context);
      opened.push(otherTerminal.context, laptop.context);
      await openKiosk(pupilTerminal, '/login-code');
      await loginAndStartExam(pupilTerminal, pupil.login_code);
      await openKiosk(otherTerminal.page, '/login-code');
      await loginAndStartExam(otherTerminal.page, other.login_code);

      // The proctor signs in and opens the roster, typing and pressing keys only.
      const page = laptop.page;
      // The rows each poll for changes (`since`) carried.
      const changedRows: number[] = [];
      page.on('response', (r) => {
        const url = new URL(r.url());
        if (!url.pathname.endsWith('/roster') || !url.searchParams.has('since') || r.status() !== 200) return;
        void r.json().then(
          (body: { pupils?: unknown[] }) => void changedRows.push(body.pupils?.length ?? -1),
          () => undefined,
        );
      });
      await openKiosk(page, '/proctor');
      await seeScreen(page, 'Staff sign-in');
      await page.getByRole('textbox', { name: 'Organisation code' }).fill(demoProctor.org_code);
      await page.getByRole('textbox', { name: 'Login ID' }).fill(demoProctor.login_id);
      await page.getByLabel('Password', { exact: true }).fill(demoProctor.password);
      await page.keyboard.press('Enter');
      await seeScreen(page, 'Choose a schedule');
      await page.getByRole('button', { name: /DEMO-2026/ }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('table', { name: /^Pupils of / }).waitFor();
      await seePupilState(page, pupil, 'In the exam');
      await seePupilState(page, other, 'In the exam');
      // Nobody answers or moves on: the pupils' terminals only beat (every 10 s). Polls find nothing new.
      await expect.poll(() => changedRows.includes(0), { timeout: 30_000, message: 'a roster poll carried no row' }).toBe(true);

      const otherBefore = await timeLeftAt(otherTerminal.page);
      const pupilBefore = await timeLeftAt(pupilTerminal);

      // The first extension request reaches the server, but its answer never comes back.
      let lost = false;
      await page.route('**/api/admin/sittings/*/extend', async (route) => {
        if (lost) return route.continue();
        lost = true;
        await route.fetch();
        await route.abort('connectionreset');
      });
      await rowOf(page, pupil).getByRole('button', { name: 'Actions', exact: true }).focus();
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab'); // Move to another terminal
      await page.keyboard.press('Tab'); // Extend time
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Extend time');
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: `Extend the time for ${pupil.name}?` });
      await dialog.waitFor();
      await page.keyboard.type('10'); // the minutes field has focus
      await page.keyboard.press('Tab');
      await page.keyboard.type('Power cut in the lab');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await expect.poll(async () => (await dialog.getByRole('alert').allInnerTexts()).join(' ')).toContain('it is not known whether this was done');
      await dialog.getByRole('button', { name: 'Try again', exact: true }).focus();
      await page.keyboard.press('Enter');
      await dialog.waitFor({ state: 'hidden' });
      await expect.poll(() => page.getByRole('status').allInnerTexts()).toContain(`${pupil.name} has 10 more minutes.`);

      // The pupil's terminal picks up the new deadline from its next heartbeat: 10 minutes more, not 20.
      await expect
        .poll(async () => Math.abs((await seeTimeLeft(pupilTerminal)) - expectedLeft(pupilBefore, 600)), {
          timeout: 30_000,
          message: `${pupil.name}'s time left, 10 minutes more than before`,
        })
        .toBeLessThanOrEqual(3);
      expect(Math.abs((await seeTimeLeft(otherTerminal.page)) - expectedLeft(otherBefore, 0)), `${other.name}'s time left did not move`).toBeLessThanOrEqual(3);
      await expect.poll(async () => (await rowOf(page, pupil).innerText()).replace(/\s+/g, ' ')).toContain('+10 min');
      expect((await rowOf(page, other).innerText()).replace(/\s+/g, ' ')).not.toContain('+');

      // One audit entry.
      const cells = await seeAuditRows(page);
      expect(cells.filter((c) => c[2] === pupil.name)).toEqual([[demoProctor.name, 'Time extended by 10 minutes', pupil.name, 'Power cut in the lab']]);
    } finally {
      for (const context of opened) await context.close();
    }
  });
});
