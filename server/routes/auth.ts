/**
 * Login and logout. POST /login takes a login code (login type 0) or a login ID and password
 * (login type 1); POST /login-examinee an examinee account (login type 5). Each answers with a
 * token, the examinee's session info and the server's time. POST /logout revokes the caller's
 * token.
 *
 * A login ID typed in full width (an East Asian keyboard's mode) is the same ID
 * (`typedLoginId`, server/security/login-id.ts); the password is taken exactly as typed.
 */
import { Hono } from 'hono';
import { LoginExamineeRequestSchema, LoginRequestSchema, type LoginResponse } from '../../contract/session.ts';
import { loginExaminee, loginWithCode, loginWithId, type LoginResult } from '../domain/login.ts';
import { revokeToken } from '../domain/tokens.ts';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { requireLogin } from '../http/middleware.ts';
import { parseWith, readJsonBody } from '../http/validate.ts';
import { typedLoginId } from '../security/login-id.ts';

export function authRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const tokenTtlMs = deps.settings.tokenTtlMs;
  const respond = (result: LoginResult, now: Date): LoginResponse => ({
    access_token: result.accessToken,
    examinee: result.examinee,
    server_time: now.toISOString(),
  });

  routes.post('/login', async (c) => {
    const now = c.get('now');
    const body = parseWith(LoginRequestSchema, await readJsonBody(c));
    const result =
      body.login_type === 0
        ? await loginWithCode(deps.db, { loginCode: body.login_code, now, tokenTtlMs, deviceToken: c.get('headers').deviceToken })
        : await loginWithId(deps.db, {
            loginId: typedLoginId(body.login_id),
            password: body.password,
            orgCode: body.org_code,
            scheduleCode: body.schedule_code,
            venueId: body.venue_id,
            now,
            tokenTtlMs,
            deviceToken: c.get('headers').deviceToken,
          });
    return c.json(respond(result, now), 200);
  });

  routes.post('/login-examinee', async (c) => {
    const now = c.get('now');
    const body = parseWith(LoginExamineeRequestSchema, await readJsonBody(c));
    const result = await loginExaminee(deps.db, {
      loginId: typedLoginId(body.login_id),
      password: body.password,
      orgCode: body.org_code,
      now,
      tokenTtlMs,
    });
    return c.json(respond(result, now), 200);
  });

  routes.post('/logout', requireLogin(deps), async (c) => {
    await revokeToken(deps.db, c.get('principal').tokenId, c.get('now'));
    return c.json({ ok: true as const }, 200);
  });

  return routes;
}
