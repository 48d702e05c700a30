/**
 * A pupil's results: GET /get-short-result and GET /score-report/results, each for
 * ?schedule_history_id= of the caller's own sitting (server/domain/results.ts decides).
 */
import { Hono } from 'hono';
import { ResultQuerySchema } from '../../contract/results.ts';
import { scoreReport, shortResult } from '../domain/results.ts';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { requireLogin } from '../http/middleware.ts';
import { sittingRead } from '../http/sitting-read.ts';

export function resultRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const { db } = deps;
  const login = requireLogin(deps);

  routes.get('/get-short-result', login, sittingRead(ResultQuerySchema, (principal, id, now, wanted) => shortResult(db, principal, id, now, wanted)));

  routes.get('/score-report/results', login, sittingRead(ResultQuerySchema, (principal, id, now, wanted) => scoreReport(db, principal, id, now, wanted)));

  return routes;
}
