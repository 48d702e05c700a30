/**
 * What pages ask before login: GET /api/organization, /api/schedule and /api/app-schedule (an
 * unknown code is 404 INVALID_SCHEDULE), GET /api/client-config (from the server's settings),
 * and maintenance: every call but /api/health and /api/client-config is 401 DURING_MAINTENANCE,
 * by a maintenance window in the database or the whole-service switch (env MAINTENANCE=1).
 */
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { AppScheduleSchema, ClientConfigSchema, OrganizationSchema, ScheduleSchema } from '../../contract/session.ts';
import { maintenanceWindows } from '../../server/db/schema.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, TEST_START, useApi } from '../helpers/server-api.ts';
import { addSitting } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();

describe.each(kinds)('login pages on %s', (kind) => {
  const api = useApi(kind);

  test('GET /api/organization?code= describes the school', async () => {
    const response = await api.call('GET', '/api/organization?code=GRADUS-STEPS');
    expect(response.status).toBe(200);
    expect(v.parse(OrganizationSchema, response.body)).toEqual({
      code: 'GRADUS-STEPS',
      name: 'Gradus Step Club',
      category: 'OUTSIDE_SCHOOL',
      login_method: 3,
      enable_mode_step: true,
      server_time: TEST_START,
    });
  });

  test('GET /api/schedule: by code; with login type 1 also checked against org_code and venue_id', async () => {
    const pupil = await addSitting(api.db, { venue: {} });
    const base = `/api/schedule?schedule_code=${pupil.scheduleCode}`;
    const ok = await api.call('GET', `${base}&login_type=1&org_code=GRADUS-DEMO&venue_id=${pupil.venueId}`);
    expect(ok.status).toBe(200);
    expect(v.parse(ScheduleSchema, ok.body)).toMatchObject({
      schedule_code: pupil.scheduleCode,
      name: pupil.scheduleCode,
      organization: { code: 'GRADUS-DEMO', name: 'Gradus Demo Primary School' },
      venue: { id: pupil.venueId, name: expect.stringMatching(/^Room /) },
      starts_at: '2026-01-01T00:00:00.000Z',
    });
    expect((await api.call('GET', `${base}&login_type=0`)).status).toBe(200);
    const demo = v.parse(ScheduleSchema, (await api.call('GET', '/api/schedule?schedule_code=DEMO-2026&login_type=0')).body);
    expect(demo.venue).toMatchObject({ name: 'Computer Lab 1' });
  });

  test('GET /api/app-schedule: the organisation and its open schedule', async () => {
    const response = await api.call('GET', '/api/app-schedule?organization_code=GRADUS-HOME');
    expect(response.status).toBe(200);
    expect(v.parse(AppScheduleSchema, response.body)).toEqual({
      org_code: 'GRADUS-HOME',
      organization_name: 'Gradus Home Learners',
      schedule_code: 'HOME-2026',
      server_time: TEST_START,
    });
    api.clock.set('2040-01-01T00:00:00Z');
    expect(v.parse(AppScheduleSchema, (await api.call('GET', '/api/app-schedule?organization_code=GRADUS-HOME')).body).schedule_code).toBeNull();
  });

  test.each([
    '/api/organization?code=NO-SUCH-SCHOOL',
    '/api/schedule?schedule_code=NO-SUCH-SCHEDULE&login_type=0',
    '/api/schedule?schedule_code=DEMO-2026&login_type=1&org_code=GRADUS-HOME',
    '/api/schedule?schedule_code=DEMO-2026&login_type=1&venue_id=999999',
    '/api/app-schedule?organization_code=NO-SUCH-SCHOOL',
  ])('GET %s is 404 INVALID_SCHEDULE', async (path) => {
    const response = await api.call('GET', path);
    expect(response.status).toBe(404);
    expect(errorOf(response)).toMatchObject({ code: 'INVALID_SCHEDULE', message: 'Venue, organization or schedule URL invalid.' });
  });

  test('GET /api/client-config without configuration: no partner URLs, not embedded, no OIDC', async () => {
    const response = await api.call('GET', '/api/client-config');
    expect(response.status).toBe(200);
    expect(v.parse(ClientConfigSchema, response.body)).toEqual({
      partner_logout_urls: {},
      embed_target_origin: null,
      oidc_enabled: false,
      server_time: TEST_START,
    });
  });
});

