/**
 * Partner single sign-on (seed sections 1, 2 rules 2-3, 6): Kenya, Egypt, the Philippines
 * ("kaigen") and Mumbai check their own users; we cannot reach them from here, so each check
 * sits behind one interface, `PartnerGateway`: a partner token in, the partner's pupil out (or an
 * SSO error code of seed section 8).
 *
 * The configured implementation, `httpPartnerGateway`, speaks this JSON to the partner's
 * verification endpoint (env PARTNER_<NAME>_VERIFY_URL, NAME one of KENYA, EGYPT, PHILIPPINES,
 * MUMBAI; optional PARTNER_<NAME>_VERIFY_KEY is sent as `Authorization: Bearer <key>`):
 *
 *   POST <verify url>   { "token": "<the partner's token>" }
 *   200 { "valid": true, "user_id": "<pupil's login ID with us>", "org_code": "<our organisation code>",
 *         "language": "<catalog key>" | null, "step_mode": true | false }
 *   200 { "valid": false, "error": "<an SSO error code>" }
 *
 * Anything else (another status, another shape, no answer within 10 s) is refused as `unknown`;
 * the reason goes to the log. Tests point this same implementation at a local double that speaks
 * these shapes (test/api/partners.test.ts).
 */
import * as v from 'valibot';
import { LoginType } from '../../contract/enums.ts';
import { SsoErrorCodeSchema, type SsoErrorCode } from '../../contract/session.ts';
import type { Logger } from '../logger.ts';

export const partnerNames = ['kenya', 'egypt', 'philippines', 'mumbai'] as const;
export type PartnerName = (typeof partnerNames)[number];

/** The login type (seed section 3) a partner's pupils log in with. */
export const partnerLoginType: Record<PartnerName, 3 | 4 | 6 | 7> = {
  mumbai: LoginType.MUMBAI,
  philippines: LoginType.PHILIPPINE,
  kenya: LoginType.KENYA,
  egypt: LoginType.EGYPT,
};

/** A pupil as the partner vouches for them. */
export type PartnerIdentity = {
  /** The pupil's login ID with us (examinees.login_id). */
  userId: string;
  orgCode: string;
  language: string | null;
  stepMode: boolean;
};

export type PartnerVerification = { ok: true; identity: PartnerIdentity } | { ok: false; error: SsoErrorCode };

export type PartnerGateway = {
  verify(token: string): Promise<PartnerVerification>;
};

/** The configured gateways; a partner without one is refused as `unknown`. */
export type PartnerGateways = Partial<Record<PartnerName, PartnerGateway>>;

export const PartnerVerifyResponseSchema = v.variant('valid', [
  v.object({
    valid: v.literal(true),
    user_id: v.pipe(v.string(), v.nonEmpty(), v.maxLength(64)),
    org_code: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/)),
    language: v.nullish(v.pipe(v.string(), v.regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8}){0,4}$/)), null),
    step_mode: v.optional(v.boolean(), false),
  }),
  v.object({ valid: v.literal(false), error: SsoErrorCodeSchema }),
]);
export type PartnerVerifyResponse = v.InferInput<typeof PartnerVerifyResponseSchema>;

export type HttpPartnerOptions = {
  verifyUrl: URL;
  key?: string | undefined;
  logger: Logger;
  timeoutMs?: number;
  fetch?: typeof fetch;
};

export function httpPartnerGateway(partner: PartnerName, options: HttpPartnerOptions): PartnerGateway {
  const doFetch = options.fetch ?? fetch;
  return {
    async verify(token) {
      let response: Response;
      try {
        response = await doFetch(options.verifyUrl, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Accept: 'application/json',
            ...(options.key ? { Authorization: `Bearer ${options.key}` } : {}),
          },
          body: JSON.stringify({ token }),
          redirect: 'error',
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        });
      } catch (error) {
        options.logger.error(`partner ${partner}: verification call failed`, error);
        return { ok: false, error: 'unknown' };
      }
      let body: unknown;
      try {
        body = response.status === 200 ? await response.json() : undefined;
      } catch {
        body = undefined;
      }
      const parsed = v.safeParse(PartnerVerifyResponseSchema, body);
      if (!parsed.success) {
        options.logger.error(`partner ${partner}: unexpected verification answer (HTTP ${response.status})`);
        return { ok: false, error: 'unknown' };
      }
      const answer = parsed.output;
      if (!answer.valid) return { ok: false, error: answer.error };
      return {
        ok: true,
        identity: { userId: answer.user_id, orgCode: answer.org_code, language: answer.language, stepMode: answer.step_mode },
      };
    },
  };
}

/** The gateways configured by PARTNER_<NAME>_VERIFY_URL (and _VERIFY_KEY); throws naming a bad URL. */
export function partnerGatewaysFromEnv(env: Record<string, string | undefined>, logger: Logger): PartnerGateways {
  const gateways: PartnerGateways = {};
  for (const partner of partnerNames) {
    const prefix = `PARTNER_${partner.toUpperCase()}_VERIFY`;
    const url = env[`${prefix}_URL`];
    if (!url) continue;
    let verifyUrl: URL;
    try {
      verifyUrl = new URL(url);
    } catch {
      throw new Error(`Invalid environment: ${prefix}_URL must be a URL`);
    }
    if (verifyUrl.protocol !== 'https:' && !(verifyUrl.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(verifyUrl.hostname))) {
      throw new Error(`Invalid environment: ${prefix}_URL must be https (http only on 127.0.0.1)`);
    }
    gateways[partner] = httpPartnerGateway(partner, { verifyUrl, key: env[`${prefix}_KEY`] || undefined, logger });
  }
  return gateways;
}
