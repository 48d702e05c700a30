/**
 * Single sign-on end to end: a school's link starts generic OpenID Connect sign-in
 * at /api/sso/oidc/start, the local demo provider (scripts/demo-idp.ts, started by
 * scripts/e2e.ts) signs the pupil in, and the browser comes back to /oauth with a token
 * (seed section 2, rule 1): the kiosk asks GET /me and lands on the exam list. A refused
 * sign-in comes back with the SSO error code and shows it.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { loadDemoAccounts } from '../../server/seed/demo-accounts.ts';
import { leftovers, openKiosk, seeScreen, storageSnapshot, useKiosk } from '../helpers/e2e-browser.ts';

const TERMINAL_KEYS = ['device_token', 'language'];
const kiosk = useKiosk();

function ssoPupil() {
  const pupil = loadDemoAccounts().find((a) => a.scenario === 'sso' && a.org_code);
  if (!pupil?.org_code) throw new Error('server/seed/demo-accounts.json has no "sso" pupil');
  return { ...pupil, org_code: pupil.org_code };
}

/** On the demo provider's page: picks the demo user whose label starts with this text. */
async function signInAtProvider(page: Page, label: string) {
  await page.getByRole('button', { name: new RegExp(`^${label}`) }).click();
}

function currentPath(page: Page) {
  return new URL(page.url()).pathname;
}

describe('single sign-on against the local OpenID provider', () => {
  test('signs a pupil in through the provider, lands on the exam list, and logs out leaving nothing', async () => {
    const page = kiosk.page;
    const pupil = ssoPupil();
    // The way a pupil comes: the school's login page, which offers the school account.
    await openKiosk(page, `/login?school=${pupil.org_code}`);
    await seeScreen(page, 'Log in');
    expect(await page.getByRole('textbox', { name: 'Login ID' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Sign in with your school account' }).click();
    await signInAtProvider(page, `${pupil.name}, pupil of ${pupil.org_code}`);
    await seeScreen(page, 'Choose an exam');
    expect(['/exam', '/exam-step-mode']).toContain(currentPath(page));
    const stored = (await storageSnapshot(page)).localStorage;
    expect(stored['Examinee-Token']).toBeTruthy();
    expect(stored.examinee_school_id).toBe(pupil.org_code);
    await page.getByRole('button', { name: 'Log out', exact: true }).click();
    await expect.poll(() => new URL(page.url()).search).toContain('logout=1');
    // Cookies are per host, not per port: the demo provider's own session cookies on
    // 127.0.0.1 show up here too. Nothing of ours may remain (our state cookie is gradus_*).
    const snapshot = await storageSnapshot(page);
    const ours = { ...snapshot, cookies: snapshot.cookies.filter((name) => name.startsWith('gradus')) };
    expect(leftovers(ours, TERMINAL_KEYS)).toEqual([]);
  });

  test('a refused sign-in (a teacher) comes back to /oauth with invalid_role and shows it', async () => {
    const page = kiosk.page;
    const pupil = ssoPupil();
    await openKiosk(page, `/api/sso/oidc/start?school=${pupil.org_code}`);
    await signInAtProvider(page, 'Mr Brown');
    await seeScreen(page, 'Could not log in');
    expect(currentPath(page)).toBe('/oauth');
    expect(await page.getByRole('alert').getAttribute('data-code')).toBe('invalid_role');
    expect((await storageSnapshot(page)).localStorage['Examinee-Token']).toBeUndefined();
  });
});
