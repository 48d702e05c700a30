/**
 * The login page's lookups (server/domain/lookups.ts), stated where test/api/pages.test.ts leaves
 * them open: which schedule GET /api/app-schedule names when an organisation has several (the
 * open one ending soonest, its own, open from its first instant to its last), what a schedule
 * shows as its name (its name, else its code) and a schedule without a classroom (venue null),
 * and that the organisation's login method and step mode come from its row.
 */
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { AppScheduleSchema, OrganizationSchema, ScheduleSchema } from '../../contract/session.ts';
import type { Db } from '../../server/db/client.ts';
import { organizations, schedules } from '../../server/db/schema.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, TEST_START, useApi } from '../helpers/server-api.ts';

const kinds = await testDatabaseKinds();

let serial = 0;
/** A new organisation of its own (nothing else of the seed's is open in it). */
async function addOrganization(db: Db, values: { loginMethod?: number; enableModeStep?: boolean } = {}) {
  const code = `LOOKUP-${process.pid}-${++serial}-${Date.now()}`;
  const [row] = await db
    .insert(organizations)
    .values({ code, name: `Lookup school ${serial}`, category: 'SCHOOL', loginMethod: values.loginMethod ?? 1, enableModeStep: values.enableModeStep ?? false })
    .returning({ id: organizations.id, code: organizations.code, name: organizations.name });
  return row!;
}

async function addSchedule(db: Db, organizationId: number, window: { startsAt: string; endsAt: string; name?: string }) {
  const scheduleCode = `S-${process.pid}-${++serial}-${Date.now()}`;
  await db.insert(schedules).values({
    scheduleCode,
    organizationId,
    name: window.name ?? '',
    startsAt: new Date(window.startsAt),
    endsAt: new Date(window.endsAt),
  });
  return scheduleCode;
}

describe.each(kinds)('login page lookups on %s', (kind) => {
  const api = useApi(kind);

  async function appSchedule(code: string) {
    const response = await api.call('GET', `/api/app-schedule?organization_code=${code}`);
    expect(response.status).toBe(200);
    return v.parse(AppScheduleSchema, response.body);
  }

  test('app-schedule: of the open schedules, the one ending soonest; closed, future and other schools\' schedules do not count', async () => {
    const school = await addOrganization(api.db);
    const other = await addOrganization(api.db);
    await addSchedule(api.db, school.id, { startsAt: '2026-01-01T00:00:00Z', endsAt: '2026-05-31T23:59:59Z' });
    await addSchedule(api.db, school.id, { startsAt: '2026-06-01T09:00:01Z', endsAt: '2026-06-01T09:30:00Z' });
    await addSchedule(api.db, other.id, { startsAt: '2026-06-01T08:00:00Z', endsAt: '2026-06-01T09:10:00Z' });
    const later = await addSchedule(api.db, school.id, { startsAt: '2026-06-01T08:00:00Z', endsAt: '2026-06-01T12:00:00Z' });
    const sooner = await addSchedule(api.db, school.id, { startsAt: '2026-06-01T08:00:00Z', endsAt: '2026-06-01T10:00:00Z' });
    await addSchedule(api.db, school.id, { startsAt: '2026-06-01T07:00:00Z', endsAt: '2026-06-01T11:00:00Z' });

    expect(await appSchedule(school.code)).toEqual({
      org_code: school.code,
      organization_name: school.name,
      schedule_code: sooner,
      server_time: TEST_START,
    });
    api.clock.set('2026-06-01T10:00:00.001Z');
    expect((await appSchedule(school.code)).schedule_code).not.toBe(sooner);
    api.clock.set('2026-06-01T11:00:00.001Z');
    expect((await appSchedule(school.code)).schedule_code).toBe(later);
  });

  test('app-schedule: a schedule is open from its first instant to its last', async () => {
    const school = await addOrganization(api.db);
    const code = await addSchedule(api.db, school.id, { startsAt: '2026-06-01T09:00:00Z', endsAt: '2026-06-01T10:00:00Z' });
    expect((await appSchedule(school.code)).schedule_code).toBe(code);
    api.clock.set('2026-06-01T10:00:00Z');
    expect((await appSchedule(school.code)).schedule_code).toBe(code);
    api.clock.set('2026-06-01T08:59:59.999Z');
    expect((await appSchedule(school.code)).schedule_code).toBeNull();
  });

  test('app-schedule: two open schedules ending at once: the first made', async () => {
    const school = await addOrganization(api.db);
    const first = await addSchedule(api.db, school.id, { startsAt: '2026-06-01T08:00:00Z', endsAt: '2026-06-01T10:00:00Z' });
    await addSchedule(api.db, school.id, { startsAt: '2026-06-01T07:00:00Z', endsAt: '2026-06-01T10:00:00Z' });
    expect((await appSchedule(school.code)).schedule_code).toBe(first);
  });

  test('schedule: a named schedule shows its name, one without a classroom has venue null', async () => {
    const school = await addOrganization(api.db);
    const code = await addSchedule(api.db, school.id, { startsAt: '2026-01-01T00:00:00Z', endsAt: '2026-12-31T00:00:00Z', name: 'Spring test' });
    const response = await api.call('GET', `/api/schedule?schedule_code=${code}&login_type=1&org_code=${school.code}`);
    expect(response.status).toBe(200);
    expect(v.parse(ScheduleSchema, response.body)).toEqual({
      schedule_code: code,
      name: 'Spring test',
      organization: { code: school.code, name: school.name },
      venue: null,
      starts_at: '2026-01-01T00:00:00.000Z',
      ends_at: '2026-12-31T00:00:00.000Z',
      server_time: TEST_START,
    });
    const elsewhere = await api.call('GET', `/api/schedule?schedule_code=${code}&login_type=1&org_code=GRADUS-DEMO`);
    expect(elsewhere.status).toBe(404);
    expect(errorOf(elsewhere).code).toBe('INVALID_SCHEDULE');
  });

  test.each([
    [1, false],
    [2, true],
  ])('organization: login method %i and step mode %s come from its row', async (loginMethod, enableModeStep) => {
    const school = await addOrganization(api.db, { loginMethod, enableModeStep });
    const response = await api.call('GET', `/api/organization?code=${school.code}`);
    expect(response.status).toBe(200);
    expect(v.parse(OrganizationSchema, response.body)).toEqual({
      code: school.code,
      name: school.name,
      category: 'SCHOOL',
      login_method: loginMethod,
      enable_mode_step: enableModeStep,
      server_time: TEST_START,
    });
  });
});
