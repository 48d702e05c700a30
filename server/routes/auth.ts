/**
 * Login and logout. POST /login takes a login code (login type 0) and answers with a token,
 * the examinee's session info and the server's time; POST /logout revokes the caller's token.
 */
import { Hono } from 'hono';
import { LoginCodeRequestSchema, type LoginResponse } from '../../src/shared/contract.ts';
import { loginWithCode } from '../domain/login.ts';
import { revokeToken } from '../domain/tokens.ts';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { requireLogin } from '../http/middleware.ts';
import { parseWith, readJsonBody } from '../http/validate.ts';

export function authRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.post('/login', async (c) => {
    const now = c.get('now');
    const body = parseWith(LoginCodeRequestSchema, await readJsonBody(c));
    const result = await loginWithCode(deps.db, {
      loginCode: body.login_code,
      now,
      tokenTtlMs: deps.settings.tokenTtlMs,
    });
    const response: LoginResponse = {
      access_token: result.accessToken,
      examinee: result.examinee,
      server_time: now.toISOString(),
    };
    return c.json(response, 200);
  });

  routes.post('/logout', requireLogin(deps), async (c) => {
    await revokeToken(deps.db, c.get('principal').tokenId, c.get('now'));
    return c.json({ ok: true as const }, 200);
  });

  return routes;
}
