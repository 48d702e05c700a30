/**
 * Settings of generic OpenID Connect single sign-on, read from the environment:
 *
 * | Variable             | Default                                   | Meaning                                          |
 * |----------------------|-------------------------------------------|--------------------------------------------------|
 * | OIDC_ISSUER          | (unset: single sign-on is off, 404)       | the identity provider's issuer URL               |
 * | OIDC_CLIENT_ID       | required with OIDC_ISSUER                 | our client id at the provider                    |
 * | OIDC_CLIENT_SECRET   | (none: a public client, PKCE only)        | our client secret (client_secret_basic)          |
 * | OIDC_REDIRECT_URI    | <PUBLIC_ORIGIN>/api/sso/oidc/callback     | registered redirect URI                          |
 * | OIDC_SCOPE           | `openid profile`                          | scopes asked for                                 |
 * | OIDC_SCHOOL_CLAIM    | `school`                                  | ID token claim holding the organisation code     |
 * | OIDC_ROLE_CLAIM      | `role`                                    | ID token claim holding the role (string or list) |
 * | OIDC_USER_CLAIM      | `sub`                                     | ID token claim matched to the pupil's login ID   |
 * | OIDC_PUPIL_ROLES     | `pupil,student`                           | role values that may sit exams                   |
 * | PUBLIC_ORIGIN        | http://localhost:<PORT>                   | where browsers reach Gradus                      |
 *
 * The issuer must be https, except on the loopback interface (a local demo or test provider).
 */
import * as v from 'valibot';
import { parseEnv, presentEnv } from '../env-vars.ts';

export type OidcSettings = {
  issuer: URL;
  clientId: string;
  /** Undefined: a public client (token endpoint auth `none`), protected by PKCE alone. */
  clientSecret: string | undefined;
  redirectUri: URL;
  scope: string;
  schoolClaim: string;
  roleClaim: string;
  userClaim: string;
  /** Role values of pupils; only pupils may sit exams (anything else: invalid_role). */
  pupilRoles: readonly string[];
  /** How long a started sign-in may take before its callback is refused (invalid_state). */
  attemptTtlMs: number;
};

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Whether plain http may be used for this URL (only on the loopback interface). */
export function isLoopback(url: URL): boolean {
  return LOOPBACK.has(url.hostname);
}

const claimName = (name: string) =>
  v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_:./-]{1,100}$/, `${name} must be a claim name`)));
const httpUrl = (name: string) =>
  v.pipe(
    v.string(),
    v.url(`${name} must be a URL`),
    v.transform((s) => new URL(s)),
    v.check((u) => u.protocol === 'https:' || (u.protocol === 'http:' && isLoopback(u)), `${name} must be https (http only on 127.0.0.1)`),
  );

const OidcEnvSchema = v.object({
  OIDC_ISSUER: httpUrl('OIDC_ISSUER'),
  OIDC_CLIENT_ID: v.pipe(v.optional(v.string(), ''), v.nonEmpty('OIDC_CLIENT_ID is required with OIDC_ISSUER')),
  OIDC_CLIENT_SECRET: v.optional(v.string()),
  OIDC_REDIRECT_URI: v.optional(v.pipe(v.string(), v.url('OIDC_REDIRECT_URI must be a URL'))),
  OIDC_SCOPE: v.optional(v.pipe(v.string(), v.regex(/(^|\s)openid(\s|$)/, 'OIDC_SCOPE must include openid')), 'openid profile'),
  OIDC_SCHOOL_CLAIM: claimName('OIDC_SCHOOL_CLAIM'),
  OIDC_ROLE_CLAIM: claimName('OIDC_ROLE_CLAIM'),
  OIDC_USER_CLAIM: claimName('OIDC_USER_CLAIM'),
  OIDC_PUPIL_ROLES: v.optional(v.string(), 'pupil,student'),
  PUBLIC_ORIGIN: v.optional(v.pipe(v.string(), v.url('PUBLIC_ORIGIN must be a URL'))),
});

/** Ten minutes to sign in at the provider. */
export const DEFAULT_ATTEMPT_TTL_MS = 10 * 60_000;

/** The OpenID Connect settings, or undefined when OIDC_ISSUER is unset; throws naming a bad variable. */
export function oidcSettingsFromEnv(env: Record<string, string | undefined>, port: number): OidcSettings | undefined {
  if (presentEnv(env).OIDC_ISSUER === undefined) return undefined;
  const e = parseEnv(OidcEnvSchema, env);
  const origin = e.PUBLIC_ORIGIN ?? `http://localhost:${port}`;
  return {
    issuer: e.OIDC_ISSUER,
    clientId: e.OIDC_CLIENT_ID,
    clientSecret: e.OIDC_CLIENT_SECRET,
    redirectUri: new URL(e.OIDC_REDIRECT_URI ?? new URL('/api/sso/oidc/callback', origin).toString()),
    scope: e.OIDC_SCOPE,
    schoolClaim: e.OIDC_SCHOOL_CLAIM ?? 'school',
    roleClaim: e.OIDC_ROLE_CLAIM ?? 'role',
    userClaim: e.OIDC_USER_CLAIM ?? 'sub',
    pupilRoles: e.OIDC_PUPIL_ROLES.split(',').map((r) => r.trim()).filter((r) => r !== ''),
    attemptTtlMs: DEFAULT_ATTEMPT_TTL_MS,
  };
}
