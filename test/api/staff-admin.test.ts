/**
 * Administrators and the staff they manage: an administrator signs in with no organisation code
 * and reaches every organisation's schedules; proctors are refused (403 FORBIDDEN) everything an
 * administrator does; staff accounts are listed, created and changed (name, role, organisation,
 * disabled, a new password that revokes the member's tokens), each change audited with before
 * and after and never a password; bad input, unknown ids and taken login ids change nothing.
 * On PGlite and on PostgreSQL.
 */
import { and, eq } from 'drizzle-orm';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import {
  AdminSchedulesResponseSchema,
  DeploymentAuditResponseSchema,
  StaffListResponseSchema,
  StaffLoginResponseSchema,
  StaffMeResponseSchema,
  StaffMemberResponseSchema,
} from '../../contract/admin.ts';
import { auditLog, staff, staffTokens } from '../../server/db/schema.ts';
import { addStaff, staffLogin } from '../helpers/admin-api.ts';
import { ADMIN_PASSWORD, addAdministrator, createAdminToken, createAdminWithToken } from '../helpers/admin-token.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, useApi, type ApiContext } from '../helpers/server-api.ts';
import { addSitting, snapshotTables } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();

const GOOD_PASSWORD = 'twelve-chars';

async function adminLogin(api: ApiContext, loginId: string, password: string, orgCode?: string) {
  return api.call('POST', '/api/admin/login', { body: { ...(orgCode === undefined ? {} : { org_code: orgCode }), login_id: loginId, password } });
}

