/**
 * Settings of the API and of the process, with their defaults, and the reading of the
 * environment: PORT, DATABASE_URL, DATA_DIR, UPLOAD_WINDOW_HOURS, MAINTENANCE,
 * PARTNER_LOGOUT_URL_MUMBAI / _PHILIPPINE / _KENYA / _EGYPT, EMBED_TARGET_ORIGIN and (only
 * whether it is set) OIDC_ISSUER. A bad value stops the start with a message naming the
 * variable, rather than running with a surprise.
 */
import * as v from 'valibot';
import type { PartnerGateways } from './partners/gateway.ts';
import type { OidcSettings } from './sso/settings.ts';

const HOUR_MS = 3_600_000;

/** What the API's rules need to know. */
export type AppSettings = {
  /** How long after the deadline answers given before it are still accepted (flagged late). */
  uploadWindowMs: number;
  /** How long a login token lives. */
  tokenTtlMs: number;
  /** The largest request body accepted. */
  maxBodyBytes: number;
  /** Generic OpenID Connect single sign-on (server/sso/settings.ts); undefined: off. */
  oidc: OidcSettings | undefined;
  /** Partner token checks (server/partners/gateway.ts); a partner without one is refused. */
  partners: PartnerGateways;
  /** The whole service is in maintenance (env MAINTENANCE=1): every call but health and client config is 401. */
  maintenance: boolean;
  /** How often (on the clock) a process rereads the maintenance windows. */
  maintenanceRefreshMs: number;
  /** What GET /client-config tells the browser. */
  clientConfig: ClientSettings;
};

/** Partner login types whose logout leads to the partner's site: 3 Mumbai, 4 Philippine, 6 Kenya, 7 Egypt. */
export type PartnerLoginType = '3' | '4' | '6' | '7';

export type ClientSettings = {
  partnerLogoutUrls: Partial<Record<PartnerLoginType, string>>;
  /** The parent window's origin in embedded mode; null: not embedded. */
  embedTargetOrigin: string | null;
  /** Generic OpenID Connect single sign-on is configured (OIDC_ISSUER). */
  oidcEnabled: boolean;
};

export const defaultSettings: AppSettings = {
  uploadWindowMs: 24 * HOUR_MS,
  tokenTtlMs: 12 * HOUR_MS,
  maxBodyBytes: 16 * 1024,
  oidc: undefined,
  partners: {},
  maintenance: false,
  maintenanceRefreshMs: 15_000,
  clientConfig: { partnerLogoutUrls: {}, embedTargetOrigin: null, oidcEnabled: false },
};

export type ServerConfig = {
  port: number;
  databaseUrl: string | undefined;
  dataDir: string;
  uploadWindowHours: number;
  maintenance: boolean;
  clientConfig: ClientSettings;
};

const httpUrl = (name: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.url(`${name} must be a URL`),
      v.check((s) => /^https?:\/\//i.test(s), `${name} must be an http(s) URL`),
    ),
  );

/** The env names of the partner logout URLs, by login type. */
const partnerLogoutEnv = {
  '3': 'PARTNER_LOGOUT_URL_MUMBAI',
  '4': 'PARTNER_LOGOUT_URL_PHILIPPINE',
  '6': 'PARTNER_LOGOUT_URL_KENYA',
  '7': 'PARTNER_LOGOUT_URL_EGYPT',
} as const satisfies Record<PartnerLoginType, string>;

const EnvSchema = v.object({
  PORT: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,5}$/, 'PORT must be a port number'),
      v.transform(Number),
      v.maxValue(65535, 'PORT must be at most 65535'),
    ),
    '3000',
  ),
  DATABASE_URL: v.optional(v.pipe(v.string(), v.regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL'))),
  DATA_DIR: v.optional(v.pipe(v.string(), v.nonEmpty('DATA_DIR must not be empty')), './data'),
  UPLOAD_WINDOW_HOURS: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+(\.\d+)?$/, 'UPLOAD_WINDOW_HOURS must be a number of hours'),
      v.transform(Number),
      v.maxValue(24 * 30, 'UPLOAD_WINDOW_HOURS must be at most 720'),
    ),
    '24',
  ),
  MAINTENANCE: v.optional(v.picklist(['0', '1', 'true', 'false'], 'MAINTENANCE must be 1 or 0'), '0'),
  PARTNER_LOGOUT_URL_MUMBAI: httpUrl('PARTNER_LOGOUT_URL_MUMBAI'),
  PARTNER_LOGOUT_URL_PHILIPPINE: httpUrl('PARTNER_LOGOUT_URL_PHILIPPINE'),
  PARTNER_LOGOUT_URL_KENYA: httpUrl('PARTNER_LOGOUT_URL_KENYA'),
  PARTNER_LOGOUT_URL_EGYPT: httpUrl('PARTNER_LOGOUT_URL_EGYPT'),
  EMBED_TARGET_ORIGIN: httpUrl('EMBED_TARGET_ORIGIN'),
  OIDC_ISSUER: v.optional(v.string()),
});

export function configFromEnv(env: Record<string, string | undefined> = process.env): ServerConfig {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = v.safeParse(EnvSchema, present);
  if (!result.success) {
    throw new Error(`Invalid environment: ${result.issues.map((i) => i.message).join('; ')}`);
  }
  const out = result.output;
  const partnerLogoutUrls: ClientSettings['partnerLogoutUrls'] = {};
  for (const [loginType, name] of Object.entries(partnerLogoutEnv) as [PartnerLoginType, keyof typeof out][]) {
    const url = out[name];
    if (typeof url === 'string') partnerLogoutUrls[loginType] = url;
  }
  return {
    port: out.PORT,
    databaseUrl: out.DATABASE_URL,
    dataDir: out.DATA_DIR,
    uploadWindowHours: out.UPLOAD_WINDOW_HOURS,
    maintenance: out.MAINTENANCE === '1' || out.MAINTENANCE === 'true',
    clientConfig: {
      partnerLogoutUrls,
      // An origin, never a path: the parent window is addressed by origin (postMessage).
      embedTargetOrigin: out.EMBED_TARGET_ORIGIN === undefined ? null : new URL(out.EMBED_TARGET_ORIGIN).origin,
      oidcEnabled: out.OIDC_ISSUER !== undefined,
    },
  };
}

export function hoursToMs(hours: number): number {
  return Math.round(hours * HOUR_MS);
}
