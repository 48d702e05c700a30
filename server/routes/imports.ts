/**
 * Schools, classrooms, test periods and pupils from roster files, and the lists that show them
 * (contract/imports.ts):
 *   GET  /admin/schools                      schools with classrooms and test periods
 *   POST /admin/imports/:kind[?apply=1]      the raw CSV as the body: a dry run, or applied
 *   GET  /admin/pupils?school=&q=&venue=     pupils with their login codes
 *   POST /admin/pupils/:id/reissue-code      a new login code; the old one stops working
 * Imports and re-issues are an administrator's (requireAdmin: 403 FORBIDDEN to a proctor); the
 * two lists also answer a proctor, with their own organisation only.
 *
 * A roster file is a request body far larger than an API call's: the app's body limit leaves
 * /admin/imports/ to its routes, and this one caps its body at MAX_ROSTER_FILE_BYTES itself,
 * answering a larger file with a plan that refuses it ('too_large') before reading it.
 */
import { Hono, type Context } from 'hono';
import {
  ImportKindParamSchema,
  ImportQuerySchema,
  MAX_ROSTER_FILE_BYTES,
  PupilIdParamSchema,
  PupilsQuerySchema,
  type ImportKind,
  type PupilsResponse,
  type ReissueCodeResponse,
  type SchoolsResponse,
} from '../../contract/imports.ts';
import { DomainError } from '../domain/errors.ts';
import type { StaffPrincipal } from '../domain/staff.ts';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { limitBody, requireAdmin, requireStaff } from '../http/middleware.ts';
import { parseWith } from '../http/validate.ts';
import { listPupils, listSchools } from '../imports/lists.ts';
import { reissueLoginCode } from '../imports/login-codes.ts';
import { planResponse } from '../imports/plan.ts';
import { importRoster } from '../imports/roster.ts';

/** Whether a request is a roster import, whose body this route caps rather than the app's body limit. */
export function isRosterImportPath(path: string): boolean {
  return /^\/api\/admin\/imports\/(?:schools|venues|schedules|pupils)$/.test(path);
}

/** The organisation a staff member is limited to: null for an administrator (every one). */
function scopeOf(staff: StaffPrincipal): number | null {
  return staff.role === 'admin' ? null : staff.organizationId;
}

export function importRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const { db } = deps;
  const staff = requireStaff(deps);
  const admin = requireAdmin();

  routes.get('/admin/schools', staff, async (c) => {
    const now = c.get('now');
    const response: SchoolsResponse = { schools: await listSchools(db, scopeOf(c.get('staff'))), server_time: now.toISOString() };
    return c.json(response, 200);
  });

  const tooLarge = (c: Context<AppEnv>) => {
    const { kind } = parseWith(ImportKindParamSchema, c.req.param(), 'path');
    const refusal = { row: null, key: '', outcome: 'refuse' as const, problems: [{ column: null, reason: 'too_large' as const }] };
    return c.json(planResponse({ kind, applied: false, rows: [refusal] }, c.get('now')), 200);
  };

  routes.post(
    '/admin/imports/:kind{schools|venues|schedules|pupils}',
    staff,
    admin,
    limitBody({ maxSize: MAX_ROSTER_FILE_BYTES, onError: tooLarge }),
    async (c) => {
      const now = c.get('now');
      const { kind } = parseWith(ImportKindParamSchema, c.req.param(), 'path');
      const { apply } = parseWith(ImportQuerySchema, c.req.query(), 'query');
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      const result = await importRoster(db, kind satisfies ImportKind, bytes, { apply: apply === '1', now, staffId: c.get('staff').staffId, reason: 'console' });
      return c.json(planResponse(result, now), 200);
    },
  );

  routes.get('/admin/pupils', staff, async (c) => {
    const now = c.get('now');
    const query = parseWith(PupilsQuerySchema, c.req.query(), 'query');
    const pupils = await listPupils(db, { organizationId: scopeOf(c.get('staff')), school: query.school, q: query.q, venue: query.venue });
    const response: PupilsResponse = { pupils, server_time: now.toISOString() };
    return c.json(response, 200);
  });

  routes.post('/admin/pupils/:id/reissue-code', staff, admin, async (c) => {
    const now = c.get('now');
    const { id } = parseWith(PupilIdParamSchema, c.req.param(), 'path');
    const result = await reissueLoginCode(db, id, { now, staffId: c.get('staff').staffId, reason: 'console' });
    if (!result.ok) throw new DomainError('NOT_FOUND', 'No such pupil.');
    const response: ReissueCodeResponse = { login_code: result.loginCode, server_time: now.toISOString() };
    return c.json(response, 200);
  });

  return routes;
}
