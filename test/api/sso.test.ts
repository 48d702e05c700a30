/**
 * Generic OpenID Connect single sign-on against a real identity provider: the demo provider of
 * scripts/demo-idp.ts (oidc-provider) on 127.0.0.1 at a random port, driven like a browser with
 * fetch (its sign-in page, its cookies, its redirects). Each test books a fresh pupil, signs in
 * through /api/sso/oidc/start and /api/sso/oidc/callback, and reads where the callback sends the
 * browser: /oauth with our token, or /oauth with one of the seed's SSO error codes (section 8).
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MeResponseSchema, OauthQuerySchema, type SsoErrorCode } from '../../contract/session.ts';
import type { AppSettings } from '../../server/config.ts';
import { examinees, organizations, ssoLoginAttempts, venues } from '../../server/db/schema.ts';
import { TOKEN_PATTERN } from '../../server/domain/tokens.ts';
import { OIDC_STATE_COOKIE } from '../../server/routes/sso.ts';
import { partnerGatewaysFromEnv } from '../../server/partners/gateway.ts';
import { DEFAULT_ATTEMPT_TTL_MS, oidcSettingsFromEnv, type OidcSettings } from '../../server/sso/settings.ts';
import { demoAccounts, startDemoIdp, type RunningDemoIdp } from '../../scripts/demo-idp.ts';
import { loadDemoAccounts } from '../../server/seed/demo-accounts.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, useApi, type ApiContext } from '../helpers/server-api.ts';
import { addSitting, type SittingOptions } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();

const REDIRECT_URI = 'http://gradus.test/api/sso/oidc/callback';
const client = { clientId: 'gradus-test', clientSecret: `secret-${randomUUID()}`, redirectUris: [REDIRECT_URI] };

function oidcSettings(issuer: string): OidcSettings {
  return {
    issuer: new URL(issuer),
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    redirectUri: new URL(REDIRECT_URI),
    scope: 'openid profile',
    schoolClaim: 'school',
    roleClaim: 'role',
    userClaim: 'sub',
    pupilRoles: ['pupil', 'student'],
    attemptTtlMs: DEFAULT_ATTEMPT_TTL_MS,
  };
}

/** A browser's cookies for one site: enough for the provider's interaction and session cookies. */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split('=')[1] ?? '') < Date.now()));
      if (value === '' || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

type SignInOptions = {
  /** Changes the authorization request on its way to the provider. */
  alterAuthorization?: (url: URL) => void;
  /** Cancels at the provider's sign-in page instead of choosing the user. */
  cancel?: boolean;
  /** Runs after the provider answered, before the browser reaches our callback. */
  beforeCallback?: (callback: URL, gradusCookies: CookieJar) => Promise<void> | void;
};

type SignInResult = {
  /** Where Gradus finally sent the browser (/oauth?...). */
  landing: URL;
  query: v.InferOutput<typeof OauthQuerySchema>;
  /** The callback URL the provider sent the browser to (undefined when start refused at once). */
  callback: URL | undefined;
  gradusCookies: CookieJar;
};

/** Does what a browser does: start, the provider's sign-in page as `account`, the callback. */
async function signIn(api: ApiContext, school: string, account: string, options: SignInOptions = {}): Promise<SignInResult> {
  const gradusCookies = new CookieJar();
  const start = await api.call('GET', `/api/sso/oidc/start?school=${encodeURIComponent(school)}`);
  expect(start.status).toBe(302);
  gradusCookies.store(start.headers);
  const first = new URL(start.headers.get('location') ?? '', 'http://gradus.test');
  if (first.pathname === '/oauth') return landed(first, undefined, gradusCookies);

  options.alterAuthorization?.(first);
  const idpCookies = new CookieJar();
  let url = first;
  let method: 'GET' | 'POST' = 'GET';
  let body: URLSearchParams | undefined;
  let callback: URL | undefined;
  for (let hop = 0; hop < 20 && !callback; hop++) {
    const response = await fetch(url, { method, body, redirect: 'manual', headers: { cookie: idpCookies.header() } });
    idpCookies.store(response.headers);
    method = 'GET';
    body = undefined;
    if (response.status >= 300 && response.status < 400) {
      const next = new URL(response.headers.get('location') ?? '', url);
      await response.arrayBuffer();
      if (next.href.startsWith(REDIRECT_URI)) callback = next;
      else url = next;
      continue;
    }
    const page = await response.text();
    expect(response.status, page).toBe(200);
    const uid = /^\/interaction\/([\w-]+)$/.exec(url.pathname)?.[1];
    if (!uid) throw new Error(`unexpected provider page ${url.href}`);
    expect(page).toContain(account); // the sign-in page offers the user
    method = 'POST';
    url = new URL(`/interaction/${uid}/${options.cancel ? 'abort' : 'login'}`, url);
    body = new URLSearchParams({ account });
  }
  if (!callback) throw new Error('the provider never sent the browser back');

  await options.beforeCallback?.(callback, gradusCookies);
  const cookie = gradusCookies.get(OIDC_STATE_COOKIE);
  const response = await api.call('GET', `/api/sso/oidc/callback${callback.search}`, {
    headers: cookie === undefined ? {} : { Cookie: `${OIDC_STATE_COOKIE}=${cookie}` },
  });
  expect(response.status).toBe(302);
  return landed(new URL(response.headers.get('location') ?? '', 'http://gradus.test'), callback, gradusCookies);
}

function landed(landing: URL, callback: URL | undefined, gradusCookies: CookieJar): SignInResult {
  expect(landing.pathname).toBe('/oauth');
  return { landing, query: v.parse(OauthQuerySchema, Object.fromEntries(landing.searchParams)), callback, gradusCookies };
}

/** The refusal a landing carries: exactly error=1, one SSO code and (when known) the school. */
function refusalOf(result: SignInResult): { errorCode: SsoErrorCode; schoolId: string | undefined } {
  const { query } = result;
  expect(query.error).toBe('1');
  expect(query.accessToken).toBeUndefined();
  expect([...result.landing.searchParams.keys()].sort()).toEqual(query.schoolId === undefined ? ['error', 'errorCode'] : ['error', 'errorCode', 'schoolId']);
  return { errorCode: query.errorCode as SsoErrorCode, schoolId: query.schoolId };
}

describe.each(kinds)('generic OpenID Connect sign-in on %s', (kind) => {
  let idp: RunningDemoIdp | undefined;
  const settings: Partial<AppSettings> = {};
  beforeAll(async () => {
    idp = await startDemoIdp({ port: 0, clients: [client], accounts: [] });
    settings.oidc = oidcSettings(idp.issuer);
  });
  afterAll(async () => {
    await idp?.close();
  });
  const api = useApi(kind, settings);

  /** A pupil booked into one sitting, with a login ID the provider knows as `sub`; school and role as given. */
  async function ssoPupil(
    options: { loginMethod?: number; venueDisabled?: boolean; role?: string | string[]; school?: string; inProvider?: boolean; inGradus?: boolean } = {},
  ) {
    const sittingOptions: SittingOptions = {
      organization: { loginMethod: options.loginMethod ?? 2 },
      venue: { disabled: options.venueDisabled ?? false },
    };
    const sitting = await addSitting(api.db, sittingOptions);
    const [row] = await api.db
      .select({ orgCode: organizations.code, orgId: organizations.id })
      .from(examinees)
      .innerJoin(organizations, eq(organizations.id, examinees.organizationId))
      .where(eq(examinees.id, sitting.examineeId));
    const loginId = `sso-${randomUUID()}`;
    if (options.inGradus !== false) await api.db.update(examinees).set({ loginId }).where(eq(examinees.id, sitting.examineeId));
    if (options.inProvider !== false) {
      idp!.accounts.set(loginId, {
        id: loginId,
        label: `Test user ${loginId}`,
        claims: { school: options.school ?? row!.orgCode, role: options.role ?? 'pupil' },
      });
    }
    return { ...sitting, loginId, orgCode: row!.orgCode, orgId: row!.orgId };
  }

  test('a pupil signs in and lands on /oauth with a token that works on GET /api/me', async () => {
    const pupil = await ssoPupil();
    const result = await signIn(api, pupil.orgCode, pupil.loginId);
    expect(Object.fromEntries(result.landing.searchParams)).toEqual({
      accessToken: expect.stringMatching(TOKEN_PATTERN),
      schoolId: pupil.orgCode,
      loginType: '2',
      orgStepMode: '0',
      orgCode: pupil.orgCode,
    });
    const me = await api.call('GET', '/api/me', { token: result.query.accessToken });
    expect(me.status).toBe(200);
    const body = v.parse(MeResponseSchema, me.body);
    expect(body.examinee).toMatchObject({ login_type: 2, org_code: pupil.orgCode, org_login_method: 2 });
  });

  test('an organisation in step mode is reported as orgStepMode=1', async () => {
    const pupil = await ssoPupil();
    await api.db.update(organizations).set({ enableModeStep: true }).where(eq(organizations.id, pupil.orgId));
    const result = await signIn(api, pupil.orgCode, pupil.loginId);
    expect(result.query.accessToken).toMatch(TOKEN_PATTERN);
    expect(result.query.orgStepMode).toBe('1');
  });

  test('a role claim given as a list is accepted when it names a pupil role', async () => {
    const pupil = await ssoPupil({ role: ['member', 'student'] });
    expect((await signIn(api, pupil.orgCode, pupil.loginId)).query.accessToken).toMatch(TOKEN_PATTERN);
  });

  test('start asks for the code flow with PKCE (S256), state and nonce, and binds the state to the browser', async () => {
    const pupil = await ssoPupil();
    const start = await api.call('GET', `/api/sso/oidc/start?school=${pupil.orgCode}`);
    expect(start.status).toBe(302);
    const url = new URL(start.headers.get('location') ?? '');
    expect(url.origin).toBe(idp!.issuer);
    const params = Object.fromEntries(url.searchParams);
    expect(params).toMatchObject({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: REDIRECT_URI,
      code_challenge_method: 'S256',
      scope: 'openid profile',
    });
    expect(params.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const cookie = start.headers.getSetCookie().find((c) => c.startsWith(`${OIDC_STATE_COOKIE}=`)) ?? '';
    expect(cookie).toContain(`${OIDC_STATE_COOKIE}=${params.state};`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\/api\/sso\/oidc/);

    // Kept in the database (any API process can finish it), the state only as a hash.
    const rows = await api.db.select().from(ssoLoginAttempts).where(eq(ssoLoginAttempts.nonce, params.nonce!));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.orgCode).toBe(pupil.orgCode);
    expect(JSON.stringify(rows)).not.toContain(params.state);
  });

  test('a tampered state is refused with invalid_state', async () => {
    const pupil = await ssoPupil();
    const result = await signIn(api, pupil.orgCode, pupil.loginId, {
      beforeCallback: (callback) => callback.searchParams.set('state', `${callback.searchParams.get('state')}x`),
    });
    expect(refusalOf(result)).toEqual({ errorCode: 'invalid_state', schoolId: pupil.orgCode });
  });

  test('a callback in another browser (without the state cookie) is refused with invalid_state', async () => {
    const pupil = await ssoPupil();
    const result = await signIn(api, pupil.orgCode, pupil.loginId, {
      beforeCallback: (_callback, cookies) => cookies.store(new Headers({ 'set-cookie': `${OIDC_STATE_COOKIE}=; Max-Age=0` })),
    });
    expect(refusalOf(result)).toEqual({ errorCode: 'invalid_state', schoolId: undefined });
  });

  test('a callback used twice is refused the second time with invalid_state', async () => {
    const pupil = await ssoPupil();
    const first = await signIn(api, pupil.orgCode, pupil.loginId);
    expect(first.query.accessToken).toMatch(TOKEN_PATTERN);
    const state = first.callback!.searchParams.get('state')!;
    const again = await api.call('GET', `/api/sso/oidc/callback${first.callback!.search}`, {
      headers: { Cookie: `${OIDC_STATE_COOKIE}=${state}` },
    });
    expect(again.status).toBe(302);
    const landing = new URL(again.headers.get('location') ?? '', 'http://gradus.test');
    expect(landing.searchParams.get('errorCode')).toBe('invalid_state');
    expect(landing.searchParams.has('accessToken')).toBe(false);
  });

  test('a sign-in that took longer than ten minutes is refused with invalid_state', async () => {
    const pupil = await ssoPupil();
    const result = await signIn(api, pupil.orgCode, pupil.loginId, {
      beforeCallback: () => api.clock.advance(DEFAULT_ATTEMPT_TTL_MS + 1000),
    });
    expect(refusalOf(result).errorCode).toBe('invalid_state');
  });

  test('an ID token whose nonce is not the one we sent is refused with invalid_nonce', async () => {
    const pupil = await ssoPupil();
    const result = await signIn(api, pupil.orgCode, pupil.loginId, {
      alterAuthorization: (url) => url.searchParams.set('nonce', 'a-nonce-someone-else-chose'),
    });
    expect(refusalOf(result)).toEqual({ errorCode: 'invalid_nonce', schoolId: pupil.orgCode });
  });

  test('a token response without an ID token is refused with id_token_notfound', async () => {
    const pupil = await ssoPupil();
    // Without the openid scope the provider answers as a plain OAuth 2.0 server: no ID token.
    const result = await signIn(api, pupil.orgCode, pupil.loginId, {
      alterAuthorization: (url) => {
        url.searchParams.set('scope', 'profile');
        url.searchParams.delete('nonce');
      },
    });
    expect(refusalOf(result)).toEqual({ errorCode: 'id_token_notfound', schoolId: pupil.orgCode });
  });

  test('a teacher is refused with invalid_role', async () => {
    const pupil = await ssoPupil({ role: 'teacher' });
    expect(refusalOf(await signIn(api, pupil.orgCode, pupil.loginId))).toEqual({ errorCode: 'invalid_role', schoolId: pupil.orgCode });
  });

  test('a user without a role claim is refused with invalid_role', async () => {
    const pupil = await ssoPupil();
    idp!.accounts.set(pupil.loginId, { id: pupil.loginId, label: 'no role', claims: { school: pupil.orgCode } });
    expect(refusalOf(await signIn(api, pupil.orgCode, pupil.loginId)).errorCode).toBe('invalid_role');
  });

  test('a pupil of a school we do not know is refused with school_notfound', async () => {
    const pupil = await ssoPupil({ school: 'NO-SUCH-SCHOOL' });
    expect(refusalOf(await signIn(api, pupil.orgCode, pupil.loginId))).toEqual({ errorCode: 'school_notfound', schoolId: pupil.orgCode });
  });

  test('a pupil of another school than the one the sign-in began for is refused with school_notfound', async () => {
    const pupil = await ssoPupil();
    const other = await ssoPupil();
    const result = await signIn(api, other.orgCode, pupil.loginId);
    expect(refusalOf(result)).toEqual({ errorCode: 'school_notfound', schoolId: other.orgCode });
  });

  test('a sign-in for a school we do not know is refused at once with school_notfound', async () => {
    const result = await signIn(api, 'NO-SUCH-SCHOOL', 'anyone');
    expect(result.callback).toBeUndefined();
    expect(refusalOf(result)).toEqual({ errorCode: 'school_notfound', schoolId: 'NO-SUCH-SCHOOL' });
  });

  test('a user the provider knows but we do not is refused with user_notfound', async () => {
    const pupil = await ssoPupil({ inGradus: false });
    expect(refusalOf(await signIn(api, pupil.orgCode, pupil.loginId))).toEqual({ errorCode: 'user_notfound', schoolId: pupil.orgCode });
  });

  test('a disabled examinee is refused with user_notfound', async () => {
    const pupil = await ssoPupil();
    await api.db.update(examinees).set({ disabled: true }).where(eq(examinees.id, pupil.examineeId));
    expect(refusalOf(await signIn(api, pupil.orgCode, pupil.loginId)).errorCode).toBe('user_notfound');
  });

  test('a disabled organisation is refused with disabled_org, at start and at the callback', async () => {
    const atStart = await ssoPupil();
    await api.db.update(organizations).set({ disabled: true }).where(eq(organizations.id, atStart.orgId));
    const early = await signIn(api, atStart.orgCode, atStart.loginId);
    expect(early.callback).toBeUndefined();
    expect(refusalOf(early)).toEqual({ errorCode: 'disabled_org', schoolId: atStart.orgCode });

    const meanwhile = await ssoPupil();
    const late = await signIn(api, meanwhile.orgCode, meanwhile.loginId, {
      beforeCallback: async () => void (await api.db.update(organizations).set({ disabled: true }).where(eq(organizations.id, meanwhile.orgId))),
    });
    expect(late.callback).toBeDefined();
    expect(refusalOf(late)).toEqual({ errorCode: 'disabled_org', schoolId: meanwhile.orgCode });
  });

  test('a pupil whose classroom is disabled is refused with disabled_class', async () => {
    const pupil = await ssoPupil({ venueDisabled: true });
    expect(refusalOf(await signIn(api, pupil.orgCode, pupil.loginId))).toEqual({ errorCode: 'disabled_class', schoolId: pupil.orgCode });
    // The same pupil with a classroom that is open again gets in.
    await api.db.update(venues).set({ disabled: false }).where(eq(venues.organizationId, pupil.orgId));
    expect((await signIn(api, pupil.orgCode, pupil.loginId)).query.accessToken).toMatch(TOKEN_PATTERN);
  });

  test('an organisation that does not log in by OAuth is refused with invalid_login_method, at start and at the callback', async () => {
    const codeSchool = await ssoPupil({ loginMethod: 1 });
    const early = await signIn(api, codeSchool.orgCode, codeSchool.loginId);
    expect(early.callback).toBeUndefined();
    expect(refusalOf(early)).toEqual({ errorCode: 'invalid_login_method', schoolId: codeSchool.orgCode });

    const switched = await ssoPupil();
    const late = await signIn(api, switched.orgCode, switched.loginId, {
      beforeCallback: async () => void (await api.db.update(organizations).set({ loginMethod: 3 }).where(eq(organizations.id, switched.orgId))),
    });
    expect(late.callback).toBeDefined();
    expect(refusalOf(late)).toEqual({ errorCode: 'invalid_login_method', schoolId: switched.orgCode });
  });

  test('an error from the provider (the user cancelled) is reported as unknown', async () => {
    const pupil = await ssoPupil();
    const result = await signIn(api, pupil.orgCode, pupil.loginId, { cancel: true });
    expect(result.callback?.searchParams.get('error')).toBe('access_denied');
    expect(refusalOf(result)).toEqual({ errorCode: 'unknown', schoolId: pupil.orgCode });
  });

  test('a code someone altered is refused by the provider and reported as unknown', async () => {
    const pupil = await ssoPupil();
    const result = await signIn(api, pupil.orgCode, pupil.loginId, {
      beforeCallback: (callback) => callback.searchParams.set('code', 'not-the-code'),
    });
    expect(refusalOf(result).errorCode).toBe('unknown');
  });

  test('the demo users of `npm run demo-idp` end as its header and the README say, on the seeded data', async () => {
    for (const account of demoAccounts) idp!.accounts.set(account.id, account);
    const expected: Record<string, SsoErrorCode | null> = {
      'sso-pupil-1': null,
      'sso-teacher': 'invalid_role',
      'sso-elsewhere': 'school_notfound',
      'sso-nobody': 'user_notfound',
    };
    expect(demoAccounts.map((a) => a.id).sort()).toEqual(Object.keys(expected).sort());
    const seeded = loadDemoAccounts().find((a) => a.scenario === 'sso');
    expect(seeded).toMatchObject({ login_id: 'sso-pupil-1', org_code: 'GRADUS-OAUTH' });
    for (const [id, refusal] of Object.entries(expected)) {
      const result = await signIn(api, 'GRADUS-OAUTH', id);
      if (refusal === null) {
        expect(result.query.accessToken, id).toMatch(TOKEN_PATTERN);
        const me = v.parse(MeResponseSchema, (await api.call('GET', '/api/me', { token: result.query.accessToken })).body);
        expect(me.examinee.examinee_name).toBe(seeded!.name);
      } else {
        expect(refusalOf(result), id).toEqual({ errorCode: refusal, schoolId: 'GRADUS-OAUTH' });
      }
    }
  });

  test('start without a well-formed school is a 422 VALIDATION_ERROR', async () => {
    for (const query of ['', '?school=', '?school=a%20b', `?school=${'x'.repeat(65)}`]) {
      const response = await api.call('GET', `/api/sso/oidc/start${query}`);
      expect(response.status, query).toBe(422);
      expect(errorOf(response)).toMatchObject({ code: 'VALIDATION_ERROR', issues: [{ field: 'school' }] });
    }
  });
});

describe.each(kinds)('single sign-on when it is not configured, or the provider is away, on %s', (kind) => {
  const off = useApi(kind);
  const settings: Partial<AppSettings> = { oidc: oidcSettings('http://127.0.0.1:9') };
  const away = useApi(kind, settings);

  test('without OIDC_ISSUER, start and callback answer 404 NOT_FOUND', async () => {
    for (const path of ['/api/sso/oidc/start?school=GRADUS-DEMO', '/api/sso/oidc/callback?code=x&state=y']) {
      const response = await off.call('GET', path);
      expect(response.status, path).toBe(404);
      expect(errorOf(response).code).toBe('NOT_FOUND');
    }
  });

  test('a provider that cannot be reached sends the pupil to /oauth with unknown', async () => {
    const [org] = await away.db
      .insert(organizations)
      .values({ code: `SSO-${randomUUID().slice(0, 8)}`, name: 'SSO school', category: 'SCHOOL', loginMethod: 2 })
      .returning();
    const response = await away.call('GET', `/api/sso/oidc/start?school=${org!.code}`);
    expect(response.status).toBe(302);
    const landing = new URL(response.headers.get('location') ?? '', 'http://gradus.test');
    expect(landing.pathname).toBe('/oauth');
    expect(Object.fromEntries(landing.searchParams)).toEqual({ error: '1', errorCode: 'unknown', schoolId: org!.code });
  });
});

describe('single sign-on settings from the environment', () => {
  test('OIDC_ISSUER unset: off', () => {
    expect(oidcSettingsFromEnv({ OIDC_CLIENT_ID: 'x' }, 3000)).toBeUndefined();
  });

  test('the defaults: claims school, role, sub; pupils and students; callback on the public origin', () => {
    const settings = oidcSettingsFromEnv({ OIDC_ISSUER: 'https://idp.example.org', OIDC_CLIENT_ID: 'gradus' }, 3000);
    expect(settings).toMatchObject({
      clientId: 'gradus',
      clientSecret: undefined,
      scope: 'openid profile',
      schoolClaim: 'school',
      roleClaim: 'role',
      userClaim: 'sub',
      pupilRoles: ['pupil', 'student'],
    });
    expect(settings?.redirectUri.href).toBe('http://localhost:3000/api/sso/oidc/callback');
    const behindProxy = oidcSettingsFromEnv(
      { OIDC_ISSUER: 'https://idp.example.org', OIDC_CLIENT_ID: 'gradus', PUBLIC_ORIGIN: 'https://exams.example.org', OIDC_USER_CLAIM: 'preferred_username' },
      3000,
    );
    expect(behindProxy?.redirectUri.href).toBe('https://exams.example.org/api/sso/oidc/callback');
    expect(behindProxy?.userClaim).toBe('preferred_username');
  });

  test.each([
    [{ OIDC_ISSUER: 'http://idp.example.org', OIDC_CLIENT_ID: 'gradus' }, /OIDC_ISSUER must be https/],
    [{ OIDC_ISSUER: 'https://idp.example.org' }, /OIDC_CLIENT_ID is required/],
    [{ OIDC_ISSUER: 'https://idp.example.org', OIDC_CLIENT_ID: 'gradus', OIDC_SCOPE: 'profile' }, /OIDC_SCOPE must include openid/],
  ])('a bad environment stops the start, naming the variable (%o)', (env, message) => {
    expect(() => oidcSettingsFromEnv(env, 3000)).toThrow(message);
  });

  test('partner gateways exist only for configured partners, and only over https (or on 127.0.0.1)', () => {
    const logger = { info: () => {}, error: () => {} };
    const gateways = partnerGatewaysFromEnv({ PARTNER_KENYA_VERIFY_URL: 'https://ke.example.org/verify', PARTNER_EGYPT_VERIFY_URL: '' }, logger);
    expect(Object.keys(gateways)).toEqual(['kenya']);
    expect(() => partnerGatewaysFromEnv({ PARTNER_MUMBAI_VERIFY_URL: 'http://in.example.org/verify' }, logger)).toThrow(/PARTNER_MUMBAI_VERIFY_URL/);
  });
});
