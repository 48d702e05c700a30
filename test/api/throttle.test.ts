/**
 * Login throttling (server/security/throttle.ts, server/security/login-guard.ts), on PGlite
 * (counted in memory) and PostgreSQL (counted in the `rate_limits` table):
 * - a lab of 40 terminals behind one school address, every pupil mistyping twice: never a 429;
 * - wrong login codes from one terminal: stopped after the terminal's limit, 429
 *   TOO_MANY_REQUESTS with Retry-After and the contract's error body; another terminal is not;
 * - one password sprayed over login IDs from one address with a made-up device token per attempt:
 *   stopped by the address's limit; staff sign-ins by the staff's own;
 * - the seed's lock is per address AND login ID: an attacker cannot lock a pupil out;
 * - one wrong code or partner token retried: 429 after 10;
 * - X-Forwarded-For counts only with TRUST_PROXY, and then only the entry our proxy appended.
 * The lab flood (one terminal floods, the others and the proctor log in) and the guessing figures
 * are in test/api/throttle-lab.test.ts.
 * Windows are real time: each test freezes Date, so a slow machine never splits a burst in two.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ErrorBodySchema } from '../../contract/errors.ts';
import { createApp } from '../../server/app.ts';
import { openDatabase } from '../../server/db/client.ts';
import { LOCK_MS, MAX_FAILED_LOGINS } from '../../server/domain/credentials.ts';
import { silentLogger } from '../../server/logger.ts';
import type { PartnerGateway } from '../../server/partners/gateway.ts';
import { loadStaffAccounts } from '../../server/seed/staff-accounts.ts';
import { defaultSecuritySettings } from '../../server/security/settings.ts';
import { RATE_LIMIT_TABLE, throttleLimits } from '../../server/security/throttle.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { useApi, type ApiResponse } from '../helpers/server-api.ts';
import { addSitting, randomLoginCode, type TestSitting } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
const PASSWORD = 'lab password 7';
/** Failures a terminal may have in a minute (a request without X-Device-Token is its address's one such terminal). */
const DEVICE_PER_MINUTE = throttleLimits.devicePerMinute.points;
const ADDRESS_PER_MINUTE = throttleLimits.addressPerMinute.points;

/** A partner whose every token is refused (the Kenya link answers 200 with `error`). */
const refusingPartner: PartnerGateway = { verify: async () => ({ ok: false, error: 'user_notfound' }) };

let nextAddress = 1;
/** A fresh client address per use: tests never share a budget. */
const freshAddress = () => `198.51.100.${nextAddress++}`;
/** A fresh terminal's X-Device-Token. */
const freshDevice = () => `terminal-${randomUUID()}`;

