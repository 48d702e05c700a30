/**
 * One middleware in front of everything: the request id, the request log and the request
 * metrics.
 * - Request id: a fresh UUID per request (or, behind a trusted proxy, the proxy's X-Request-Id
 *   when it looks like one), sent back in `X-Request-Id` and written in the log line, so a
 *   pupil's "it said error" can be found in the log.
 * - One log line per request (info; error for 5xx): `GET /api/exam/answers 201 12ms` with the
 *   fields req_id, method, route (the matched route pattern, never the raw path with ids),
 *   status, ms, client (the address throttling counts), and where known examinee_id, sitting_id
 *   (the token's sitting, else a schedule_history_id in the query) and staff_id. Never a header,
 *   body or query: no token, password or login code can reach it.
 * - gradus_http_request_duration_seconds{method,route,status}; and for answer saves
 *   (POST /api/exam/answers) the outcome, lateness and refusals (server/observability/metrics.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { AppEnv } from '../http/env.ts';
import { responseHeaders, writeResponseHeaders } from '../http/response-headers.ts';
import type { LogFields, Logger } from '../logger.ts';
import { clientAddress } from '../security/client.ts';
import type { SecuritySettings } from '../security/settings.ts';
import type { Metrics } from './metrics.ts';

export const REQUEST_ID_HEADER = 'X-Request-Id';
const ANSWER_ROUTE = '/api/exam/answers';
const INCOMING_ID = /^[A-Za-z0-9._:-]{8,128}$/;

type Principalish = { examineeId?: number; scheduleHistoryId?: number | null } | undefined;

function sittingAndPupil(c: Context<AppEnv>): LogFields {
  const fields: LogFields = {};
  const principal = c.get('principal') as Principalish;
  if (principal?.examineeId !== undefined) fields.examinee_id = principal.examineeId;
  // Only a URL with a query can name one (reading the query parses the URL).
  const fromQuery = c.req.url.includes('?') ? Number(c.req.query('schedule_history_id')) : NaN;
  const sitting = principal?.scheduleHistoryId ?? (Number.isInteger(fromQuery) && fromQuery > 0 ? fromQuery : undefined);
  if (sitting !== undefined && sitting !== null) fields.sitting_id = sitting;
  const staff = c.get('staff') as { staffId?: number } | undefined;
  if (staff?.staffId !== undefined) fields.staff_id = staff.staffId;
  return fields;
}

/** Saves the answer route took, told by the route itself (noteAnswerSaved), so their response is not read back. */
const savedAnswers = new WeakMap<Context, { outcome: string; late: boolean }>();

/** The answer route took this save (`late`: it reached the server after the deadline). */
export function noteAnswerSaved(c: Context, outcome: string, late: boolean): void {
  savedAnswers.set(c, { outcome, late });
}

/** The outcome of an answer save, read from the response the route gave (2xx: the contract's SaveAnswerResponse). */
async function observeAnswer(c: Context<AppEnv>, metrics: Metrics): Promise<void> {
  const response = c.res;
  const noted = savedAnswers.get(c);
  // Reading the response back (clone, parse) costs more than the save's own work: only for the rest.
  if (noted && response.status >= 200 && response.status < 300) {
    metrics.answerSaves.inc({ outcome: noted.outcome });
    if (noted.outcome === 'saved' && noted.late) metrics.answerSavesLate.inc();
    return;
  }
  try {
    const body = (await response.clone().json()) as { outcome?: unknown; code?: unknown; deadline_at?: unknown; server_time?: unknown };
    if (response.status >= 200 && response.status < 300) {
      const outcome = typeof body.outcome === 'string' && /^[a-z]{1,20}$/.test(body.outcome) ? body.outcome : 'saved';
      metrics.answerSaves.inc({ outcome });
      const deadline = typeof body.deadline_at === 'string' ? Date.parse(body.deadline_at) : NaN;
      const at = typeof body.server_time === 'string' ? Date.parse(body.server_time) : NaN;
      // Late: it reached the server after the deadline (answered before it, uploaded from the outbox later).
      if (outcome === 'saved' && at > deadline) metrics.answerSavesLate.inc();
    } else if (typeof body.code === 'string' && /^[A-Z_]{1,40}$/.test(body.code)) {
      metrics.answerRefusals.inc({ code: body.code });
    }
  } catch {
    // Not JSON (a 413 from a proxy, say): nothing to count but the request itself.
  }
}

export function observeRequests(deps: { logger: Logger; metrics: Metrics; security: SecuritySettings }): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const incoming = deps.security.trustProxy > 0 ? c.req.header(REQUEST_ID_HEADER) : undefined;
    const requestId = incoming !== undefined && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    // Put on the response with the other headers every response carries (server/http/response-headers.ts).
    const first = responseHeaders(c, { [REQUEST_ID_HEADER]: requestId });
    await next();
    if (first) writeResponseHeaders(c);
    const seconds = (performance.now() - started) / 1000;
    const route = routePath(c) || 'unmatched';
    const method = c.req.method;
    const status = c.res.status;
    deps.metrics.httpDuration.observe({ method, route, status: String(status) }, seconds);
    if (method === 'POST' && route === ANSWER_ROUTE) await observeAnswer(c, deps.metrics);

    const ms = Math.round(seconds * 1000);
    const fields: LogFields = {
      req_id: requestId,
      method,
      route,
      status,
      ms,
      client: clientAddress(c, deps.security),
      ...sittingAndPupil(c),
    };
    const line = `${method} ${route} ${status} ${ms}ms`;
    if (status >= 500) deps.logger.error(line, undefined, fields);
    else deps.logger.info(line, fields);
  };
}
