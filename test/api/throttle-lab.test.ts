/**
 * One pupil cannot lock a lab out (server/security/throttle.ts), on PGlite and PostgreSQL: a lab
 * is many terminals behind ONE client address. One terminal floods 905 wrong login codes in a
 * burst; then
 * - 40 other pupils at other terminals of the same address log in with their codes, a pupil with
 *   login ID and password, and the proctor (even on the flooding terminal itself);
 * - the flooding terminal is refused, for a minute: the 885 refused attempts count toward no
 *   limit, so they lengthen nothing, and it meets the hour's ceiling only by failing again;
 * and guessing stays infeasible: the figures, computed from the limits, are asserted.
 * Windows are real time: each test freezes Date, so a slow machine never splits a burst in two.
 */
import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ErrorBodySchema } from '../../contract/errors.ts';
import { LOGIN_CODE_ALPHABET } from '../../contract/session.ts';
import { loadStaffAccounts } from '../../server/seed/staff-accounts.ts';
import { defaultSecuritySettings } from '../../server/security/settings.ts';
import { throttleLimits } from '../../server/security/throttle.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { useApi, type ApiResponse } from '../helpers/server-api.ts';
import { addSitting, randomLoginCode } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
const PASSWORD = 'lab password 7';
const FLOOD = 905;
const BURST = 25;
const DEVICE_PER_MINUTE = throttleLimits.devicePerMinute.points;
const DEVICE_PER_HOUR = throttleLimits.devicePerHour.points;

const freshDevice = () => `terminal-${randomUUID()}`;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

function refusal(response: ApiResponse): { code: string; retryAfter: number } {
  return { code: v.parse(ErrorBodySchema, response.body).code, retryAfter: Number(response.headers.get('retry-after')) };
}

describe.each(kinds)('a lab behind one address, one terminal flooding, on %s', (kind) => {
  const api = useApi(kind, { security: { ...defaultSecuritySettings, trustProxy: 1 } });
  const school = '203.0.113.7';
  const at = (device: string) => ({ 'X-Forwarded-For': school, 'X-Device-Token': device });
  const loginCode = (device: string, code: string) => api.call('POST', '/api/login', { body: { login_type: 0, login_code: code }, headers: at(device) });
  const proctor = loadStaffAccounts().find((a) => a.login_refused_with === null)!;
  const staffLogin = (device: string) =>
    api.call('POST', '/api/admin/login', {
      body: { org_code: proctor.org_code, login_id: proctor.login_id, password: proctor.password },
      headers: at(device),
    });

  test('905 wrong codes from one terminal: the other 40 pupils, a login ID and the proctor get in; the flooder waits a minute', { timeout: 180_000 }, async () => {
    const pupils = await Promise.all(Array.from({ length: 40 }, () => addSitting(api.db)));
    const byId = await addSitting(api.db, { password: PASSWORD });
    const flooding = freshDevice();

    // The flood: bursts of 25 at once, as fast as the server answers.
    const statuses: number[] = [];
    let last: ApiResponse | undefined;
    for (let sent = 0; sent < FLOOD; sent += BURST) {
      const burst = await Promise.all(Array.from({ length: Math.min(BURST, FLOOD - sent) }, () => loginCode(flooding, randomLoginCode())));
      statuses.push(...burst.map((r) => r.status));
      last = burst.at(-1);
    }
    expect(statuses).toHaveLength(FLOOD);
    expect(statuses.filter((s) => s === 401)).toHaveLength(DEVICE_PER_MINUTE);
    expect(statuses.filter((s) => s === 429)).toHaveLength(FLOOD - DEVICE_PER_MINUTE);
    // The last of 885 refusals still says "a minute at most", not an hour.
    expect(refusal(last!).code).toBe('TOO_MANY_REQUESTS');
    expect(refusal(last!).retryAfter).toBeLessThanOrEqual(60);

    // Everyone else behind the address gets in.
    for (const [i, pupil] of pupils.entries()) expect((await loginCode(freshDevice(), pupil.loginCode)).status, `pupil ${i}`).toBe(200);
    const idLogin = await api.call('POST', '/api/login', {
      body: { login_type: 1, login_id: byId.loginId, password: PASSWORD, org_code: byId.orgCode },
      headers: at(freshDevice()),
    });
    expect(idLogin.status).toBe(200);
    expect((await staffLogin(freshDevice())).status).toBe(200);
    // Staff sign-ins are counted apart: the proctor signs in on the flooding terminal itself.
    expect((await staffLogin(flooding)).status).toBe(200);

    // The flooding terminal is refused, even a right code.
    const refused = await loginCode(flooding, pupils[0]!.loginCode);
    expect(refused.status).toBe(429);
    expect(refusal(refused).retryAfter).toBeLessThanOrEqual(60);

    // A minute later it may log in: the refused attempts did not count toward the hour.
    vi.setSystemTime(Date.now() + 60_000);
    expect((await loginCode(flooding, pupils[1]!.loginCode)).status).toBe(200);
    // Its hour holds the 20 failures, not 905: 20 more are answered, the next waits a minute.
    for (let i = 0; i < DEVICE_PER_MINUTE; i++) expect((await loginCode(flooding, randomLoginCode())).status).toBe(401);
    const again = await loginCode(flooding, randomLoginCode());
    expect(again.status).toBe(429);
    expect(refusal(again).retryAfter).toBeLessThanOrEqual(60);
  });

  test('a terminal that keeps failing minute after minute meets the hour’s ceiling; the lab still gets in', { timeout: 120_000 }, async () => {
    const flooding = freshDevice();
    const start = Date.now();
    let failed = 0;
    for (let minute = 0; failed < DEVICE_PER_HOUR; minute++) {
      vi.setSystemTime(start + minute * 61_000);
      for (let i = 0; i < DEVICE_PER_MINUTE + 5; i++) if ((await loginCode(flooding, randomLoginCode())).status === 401) failed++;
    }
    expect(failed).toBe(DEVICE_PER_HOUR);
    vi.setSystemTime(Date.now() + 61_000);
    const refused = await loginCode(flooding, randomLoginCode());
    expect(refused.status).toBe(429);
    // Until the hour that began with its first failure ends.
    expect(refusal(refused).retryAfter).toBeGreaterThan(60);
    expect(refusal(refused).retryAfter).toBeLessThanOrEqual(3600);
    const pupil = await addSitting(api.db);
    expect((await loginCode(freshDevice(), pupil.loginCode)).status).toBe(200);
  });
});

describe('guessing a login code stays infeasible', () => {
  const codeSpace = LOGIN_CODE_ALPHABET.length ** 12;
  const HOURS_PER_YEAR = 24 * 365.25;
  /** Expected years to hit one of `valid` codes, guessing at the most a limit lets through an hour. */
  const yearsToGuess = (valid: number, perHour: number) => codeSpace / valid / perHour / HOURS_PER_YEAR;

  test('the figures in server/security/throttle.ts', () => {
    expect(LOGIN_CODE_ALPHABET).toHaveLength(21);
    expect(codeSpace).toBeCloseTo(7.356e15, -12);
    const perAddress = throttleLimits.addressPerHour.points;
    const perDevice = throttleLimits.devicePerHour.points;
    expect(perAddress).toBe(2400);
    expect(perDevice).toBe(100);
    // One address, with as many terminals or made-up device tokens as it likes.
    expect(Math.round(yearsToGuess(10_000, perAddress))).toBe(34_964);
    expect(Math.round(yearsToGuess(1_000_000, perAddress))).toBe(350);
    // One terminal.
    expect(Math.round(yearsToGuess(1_000_000, perDevice))).toBe(8_391);
  });
});