beforeEach(() => {
  // One frozen instant: every request of a test falls in the same throttle window.
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** `count` calls, 20 at a time (a burst, and quicker than one by one on a loaded machine); their statuses. */
async function inBursts(count: number, call: (i: number) => Promise<ApiResponse>): Promise<number[]> {
  const statuses: number[] = [];
  for (let sent = 0; sent < count; sent += 20) {
    const burst = await Promise.all(Array.from({ length: Math.min(20, count - sent) }, (_, j) => call(sent + j)));
    statuses.push(...burst.map((r) => r.status));
  }
  return statuses;
}

const codeOf = (response: ApiResponse) => v.parse(ErrorBodySchema, response.body).code;

function expectThrottled(response: ApiResponse, maxSeconds: number) {
  expect(response.status).toBe(429);
  const body = v.parse(ErrorBodySchema, response.body);
  expect(body.code).toBe('TOO_MANY_REQUESTS');
  expect(body.message.length).toBeGreaterThan(0);
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
}

describe.each(kinds)('login throttling behind a trusted proxy on %s', (kind) => {
  const api = useApi(kind, {
    security: { ...defaultSecuritySettings, trustProxy: 1 },
    partners: { kenya: refusingPartner },
  });
  /** From a client address, and from one terminal there when `device` is given. */
  const from = (address: string, device?: string): Record<string, string> =>
    device === undefined ? { 'X-Forwarded-For': address } : { 'X-Forwarded-For': address, 'X-Device-Token': device };
  const loginCode = (address: string, code: string, device?: string) =>
    api.call('POST', '/api/login', { body: { login_type: 0, login_code: code }, headers: from(address, device) });
  const loginId = (address: string, pupil: Pick<TestSitting, 'loginId' | 'orgCode'>, password: string, device?: string) =>
    api.call('POST', '/api/login', {
      body: { login_type: 1, login_id: pupil.loginId, password, org_code: pupil.orgCode },
      headers: from(address, device),
    });

  test('a lab of 40 terminals behind one school address, each pupil mistyping twice: never a 429', { timeout: 120_000 }, async () => {
    const school = freshAddress();
    const byCode = await Promise.all(Array.from({ length: 20 }, () => addSitting(api.db)));
    const byId = await Promise.all(Array.from({ length: 20 }, () => addSitting(api.db, { password: PASSWORD })));
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const codePupil = byCode[i]!;
      const idPupil = byId[i]!;
      const codeTerminal = freshDevice();
      const idTerminal = freshDevice();
      // Two typos each, then the right credentials.
      statuses.push((await loginCode(school, randomLoginCode(), codeTerminal)).status, (await loginCode(school, randomLoginCode(), codeTerminal)).status);
      const right = await loginCode(school, codePupil.loginCode, codeTerminal);
      expect(right.status, `pupil ${i} by code`).toBe(200);
      statuses.push(
        (await loginId(school, idPupil, 'lab pasword 7', idTerminal)).status,
        (await loginId(school, idPupil, 'lab password7', idTerminal)).status,
      );
      const rightId = await loginId(school, idPupil, PASSWORD, idTerminal);
      expect(rightId.status, `pupil ${i} by login ID`).toBe(200);
    }
    expect(statuses).toHaveLength(80);
    expect(statuses.filter((s) => s === 429)).toEqual([]);
    expect(statuses.every((s) => s === 401)).toBe(true);
  });

  test('wrong login codes in a burst from one terminal: 429 with Retry-After after its limit; other terminals unaffected', async () => {
    const school = freshAddress();
    const flooding = freshDevice();
    const responses: ApiResponse[] = [];
    for (let i = 0; i < 100; i++) responses.push(await loginCode(school, randomLoginCode(), flooding));
    const statuses = responses.map((r) => r.status);
    expect(statuses.slice(0, DEVICE_PER_MINUTE).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(DEVICE_PER_MINUTE).every((s) => s === 429)).toBe(true);
    expectThrottled(responses[DEVICE_PER_MINUTE]!, 60);
    expectThrottled(responses[99]!, 60);

    // The spent terminal is refused even the right code; the next terminal, at the same address, is not.
    const pupil = await addSitting(api.db);
    expectThrottled(await loginCode(school, pupil.loginCode, flooding), 60);
    expect((await loginCode(school, pupil.loginCode, freshDevice())).status).toBe(200);

    // A minute later the terminal may try again.
    vi.setSystemTime(Date.now() + 60_000);
    expect((await loginCode(school, pupil.loginCode, flooding)).status).toBe(200);
  });

  test('a request without X-Device-Token counts as its address’s one terminal', async () => {
    const address = freshAddress();
    for (let i = 0; i < DEVICE_PER_MINUTE; i++) expect((await loginCode(address, randomLoginCode())).status).toBe(401);
    expectThrottled(await loginCode(address, randomLoginCode()), 60);
    expect((await loginCode(address, randomLoginCode(), freshDevice())).status).toBe(401);
  });

  test('codes, and one password over login IDs, with a made-up device token per attempt: the address stops them, staff on their own limit', { timeout: 120_000 }, async () => {
    const attacker = freshAddress();
    // Mostly codes (a wrong password costs the server a hash), every 10th a login ID or an examinee.
    const spray = (i: number) =>
      i % 10 !== 0
        ? loginCode(attacker, randomLoginCode(), freshDevice())
        : i % 20 === 0
        ? api.call('POST', '/api/login', {
            body: { login_type: 1, login_id: `sprayed.${i}`, password: PASSWORD, org_code: 'GRADUS-DEMO' },
            headers: from(attacker, freshDevice()),
          })
        : api.call('POST', '/api/login-examinee', {
            body: { login_id: `sprayed.${i}`, password: PASSWORD, org_code: 'GRADUS-HOME' },
            headers: from(attacker, freshDevice()),
          });
    const statuses = await inBursts(ADDRESS_PER_MINUTE + 20, spray);
    expect(statuses.filter((s) => s === 401)).toHaveLength(ADDRESS_PER_MINUTE);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);

    const staffPerMinute = throttleLimits.staffAddressPerMinute.points;
    const staffStatuses = await inBursts(staffPerMinute + 10, (i) =>
      api.call('POST', '/api/admin/login', {
        body: { login_id: `sprayed.staff.${i}`, password: PASSWORD, org_code: 'GRADUS-DEMO' },
        headers: from(attacker, freshDevice()),
      }),
    );
    expect(staffStatuses.filter((s) => s === 401)).toHaveLength(staffPerMinute);
    expect(staffStatuses.filter((s) => s === 429)).toHaveLength(10);
  });

  test('the lock is per address and login ID: an attacker elsewhere cannot lock the pupil out', async () => {
    const attacker = freshAddress();
    const pupilsTerminal = freshAddress();
    const pupil = await addSitting(api.db, { password: PASSWORD });
    for (let i = 1; i < MAX_FAILED_LOGINS; i++) expect(codeOf(await loginId(attacker, pupil, `guess ${i}`))).toBe('INCORRECT_ID_PASSWORD');
    const locked = await loginId(attacker, pupil, 'guess 5');
    expect(locked.status).toBe(403);
    expect(codeOf(locked)).toBe('ACCOUNT_LOCKED');
    expect(locked.headers.get('retry-after')).toBe(String(LOCK_MS / 1000));
    // Locked for the attacker, even with the right password...
    expect(codeOf(await loginId(attacker, pupil, PASSWORD))).toBe('ACCOUNT_LOCKED');
    // ...and again and again: the pupil at their own terminal still logs in every time.
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < MAX_FAILED_LOGINS; i++) await loginId(attacker, pupil, `round ${round} guess ${i}`);
      expect((await loginId(pupilsTerminal, pupil, PASSWORD)).status).toBe(200);
    }
  });

  test('examinee login keeps the same per-address lock', async () => {
    const attacker = freshAddress();
    const pupil = await addSitting(api.db, { password: PASSWORD, organization: { loginMethod: 3 } });
    const examinee = (address: string, password: string) =>
      api.call('POST', '/api/login-examinee', { body: { login_id: pupil.loginId, password, org_code: pupil.orgCode }, headers: from(address) });
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) await examinee(attacker, 'wrong');
    expect(codeOf(await examinee(attacker, PASSWORD))).toBe('ACCOUNT_LOCKED');
    expect((await examinee(freshAddress(), PASSWORD)).status).toBe(200);
  });

  test('one wrong login code re-sent from one terminal: 429 after 10, other codes still answered', async () => {
    const terminal = freshAddress();
    const stuck = randomLoginCode();
    for (let i = 0; i < throttleLimits.identifier.points; i++) expect((await loginCode(terminal, stuck)).status).toBe(401);
    expectThrottled(await loginCode(terminal, stuck), throttleLimits.identifier.duration);
    // Typed carelessly it is the same code.
    expectThrottled(await loginCode(terminal, stuck.toLowerCase().replaceAll('-', '')), throttleLimits.identifier.duration);
    expect((await loginCode(terminal, randomLoginCode())).status).toBe(401);
  });

  test('the Kenya link: a refused partner token retried is throttled, another token is not', async () => {
    const terminal = freshAddress();
    const link = (token: string) => api.call('POST', '/api/api_connect/kenya/login-link', { body: { token }, headers: from(terminal) });
    for (let i = 0; i < throttleLimits.identifier.points; i++) {
      const refused = await link('partner-token-1');
      expect(refused.status).toBe(200);
      expect((refused.body as { error: string | null }).error).toBe('user_notfound');
    }
    expectThrottled(await link('partner-token-1'), throttleLimits.identifier.duration);
    expect((await link('partner-token-2')).status).toBe(200);
  });

  test('a staff sign-in from an address whose pupil limit is spent: the proctor still signs in', { timeout: 120_000 }, async () => {
    const school = freshAddress();
    await inBursts(ADDRESS_PER_MINUTE, () => loginCode(school, randomLoginCode(), freshDevice()));
    const refused = await loginCode(school, randomLoginCode(), freshDevice());
    expectThrottled(refused, 60);
    const proctor = loadStaffAccounts().find((a) => a.login_refused_with === null)!;
    const staffLogin = (address: string) =>
      api.call('POST', '/api/admin/login', {
        body: { org_code: proctor.org_code, login_id: proctor.login_id, password: proctor.password },
        headers: from(address, freshDevice()),
      });
    expect((await staffLogin(school)).status).toBe(200);
  });

  test('X-Forwarded-For counts only the entry our proxy appended: a forged entry in front changes nothing', async () => {
    const attacker = freshAddress();
    for (let i = 0; i < DEVICE_PER_MINUTE; i++) await loginCode(attacker, randomLoginCode());
    expectThrottled(await loginCode(`${freshAddress()}, ${attacker}`, randomLoginCode()), 60);
    expect((await loginCode(`${attacker}, ${freshAddress()}`, randomLoginCode())).status).toBe(401);
  });

  test('malformed bodies are not attempts: they are refused by the route and never counted', async () => {
    const terminal = freshAddress();
    for (let i = 0; i < DEVICE_PER_MINUTE + 10; i++) {
      const response = await api.call('POST', '/api/login', { body: { login_type: 0, login_code: 'not a code' }, headers: from(terminal) });
      expect(response.status).toBe(422);
    }
    expect((await loginCode(terminal, randomLoginCode())).status).toBe(401);
  });
});

