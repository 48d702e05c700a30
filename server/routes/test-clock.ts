/**
 * POST /test/clock, for end-to-end tests only: mounted only when the server runs with
 * GRADUS_CLOCK_CONTROL=1 (settings.clockControl; never by default) and a movable clock
 * (server/clock.ts); otherwise the path is an ordinary 404. `{ advance_ms }` moves the server's
 * clock forward, `{ set }` (ISO 8601) moves it to an instant; then the due jobs run at once
 * (scoring, statistics, release, expiry, auto-finish), so a test can "wait a week" and find
 * the results released. Answers the new time and what the jobs did.
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import { isMovableClock } from '../clock.ts';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { runDueJobs } from '../jobs/runner.ts';
import { moveClockWithHeartbeat } from '../domain/time-credit.ts';
import { parseWith, readJsonBody } from '../http/validate.ts';

const ClockRequestSchema = v.union([
  v.strictObject({ advance_ms: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10 * 365 * 86_400_000)) }),
  v.strictObject({ set: v.pipe(v.string(), v.isoTimestamp()) }),
]);

export function testClockRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const { clock } = deps;
  if (!deps.settings.clockControl || !isMovableClock(clock)) return routes;

  routes.post('/test/clock', async (c) => {
    const body = parseWith(ClockRequestSchema, await readJsonBody(c));
    // A deliberate jump of the clock is not a server outage: the heartbeat moves with it.
    await moveClockWithHeartbeat(deps.db, clock, () => {
      if ('advance_ms' in body) clock.advance(body.advance_ms);
      else clock.set(body.set);
    });
    const summary = await runDueJobs(deps.db, clock, { uploadWindowMs: deps.settings.uploadWindowMs, logger: deps.logger });
    if (summary.failed > 0) deps.logger.error(`test clock: ${summary.failed} job(s) failed`, summary.jobs);
    const now = clock.now();
    return c.json({ server_time: now.toISOString(), jobs_ran: summary.ran, jobs_failed: summary.failed }, 200);
  });
  return routes;
}
