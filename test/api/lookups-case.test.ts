/**
 * A school's or schedule's code is the same code in capitals or in small letters
 * (server/domain/lookups.ts): a login page's URL typed by hand, or a link that lower-cased it
 * (`/login?org_code=gradus-demo`), finds the school its sheet prints as GRADUS-DEMO, and a code
 * stored in small letters is found from capitals, never answered "venue, organization or
 * schedule URL invalid".
 * The answer always names the code as stored, so the login that follows sends that one. Where two
 * codes differ only in case, each exact spelling still finds its own (any other, the older).
 */
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { AppScheduleSchema, LoginResponseSchema, OrganizationSchema, ScheduleSchema } from '../../contract/session.ts';
import { organizations } from '../../server/db/schema.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, useApi } from '../helpers/server-api.ts';
import { addSitting } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
const PASSWORD = 'correct horse 42';

/** Swaps the case of every letter: `Test-ab12` -> `tEST-AB12`. */
const swapped = (code: string) => [...code].map((ch) => (ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase())).join('');

describe.each(kinds)('codes in either case on %s', (kind) => {
  const api = useApi(kind);

  test('GET /api/organization: a code in small letters finds the school stored in capitals, named as stored', async () => {
    const response = await api.call('GET', '/api/organization?code=gradus-steps');
    expect(response.status).toBe(200);
    expect(v.parse(OrganizationSchema, response.body)).toMatchObject({ code: 'GRADUS-STEPS', name: 'Gradus Step Club' });
    expect((await api.call('GET', '/api/organization?code=Gradus-Steps')).status).toBe(200);
  });

  test('GET /api/organization: a code stored in small letters is found from capitals', async () => {
    const code = `lower-school-${kind}`;
    await api.db.insert(organizations).values({ code, name: 'Lower-case school', category: 'SCHOOL', loginMethod: 1, enableModeStep: false });
    const response = await api.call('GET', `/api/organization?code=${code.toUpperCase()}`);
    expect(response.status).toBe(200);
    expect(v.parse(OrganizationSchema, response.body).code).toBe(code);
  });

  test('two codes that differ only in case: each exact spelling finds its own school', async () => {
    const upper = `TWIN-${kind.toUpperCase()}`;
    const mixed = `Twin-${kind}`;
    for (const [code, name] of [
      [upper, 'Upper twin'],
      [mixed, 'Mixed twin'],
    ] as const) {
      await api.db.insert(organizations).values({ code, name, category: 'SCHOOL', loginMethod: 1, enableModeStep: false });
    }
    expect(v.parse(OrganizationSchema, (await api.call('GET', `/api/organization?code=${upper}`)).body).name).toBe('Upper twin');
    expect(v.parse(OrganizationSchema, (await api.call('GET', `/api/organization?code=${mixed}`)).body).name).toBe('Mixed twin');
    // Neither spelling exactly: the older of the two.
    expect(v.parse(OrganizationSchema, (await api.call('GET', `/api/organization?code=${mixed.toLowerCase()}`)).body).name).toBe('Upper twin');
  });

  test('GET /api/schedule: the schedule code and the page\'s org_code in small letters, named as stored', async () => {
    const pupil = await addSitting(api.db, { venue: {} });
    const lower = `/api/schedule?schedule_code=${pupil.scheduleCode.toLowerCase()}&login_type=1&org_code=gradus-demo&venue_id=${pupil.venueId}`;
    const response = await api.call('GET', lower);
    expect(response.status).toBe(200);
    expect(v.parse(ScheduleSchema, response.body)).toMatchObject({
      schedule_code: pupil.scheduleCode,
      organization: { code: 'GRADUS-DEMO' },
      venue: { id: pupil.venueId },
    });
    // The school still has to be the schedule's, in any case.
    const elsewhere = await api.call('GET', `/api/schedule?schedule_code=${pupil.scheduleCode}&login_type=1&org_code=gradus-steps`);
    expect(elsewhere.status).toBe(404);
    expect(errorOf(elsewhere).code).toBe('INVALID_SCHEDULE');
  });

  test('GET /api/app-schedule: organization_code in small letters, named as stored', async () => {
    const response = await api.call('GET', '/api/app-schedule?organization_code=gradus-demo');
    expect(response.status).toBe(200);
    expect(v.parse(AppScheduleSchema, response.body).org_code).toBe('GRADUS-DEMO');
  });

  test("POST /api/login (login ID) on a school's or schedule's page named in the other case: the pupil's exam", async () => {
    const onSchool = await addSitting(api.db, { password: PASSWORD });
    const school = await api.call('POST', '/api/login', {
      body: { login_type: 1, login_id: onSchool.loginId, password: PASSWORD, org_code: swapped(onSchool.orgCode) },
    });
    expect(school.status).toBe(200);
    expect(v.parse(LoginResponseSchema, school.body).examinee).toMatchObject({ org_code: 'GRADUS-DEMO', schedule_history_id: onSchool.scheduleHistoryId });

    const onSchedule = await addSitting(api.db, { password: PASSWORD, venue: {} });
    const schedule = await api.call('POST', '/api/login', {
      body: {
        login_type: 1,
        login_id: onSchedule.loginId,
        password: PASSWORD,
        org_code: swapped(onSchedule.orgCode),
        schedule_code: swapped(onSchedule.scheduleCode),
        venue_id: onSchedule.venueId,
      },
    });
    expect(schedule.status).toBe(200);
    expect(v.parse(LoginResponseSchema, schedule.body).examinee.schedule_history_id).toBe(onSchedule.scheduleHistoryId);
  });

  test('an unknown code is still INVALID_SCHEDULE, in any case', async () => {
    for (const code of ['no-such-school', 'NO-SUCH-SCHOOL']) {
      const response = await api.call('GET', `/api/organization?code=${code}`);
      expect(response.status).toBe(404);
      expect(errorOf(response).code).toBe('INVALID_SCHEDULE');
    }
  });
});