describe.each(kinds)('login throttling without a trusted proxy on %s', (kind) => {
  const api = useApi(kind);

  test('X-Forwarded-For is ignored: a new forged address per request does not escape the limit', async () => {
    const responses: ApiResponse[] = [];
    for (let i = 0; i < DEVICE_PER_MINUTE + 5; i++) {
      responses.push(
        await api.call('POST', '/api/login', {
          body: { login_type: 0, login_code: randomLoginCode() },
          headers: { 'X-Forwarded-For': freshAddress() },
        }),
      );
    }
    expect(responses.slice(0, DEVICE_PER_MINUTE).every((r) => r.status === 401)).toBe(true);
    expectThrottled(responses[DEVICE_PER_MINUTE]!, 60);
  });
});

describe.each(kinds.filter((k) => k === 'postgres'))('throttling across processes on %s', (kind) => {
  const api = useApi(kind, { security: { ...defaultSecuritySettings, trustProxy: 1 } });

  test('a second process with its own pool counts against the same limits, in a table that holds no login code', async () => {
    const other = await openDatabase({ databaseUrl: api.database.url! });
    try {
      const second = createApp({ db: other.db, logger: silentLogger, settings: { security: { ...defaultSecuritySettings, trustProxy: 1 } } });
      const attacker = freshAddress();
      const terminal = freshDevice();
      const codes: string[] = [];
      for (let i = 0; i < DEVICE_PER_MINUTE; i++) {
        const code = randomLoginCode();
        codes.push(code);
        const response = await api.call('POST', '/api/login', {
          body: { login_type: 0, login_code: code },
          headers: { 'X-Forwarded-For': attacker, 'X-Device-Token': terminal },
        });
        expect(response.status).toBe(401);
      }
      const viaSecond = await second.request('/api/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': attacker, 'X-Device-Token': terminal },
        body: JSON.stringify({ login_type: 0, login_code: randomLoginCode() }),
      });
      expect(viaSecond.status).toBe(429);
      expect(Number(viaSecond.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

      const rows = await api.database.db.execute(sql.raw(`select key from ${RATE_LIMIT_TABLE}`));
      const keys = (rows as unknown as { rows: { key: string }[] }).rows.map((r) => r.key).join('\n');
      expect(keys).toContain('login-address-minute');
      expect(keys).toContain('login-device-minute');
      for (const code of codes) expect(keys).not.toContain(code);
      expect(keys).not.toContain(terminal);
    } finally {
      await other.close();
    }
  });
});