describe.each(kinds)('client configuration on %s', (kind) => {
  const api = useApi(kind, {
    clientConfig: {
      partnerLogoutUrls: { '3': 'https://mumbai.example.org/logout', '7': 'https://egypt.example.org/' },
      embedTargetOrigin: 'https://parent.example.org',
      oidcEnabled: true,
    },
  });

  test('GET /api/client-config tells the browser what the server was configured with', async () => {
    const body = v.parse(ClientConfigSchema, (await api.call('GET', '/api/client-config')).body);
    expect(body).toEqual({
      partner_logout_urls: { '3': 'https://mumbai.example.org/logout', '7': 'https://egypt.example.org/' },
      embed_target_origin: 'https://parent.example.org',
      oidc_enabled: true,
      server_time: TEST_START,
    });
  });
});

describe.each(kinds)('maintenance windows on %s', (kind) => {
  const api = useApi(kind, { maintenanceRefreshMs: 0 });

  test('during a window every API call is 401 DURING_MAINTENANCE; health and client config stay; after it, all works', async () => {
    const pupil = await addSitting(api.db);
    const { token, scheduleHistoryId } = await api.loginAs(pupil.loginCode);
    await api.db.insert(maintenanceWindows).values({
      startsAt: new Date('2026-06-01T10:00:00Z'),
      endsAt: new Date('2026-06-01T11:00:00Z'),
      note: 'upgrade',
    });
    const calls = [
      ['POST', '/api/login', { body: { login_type: 0, login_code: pupil.loginCode } }, 200],
      ['GET', `/api/exam-details?schedule_history_id=${scheduleHistoryId}`, { token }, 200],
      ['GET', '/api/exams', { token }, 200],
      ['GET', '/api/me', { token }, 200],
      ['GET', '/api/organization?code=GRADUS-DEMO', {}, 200],
      ['POST', '/api/login-examinee', { body: {} }, 422],
    ] as const;

    api.clock.set('2026-06-01T09:59:59.999Z');
    for (const [method, path, options, status] of calls) expect((await api.call(method, path, options)).status, path).toBe(status);
    api.clock.set('2026-06-01T10:00:00Z');
    for (const [method, path, options] of calls) {
      const response = await api.call(method, path, options);
      expect(response.status, path).toBe(401);
      expect(errorOf(response).code).toBe('DURING_MAINTENANCE');
    }
    expect((await api.call('GET', '/api/health')).status).toBe(200);
    expect((await api.call('GET', '/api/client-config')).status).toBe(200);

    api.clock.set('2026-06-01T11:00:00Z');
    expect((await api.call('GET', `/api/exam-details?schedule_history_id=${scheduleHistoryId}`, { token })).status).toBe(200);
  });
});

describe.each(kinds)('the whole-service maintenance switch on %s', (kind) => {
  const api = useApi(kind, { maintenance: true });

  test('MAINTENANCE=1: every API call but health and client config is 401 DURING_MAINTENANCE', async () => {
    for (const path of ['/api/exams', '/api/organization?code=GRADUS-DEMO', '/api/no-such-route']) {
      const response = await api.call('GET', path);
      expect(response.status, path).toBe(401);
      expect(errorOf(response)).toMatchObject({ code: 'DURING_MAINTENANCE', message: 'Outside test hours.' });
    }
    expect((await api.call('GET', '/api/health')).status).toBe(200);
    expect((await api.call('GET', '/api/client-config')).status).toBe(200);
  });
});
