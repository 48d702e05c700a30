/**
 * What leaves the system for a test period (contract/exports.ts), for administrators only
 * (requireStaff then requireAdmin: a proctor is refused 403 FORBIDDEN):
 *
 * - GET /admin/schedules/:code/results.csv?venue=: the results CSV (server/exports/results-csv.ts),
 *   audited results_export;
 * - GET /admin/schedules/:code/slips.pdf?venue=: the login slips, printed by Chromium from the
 *   app's print route `/login-slips/<code>?token=&venue=` on PUBLIC_ORIGIN or this server's own
 *   loopback address (never the request's Host: a forged Host must not receive a token);
 *   audited slips_print, whose entry grants the print's short-lived slips token
 *   (server/exports/slips.ts);
 * - GET /admin/schedules/:code/slips?venue=: the slips' data, for the print route, with that
 *   slips token as its bearer token (a staff token is not one).
 *
 * The login address printed on the slips is PUBLIC_ORIGIN + /login-code; without PUBLIC_ORIGIN,
 * the address the renderer reaches this server at.
 */
import { Hono, type Context } from 'hono';
import { ScheduleCodeParamSchema } from '../../contract/admin.ts';
import { ExportQuerySchema, type LoginSlipsResponse } from '../../contract/exports.ts';
import { ownOrigin } from '../documents/routes.ts';
import { sharedRenderer, type DocumentRenderer } from '../documents/renderer.ts';
import { exportScope, auditExport } from '../exports/scope.ts';
import { resultsCsv, safeName } from '../exports/results-csv.ts';
import { assertSlipsToken, grantSlipsPrint, loginSlips, loginUrlOf } from '../exports/slips.ts';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { bearerToken, requireAdmin, requireStaff } from '../http/middleware.ts';
import { parseWith } from '../http/validate.ts';

export type ExportRouteOptions = {
  /** Default: the process's shared Chromium renderer. */
  renderer?: DocumentRenderer;
  /** Where Chromium opens the app and pupils log in (env PUBLIC_ORIGIN); default: this server on 127.0.0.1. */
  publicOrigin?: string;
};

export function exportRoutes(deps: AppDeps, options: ExportRouteOptions = {}): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const { db } = deps;
  const admin = [requireStaff(deps), requireAdmin()] as const;
  const publicOrigin = options.publicOrigin ?? deps.settings.security.publicOrigin ?? process.env.PUBLIC_ORIGIN;

  async function scopeOf(c: Context<AppEnv>) {
    const { code } = parseWith(ScheduleCodeParamSchema, { code: c.req.param('code') }, 'params');
    const query = parseWith(ExportQuerySchema, c.req.query(), 'query');
    return exportScope(db, code, query.venue === undefined ? undefined : { id: query.venue });
  }

  routes.get('/admin/schedules/:code/results.csv', ...admin, async (c) => {
    const scope = await scopeOf(c);
    const out = await db.transaction(async (tx) => {
      const made = await resultsCsv(tx, scope);
      await auditExport(tx, { at: c.get('now'), staffId: c.get('staff').staffId, action: 'results_export', scope, detail: { rows: made.rows } });
      return made;
    });
    return c.body(out.csv, 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${out.fileName}"`,
      'Cache-Control': 'no-store',
    });
  });

  routes.get('/admin/schedules/:code/slips.pdf', ...admin, async (c) => {
    const scope = await scopeOf(c);
    const now = c.get('now');
    const origin = ownOrigin(c, publicOrigin);
    const data = await loginSlips(db, scope, loginUrlOf(origin));
    const token = await grantSlipsPrint(db, { scope, staffId: c.get('staff').staffId, now, slips: data.slips.length });
    const search = new URLSearchParams({ token, ...(scope.venue ? { venue: String(scope.venue.id) } : {}) });
    const renderer = options.renderer ?? sharedRenderer(deps.logger);
    const body = await renderer.render({
      url: `${origin}/login-slips/${encodeURIComponent(scope.schedule.code)}?${search}`,
      landscape: false,
      browserLocale: 'en',
    });
    const place = scope.venue ? `-venue-${scope.venue.id}` : '';
    return c.body(body as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="login-slips-${safeName(scope.schedule.code)}${place}.pdf"`,
      'Cache-Control': 'no-store',
    });
  });

  routes.get('/admin/schedules/:code/slips', async (c) => {
    const now = c.get('now');
    const scope = await assertSlipsToken(db, bearerToken(c.get('headers').authorization), now, () => scopeOf(c));
    const data = await loginSlips(db, scope, loginUrlOf(ownOrigin(c, publicOrigin)));
    return c.json({ ...data, server_time: now.toISOString() } satisfies LoginSlipsResponse);
  });

  return routes;
}
