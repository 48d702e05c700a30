/**
 * Request headers every call carries (seed section 7) and the health check.
 *
 * Part of the wire contract (contract/): valibot schemas the server validates requests with and
 * the client validates responses with. Imports nothing of server/, machines/ or src/.
 * Erasable TypeScript only: the server imports it directly under Node's type stripping.
 */
import * as v from 'valibot';
import { serverTime } from './common.ts';

/** GET /health: used by the connectivity check. */
export const HealthResponseSchema = v.object({ ok: v.literal(true), ...serverTime });

/** Request headers the client sends on every call (seed section 7). */
export const headerNames = {
  authorization: 'Authorization',
  acceptLanguage: 'Accept-Language',
  locale: 'X-Locale',
  deviceToken: 'X-Device-Token',
} as const;

/** X-Device-Token: an opaque id the terminal makes once (a uuid, say) and keeps. */
export const DeviceTokenSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9._~+/=-]{8,200}$/, 'invalid'));

/** X-Locale: a catalog key or a BCP 47 tag (en, en-gb, zh_yue_Hant, ar-nu-arab, yue-Hant-HK). */
export const LocaleHeaderSchema = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8}){0,4}$/, 'invalid'),
);

/**
 * The headers of seed section 7 as the server reads them (names lower-cased, as HTTP delivers
 * them). All optional; an empty value counts as absent. A malformed Authorization is simply
 * "not logged in"; a malformed X-Locale or X-Device-Token is a VALIDATION_ERROR.
 */
export const RequestHeadersSchema = v.object({
  authorization: v.optional(v.string()),
  'accept-language': v.optional(v.string()),
  'x-locale': v.optional(LocaleHeaderSchema),
  'x-device-token': v.optional(DeviceTokenSchema),
});
