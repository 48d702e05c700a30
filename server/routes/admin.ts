/**
 * The staff (proctor) API under /admin (contract/admin.ts): login, logout, me; the schedules and
 * the live roster of the proctor's organisation; move to another terminal, retake, extend one
 * pupil or a schedule/room; the audit trail. Each handler parses with the contract's schema,
 * calls one domain function (server/domain/staff.ts, roster.ts, proctor.ts) and adds the
 * server's time. Every call but login needs a staff token (requireStaff); anything outside the
 * proctor's organisation is 404 NOT_FOUND.
 *
 * Live updates are polling, not server-sent events: SSE streams are buffered or cut by the
 * proxies many school networks put in front of the lab, and a stream would pin a proctor to one
 * API process, while with several processes on one PostgreSQL any of them can answer a poll. A
 * poll with `since` (the last answer's cursor) gets only what changed (server/domain/roster.ts).
 * Without it the roster comes in full with a strong ETag over its content (not server_time nor
 * the cursor), and a matching If-None-Match is answered 304 with no body. (Responses stay
 * no-store, as every API response: the page keeps the last roster itself.)
 */
import { Hono } from 'hono';
import {
  AuditQuerySchema,
  ExtendScheduleRequestSchema,
  ExtendSittingRequestSchema,
  RosterQuerySchema,
  ScheduleCodeParamSchema,
  SittingActionRequestSchema,
  SittingIdParamSchema,
  StaffLoginRequestSchema,
  type AuditResponse,
  type AdminSchedulesResponse,
  type ExtendScheduleResponse,
  type ExtendSittingRequest,
  type ExtendSittingResponse,
  type RosterAnswer,
  type RosterResponse,
  type SittingActionRequest,
  type SittingActionResponse,
  type StaffLoginResponse,
  type StaffMeResponse,
} from '../../contract/admin.ts';
import { extendSchedule, extendSitting, listAudit, moveTerminal, retakeSitting } from '../domain/proctor.ts';
import { getRoster, listSchedules, rosterEtag } from '../domain/roster.ts';
import { loginStaff, logoutStaff, staffView } from '../domain/staff.ts';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { requireStaff } from '../http/middleware.ts';
import { parseWith, readJsonBody } from '../http/validate.ts';

/** Whether an If-None-Match header names this ETag (a list of them, or `*`). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const trimmed = ifNoneMatch.trim();
  if (trimmed === '*') return true;
  // If-None-Match compares weakly (RFC 9110, 13.1.2): a W/ prefix does not matter.
  return trimmed.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}

export function adminRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const { db } = deps;
  const staff = requireStaff(deps);
  /** A proctor's action as the domain takes it (proctor.ts): when, why, and the key that makes a repeat harmless. */
  const actionOf = (now: Date, body: SittingActionRequest) => ({ now, reason: body.reason, idempotencyKey: body.idempotency_key });
  /** An extension: the action, its minutes, and the upload window that says when a sitting is over. */
  const extensionOf = (now: Date, body: ExtendSittingRequest) => ({
    ...actionOf(now, body),
    minutes: body.minutes,
    uploadWindowMs: deps.settings.uploadWindowMs,
  });

  routes.post('/admin/login', async (c) => {
    const now = c.get('now');
    const body = parseWith(StaffLoginRequestSchema, await readJsonBody(c));
    const result = await loginStaff(db, {
      orgCode: body.org_code,
      loginId: body.login_id,
      password: body.password,
      now,
      tokenTtlMs: deps.settings.tokenTtlMs,
    });
    const response: StaffLoginResponse = { access_token: result.accessToken, staff: result.staff, server_time: now.toISOString() };
    return c.json(response, 200);
  });

  routes.post('/admin/logout', staff, async (c) => {
    await logoutStaff(db, c.get('staff').tokenId, c.get('now'));
    return c.body(null, 204);
  });

  routes.get('/admin/me', staff, (c) => {
    const response: StaffMeResponse = { staff: staffView(c.get('staff')), server_time: c.get('now').toISOString() };
    return c.json(response, 200);
  });

  routes.get('/admin/schedules', staff, async (c) => {
    const now = c.get('now');
    const response: AdminSchedulesResponse = { schedules: await listSchedules(db, c.get('staff'), now), server_time: now.toISOString() };
    return c.json(response, 200);
  });

  routes.get('/admin/schedules/:code/roster', staff, async (c) => {
    const now = c.get('now');
    const { code } = parseWith(ScheduleCodeParamSchema, c.req.param(), 'path');
    const query = parseWith(RosterQuerySchema, c.req.query(), 'query');
    const input = { code, venueId: query.venue_id, now, uploadWindowMs: deps.settings.uploadWindowMs };
    if (query.since !== undefined) {
      const changes = await getRoster(db, c.get('staff'), { ...input, since: query.since });
      return c.json({ ...changes, server_time: now.toISOString() } satisfies RosterAnswer, 200);
    }
    const roster = await getRoster(db, c.get('staff'), input);
    const etag = rosterEtag(roster);
    c.header('ETag', etag);
    if (matchesEtag(c.req.header('if-none-match'), etag)) return c.body(null, 304);
    const response: RosterResponse = { ...roster, server_time: now.toISOString() };
    return c.json(response, 200);
  });

  // Move to another terminal, and retake: the same request (a reason) and answer (the pupil's row).
  for (const [path, act] of [
    ['/admin/sittings/:id/move-terminal', moveTerminal],
    ['/admin/sittings/:id/retake', retakeSitting],
  ] as const) {
    routes.post(path, staff, async (c) => {
      const now = c.get('now');
      const { id } = parseWith(SittingIdParamSchema, c.req.param(), 'path');
      const body = parseWith(SittingActionRequestSchema, await readJsonBody(c));
      const pupil = await act(db, c.get('staff'), id, actionOf(now, body));
      const response: SittingActionResponse = { pupil, server_time: now.toISOString() };
      return c.json(response, 200);
    });
  }

  routes.post('/admin/sittings/:id/extend', staff, async (c) => {
    const now = c.get('now');
    const { id } = parseWith(SittingIdParamSchema, c.req.param(), 'path');
    const body = parseWith(ExtendSittingRequestSchema, await readJsonBody(c));
    const result = await extendSitting(db, c.get('staff'), id, extensionOf(now, body));
    const response: ExtendSittingResponse = {
      pupil: result.pupil,
      deadline_at: result.deadlineAt.toISOString(),
      server_time: now.toISOString(),
    };
    return c.json(response, 200);
  });

  routes.post('/admin/schedules/:code/extend', staff, async (c) => {
    const now = c.get('now');
    const { code } = parseWith(ScheduleCodeParamSchema, c.req.param(), 'path');
    const body = parseWith(ExtendScheduleRequestSchema, await readJsonBody(c));
    const extended = await extendSchedule(db, c.get('staff'), code, { ...extensionOf(now, body), venueId: body.venue_id });
    const response: ExtendScheduleResponse = { extended, server_time: now.toISOString() };
    return c.json(response, 200);
  });

  routes.get('/admin/audit', staff, async (c) => {
    const now = c.get('now');
    const query = parseWith(AuditQuerySchema, c.req.query(), 'query');
    const response: AuditResponse = { entries: await listAudit(db, c.get('staff'), query.schedule), server_time: now.toISOString() };
    return c.json(response, 200);
  });

  return routes;
}
