/**
 * Single sign-on (seed sections 1, 2 rules 1-3, 8):
 *
 * - GET /sso/oidc/start?school=<org code>: begins generic OpenID Connect sign-in for a school and
 *   redirects (302) to the identity provider; 404 NOT_FOUND when OIDC_ISSUER is not configured,
 *   422 VALIDATION_ERROR without a well-formed school. A school that cannot use single sign-on
 *   is refused at once, without a detour through the provider.
 * - GET /sso/oidc/callback: where the provider sends the browser back. Ends with a 302 to the
 *   client's /oauth entry (rule 1):
 *     /oauth?accessToken=<token>&schoolId=<org>&loginType=2&orgStepMode=<0|1>&orgCode=<org>
 *     /oauth?error=1&errorCode=<SSO code>&schoolId=<org>   (schoolId left out when unknown)
 * - POST /api_connect/<partner>/login-link { token }, partner one of kenya, egypt, philippines,
 *   mumbai: a partner's token exchanged for our access token (KenyaLinkResponseSchema; a
 *   refusal is HTTP 200 with `error` holding the SSO code and access_token null, as the client
 *   reads `error`; bad input 422). Kenya's client entry (/oauth-kenya) calls it from the browser
 *   (rule 2). The other partners' entries (/oauth-kaigen, /oauth-kaigen-philippine,
 *   /oauth-egypt) already carry OUR access token in their query (rules 2, 3): the partner's
 *   server obtains it by calling this same endpoint with its own token before redirecting the
 *   pupil, so every token a partner hands a pupil was issued here after the partner's check
 *   (server/partners/gateway.ts); the client can check it with GET /me.
 */
import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type * as v from 'valibot';
import { LoginType } from '../../contract/enums.ts';
import {
  KenyaLinkRequestSchema,
  OidcStartQuerySchema,
  type KenyaLinkResponseSchema,
  type SsoErrorCode,
} from '../../contract/session.ts';
import { DomainError } from '../domain/errors.ts';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { parseWith, readJsonBody } from '../http/validate.ts';
import { partnerLoginType, partnerNames, type PartnerName } from '../partners/gateway.ts';
import { claimAttempt, createAttempt, createOidcClient, type OidcClient } from '../sso/oidc.ts';
import { checkSsoOrganization, signInExternalUser, type SsoOrganization } from '../sso/sign-in.ts';

/** Holds the state of the browser's sign-in; sent only to the callback. */
export const OIDC_STATE_COOKIE = 'gradus_oidc_state';
const COOKIE_PATH = '/api/sso/oidc';

type LinkResponse = v.InferOutput<typeof KenyaLinkResponseSchema>;

