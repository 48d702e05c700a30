/**
 * Where operators read the metrics (server/observability/metrics.ts), never in public:
 * - GET /api/metrics with a staff bearer token (POST /api/admin/login; any proctor), for a look
 *   by hand: `curl -H "Authorization: Bearer <staff token>" .../api/metrics`. Without one: 401
 *   NOT_LOGGED_IN, like every staff call. (A pupil's token is not a staff token.)
 * - METRICS_PORT: GET /metrics with no token on 127.0.0.1:<port> only, for a Prometheus on the
 *   same host (or a sidecar/agent that forwards it); the port is never bound to another address.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { requireStaff } from '../http/middleware.ts';
import type { Metrics } from './metrics.ts';

export function metricsRoutes(deps: AppDeps, metrics: Metrics): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get('/metrics', requireStaff(deps), async (c) => {
    const { contentType, body } = await metrics.render();
    return c.body(body, 200, { 'Content-Type': contentType });
  });
  return routes;
}

export type MetricsServer = { port: number; close(): Promise<void> };

/** GET /metrics on 127.0.0.1:<port> (0: a free port), no token: reachable only from this host. */
export async function startMetricsServer(metrics: Metrics, port: number): Promise<MetricsServer> {
  const app = new Hono();
  app.get('/metrics', async (c) => {
    const { contentType, body } = await metrics.render();
    return c.body(body, 200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
  });
  app.notFound((c) => c.text('Not found: GET /metrics', 404));
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () => resolve(s));
    s.once('error', reject);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}
