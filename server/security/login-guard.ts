/**
 * The throttle in front of every way in (server/security/throttle.ts says what is counted and
 * why): POST /login (login code, login ID), /login-examinee, /admin/login (staff, counted apart)
 * and /api_connect/<partner>/login-link (the Kenya link and its siblings). Mounted before the
 * routes, it reads the body the route will read (Hono keeps it), names the attempt and the
 * terminal (client address and X-Device-Token), asks the throttle, lets the route answer, and
 * tells the throttle whether the attempt failed.
 *
 * Refusals: 429 TOO_MANY_REQUESTS, or 403 ACCOUNT_LOCKED (the seed's lock, per address and
 * login ID), each with Retry-After in seconds and the contract's error body. A body the route
 * would refuse as malformed (400/422) is not an attempt: it is not counted.
 */
import { createHash } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import * as v from 'valibot';
import { StaffLoginRequestSchema } from '../../contract/admin.ts';
import { type ErrorCode } from '../../contract/errors.ts';
import { DeviceTokenSchema } from '../../contract/http.ts';
import { KenyaLinkRequestSchema, LoginExamineeRequestSchema, LoginRequestSchema } from '../../contract/session.ts';
import type { AppEnv } from '../http/env.ts';
import { errorBody } from '../http/errors.ts';
import type { Metrics } from '../observability/metrics.ts';
import { clientAddress } from './client.ts';
import { typedLoginId } from './login-id.ts';
import type { SecuritySettings } from './settings.ts';
import type { LoginAttempt, LoginClient, LoginThrottle, ThrottleRefusal } from './throttle.ts';

/** Codes that mean "these credentials are wrong": the attempts the throttle counts. */
const credentialFailures: readonly ErrorCode[] = ['LOGIN_CODE_INCORRECT', 'INCORRECT_ID_PASSWORD', 'ACCOUNT_LOCKED'];

const refusalMessages: Record<ThrottleRefusal['code'], string> = {
  TOO_MANY_REQUESTS: 'Too many attempts. Please wait a little and try again.',
  ACCOUNT_LOCKED: 'Account locked, retry in 1 minute.',
};

function parsedBody<T extends v.GenericSchema>(schema: T, text: string): v.InferOutput<T> | undefined {
  try {
    const result = v.safeParse(schema, JSON.parse(text));
    return result.success ? result.output : undefined;
  } catch {
    return undefined;
  }
}

const digest = (value: string) => createHash('sha256').update(value).digest('base64url');

/** The login paths under /api, what each attempt is about, and how its failure shows. */
type LoginPath = {
  attempt(text: string, c: Context<AppEnv>): LoginAttempt | undefined;
  failed(response: Response): Promise<boolean>;
};

async function errorCodeOf(response: Response): Promise<string | undefined> {
  if (response.status < 400 || response.status >= 500) return undefined;
  try {
    const body = (await response.clone().json()) as { code?: unknown };
    return typeof body.code === 'string' ? body.code : undefined;
  } catch {
    return undefined;
  }
}

const failedWithCredentials = async (response: Response) => {
  const code = await errorCodeOf(response);
  return code !== undefined && (credentialFailures as readonly string[]).includes(code);
};

export const loginPaths: Record<string, LoginPath> = {
  '/login': {
    attempt(text) {
      const body = parsedBody(LoginRequestSchema, text);
      if (!body) return undefined;
      return body.login_type === 0
        ? { kind: 'identifier', identifier: `code:${body.login_code}` }
        : // The login ID alone finds the account, whichever page (school, schedule, none) it is typed on.
          { kind: 'password', identifier: `id:${typedLoginId(body.login_id)}` };
    },
    failed: failedWithCredentials,
  },
  '/login-examinee': {
    attempt(text) {
      const body = parsedBody(LoginExamineeRequestSchema, text);
      return body && { kind: 'password', identifier: `examinee:${body.org_code.toLowerCase()}:${typedLoginId(body.login_id)}` };
    },
    failed: failedWithCredentials,
  },
  '/admin/login': {
    attempt(text) {
      const body = parsedBody(StaffLoginRequestSchema, text);
      return body && { kind: 'password', identifier: `staff:${(body.org_code ?? '').toLowerCase()}:${body.login_id}`, staff: true };
    },
    failed: failedWithCredentials,
  },
  '/api_connect/:partner/login-link': {
    attempt(text, c) {
      const body = parsedBody(KenyaLinkRequestSchema, text);
      // The partner's token is a credential: only its digest names the attempt.
      return body && { kind: 'identifier', identifier: `partner:${c.req.param('partner') ?? ''}:${digest(body.token)}` };
    },
    // Refusals are HTTP 200 with `error` set (the seed's Kenya-link shape).
    async failed(response) {
      if (response.status !== 200) return failedWithCredentials(response);
      try {
        const body = (await response.clone().json()) as { error?: unknown };
        return typeof body.error === 'string';
      } catch {
        return false;
      }
    },
  },
};

function refuse(c: Context<AppEnv>, refusal: ThrottleRefusal): Response {
  const status = refusal.code === 'ACCOUNT_LOCKED' ? 403 : 429;
  return c.json(errorBody(refusal.code, refusalMessages[refusal.code], c.get('now')), status, {
    'Retry-After': String(refusal.retryAfterSeconds),
  });
}

/** Who attempts: the client address and the terminal's device token (a malformed one counts as none). */
function loginClient(c: Context<AppEnv>, security: SecuritySettings): LoginClient {
  const token = v.safeParse(DeviceTokenSchema, c.req.header('x-device-token'));
  return { address: clientAddress(c, security), device: token.success ? token.output : undefined };
}

/** The guard of one login path (mount it with `api.use(path, guard)`). */
export function guardLogin(
  path: LoginPath,
  deps: { throttle: LoginThrottle; metrics: Metrics; security: SecuritySettings },
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method !== 'POST') return next();
    const attempt = path.attempt(await c.req.text(), c);
    if (!attempt) return next();
    const client = loginClient(c, deps.security);
    const refusal = await deps.throttle.admit(client, attempt);
    if (refusal) {
      deps.metrics.loginThrottled.inc({ limit: refusal.limit });
      return refuse(c, refusal);
    }
    await next();
    const lock = await deps.throttle.settle(client, attempt, await path.failed(c.res));
    if (lock) {
      deps.metrics.loginThrottled.inc({ limit: lock.limit });
      c.res = refuse(c, lock);
    }
  };
}
