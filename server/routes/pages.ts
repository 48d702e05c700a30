/**
 * What pages ask before anyone logs in: GET /organization, GET /schedule, GET /app-schedule
 * (unknown codes: 404 INVALID_SCHEDULE) and GET /client-config (settings from the server's
 * environment that the browser needs).
 */
import { Hono } from 'hono';
import {
  AppScheduleQuerySchema,
  OrganizationQuerySchema,
  ScheduleQuerySchema,
  type ClientConfig,
} from '../../contract/session.ts';
import { findAppSchedule, findOrganization, findSchedule } from '../domain/lookups.ts';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { parseWith } from '../http/validate.ts';

export function pageRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const { db } = deps;

  routes.get('/organization', async (c) => {
    const query = parseWith(OrganizationQuerySchema, c.req.query(), 'query');
    return c.json({ ...(await findOrganization(db, query.code)), server_time: c.get('now').toISOString() }, 200);
  });

  routes.get('/schedule', async (c) => {
    const query = parseWith(ScheduleQuerySchema, c.req.query(), 'query');
    const schedule = await findSchedule(db, { scheduleCode: query.schedule_code, orgCode: query.org_code, venueId: query.venue_id });
    return c.json({ ...schedule, server_time: c.get('now').toISOString() }, 200);
  });

  routes.get('/app-schedule', async (c) => {
    const now = c.get('now');
    const query = parseWith(AppScheduleQuerySchema, c.req.query(), 'query');
    return c.json({ ...(await findAppSchedule(db, query.organization_code, now)), server_time: now.toISOString() }, 200);
  });

  routes.get('/client-config', (c) => {
    const config = deps.settings.clientConfig;
    const response: ClientConfig = {
      partner_logout_urls: config.partnerLogoutUrls,
      embed_target_origin: config.embedTargetOrigin,
      oidc_enabled: config.oidcEnabled || deps.settings.oidc !== undefined,
      server_time: c.get('now').toISOString(),
    };
    return c.json(response, 200);
  });

  return routes;
}
