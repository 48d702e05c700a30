/**
 * Generic OpenID Connect sign-in with openid-client: authorization code flow with PKCE (S256),
 * state and nonce. What the callback must check is kept in the database (sso_login_attempts),
 * so any API process can finish a sign-in another began; the browser holds only the state, in
 * an HttpOnly cookie scoped to the callback, which binds the sign-in to the browser that began
 * it (a callback URL sent to someone else is refused as invalid_state).
 *
 * Promises: an attempt is used at most once (its row is deleted when the callback claims it)
 * and only within `attemptTtlMs`; the provider is discovered once per app and again after a
 * failed discovery; every failure of the provider or of a check becomes one SSO error code.
 */
import { createHash } from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import * as client from 'openid-client';
import type { SsoErrorCode } from '../../contract/session.ts';
import type { Db } from '../db/client.ts';
import { ssoLoginAttempts } from '../db/schema.ts';
import { isLoopback, type OidcSettings } from './settings.ts';

export type OidcAttempt = { state: string; nonce: string; codeVerifier: string; orgCode: string };

function hashState(state: string): string {
  return createHash('sha256').update(state).digest('hex');
}

/** A fresh attempt for a school: stored, ready to send the browser to the provider. */
export async function createAttempt(db: Db, orgCode: string, now: Date, ttlMs: number): Promise<OidcAttempt> {
  const attempt: OidcAttempt = {
    state: client.randomState(),
    nonce: client.randomNonce(),
    codeVerifier: client.randomPKCECodeVerifier(),
    orgCode,
  };
  // Attempts nobody came back for are cleared on the way (bounded by the index on expires_at).
  await db.delete(ssoLoginAttempts).where(lt(ssoLoginAttempts.expiresAt, now));
  await db.insert(ssoLoginAttempts).values({
    stateHash: hashState(attempt.state),
    nonce: attempt.nonce,
    codeVerifier: attempt.codeVerifier,
    orgCode,
    createdAt: now,
    expiresAt: new Date(now.getTime() + ttlMs),
  });
  return attempt;
}

/** Claims the attempt of a state: returns it once, if it has not expired; never again. */
export async function claimAttempt(db: Db, state: string, now: Date): Promise<OidcAttempt | undefined> {
  const [row] = await db
    .delete(ssoLoginAttempts)
    .where(and(eq(ssoLoginAttempts.stateHash, hashState(state)), gt(ssoLoginAttempts.expiresAt, now)))
    .returning();
  return row ? { state, nonce: row.nonce, codeVerifier: row.codeVerifier, orgCode: row.orgCode } : undefined;
}

export type OidcClient = {
  /** Where to send the browser to sign in. */
  authorizationUrl(attempt: OidcAttempt): Promise<URL>;
  /** Redeems the callback's code and checks state, nonce and the ID token; its claims, or why not. */
  redeem(callbackQuery: string, attempt: OidcAttempt): Promise<{ ok: true; claims: client.IDToken } | { ok: false; error: SsoErrorCode; cause?: unknown }>;
};

export type OidcClientOptions = {
  /** For tests only: the fetch openid-client uses. */
  fetch?: client.CustomFetch;
};

export function createOidcClient(settings: OidcSettings, options: OidcClientOptions = {}): OidcClient {
  let discovered: Promise<client.Configuration> | undefined;
  const configuration = () => {
    discovered ??= client
      .discovery(
        settings.issuer,
        settings.clientId,
        settings.clientSecret,
        settings.clientSecret === undefined ? client.None() : client.ClientSecretBasic(settings.clientSecret),
        {
          // Plain http only for a provider on this machine (settings.ts refuses it elsewhere).
          execute: settings.issuer.protocol === 'http:' && isLoopback(settings.issuer) ? [client.allowInsecureRequests] : [],
          timeout: 10,
          ...(options.fetch ? { [client.customFetch]: options.fetch } : {}),
        },
      )
      .catch((error: unknown) => {
        discovered = undefined; // try again on the next sign-in
        throw error;
      });
    return discovered;
  };

  return {
    async authorizationUrl(attempt) {
      const config = await configuration();
      return client.buildAuthorizationUrl(config, {
        redirect_uri: settings.redirectUri.toString(),
        scope: settings.scope,
        state: attempt.state,
        nonce: attempt.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(attempt.codeVerifier),
        code_challenge_method: 'S256',
      });
    },

    async redeem(callbackQuery, attempt) {
      try {
        const config = await configuration();
        const currentUrl = new URL(settings.redirectUri);
        currentUrl.search = callbackQuery;
        const tokens = await client.authorizationCodeGrant(config, currentUrl, {
          pkceCodeVerifier: attempt.codeVerifier,
          expectedState: attempt.state,
          expectedNonce: attempt.nonce,
          idTokenExpected: true,
        });
        const claims = tokens.claims();
        if (!claims) return { ok: false, error: 'id_token_notfound' };
        return { ok: true, claims };
      } catch (error) {
        return { ok: false, error: classifyOidcError(error), cause: error };
      }
    },
  };
}

/**
 * The SSO code of an openid-client failure: a nonce that does not match is invalid_nonce, a
 * state that does not is invalid_state, a token response without an ID token is
 * id_token_notfound; anything else (the provider's own error, a network failure, a bad
 * signature) is unknown.
 */
export function classifyOidcError(error: unknown): SsoErrorCode {
  if (error instanceof client.AuthorizationResponseError) return 'unknown';
  for (let e: unknown = error, depth = 0; e && depth < 6; depth++) {
    if (typeof e !== 'object') break;
    const { claim, message } = e as { claim?: unknown; message?: unknown };
    if (claim === 'nonce' || (typeof message === 'string' && message.includes('"nonce"'))) return 'invalid_nonce';
    if (typeof message === 'string' && message.includes('"state"')) return 'invalid_state';
    if (typeof message === 'string' && message.includes('"id_token"')) return 'id_token_notfound';
    e = 'cause' in e ? (e as { cause: unknown }).cause : undefined;
  }
  return 'unknown';
}
