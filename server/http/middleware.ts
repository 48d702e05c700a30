/**
 * The API's middleware: the request context (one instant from the clock, the client headers of
 * seed section 7 parsed with the contract's RequestHeadersSchema), bearer authentication of pupils and of
 * staff (separate tokens), and the pupil's contact for the proctor roster. (The request log,
 * request ids and request metrics: server/observability/http.ts.)
 */
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { headerNames, RequestHeadersSchema } from '../../contract/http.ts';
import { DomainError } from '../domain/errors.ts';
import { recordContact } from '../domain/presence.ts';
import { authenticateStaff } from '../domain/staff.ts';
import { pupilOf, type Principal } from '../domain/tokens.ts';
import type { AppDeps, AppEnv } from './env.ts';
import { defaultResponseHeader, writeResponseHeaders } from './response-headers.ts';
import { parseWith } from './validate.ts';

const wireNames: Record<string, string> = {
  authorization: headerNames.authorization,
  'accept-language': headerNames.acceptLanguage,
  'x-locale': headerNames.locale,
  'x-device-token': headerNames.deviceToken,
};

const clientHeaderNames = Object.keys(wireNames);

export function requestContext(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('now', deps.clock.now());
    // Responses hold tokens and exam state: never cached by browsers or proxies (a call that
    // sets its own Cache-Control keeps it, as with `c.header` before the response).
    const first = defaultResponseHeader(c, 'Cache-Control', 'no-store');
    const raw: Record<string, string> = {};
    for (const name of clientHeaderNames) {
      const value = c.req.header(name)?.trim();
      if (value !== undefined && value !== '') raw[name] = value;
    }
    const headers = parseWith(RequestHeadersSchema, raw, 'headers', (path) => wireNames[path] ?? path);
    c.set('headers', {
      authorization: headers.authorization,
      acceptLanguage: firstLanguage(headers['accept-language']),
      locale: headers['x-locale'],
      deviceToken: headers['x-device-token'],
    });
    await next();
    if (first) writeResponseHeaders(c);
  };
}

/**
 * Hono's bodyLimit, without its cost on the usual request: a body whose Content-Length is given
 * (and no Transfer-Encoding) is judged by that header alone, exactly as bodyLimit judges it
 * (Node's HTTP parser never delivers more than the Content-Length says), but without touching
 * the request's body stream first, which makes @hono/node-server build a full web Request for
 * every call (about a tenth of an answer save's CPU). Anything else (chunked, no length) goes
 * through bodyLimit itself, which counts the bytes as they come.
 */
export function limitBody(options: { maxSize: number; onError: (c: Context<AppEnv>) => Response | Promise<Response> }): MiddlewareHandler<AppEnv> {
  const counted = bodyLimit(options);
  return async (c, next) => {
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      if (Number.parseInt(length, 10) > options.maxSize) return options.onError(c);
      await next();
      return;
    }
    return counted(c, next);
  };
}

/** "fr-CH, fr;q=0.9, en;q=0.8" -> "fr-CH"; anything that does not look like a tag is ignored. */
function firstLanguage(acceptLanguage: string | undefined): string | undefined {
  const first = acceptLanguage?.split(',')[0]?.split(';')[0]?.trim();
  return first && /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(first) ? first : undefined;
}

const BEARER = /^Bearer\s+(\S+)$/i;

/** The token of an `Authorization: Bearer <token>` header, if that is what it is. */
export function bearerToken(authorization: string | undefined): string | undefined {
  return BEARER.exec(authorization ?? '')?.[1];
}

/**
 * Seed section 8: during maintenance every call is refused 401 DURING_MAINTENANCE, except the
 * paths given (the connectivity check and the client configuration stay available).
 */
export function refuseDuringMaintenance(
  isDuringMaintenance: (now: Date) => Promise<boolean>,
  exempt: readonly string[],
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const path = c.req.path.replace(/^\/api/, '');
    if (!exempt.includes(path) && (await isDuringMaintenance(c.get('now')))) {
      throw new DomainError('DURING_MAINTENANCE');
    }
    await next();
  };
}

/**
 * Requires a valid pupil bearer token; sets the caller as `principal`, else 401 NOT_LOGGED_IN
 * (a staff token too: those live in another table). An administrator's revocation is told as
 * such: 401 ER_SCHEDULE_HISTORY_RETAKE after a reset, 403 INCORRECT_DEVICE after a proctor moved
 * the pupil to another terminal (this terminal no longer holds the exam).
 */
export function requireLogin(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('principal', await authenticatePupil(deps, c));
    await next();
  };
}

/**
 * The caller of a pupil call, or the refusal `requireLogin` responds with (server/domain/tokens.ts
 * `pupilOf`). For a route that checks the token itself in the statement that does its work and
 * comes here only when that statement did not find it valid.
 */
export function authenticatePupil(deps: AppDeps, c: Context<AppEnv>): Promise<Principal> {
  return pupilOf(deps.db, bearerToken(c.get('headers').authorization), c.get('now'));
}

/**
 * Requires a valid staff bearer token (POST /admin/login); sets `staff`, else 401 NOT_LOGGED_IN.
 * A pupil token is not one (server/domain/staff.ts keeps staff tokens apart).
 */
export function requireStaff(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = bearerToken(c.get('headers').authorization);
    const staff = token ? await authenticateStaff(deps.db, token, c.get('now')) : undefined;
    if (!staff) throw new DomainError('NOT_LOGGED_IN');
    c.set('staff', staff);
    await next();
  };
}

/**
 * After requireStaff: only an administrator passes; a proctor is refused 403 FORBIDDEN. Every call
 * that changes the deployment (staff, imports, exams, exports, login codes) sits behind it.
 */
export function requireAdmin(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.get('staff').role !== 'admin') throw new DomainError('FORBIDDEN');
    await next();
  };
}

/**
 * After a successful pupil exam call, marks contact on the caller's DOING sitting (the proctor
 * roster's "last contact"): one UPDATE by key. A failure here never fails the call itself.
 * Not for the heartbeat and the answer save: each records contact in its own statement (the
 * save in the statement that stores the answer, server/domain/answers/), so the call a
 * terminal makes most often costs no extra round trip.
 */
export function recordExamContact(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const principal = c.get('principal') as AppEnv['Variables']['principal'] | undefined;
    if (principal === undefined || c.res.status < 200 || c.res.status >= 300 || recordsOwnContact(c.req.path)) return;
    try {
      await recordContact(deps.db, principal, c.get('now'));
    } catch (error) {
      deps.logger.error(`${c.req.method} ${c.req.path}: recording contact failed`, error);
    }
  };
}

function recordsOwnContact(path: string): boolean {
  return path.endsWith('/exam/heartbeat') || path.endsWith('/exam/answers');
}
