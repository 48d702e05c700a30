/**
 * Settings of the API and of the process, with their defaults, and the reading of the
 * environment: PORT, DATABASE_URL, DATA_DIR, UPLOAD_WINDOW_HOURS, MAINTENANCE,
 * PARTNER_LOGOUT_URL_MUMBAI / _PHILIPPINE / _KENYA / _EGYPT, EMBED_TARGET_ORIGIN and (only
 * whether it is set) OIDC_ISSUER, GRADUS_CLOCK_CONTROL (tests only: a movable server clock,
 * POST /api/test/clock), WEB_CONCURRENCY (API processes on PostgreSQL; see
 * `apiProcessCount`) and GRADUS_DEMO (on|off: whether the demo data is loaded; see `demoWanted`). The payment settings (prices, ADYEN_*) are read by paymentSettingsFromEnv. A bad value stops the start with a message
 * naming the variable, rather than running with a surprise.
 */
import * as v from 'valibot';
import { defaultPaymentSettings, type PaymentSettings } from './domain/payments/settings.ts';
import { httpUrl, parseEnv, wholeNumber } from './env-vars.ts';
import type { PartnerGateways } from './partners/gateway.ts';
import { defaultSecuritySettings, type SecuritySettings } from './security/settings.ts';
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
  /** Prices, checkout lifetime, the Adyen credentials and whether the demo provider may stand in (server/domain/payments/settings.ts). */
  payments: PaymentSettings;
  /** POST /test/clock moves the server's clock and runs due jobs (env GRADUS_CLOCK_CONTROL=1; never by default). */
  clockControl: boolean;
  /** Proxies trusted, HSTS, our public origin, extra CSP frame sources (server/security/settings.ts; env TRUST_PROXY...). */
  security: SecuritySettings;
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
  payments: defaultPaymentSettings,
  clockControl: false,
  security: defaultSecuritySettings,
};

export type ServerConfig = {
  port: number;
  databaseUrl: string | undefined;
  dataDir: string;
  uploadWindowHours: number;
  maintenance: boolean;
  clientConfig: ClientSettings;
  /** GRADUS_CLOCK_CONTROL=1: end-to-end tests may move the server's clock. */
  clockControl: boolean;
  /** WEB_CONCURRENCY: API processes wanted (a number, or undefined: one per core); used only on PostgreSQL. */
  webConcurrency: number | undefined;
  /** Load the demo data at start (`demoWanted`): never on a deployment unless GRADUS_DEMO=on. */
  demo: boolean;
};

const optionalHttpUrl = (name: string) => v.optional(httpUrl(name));

/** The env names of the partner logout URLs, by login type. */
const partnerLogoutEnv = {
  '3': 'PARTNER_LOGOUT_URL_MUMBAI',
  '4': 'PARTNER_LOGOUT_URL_PHILIPPINE',
  '6': 'PARTNER_LOGOUT_URL_KENYA',
  '7': 'PARTNER_LOGOUT_URL_EGYPT',
} as const satisfies Record<PartnerLoginType, string>;

/** A price in USD cents: a whole number, at most $10,000. */
const cents = (name: string, fallback: number) =>
  v.optional(wholeNumber(name, { digits: 7, what: 'a whole number of US cents', max: 1_000_000 }), String(fallback));

const EnvSchema = v.object({
  PORT: v.optional(wholeNumber('PORT', { digits: 5, what: 'a port number', max: 65535 }), '3000'),
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
  PARTNER_LOGOUT_URL_MUMBAI: optionalHttpUrl('PARTNER_LOGOUT_URL_MUMBAI'),
  PARTNER_LOGOUT_URL_PHILIPPINE: optionalHttpUrl('PARTNER_LOGOUT_URL_PHILIPPINE'),
  PARTNER_LOGOUT_URL_KENYA: optionalHttpUrl('PARTNER_LOGOUT_URL_KENYA'),
  PARTNER_LOGOUT_URL_EGYPT: optionalHttpUrl('PARTNER_LOGOUT_URL_EGYPT'),
  EMBED_TARGET_ORIGIN: optionalHttpUrl('EMBED_TARGET_ORIGIN'),
  OIDC_ISSUER: v.optional(v.string()),
  GRADUS_CLOCK_CONTROL: v.optional(v.picklist(['0', '1'], 'GRADUS_CLOCK_CONTROL must be 1 or 0'), '0'),
  WEB_CONCURRENCY: v.optional(wholeNumber('WEB_CONCURRENCY', { digits: 3, what: 'a whole number of processes', min: 1, max: 256 })),
  GRADUS_DEMO: v.optional(v.picklist(['on', 'off'], 'GRADUS_DEMO must be on or off')),
});

/**
 * Whether the demo data (demo organisations, pupils and staff accounts, whose passwords the
 * README prints) is loaded at start. `npm start` with no configuration is the demo: PGlite, no
 * DATABASE_URL. A deployment (DATABASE_URL set, or GRADUS_DEMO=off) starts empty and never gets
 * a demo account; GRADUS_DEMO=on loads the demo into PostgreSQL too.
 */
export function demoWanted(env: { databaseUrl: string | undefined; gradusDemo: 'on' | 'off' | undefined }): boolean {
  if (env.gradusDemo !== undefined) return env.gradusDemo === 'on';
  return env.databaseUrl === undefined;
}

