/**
 * The logged-in examinee's own session: GET /me (who the token belongs to), GET /exams (the
 * exam list, with step-mode locks), POST /save-examinee-info (basic information, once) and
 * GET /get-status-choose-page (the testing menu).
 */
import { callerLanguages } from '../domain/exam-titles.ts';
import { Hono } from 'hono';
import { ChoosePageQuerySchema } from '../../contract/results.ts';
import { SaveExamineeInfoRequestSchema, type MeResponse } from '../../contract/session.ts';
import { choosePageStatus, listExams, saveBasicInfo, sessionInfo } from '../domain/session.ts';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { bearerToken, requireLogin } from '../http/middleware.ts';
import { sittingRead } from '../http/sitting-read.ts';
import { parseWith, readJsonBody } from '../http/validate.ts';

export function sessionRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const { db } = deps;
  const login = requireLogin(deps);

  routes.get('/me', login, async (c) => {
    const response: MeResponse = {
      access_token: bearerToken(c.get('headers').authorization) ?? '',
      examinee: await sessionInfo(db, c.get('principal')),
      server_time: c.get('now').toISOString(),
    };
    return c.json(response, 200);
  });

  routes.get('/exams', login, async (c) => {
    return c.json({ exams: await listExams(db, c.get('principal'), callerLanguages(c.get('headers'))), server_time: c.get('now').toISOString() }, 200);
  });

  routes.post('/save-examinee-info', login, async (c) => {
    const now = c.get('now');
    const body = parseWith(SaveExamineeInfoRequestSchema, await readJsonBody(c));
    const examinee = await saveBasicInfo(
      db,
      c.get('principal'),
      { examineeName: body.examinee_name, gradeId: body.grade_id, email: body.email },
      now,
    );
    return c.json({ examinee, server_time: now.toISOString() }, 200);
  });

  routes.get(
    '/get-status-choose-page',
    login,
    sittingRead(ChoosePageQuerySchema, (principal, id, now) => choosePageStatus(db, principal, id, now)),
  );

  return routes;
}
