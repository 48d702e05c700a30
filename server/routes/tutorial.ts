/**
 * GET /tutorial-setting?schedule_history_id= (seed section 7): the tutorial of the logged-in
 * pupil's sitting, with its practice questions (server/domain/tutorial.ts). The pupil's bearer
 * token is required; the query is parsed with the contract's schema (422 VALIDATION_ERROR);
 * another pupil's sitting is 404 NOT_FOUND; a closed one is refused with Start's code.
 */
import { Hono } from 'hono';
import { TutorialSettingQuerySchema, type TutorialSetting } from '../../contract/tutorial.ts';
import { getTutorialSetting } from '../domain/tutorial.ts';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { requireLogin } from '../http/middleware.ts';
import { parseWith } from '../http/validate.ts';

export function tutorialRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.get('/tutorial-setting', requireLogin(deps), async (c) => {
    const query = parseWith(TutorialSettingQuerySchema, c.req.query(), 'query');
    const setting = await getTutorialSetting(deps.db, c.get('principal'), query.schedule_history_id);
    const body: TutorialSetting = { ...setting, server_time: c.get('now').toISOString() };
    return c.json(body, 200);
  });

  return routes;
}
