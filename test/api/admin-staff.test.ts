/**
 * Staff accounts and their tokens: every demo proctor of server/seed/staff-accounts.json
 * logs in as the list says; login, me and logout; wrong passwords and the lock; a pupil token
 * never works on /api/admin and a staff token never on a pupil call; bad input is a
 * VALIDATION_ERROR that changes nothing.
 */
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, test } from 'vitest';
import { StaffLoginResponseSchema, StaffMeResponseSchema } from '../../contract/admin.ts';
import { staff, staffTokens } from '../../server/db/schema.ts';
import { seedDemoData } from '../../server/seed/seed.ts';
import { loadStaffAccounts } from '../../server/seed/staff-accounts.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, useApi, type CallOptions } from '../helpers/server-api.ts';
import { addSitting, snapshotTables } from '../helpers/server-fixtures.ts';
import { addStaff, staffLogin, terminal } from '../helpers/admin-api.ts';

const kinds = await testDatabaseKinds();
const accounts = loadStaffAccounts();

describe.each(kinds)('staff accounts on %s', (kind) => {
  const api = useApi(kind);
  /**
   * Each test's sign-ins come from a laptop of its own (its X-Device-Token): the login throttle
   * counts a terminal's failures, and this file's wrong passwords are many proctors', not one machine's.
   */
  let laptop = '';
  beforeEach(() => {
    laptop = `laptop-${randomUUID()}`;
  });
  const signIn = (options: CallOptions) => api.call('POST', '/api/admin/login', { ...options, headers: { ...options.headers, 'X-Device-Token': laptop } });

  test('every demo proctor of staff-accounts.json logs in as the list says, one per demo organisation', async () => {
    expect(new Set(accounts.map((a) => a.org_code)).size).toBe(accounts.length);
    expect(accounts.map((a) => a.org_code)).toContain('GRADUS-DEMO');
    for (const account of accounts) {
      const response = await signIn({
        body: { org_code: account.org_code, login_id: account.login_id, password: account.password },
      });
      if (account.login_refused_with === null) {
        expect(response.status, account.login_id).toBe(200);
        const body = v.parse(StaffLoginResponseSchema, response.body);
        expect(body.staff).toMatchObject({ login_id: account.login_id, name: account.name, org_code: account.org_code, role: 'proctor' });
      } else {
        expect(errorOf(response).code, account.login_id).toBe(account.login_refused_with);
      }
    }
  });

  test('the seed is idempotent: seeding again adds no second proctor', async () => {
    const before = await api.db.select({ id: staff.id }).from(staff);
    await seedDemoData(api.db);
    const after = await api.db.select({ id: staff.id }).from(staff);
    expect(after.length).toBe(before.length);
  });

  test('login, me and logout: after logout the staff token is refused', async () => {
    const demo = accounts.find((a) => a.org_code === 'GRADUS-DEMO')!;
    const token = await staffLogin(api, { orgCode: demo.org_code, loginId: demo.login_id, password: demo.password });
    const me = await api.call('GET', '/api/admin/me', { token });
    expect(me.status).toBe(200);
    expect(v.parse(StaffMeResponseSchema, me.body).staff).toEqual({
      name: demo.name,
      login_id: demo.login_id,
      role: 'proctor',
      org_code: 'GRADUS-DEMO',
      org_name: 'Gradus Demo Primary School',
    });

    const out = await api.call('POST', '/api/admin/logout', { token });
    expect(out.status).toBe(204);
    const after = await api.call('GET', '/api/admin/me', { token });
    expect(after.status).toBe(401);
    expect(errorOf(after).code).toBe('NOT_LOGGED_IN');
    expect(errorOf(await api.call('GET', '/api/admin/schedules', { token })).code).toBe('NOT_LOGGED_IN');
  });

  test('no token, a malformed one or a made-up one: 401 NOT_LOGGED_IN', async () => {
    const variants: Record<string, string>[] = [{}, { Authorization: 'Bearer nope' }, { Authorization: `Bearer ${'A'.repeat(43)}` }];
    for (const headers of variants) {
      const response = await api.call('GET', '/api/admin/me', { headers });
      expect(response.status).toBe(401);
      expect(errorOf(response).code).toBe('NOT_LOGGED_IN');
    }
  });

  test('a wrong password, a wrong organisation or an unknown login id: 401 INCORRECT_ID_PASSWORD', async () => {
    const pupil = await addSitting(api.db, { organization: {} });
    const proctor = await addStaff(api.db, pupil);
    const attempts = [
      { org_code: proctor.orgCode, login_id: proctor.loginId, password: 'wrong-password' },
      { org_code: 'GRADUS-DEMO', login_id: proctor.loginId, password: proctor.password },
      { org_code: proctor.orgCode, login_id: 'nobody.here', password: proctor.password },
      { org_code: 'NO-SUCH-ORG', login_id: proctor.loginId, password: proctor.password },
    ];
    for (const body of attempts) {
      const response = await signIn({ body });
      expect(response.status).toBe(401);
      expect(errorOf(response).code).toBe('INCORRECT_ID_PASSWORD');
    }
  });

  test('five wrong passwords lock the staff login, the right password too (the login throttle, as for pupils)', async () => {
    const pupil = await addSitting(api.db, { organization: {} });
    const proctor = await addStaff(api.db, pupil);
    const attempt = (password: string) =>
      signIn({ body: { org_code: proctor.orgCode, login_id: proctor.loginId, password } });
    for (let i = 0; i < 4; i++) expect(errorOf(await attempt('wrong-password')).code).toBe('INCORRECT_ID_PASSWORD');
    expect(errorOf(await attempt('wrong-password')).code).toBe('ACCOUNT_LOCKED');
    const locked = await attempt(proctor.password);
    expect(locked.status).toBe(403);
    expect(errorOf(locked).code).toBe('ACCOUNT_LOCKED');
  });

  test('the organisation code in any case is one account to the lock: five wrong passwords, each spelled otherwise, lock it', async () => {
    const pupil = await addSitting(api.db, { organization: {} });
    const proctor = await addStaff(api.db, pupil);
    const spellings = caseSpellings(proctor.orgCode, 5);
    expect(new Set(spellings).size).toBe(5);
    const attempt = (orgCode: string, password: string) =>
      signIn({ body: { org_code: orgCode, login_id: proctor.loginId, password } });
    for (const spelling of spellings.slice(0, 4)) expect(errorOf(await attempt(spelling, 'wrong-password')).code).toBe('INCORRECT_ID_PASSWORD');
    expect(errorOf(await attempt(spellings[4]!, 'wrong-password')).code).toBe('ACCOUNT_LOCKED');
    expect(errorOf(await attempt(proctor.orgCode, proctor.password)).code).toBe('ACCOUNT_LOCKED');
  });

  test('a disabled proctor cannot log in, and their tokens stop working', async () => {
    const pupil = await addSitting(api.db, { organization: {} });
    const proctor = await addStaff(api.db, pupil);
    const token = await staffLogin(api, proctor);
    await api.db.update(staff).set({ disabled: true }).where(eq(staff.id, proctor.staffId));
    expect(errorOf(await api.call('GET', '/api/admin/me', { token })).code).toBe('NOT_LOGGED_IN');
    const login = await signIn({
      body: { org_code: proctor.orgCode, login_id: proctor.loginId, password: proctor.password },
    });
    expect(errorOf(login).code).toBe('INCORRECT_ID_PASSWORD');
  });

  test('a pupil token never works on /api/admin, and a staff token never on a pupil call', async () => {
    const pupil = await addSitting(api.db, { organization: {} });
    const proctor = await addStaff(api.db, pupil);
    const lab = terminal(api);
    const { token: pupilToken, scheduleHistoryId } = await lab.sit(pupil.loginCode);
    const staffToken = await staffLogin(api, proctor);

    for (const [method, path] of [
      ['GET', '/api/admin/me'],
      ['GET', '/api/admin/schedules'],
      ['GET', `/api/admin/schedules/${pupil.scheduleCode}/roster`],
      ['GET', `/api/admin/audit?schedule=${pupil.scheduleCode}`],
    ] as const) {
      const response = await api.call(method, path, { token: pupilToken });
      expect(response.status, path).toBe(401);
      expect(errorOf(response).code).toBe('NOT_LOGGED_IN');
    }
    const move = await api.call('POST', `/api/admin/sittings/${scheduleHistoryId}/move-terminal`, { token: pupilToken, body: { reason: 'x' } });
    expect(errorOf(move).code).toBe('NOT_LOGGED_IN');

    for (const [method, path, body] of [
      ['GET', '/api/me', undefined],
      ['GET', `/api/exam/questions?schedule_history_id=${scheduleHistoryId}`, undefined],
      ['POST', '/api/exam/heartbeat', { schedule_history_id: scheduleHistoryId, question_index: 0, visible: true }],
      ['POST', '/api/exam/finish', { schedule_history_id: scheduleHistoryId }],
    ] as const) {
      const response = await lab.call(method, path, staffToken, body);
      expect(response.status, path).toBe(401);
      expect(errorOf(response).code).toBe('NOT_LOGGED_IN');
    }
    // The pupil's own logout does not touch the staff token, and the staff logout not the pupil's.
    expect((await api.call('POST', '/api/admin/logout', { token: staffToken })).status).toBe(204);
    expect((await lab.heartbeat(pupilToken, scheduleHistoryId)).status).toBe(200);
  });

  test('bad login input is a VALIDATION_ERROR naming the fields, and writes nothing', async () => {
    const before = await snapshotTables(api.db);
    const cases: [unknown, string[]][] = [
      // No organisation code is an administrator's sign-in: only the login id and password are required.
      [{}, ['login_id', 'password']],
      [{ org_code: 'GRADUS DEMO!', login_id: 'x', password: 'y' }, ['org_code']],
      [{ org_code: 'GRADUS-DEMO', login_id: 'x'.repeat(65), password: 'y' }, ['login_id']],
      [{ org_code: 'GRADUS-DEMO', login_id: 'x', password: 'y'.repeat(129) }, ['password']],
      [{ org_code: 'GRADUS-DEMO', login_id: 42, password: 'y' }, ['login_id']],
    ];
    for (const [body, fields] of cases) {
      const response = await signIn({ body });
      expect(response.status).toBe(422);
      const error = errorOf(response);
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.issues?.map((i) => i.field).sort()).toEqual([...fields].sort());
    }
    const notJson = await signIn({ rawBody: '{"org_code":', headers: { 'Content-Type': 'application/json' } });
    expect(notJson.status).toBe(400);
    expect(errorOf(notJson).code).toBe('VALIDATION_ERROR');
    expect(await snapshotTables(api.db)).toEqual(before);
  });

  test('staff tokens are stored hashed, never in clear', async () => {
    const demo = accounts.find((a) => a.org_code === 'GRADUS-DEMO')!;
    const token = await staffLogin(api, { orgCode: demo.org_code, loginId: demo.login_id, password: demo.password });
    const rows = await api.db.select({ hash: staffTokens.tokenHash }).from(staffTokens);
    expect(rows.some((r) => r.hash === token)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.hash))).toBe(true);
  });
});

/** `count` spellings of `code` differing only in case: the code itself, then one more letter's case turned each time. */
function caseSpellings(code: string, count: number): string[] {
  const letters = [...code].flatMap((char, at) => (char.toLowerCase() !== char.toUpperCase() ? [at] : []));
  if (letters.length < count - 1) throw new Error(`caseSpellings: "${code}" has too few letters`);
  const turn = (text: string, at: number) => text.slice(0, at) + (text[at] === text[at]!.toLowerCase() ? text[at]!.toUpperCase() : text[at]!.toLowerCase()) + text.slice(at + 1);
  const spellings = [code];
  for (let i = 0; i < count - 1; i++) spellings.push(turn(spellings.at(-1)!, letters[i]!));
  return spellings;
}