/** The payment settings' variables (server/domain/payments/settings.ts). */
const PaymentEnvSchema = v.object({
  ADYEN_API_KEY: v.optional(v.string()),
  ADYEN_CLIENT_KEY: v.optional(v.string()),
  ADYEN_MERCHANT_ACCOUNT: v.optional(v.string()),
  ADYEN_HMAC_KEY: v.optional(v.pipe(v.string(), v.regex(/^([0-9a-fA-F]{2})+$/, 'ADYEN_HMAC_KEY must be the hex key Adyen shows'))),
  ADYEN_ENVIRONMENT: v.optional(v.picklist(['test', 'live'], 'ADYEN_ENVIRONMENT must be test or live'), 'test'),
  ADYEN_LIVE_URL_PREFIX: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]+$/, 'ADYEN_LIVE_URL_PREFIX must be the prefix Adyen assigned'))),
  EXAM_FEE_USD_CENTS: cents('EXAM_FEE_USD_CENTS', defaultPaymentSettings.prices.exam_fee),
  RESULT_SHEET_USD_CENTS: cents('RESULT_SHEET_USD_CENTS', defaultPaymentSettings.prices.result_sheet),
  CERTIFICATE_USD_CENTS: cents('CERTIFICATE_USD_CENTS', defaultPaymentSettings.prices.certificate),
});

/** The Adyen credentials when ADYEN_API_KEY is set (then the others are required too); undefined: the demo provider. */
function adyenFromEnv(out: v.InferOutput<typeof PaymentEnvSchema>): PaymentSettings['adyen'] {
  if (out.ADYEN_API_KEY === undefined) return undefined;
  const { ADYEN_CLIENT_KEY: clientKey, ADYEN_MERCHANT_ACCOUNT: merchantAccount, ADYEN_HMAC_KEY: hmacKey } = out;
  const missing: string[] = [];
  if (clientKey === undefined) missing.push('ADYEN_CLIENT_KEY');
  if (merchantAccount === undefined) missing.push('ADYEN_MERCHANT_ACCOUNT');
  if (hmacKey === undefined) missing.push('ADYEN_HMAC_KEY');
  if (out.ADYEN_ENVIRONMENT === 'live' && out.ADYEN_LIVE_URL_PREFIX === undefined) missing.push('ADYEN_LIVE_URL_PREFIX');
  if (clientKey === undefined || merchantAccount === undefined || hmacKey === undefined || missing.length > 0) {
    throw new Error(`Invalid environment: ADYEN_API_KEY is set, so ${missing.join(', ')} must be set too`);
  }
  return {
    apiKey: out.ADYEN_API_KEY,
    clientKey,
    merchantAccount,
    hmacKey,
    environment: out.ADYEN_ENVIRONMENT,
    liveUrlPrefix: out.ADYEN_LIVE_URL_PREFIX,
  };
}

export function configFromEnv(env: Record<string, string | undefined> = process.env): ServerConfig {
  const out = parseEnv(EnvSchema, env);
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
    clockControl: out.GRADUS_CLOCK_CONTROL === '1',
    webConcurrency: out.WEB_CONCURRENCY,
    demo: demoWanted({ databaseUrl: out.DATABASE_URL, gradusDemo: out.GRADUS_DEMO }),
    clientConfig: {
      partnerLogoutUrls,
      // An origin, never a path: the parent window is addressed by origin (postMessage).
      embedTargetOrigin: out.EMBED_TARGET_ORIGIN === undefined ? null : new URL(out.EMBED_TARGET_ORIGIN).origin,
      oidcEnabled: out.OIDC_ISSUER !== undefined,
    },
  };
}

/**
 * Prices (EXAM_FEE_USD_CENTS 1500, RESULT_SHEET_USD_CENTS 500, CERTIFICATE_USD_CENTS 800 by
 * default) and Adyen (ADYEN_API_KEY, ADYEN_CLIENT_KEY, ADYEN_MERCHANT_ACCOUNT, ADYEN_HMAC_KEY,
 * ADYEN_ENVIRONMENT test|live, ADYEN_LIVE_URL_PREFIX for live). The provider: Adyen when
 * ADYEN_API_KEY is set; else the demo provider where the demo is (`demoWanted`: no
 * DATABASE_URL, or GRADUS_DEMO=on); else none, and nothing can be paid online.
 */
export function paymentSettingsFromEnv(env: Record<string, string | undefined> = process.env): PaymentSettings {
  const out = parseEnv(PaymentEnvSchema, env);
  const where = parseEnv(v.pick(EnvSchema, ['DATABASE_URL', 'GRADUS_DEMO']), env);
  return {
    ...defaultPaymentSettings,
    prices: { exam_fee: out.EXAM_FEE_USD_CENTS, result_sheet: out.RESULT_SHEET_USD_CENTS, certificate: out.CERTIFICATE_USD_CENTS },
    adyen: adyenFromEnv(out),
    demo: demoWanted({ databaseUrl: where.DATABASE_URL, gradusDemo: where.GRADUS_DEMO }),
  };
}

/**
 * How many API processes `npm start` runs: on PostgreSQL, WEB_CONCURRENCY or else one per core
 * (`cores`: os.availableParallelism()); they share the database, the jobs and the login
 * throttle. On PGlite always one: its data directory belongs to one process (server/db/client.ts),
 * and WEB_CONCURRENCY is ignored (`ignored` says so, for the log).
 */
export function apiProcessCount(config: Pick<ServerConfig, 'databaseUrl' | 'webConcurrency'>, cores: number): { count: number; ignored: boolean } {
  if (config.databaseUrl === undefined) return { count: 1, ignored: (config.webConcurrency ?? 1) > 1 };
  return { count: config.webConcurrency ?? Math.max(1, cores), ignored: false };
}

export function hoursToMs(hours: number): number {
  return Math.round(hours * HOUR_MS);
}
