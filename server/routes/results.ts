/**
 * A pupil's results: GET /get-short-result and GET /score-report/results, each for
 * ?schedule_history_id= of the caller's own sitting (server/domain/results.ts decides).
 */
import { Hono } from 'hono';
import { ResultQuerySchema, type ScoreReport, type ShortResult } from '../../contract/results.ts';
import { scoreReport, shortResult } from '../domain/results.ts';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { requireLogin } from '../http/middleware.ts';
import { parseWith } from '../http/validate.ts';

export function resultRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const { db } = deps;
  const login = requireLogin(deps);

  routes.get('/get-short-result', login, async (c) => {
    const now = c.get('now');
    const query = parseWith(ResultQuerySchema, c.req.query(), 'query');
    const response: ShortResult = {
      ...(await shortResult(db, c.get('principal'), query.schedule_history_id, now)),
      server_time: now.toISOString(),
    };
    return c.json(response, 200);
  });

  routes.get('/score-report/results', login, async (c) => {
    const now = c.get('now');
    const query = parseWith(ResultQuerySchema, c.req.query(), 'query');
    const response: ScoreReport = {
      ...(await scoreReport(db, c.get('principal'), query.schedule_history_id, now)),
      server_time: now.toISOString(),
    };
    return c.json(response, 200);
  });

  return routes;
}
