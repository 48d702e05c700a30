/**
 * Administrators manage the deployment's staff (contract/admin.ts, section "Staff"):
 * GET /admin/staff, POST /admin/staff, PATCH /admin/staff/:id and GET /admin/audit/deployment.
 * Every route needs a staff token of an administrator (requireStaff, then requireAdmin: a proctor
 * is 403 FORBIDDEN); each parses with the contract's schema and calls server/domain/staff-admin.ts,
 * which writes the audit entry in the same transaction as the change.
 */
import { Hono } from 'hono';
import {
  CreateStaffRequestSchema,
  StaffIdParamSchema,
  UpdateStaffRequestSchema,
  type DeploymentAuditResponse,
  type StaffListResponse,
  type StaffMemberResponse,
} from '../../contract/admin.ts';
import { createStaff, listDeploymentAudit, listStaff, updateStaff, type StaffActor } from '../domain/staff-admin.ts';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { requireAdmin, requireStaff } from '../http/middleware.ts';
import { parseWith, readJsonBody } from '../http/validate.ts';

/** Changes made in the console carry no typed reason; the audit entry's staff_id says who. */
const CONSOLE_REASON = 'console';

export function staffRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const { db } = deps;
  const admin = [requireStaff(deps), requireAdmin()] as const;
  const actorOf = (staffId: number): StaffActor => ({ staffId, reason: CONSOLE_REASON });

  routes.get('/admin/staff', ...admin, async (c) => {
    const response: StaffListResponse = { staff: await listStaff(db), server_time: c.get('now').toISOString() };
    return c.json(response, 200);
  });

  routes.post('/admin/staff', ...admin, async (c) => {
    const now = c.get('now');
    const body = parseWith(CreateStaffRequestSchema, await readJsonBody(c));
    const member = await createStaff(
      db,
      actorOf(c.get('staff').staffId),
      { loginId: body.login_id, name: body.name, role: body.role, orgCode: body.org_code ?? null, password: body.password },
      now,
    );
    const response: StaffMemberResponse = { staff: member, server_time: now.toISOString() };
    return c.json(response, 201);
  });

  routes.patch('/admin/staff/:id', ...admin, async (c) => {
    const now = c.get('now');
    const { id } = parseWith(StaffIdParamSchema, c.req.param(), 'path');
    const body = parseWith(UpdateStaffRequestSchema, await readJsonBody(c));
    const member = await updateStaff(
      db,
      actorOf(c.get('staff').staffId),
      id,
      { name: body.name, role: body.role, orgCode: body.org_code, disabled: body.disabled, password: body.password },
      now,
    );
    const response: StaffMemberResponse = { staff: member, server_time: now.toISOString() };
    return c.json(response, 200);
  });

  routes.get('/admin/audit/deployment', ...admin, async (c) => {
    const response: DeploymentAuditResponse = { entries: await listDeploymentAudit(db), server_time: c.get('now').toISOString() };
    return c.json(response, 200);
  });

  return routes;
}
