/**
 * GET /health: used by the client's connectivity check (seed section 7). Answers only when the
 * database does, so a load balancer can take a broken process out.
 */
import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../http/env.ts';

export function healthRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.get('/health', async (c) => {
    await deps.db.execute(sql`select 1`);
    return c.json({ ok: true as const, server_time: c.get('now').toISOString() }, 200);
  });

  return routes;
}