describe.each(kinds)('administrators and the staff they manage on %s', (kind) => {
  const api = useApi(kind);

  test('an administrator signs in without an organisation code (absent or empty) and is nobody’s proctor', async () => {
    const admin = await addAdministrator(api.db);
    for (const orgCode of [undefined, '', '  ']) {
      const response = await adminLogin(api, admin.loginId, ADMIN_PASSWORD, orgCode);
      expect(response.status, String(orgCode)).toBe(200);
      const body = v.parse(StaffLoginResponseSchema, response.body);
      expect(body.staff).toEqual({ name: admin.name, login_id: admin.loginId, role: 'admin', org_code: null, org_name: null });
      const me = await api.call('GET', '/api/admin/me', { token: body.access_token });
      expect(v.parse(StaffMeResponseSchema, me.body).staff.org_code).toBeNull();
    }
  });

  test('an administrator’s login id with an organisation code, a proctor’s without one, a wrong password: INCORRECT_ID_PASSWORD', async () => {
    const admin = await addAdministrator(api.db);
    const pupil = await addSitting(api.db, { organization: {} });
    const proctor = await addStaff(api.db, pupil);
    for (const response of [
      await adminLogin(api, admin.loginId, ADMIN_PASSWORD, pupil.orgCode),
      await adminLogin(api, proctor.loginId, proctor.password),
      await adminLogin(api, admin.loginId, 'not-the-password'),
    ]) {
      expect(response.status).toBe(401);
      expect(errorOf(response).code).toBe('INCORRECT_ID_PASSWORD');
    }
  });

  test('a disabled administrator cannot sign in', async () => {
    const admin = await addAdministrator(api.db, { disabled: true });
    expect(errorOf(await adminLogin(api, admin.loginId, ADMIN_PASSWORD)).code).toBe('INCORRECT_ID_PASSWORD');
  });

  test('an administrator sees the schedules of every organisation and any one’s roster; a proctor only their own', async () => {
    const first = await addSitting(api.db, { organization: {} });
    const second = await addSitting(api.db, { organization: {} });
    const adminToken = await createAdminToken(api.db);
    const codes = v.parse(AdminSchedulesResponseSchema, (await api.call('GET', '/api/admin/schedules', { token: adminToken })).body).schedules.map((s) => s.code);
    expect(codes).toEqual(expect.arrayContaining([first.scheduleCode, second.scheduleCode, 'DEMO-2026']));
    expect((await api.call('GET', `/api/admin/schedules/${second.scheduleCode}/roster`, { token: adminToken })).status).toBe(200);

    const proctorToken = await staffLogin(api, await addStaff(api.db, first));
    const own = v.parse(AdminSchedulesResponseSchema, (await api.call('GET', '/api/admin/schedules', { token: proctorToken })).body).schedules.map((s) => s.code);
    expect(own).toEqual([first.scheduleCode]);
    expect(errorOf(await api.call('GET', `/api/admin/schedules/${second.scheduleCode}/roster`, { token: proctorToken })).code).toBe('NOT_FOUND');
  });

  test('a proctor is refused every administrator call with 403 FORBIDDEN, and changes nothing', async () => {
    const pupil = await addSitting(api.db, { organization: {} });
    const proctor = await addStaff(api.db, pupil);
    const token = await staffLogin(api, proctor);
    const before = await snapshotTables(api.db);
    for (const [method, path, body] of [
      ['GET', '/api/admin/staff', undefined],
      ['POST', '/api/admin/staff', { login_id: 'sneaky', name: 'Sneaky', role: 'admin', password: GOOD_PASSWORD }],
      ['PATCH', `/api/admin/staff/${proctor.staffId}`, { role: 'admin' }],
      ['GET', '/api/admin/audit/deployment', undefined],
    ] as const) {
      const response = await api.call(method, path, { token, body });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(errorOf(response).code).toBe('FORBIDDEN');
    }
    const after = await snapshotTables(api.db);
    expect(after.staff).toEqual(before.staff);
    expect(after.auditLog).toEqual(before.auditLog);
  });

  test('without a staff token, or with a pupil’s: 401 NOT_LOGGED_IN', async () => {
    const pupil = await addSitting(api.db);
    const { token: pupilToken } = await api.loginAs(pupil.loginCode);
    for (const token of [undefined, pupilToken]) {
      const response = await api.call('GET', '/api/admin/staff', { token });
      expect(response.status).toBe(401);
      expect(errorOf(response).code).toBe('NOT_LOGGED_IN');
    }
  });

  test('create a proctor: 201, listed, can sign in, audited as staff_create without the password', async () => {
    const admin = await createAdminWithToken(api.db);
    const pupil = await addSitting(api.db, { organization: {} });
    const loginId = `new.proctor.${pupil.scheduleId}`;
    const response = await api.call('POST', '/api/admin/staff', {
      token: admin.token,
      body: { login_id: ` ${loginId} `, name: 'Ada Lovelace', role: 'proctor', org_code: pupil.orgCode.toLowerCase(), password: GOOD_PASSWORD },
    });
    expect(response.status).toBe(201);
    const member = v.parse(StaffMemberResponseSchema, response.body).staff;
    expect(member).toMatchObject({ login_id: loginId, name: 'Ada Lovelace', role: 'proctor', org_code: pupil.orgCode, disabled: false });

    const list = v.parse(StaffListResponseSchema, (await api.call('GET', '/api/admin/staff', { token: admin.token })).body).staff;
    expect(list).toContainEqual(member);
    // Administrators first.
    expect(list.findIndex((m) => m.role === 'proctor')).toBeGreaterThan(list.findLastIndex((m) => m.role === 'admin'));
    expect(JSON.stringify(list)).not.toMatch(/password|scrypt/);

    await staffLogin(api, { orgCode: pupil.orgCode, loginId, password: GOOD_PASSWORD });

    const [entry] = await api.db.select().from(auditLog).where(and(eq(auditLog.action, 'staff_create'), eq(auditLog.entity, `staff:${loginId}`)));
    expect(entry).toMatchObject({ staffId: admin.staffId, scheduleId: null, before: null });
    expect(entry!.after).toEqual({ login_id: loginId, name: 'Ada Lovelace', role: 'proctor', org_code: pupil.orgCode, disabled: false });
  });

  test('create an administrator: no organisation, signs in without a code', async () => {
    const token = await createAdminToken(api.db);
    const response = await api.call('POST', '/api/admin/staff', {
      token,
      body: { login_id: 'second.admin', name: 'Second Admin', role: 'admin', password: GOOD_PASSWORD },
    });
    expect(response.status).toBe(201);
    expect(v.parse(StaffMemberResponseSchema, response.body).staff).toMatchObject({ role: 'admin', org_code: null });
    expect((await adminLogin(api, 'second.admin', GOOD_PASSWORD)).status).toBe(200);
  });

  test('a login id taken in the same place is ER_DUP_ENTRY and changes nothing; in another place it is free', async () => {
    const token = await createAdminToken(api.db);
    const taken = await addAdministrator(api.db);
    const pupil = await addSitting(api.db, { organization: {} });
    const proctor = await addStaff(api.db, pupil);
    const before = await snapshotTables(api.db);
    for (const body of [
      { login_id: taken.loginId, name: 'Again', role: 'admin', password: GOOD_PASSWORD },
      { login_id: proctor.loginId, name: 'Again', role: 'proctor', org_code: pupil.orgCode, password: GOOD_PASSWORD },
    ]) {
      const response = await api.call('POST', '/api/admin/staff', { token, body });
      expect(response.status).toBe(422);
      expect(errorOf(response).code).toBe('ER_DUP_ENTRY');
    }
    expect(await snapshotTables(api.db)).toEqual(before);
    // The proctor's login id as an administrator's, and the administrator's in an organisation: both free.
    expect((await api.call('POST', '/api/admin/staff', { token, body: { login_id: proctor.loginId, name: 'A', role: 'admin', password: GOOD_PASSWORD } })).status).toBe(201);
    expect(
      (await api.call('POST', '/api/admin/staff', { token, body: { login_id: taken.loginId, name: 'B', role: 'proctor', org_code: pupil.orgCode, password: GOOD_PASSWORD } })).status,
    ).toBe(201);
  });

  test('bad bodies are 422 VALIDATION_ERROR naming the field; an unknown organisation is NOT_FOUND; nothing changes', async () => {
    const token = await createAdminToken(api.db);
    const pupil = await addSitting(api.db, { organization: {} });
    const base = { login_id: 'someone', name: 'Someone', role: 'proctor', org_code: pupil.orgCode, password: GOOD_PASSWORD };
    const before = await snapshotTables(api.db);
    for (const [body, field] of [
      [{ ...base, password: 'eleven-char' }, 'password'],
      [{ ...base, password: 'x'.repeat(129) }, 'password'],
      [{ ...base, password: undefined }, 'password'],
      [{ ...base, login_id: 'has space' }, 'login_id'],
      [{ ...base, login_id: 'x'.repeat(65) }, 'login_id'],
      [{ ...base, name: '  ' }, 'name'],
      [{ ...base, role: 'superuser' }, 'role'],
      [{ ...base, org_code: undefined }, 'org_code'],
      [{ ...base, role: 'admin' }, 'org_code'],
    ] as const) {
      const response = await api.call('POST', '/api/admin/staff', { token, body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(errorOf(response).code).toBe('VALIDATION_ERROR');
      expect(errorOf(response).issues?.map((issue) => issue.field)).toContain(field);
    }
    const unknown = await api.call('POST', '/api/admin/staff', { token, body: { ...base, org_code: 'NO-SUCH-ORG' } });
    expect(unknown.status).toBe(404);
    expect(errorOf(unknown).code).toBe('NOT_FOUND');
    expect(await snapshotTables(api.db)).toEqual(before);
    // 12 and 128 characters are both accepted.
    for (const [loginId, password] of [['twelve', 'x'.repeat(12)], ['long', 'y'.repeat(128)]] as const) {
      expect((await api.call('POST', '/api/admin/staff', { token, body: { ...base, login_id: loginId, password } })).status).toBe(201);
    }
  });

  test('a new password revokes the member’s tokens: the old password and token stop working, the new password works; audited without either', async () => {
    const admin = await createAdminWithToken(api.db);
    const pupil = await addSitting(api.db, { organization: {} });
    const proctor = await addStaff(api.db, pupil);
    const oldToken = await staffLogin(api, proctor);
    const response = await api.call('PATCH', `/api/admin/staff/${proctor.staffId}`, { token: admin.token, body: { password: 'a-brand-new-password' } });
    expect(response.status).toBe(200);
    expect(errorOf(await api.call('GET', '/api/admin/me', { token: oldToken })).code).toBe('NOT_LOGGED_IN');
    expect(errorOf(await adminLogin(api, proctor.loginId, proctor.password, proctor.orgCode)).code).toBe('INCORRECT_ID_PASSWORD');
    await staffLogin(api, { ...proctor, password: 'a-brand-new-password' });

    const [entry] = await api.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'staff_update'), eq(auditLog.entity, `staff:${proctor.loginId}`)));
    expect(entry).toMatchObject({ staffId: admin.staffId, scheduleId: null, detail: { password_reset: true, revoked_tokens: 1 } });
    expect(entry!.before).toEqual(entry!.after);
    expect(JSON.stringify(entry)).not.toMatch(/scrypt|a-brand-new-password|password_hash/);
  });

  test('disable: the member’s tokens are revoked and they cannot sign in; enable again: they can', async () => {
    const token = await createAdminToken(api.db);
    const pupil = await addSitting(api.db, { organization: {} });
    const proctor = await addStaff(api.db, pupil);
    const proctorToken = await staffLogin(api, proctor);
    const disabled = await api.call('PATCH', `/api/admin/staff/${proctor.staffId}`, { token, body: { disabled: true } });
    expect(v.parse(StaffMemberResponseSchema, disabled.body).staff.disabled).toBe(true);
    const [tokenRow] = await api.db.select({ revokedAt: staffTokens.revokedAt }).from(staffTokens).where(eq(staffTokens.staffId, proctor.staffId));
    expect(tokenRow!.revokedAt).not.toBeNull();
    expect(errorOf(await adminLogin(api, proctor.loginId, proctor.password, proctor.orgCode)).code).toBe('INCORRECT_ID_PASSWORD');

    await api.call('PATCH', `/api/admin/staff/${proctor.staffId}`, { token, body: { disabled: false } });
    expect(errorOf(await api.call('GET', '/api/admin/me', { token: proctorToken })).code).toBe('NOT_LOGGED_IN');
    await staffLogin(api, proctor);
  });

  test('role and organisation: a proctor made administrator loses the organisation; back to proctor needs one; a move changes reach', async () => {
    const token = await createAdminToken(api.db);
    const first = await addSitting(api.db, { organization: {} });
    const second = await addSitting(api.db, { organization: {} });
    const proctor = await addStaff(api.db, first);
    const path = `/api/admin/staff/${proctor.staffId}`;

    const moved = await api.call('PATCH', path, { token, body: { org_code: second.orgCode, name: 'Moved Proctor' } });
    expect(v.parse(StaffMemberResponseSchema, moved.body).staff).toMatchObject({ org_code: second.orgCode, name: 'Moved Proctor', role: 'proctor' });
    await staffLogin(api, { ...proctor, orgCode: second.orgCode });

    const promoted = await api.call('PATCH', path, { token, body: { role: 'admin' } });
    expect(v.parse(StaffMemberResponseSchema, promoted.body).staff).toMatchObject({ role: 'admin', org_code: null });
    expect((await adminLogin(api, proctor.loginId, proctor.password)).status).toBe(200);

    for (const body of [{ role: 'proctor' }, { role: 'admin', org_code: first.orgCode }, { org_code: first.orgCode }]) {
      const refused = await api.call('PATCH', path, { token, body });
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(errorOf(refused).code).toBe('VALIDATION_ERROR');
    }
    const demoted = await api.call('PATCH', path, { token, body: { role: 'proctor', org_code: first.orgCode } });
    expect(v.parse(StaffMemberResponseSchema, demoted.body).staff).toMatchObject({ role: 'proctor', org_code: first.orgCode });
  });

  test('a move into an organisation where the login id is taken is ER_DUP_ENTRY', async () => {
    const token = await createAdminToken(api.db);
    const first = await addSitting(api.db, { organization: {} });
    const second = await addSitting(api.db, { organization: {} });
    const proctor = await addStaff(api.db, first);
    await api.db.insert(staff).values({ organizationId: second.organizationId, loginId: proctor.loginId, name: 'Namesake', passwordHash: 'x' });
    const response = await api.call('PATCH', `/api/admin/staff/${proctor.staffId}`, { token, body: { org_code: second.orgCode } });
    expect(errorOf(response).code).toBe('ER_DUP_ENTRY');
  });

  test('an administrator cannot disable or demote themselves', async () => {
    const admin = await createAdminWithToken(api.db);
    const pupil = await addSitting(api.db, { organization: {} });
    for (const body of [{ disabled: true }, { role: 'proctor', org_code: pupil.orgCode }]) {
      const response = await api.call('PATCH', `/api/admin/staff/${admin.staffId}`, { token: admin.token, body });
      expect(response.status).toBe(422);
      expect(errorOf(response).code).toBe('VALIDATION_ERROR');
    }
    expect((await api.call('PATCH', `/api/admin/staff/${admin.staffId}`, { token: admin.token, body: { name: 'Renamed Me' } })).status).toBe(200);
  });

  test('unknown ids are NOT_FOUND; malformed ids and bodies are VALIDATION_ERROR', async () => {
    const token = await createAdminToken(api.db);
    for (const id of ['999999', '2147483648', '9999999999']) {
      const response = await api.call('PATCH', `/api/admin/staff/${id}`, { token, body: { name: 'x' } });
      expect(response.status, id).toBe(404);
      expect(errorOf(response).code).toBe('NOT_FOUND');
    }
    const admin = await addAdministrator(api.db);
    for (const [path, body] of [
      ['/api/admin/staff/abc', { name: 'x' }],
      ['/api/admin/staff/0', { name: 'x' }],
      [`/api/admin/staff/${admin.staffId}`, { disabled: 'yes' }],
      [`/api/admin/staff/${admin.staffId}`, { password: 'short' }],
      [`/api/admin/staff/${admin.staffId}`, { name: '' }],
    ] as const) {
      const response = await api.call('PATCH', path, { token, body });
      expect(errorOf(response).code, `${path} ${JSON.stringify(body)}`).toBe('VALIDATION_ERROR');
    }
  });

  test('GET /admin/audit/deployment: the newest staff changes first, who made them, before and after', async () => {
    const admin = await createAdminWithToken(api.db);
    const created = v.parse(
      StaffMemberResponseSchema,
      (await api.call('POST', '/api/admin/staff', { token: admin.token, body: { login_id: 'audited.one', name: 'Audited', role: 'admin', password: GOOD_PASSWORD } })).body,
    ).staff;
    api.clock.advance(1_000);
    await api.call('PATCH', `/api/admin/staff/${created.id}`, { token: admin.token, body: { name: 'Audited Renamed' } });
    const response = await api.call('GET', '/api/admin/audit/deployment', { token: admin.token });
    expect(response.status).toBe(200);
    const entries = v.parse(DeploymentAuditResponseSchema, response.body).entries;
    const mine = entries.filter((e) => e.entity === 'staff:audited.one');
    expect(mine.map((e) => e.action)).toEqual(['staff_update', 'staff_create']);
    expect(mine[0]).toMatchObject({
      actor: 'staff',
      staff_name: admin.name,
      staff_login_id: admin.loginId,
      before: { name: 'Audited' },
      after: { name: 'Audited Renamed' },
    });
    expect(mine[1]).toMatchObject({ before: null, after: { login_id: 'audited.one', role: 'admin', org_code: null } });
    expect(entries.every((e, i) => i === 0 || entries[i - 1]!.at >= e.at)).toBe(true);
  });
});
