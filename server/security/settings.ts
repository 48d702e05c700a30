/**
 * The settings of the hardening and observability layer, and their reading from the
 * environment. A bad value stops the start with a message naming the variable.
 *
 * | Variable             | Default         | Meaning                                                             |
 * |----------------------|-----------------|---------------------------------------------------------------------|
 * | TRUST_PROXY          | 0               | How many reverse proxies in front of Gradus append to X-Forwarded-For |
 * |                      |                 | (and set X-Forwarded-Proto/-Host). 0: the socket's address is the client. |
 * | HSTS_MAX_AGE         | 15552000        | Strict-Transport-Security max-age (s) on requests that came over TLS; 0: never. |
 * | PUBLIC_ORIGIN        | unset           | Where browsers reach Gradus; a payment's return_url must be on it (unset: http on loopback only). |
 * | CSP_FRAME_SRC        | unset           | Extra frame-src / form-action sources (space separated), e.g. `https:` for 3-D Secure issuers with live Adyen. |
 * | METRICS_PORT         | unset           | Serve GET /metrics (Prometheus) on 127.0.0.1:<port> without a token. |
 * | LOG_LEVEL            | info            | (read by server/logger.ts) fatal, error, warn, info, debug, trace or silent. |
 */
import * as v from 'valibot';
import { httpUrl, parseEnv, wholeNumber } from '../env-vars.ts';

export type SecuritySettings = {
  /** How many trusted reverse proxies stand in front (TRUST_PROXY); 0: X-Forwarded-* are ignored. */
  trustProxy: number;
  /** Strict-Transport-Security max-age in seconds, sent only on requests that came over TLS; 0: never sent. */
  hstsMaxAge: number;
  /** Our own origin as browsers see it (PUBLIC_ORIGIN); undefined: pages on this machine only (http on loopback). */
  publicOrigin: string | undefined;
  /** Extra sources for frame-src and form-action (CSP_FRAME_SRC), e.g. `https:` for 3-D Secure issuers. */
  extraFrameSources: readonly string[];
};

/** 180 days: long enough that browsers keep to TLS between visits, short enough to undo a mistake. */
export const DEFAULT_HSTS_MAX_AGE = 15_552_000;

export const defaultSecuritySettings: SecuritySettings = {
  trustProxy: 0,
  hstsMaxAge: DEFAULT_HSTS_MAX_AGE,
  publicOrigin: undefined,
  extraFrameSources: [],
};

/** A CSP source expression we accept from the environment: a scheme (`https:`) or an http(s) origin, wildcards allowed. */
const CSP_SOURCE = /^(?:https?:|https?:\/\/(?:\*\.)?[A-Za-z0-9.-]+(?::\d{1,5})?)$/;

const SecurityEnvSchema = v.object({
  TRUST_PROXY: v.optional(
    v.pipe(v.string(), v.regex(/^\d$/, 'TRUST_PROXY must be the number of reverse proxies in front of Gradus (0 to 9)'), v.transform(Number)),
    '0',
  ),
  HSTS_MAX_AGE: v.optional(
    v.pipe(v.string(), v.regex(/^\d{1,9}$/, 'HSTS_MAX_AGE must be a number of seconds (0 turns HSTS off)'), v.transform(Number)),
    String(DEFAULT_HSTS_MAX_AGE),
  ),
  PUBLIC_ORIGIN: v.optional(v.pipe(httpUrl('PUBLIC_ORIGIN'), v.transform((s) => new URL(s).origin))),
  CSP_FRAME_SRC: v.optional(
    v.pipe(
      v.string(),
      v.transform((s) => s.split(/\s+/).filter(Boolean)),
      v.check((list) => list.every((s) => CSP_SOURCE.test(s)), 'CSP_FRAME_SRC must list schemes (https:) or http(s) origins, separated by spaces'),
    ),
  ),
  METRICS_PORT: v.optional(wholeNumber('METRICS_PORT', { digits: 5, what: 'a port number', min: 1, max: 65535 })),
});

export type SecurityEnv = { security: SecuritySettings; metricsPort: number | undefined };

export function securitySettingsFromEnv(env: Record<string, string | undefined> = process.env): SecurityEnv {
  const out = parseEnv(SecurityEnvSchema, env);
  return {
    security: {
      trustProxy: out.TRUST_PROXY,
      hstsMaxAge: out.HSTS_MAX_AGE,
      publicOrigin: out.PUBLIC_ORIGIN,
      extraFrameSources: out.CSP_FRAME_SRC ?? [],
    },
    metricsPort: out.METRICS_PORT,
  };
}
