/**
 * The codes a proctor types are the same code in capitals or small letters, as on a login page
 * (server/domain/lookups.ts `byCode`, test/api/lookups-case.test.ts): the organisation's code at
 * the staff sign-in (server/domain/staff.ts) and the schedule's code of the roster, the room-wide
 * extension and the audit trail (server/domain/roster.ts `findSchedule`). A teacher who types
 * `test-ab12` for TEST-AB12 signs in, never told the organisation, login ID or password is wrong,
 * and a schedule code in the other case is found, never 404. What is answered names
 * the code as stored; another organisation's schedule stays NOT_FOUND in any case.
 */
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import {
  AuditResponseSchema,
  ExtendScheduleResponseSchema,
  RosterResponseSchema,
  StaffLoginResponseSchema,
} from '../../contract/admin.ts';
import { schedules } from '../../server/db/schema.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, useApi, type ApiContext } from '../helpers/server-api.ts';
import { addSitting } from '../helpers/server-fixtures.ts';
import { addStaff, staffLogin } from '../helpers/admin-api.ts';

const kinds = await testDatabaseKinds();

/** Swaps the case of every letter: `TEST-ab12` -> `test-AB12`. */
const swapped = (code: string) => [...code].map((ch) => (ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase())).join('');

async function classWithProctor(api: ApiContext) {
  const first = await addSitting(api.db, { organization: {} });
  const proctor = await addStaff(api.db, first);
  return { first, proctor };
}

describe.each(kinds)('codes a proctor types, in either case, on %s', (kind) => {
  const api = useApi(kind);

  test('staff sign-in: the organisation code in the other case signs in, named as stored', async () => {
    const { first, proctor } = await classWithProctor(api);
    expect(swapped(proctor.orgCode)).not.toBe(proctor.orgCode);
    for (const orgCode of [swapped(proctor.orgCode), proctor.orgCode.toLowerCase()]) {
      const response = await api.call('POST', '/api/admin/login', {
        body: { org_code: orgCode, login_id: proctor.loginId, password: proctor.password },
      });
      expect(response.status).toBe(200);
      expect(v.parse(StaffLoginResponseSchema, response.body).staff.org_code).toBe(first.orgCode);
    }
    // A wrong password is still wrong, in any case.
    const wrong = await api.call('POST', '/api/admin/login', {
      body: { org_code: swapped(proctor.orgCode), login_id: proctor.loginId, password: 'not the password' },
    });
    expect(errorOf(wrong).code).toBe('INCORRECT_ID_PASSWORD');
  });

  test('the roster, the room-wide extension and the audit trail take the schedule code in the other case', async () => {
    const { first, proctor } = await classWithProctor(api);
    const token = await staffLogin(api, proctor);
    const code = swapped(first.scheduleCode);
    expect(code).not.toBe(first.scheduleCode);

    const roster = await api.call('GET', `/api/admin/schedules/${code}/roster`, { token });
    expect(roster.status).toBe(200);
    const body = v.parse(RosterResponseSchema, roster.body);
    expect(body.schedule.code).toBe(first.scheduleCode);
    expect(body.pupils.map((p) => p.schedule_history_id)).toEqual([first.scheduleHistoryId]);

    const extend = await api.call('POST', `/api/admin/schedules/${code}/extend`, { token, body: { minutes: 5, reason: 'Fire drill' } });
    expect(extend.status).toBe(200);
    expect(v.parse(ExtendScheduleResponseSchema, extend.body).extended).toBe(0);

    const audit = await api.call('GET', `/api/admin/audit?schedule=${code}`, { token });
    expect(audit.status).toBe(200);
    expect(v.parse(AuditResponseSchema, audit.body).entries.map((e) => e.action)).toEqual(['extend_room']);
  });

  test('two schedule codes that differ only in case: each exact spelling finds its own', async () => {
    const { first, proctor } = await classWithProctor(api);
    const token = await staffLogin(api, proctor);
    const twin = swapped(first.scheduleCode);
    await api.db.insert(schedules).values({
      scheduleCode: twin,
      organizationId: first.organizationId,
      name: 'Twin',
      startsAt: new Date('2026-01-01T00:00:00Z'),
      endsAt: new Date('2027-01-01T00:00:00Z'),
    });
    const nameOf = async (code: string) => {
      const response = await api.call('GET', `/api/admin/schedules/${code}/roster`, { token });
      expect(response.status).toBe(200);
      return v.parse(RosterResponseSchema, response.body).schedule;
    };
    expect((await nameOf(first.scheduleCode)).code).toBe(first.scheduleCode);
    expect(await nameOf(twin)).toMatchObject({ code: twin, name: 'Twin' });
  });

  test("another organisation's schedule is still NOT_FOUND, in any case", async () => {
    const { proctor } = await classWithProctor(api);
    const token = await staffLogin(api, proctor);
    const elsewhere = await addSitting(api.db, { organization: {} });
    for (const code of [elsewhere.scheduleCode, swapped(elsewhere.scheduleCode)]) {
      const response = await api.call('GET', `/api/admin/schedules/${code}/roster`, { token });
      expect(response.status).toBe(404);
      expect(errorOf(response).code).toBe('NOT_FOUND');
    }
  });
});
