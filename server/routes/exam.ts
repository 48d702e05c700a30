/**
 * The exam of the logged-in pupil: details, Start, questions, answers, Finish. Each handler
 * parses with the contract's schema, calls one domain function (server/domain/exam.ts,
 * server/domain/answers/save.ts) and adds the server's time.
 */
import { callerLanguages } from '../domain/exam-titles.ts';
import { Hono } from 'hono';
import {
  ExamDetailsQuerySchema,
  FocusLossRequestSchema,
  SaveAnswerRequestSchema,
  ScheduleHistoryBodySchema,
  type SaveAnswerResponse,
} from '../../contract/exam.ts';
import type { SaveAnswerInput } from '../domain/answers/rules.ts';
import { saveAnswer } from '../domain/answers/save.ts';
import { invalidField } from '../domain/errors.ts';
import { finishExam, getExamDetails, getQuestions, recordFocusLoss, startExam } from '../domain/exam.ts';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { authenticatePupil, bearerToken, requireLogin } from '../http/middleware.ts';
import { jsonResponse } from '../http/response-headers.ts';
import { parseInstant, parseWith, readJsonBody } from '../http/validate.ts';
import { noteAnswerSaved } from '../observability/http.ts';

export function examRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const { db } = deps;
  const login = requireLogin(deps);

  routes.get('/exam-details', login, async (c) => {
    const query = parseWith(ExamDetailsQuerySchema, c.req.query(), 'query');
    return c.json(await getExamDetails(db, c.get('principal'), query.schedule_history_id, c.get('now'), callerLanguages(c.get('headers'))), 200);
  });

  routes.post('/exam/start', login, async (c) => {
    const now = c.get('now');
    const body = parseWith(ScheduleHistoryBodySchema, await readJsonBody(c));
    const headers = c.get('headers');
    const started = await startExam(db, c.get('principal'), {
      scheduleHistoryId: body.schedule_history_id,
      now,
      deviceToken: headers.deviceToken,
      locale: headers.locale ?? headers.acceptLanguage,
    });
    return c.json({ ...started, server_time: now.toISOString() }, 200);
  });

  routes.get('/exam/questions', login, async (c) => {
    const query = parseWith(ExamDetailsQuerySchema, c.req.query(), 'query');
    const exam = await getQuestions(db, c.get('principal'), query.schedule_history_id, c.get('headers').deviceToken, c.get('now'));
    return c.json({ ...exam, server_time: c.get('now').toISOString() }, 200);
  });

  // The call a terminal makes most: no login middleware, the token is checked in the statement
  // that stores the answer; saveAnswer (server/domain/answers/save.ts) chooses the way.
  routes.post('/exam/answers', async (c) => {
    const now = c.get('now');
    const headers = c.get('headers');
    let input: SaveAnswerInput;
    let sentKey: string;
    try {
      const body = parseWith(SaveAnswerRequestSchema, await readJsonBody(c));
      const answeredAt = parseInstant(body.answered_at);
      if (!answeredAt) throw invalidField('answered_at', 'Not a real instant.');
      sentKey = body.idempotency_key;
      input = {
        scheduleHistoryId: body.schedule_history_id,
        questionId: body.question_id,
        value: body.value,
        idempotencyKey: body.idempotency_key.toLowerCase(),
        answeredAt,
      };
    } catch (error) {
      await authenticatePupil(deps, c); // a caller who is not logged in is told that first
      throw error;
    }
    const { outcome: result } = await saveAnswer(db, { token: bearerToken(headers.authorization), deviceToken: headers.deviceToken }, input, {
      now,
      uploadWindowMs: deps.settings.uploadWindowMs,
      identified: (principal) => c.set('principal', principal),
      contactFailed: (error) => deps.logger.error('POST /api/exam/answers: recording contact failed', error),
    });
    // 201 when this request stored the answer; 200 when it was already held (a resend) or superseded.
    const response: SaveAnswerResponse = {
      question_id: input.questionId,
      idempotency_key: sentKey,
      outcome: result.outcome,
      ...(result.outcome === 'superseded' && result.currentValue !== undefined ? { current_value: result.currentValue } : {}),
      deadline_at: result.deadlineAt.toISOString(),
      server_time: now.toISOString(),
    };
    noteAnswerSaved(c, result.outcome, result.late);
    // As c.json, with the headers every response carries as one plain record (server/http/response-headers.ts).
    return jsonResponse(c, response, result.outcome === 'saved' ? 201 : 200);
  });

  routes.post('/exam/finish', login, async (c) => {
    const now = c.get('now');
    const body = parseWith(ScheduleHistoryBodySchema, await readJsonBody(c));
    const receipt = await finishExam(db, c.get('principal'), {
      scheduleHistoryId: body.schedule_history_id,
      now,
      deviceToken: c.get('headers').deviceToken,
    });
    return c.json({ ...receipt, server_time: now.toISOString() }, 200);
  });

  routes.post('/exam/focus-loss', login, async (c) => {
    const now = c.get('now');
    const body = parseWith(FocusLossRequestSchema, await readJsonBody(c));
    const at = parseInstant(body.at);
    if (!at) throw invalidField('at', 'Not a real instant.');
    await recordFocusLoss(db, c.get('principal'), {
      scheduleHistoryId: body.schedule_history_id,
      count: body.count,
      at,
      now,
      deviceToken: c.get('headers').deviceToken,
    });
    return c.json({ ok: true as const, server_time: now.toISOString() }, 200);
  });

  return routes;
}
