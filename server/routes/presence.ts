/**
 * POST /exam/heartbeat (contract/presence.ts): a pupil terminal reports that it is there and
 * which question is on screen, and learns the current deadline. Parses with the contract's
 * schema, calls server/domain/presence.ts, adds the server's time.
 */
import { Hono } from 'hono';
import { HeartbeatRequestSchema, type HeartbeatResponse } from '../../contract/presence.ts';
import { heartbeat } from '../domain/presence.ts';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { requireLogin } from '../http/middleware.ts';
import { parseWith, readJsonBody } from '../http/validate.ts';

export function presenceRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.post('/exam/heartbeat', requireLogin(deps), async (c) => {
    const now = c.get('now');
    const body = parseWith(HeartbeatRequestSchema, await readJsonBody(c));
    const result = await heartbeat(deps.db, c.get('principal'), {
      scheduleHistoryId: body.schedule_history_id,
      questionIndex: body.question_index,
      waitingAnswers: body.waiting_answers ?? 0,
      deviceToken: c.get('headers').deviceToken,
      now,
    });
    const response: HeartbeatResponse = {
      status: result.status,
      deadline_at: result.deadlineAt.toISOString(),
      server_time: now.toISOString(),
    };
    return c.json(response, 200);
  });

  return routes;
}