export function ssoRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const oidcSettings = deps.settings.oidc;
  const oidc: OidcClient | undefined = oidcSettings ? createOidcClient(oidcSettings) : undefined;

  const refuse = (c: Context, error: SsoErrorCode, school: string | undefined, cause?: unknown) => {
    if (cause !== undefined) deps.logger.error(`single sign-on refused: ${error}`, cause);
    const query = new URLSearchParams({ error: '1', errorCode: error });
    if (school !== undefined) query.set('schoolId', school);
    return c.redirect(`/oauth?${query}`, 302);
  };

  routes.get('/sso/oidc/start', async (c) => {
    if (!oidc || !oidcSettings) throw new DomainError('NOT_FOUND', 'Single sign-on is not configured.');
    const { school } = parseWith(OidcStartQuerySchema, c.req.query(), 'query');
    const now = c.get('now');
    const check = await checkSsoOrganization(deps.db, school);
    if (!check.ok) return refuse(c, check.error, school);

    let url: URL;
    try {
      const attempt = await createAttempt(deps.db, school, now, oidcSettings.attemptTtlMs);
      url = await oidc.authorizationUrl(attempt);
      setCookie(c, OIDC_STATE_COOKIE, attempt.state, {
        path: COOKIE_PATH,
        httpOnly: true,
        sameSite: 'Lax', // the provider's redirect back is a top-level GET: Lax cookies go with it
        secure: oidcSettings.redirectUri.protocol === 'https:',
        maxAge: Math.floor(oidcSettings.attemptTtlMs / 1000),
      });
    } catch (error) {
      return refuse(c, 'unknown', school, error);
    }
    return c.redirect(url.toString(), 302);
  });

  routes.get('/sso/oidc/callback', async (c) => {
    if (!oidc || !oidcSettings) throw new DomainError('NOT_FOUND', 'Single sign-on is not configured.');
    const now = c.get('now');
    const cookieState = getCookie(c, OIDC_STATE_COOKIE);
    deleteCookie(c, OIDC_STATE_COOKIE, { path: COOKIE_PATH, secure: oidcSettings.redirectUri.protocol === 'https:' });

    // The browser's own attempt, claimed once; a state in the URL that is not it is refused.
    const attempt = cookieState ? await claimAttempt(deps.db, cookieState, now) : undefined;
    if (!attempt) return refuse(c, 'invalid_state', undefined);
    if (c.req.query('state') !== attempt.state) return refuse(c, 'invalid_state', attempt.orgCode);

    const redeemed = await oidc.redeem(new URL(c.req.url).search, attempt);
    if (!redeemed.ok) return refuse(c, redeemed.error, attempt.orgCode, redeemed.cause);
    const { claims } = redeemed;

    if (!hasRole(claims[oidcSettings.roleClaim], oidcSettings.pupilRoles)) return refuse(c, 'invalid_role', attempt.orgCode);
    const orgCode = claims[oidcSettings.schoolClaim];
    if (typeof orgCode !== 'string' || orgCode === '') return refuse(c, 'school_notfound', attempt.orgCode);
    const userId = claims[oidcSettings.userClaim];
    if (typeof userId !== 'string' || userId === '') return refuse(c, 'user_notfound', attempt.orgCode);

    const result = await deps.db.transaction((tx) =>
      signInExternalUser(tx, {
        orgCode,
        expectedOrgCode: attempt.orgCode,
        userId,
        loginType: LoginType.SCHOOL_CBT,
        now,
        ttlMs: deps.settings.tokenTtlMs,
      }),
    );
    if (!result.ok) return refuse(c, result.error, attempt.orgCode);
    const org = result.organization;
    const query = new URLSearchParams({
      accessToken: result.accessToken,
      schoolId: org.code,
      loginType: String(LoginType.SCHOOL_CBT),
      orgStepMode: stepMode(org),
      orgCode: org.code,
    });
    return c.redirect(`/oauth?${query}`, 302);
  });

  routes.post('/api_connect/:partner/login-link', async (c) => {
    const partner = c.req.param('partner');
    if (!isPartnerName(partner)) throw new DomainError('NOT_FOUND', 'No such partner.');
    const { token } = parseWith(KenyaLinkRequestSchema, await readJsonBody(c));
    const refusal = (error: SsoErrorCode, orgCode: string | null = null): LinkResponse => ({
      access_token: null,
      language_code: null,
      login_type: null,
      error,
      org_code: orgCode,
      org_step_mode: null,
    });

    const gateway = deps.settings.partners[partner];
    if (!gateway) return c.json(refusal('unknown'), 200);
    const verified = await gateway.verify(token);
    if (!verified.ok) return c.json(refusal(verified.error), 200);
    const { identity } = verified;

    const result = await deps.db.transaction((tx) =>
      signInExternalUser(tx, {
        orgCode: identity.orgCode,
        userId: identity.userId,
        loginType: partnerLoginType[partner],
        now: c.get('now'),
        ttlMs: deps.settings.tokenTtlMs,
      }),
    );
    if (!result.ok) return c.json(refusal(result.error, identity.orgCode), 200);
    const response: LinkResponse = {
      access_token: result.accessToken,
      language_code: identity.language,
      login_type: partnerLoginType[partner],
      error: null,
      org_code: result.organization.code,
      // The partner decides step mode for its pupils; an organisation in step mode always is.
      org_step_mode: identity.stepMode || result.organization.enableModeStep,
    };
    return c.json(response, 200);
  });

  return routes;
}

function isPartnerName(name: string): name is PartnerName {
  return (partnerNames as readonly string[]).includes(name);
}

function stepMode(org: SsoOrganization): '0' | '1' {
  return org.enableModeStep ? '1' : '0';
}

/** A role claim (a string, or a list of them) that names a pupil role. */
function hasRole(claim: unknown, pupilRoles: readonly string[]): boolean {
  const roles = Array.isArray(claim) ? claim : [claim];
  return roles.some((role) => typeof role === 'string' && pupilRoles.includes(role));
}
