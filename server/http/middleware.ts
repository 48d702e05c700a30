/**
 * The API's middleware: the request log (one line per request: method, path, status, ms),
 * the request context (one instant from the clock, the client headers of seed section 7
 * parsed with the contract's RequestHeadersSchema), and bearer authentication.
 */
import type { MiddlewareHandler } from 'hono';
import { headerNames, RequestHeadersSchema } from '../../src/shared/contract.ts';
import { DomainError } from '../domain/errors.ts';
import { authenticate, isRevokedForRetake } from '../domain/tokens.ts';
import { RequestError } from './errors.ts';
import type { Logger } from '../logger.ts';
import type { AppDeps, AppEnv } from './env.ts';
import { parseWith } from './validate.ts';

export function requestLog(logger: Logger): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const ms = Math.round(performance.now() - started);
    logger.info(`${c.req.method} ${c.req.path} ${c.res.status} ${ms}ms`);
  };
}

const wireNames: Record<string, string> = {
  authorization: headerNames.authorization,
  'accept-language': headerNames.acceptLanguage,
  'x-locale': headerNames.locale,
  'x-device-token': headerNames.deviceToken,
};

export function requestContext(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('now', deps.clock.now());
    // Responses hold tokens and exam state: never cached by browsers or proxies.
    c.header('Cache-Control', 'no-store');
    const raw = Object.fromEntries(
      Object.keys(wireNames)
        .map((name) => [name, c.req.header(name)?.trim()] as const)
        .filter(([, value]) => value !== undefined && value !== ''),
    );
    const headers = parseWith(RequestHeadersSchema, raw, 'headers', (path) => wireNames[path] ?? path);
    c.set('headers', {
      authorization: headers.authorization,
      acceptLanguage: firstLanguage(headers['accept-language']),
      locale: headers['x-locale'],
      deviceToken: headers['x-device-token'],
    });
    await next();
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
 * Seed section 8: during maintenance every call is answered 401 DURING_MAINTENANCE, except the
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
 * Requires a valid bearer token; sets the caller as `principal`, else 401 NOT_LOGGED_IN, or
 * 401 ER_SCHEDULE_HISTORY_RETAKE when an administrator's reset revoked it (the pupil is told why).
 */
export function requireLogin(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = bearerToken(c.get('headers').authorization);
    const principal = token ? await authenticate(deps.db, token, c.get('now')) : undefined;
    if (!principal) {
      if (token && (await isRevokedForRetake(deps.db, token))) {
        throw new RequestError(401, 'ER_SCHEDULE_HISTORY_RETAKE', 'An administrator has reset this account. Please log in again.');
      }
      throw new DomainError('NOT_LOGGED_IN');
    }
    c.set('principal', principal);
    await next();
  };
}
