/**
 * Documents: the score report PDF and the certificate (seed section 2).
 *
 * Part of the wire contract (contract/): valibot schemas the server validates requests with and
 * the client validates responses with. Imports nothing of server/, machines/ or src/.
 * Erasable TypeScript only: the server imports it directly under Node's type stripping.
 */
import * as v from 'valibot';
import { LocaleHeaderSchema } from './http.ts';
import { numericQuery } from './session.ts';

/**
 * GET /score-report/pdf-report and GET /get-certificate answer application/pdf (a blob), rendered
 * by Chromium in the language of `locale` (a catalog key; default: the request's X-Locale).
 */
export const DocumentQuerySchema = v.object({
  schedule_history_id: numericQuery,
  locale: v.optional(LocaleHeaderSchema),
});
