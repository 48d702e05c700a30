/**
 * What leaves the system for a test period (DESIGN.md, "A deployment, from an empty database"):
 * the login slips (a PDF printed by Chromium from the app's print route, which reads the slips'
 * data below) and the results (a CSV). All under /admin, for administrators.
 *
 * - GET /admin/schedules/:code/slips.pdf?venue=<venue id>   -> application/pdf (A4, 8 slips a page)
 * - GET /admin/schedules/:code/results.csv?venue=<venue id> -> text/csv; charset=utf-8, with a BOM
 * - GET /admin/schedules/:code/slips?venue=<venue id>       -> LoginSlipsResponse, for the print
 *   route only: its bearer token is the short-lived slips token the PDF route issued, never a
 *   staff token (one test period, one classroom, a few minutes, read only).
 *
 * Part of the wire contract (contract/): valibot schemas the server validates requests with and
 * the client validates responses with. Imports nothing of server/, machines/ or src/.
 * Erasable TypeScript only: the server imports it directly under Node's type stripping.
 */
import * as v from 'valibot';
import { isoTimestamp, serverTime } from './common.ts';
import { catalogKeys } from './languages.ts';
import { numericQuery } from './session.ts';

/** `?venue=<venue id>`: one classroom of the test period's school; absent: every pupil of the test period. */
export const ExportQuerySchema = v.object({
  venue: v.optional(numericQuery),
});
export type ExportQuery = v.InferOutput<typeof ExportQuerySchema>;

/** The print route's URL: `/login-slips/<schedule code>?token=&venue=`. */
export const LoginSlipsSearchSchema = v.object({
  token: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{10,200}$/)),
  venue: v.optional(numericQuery),
});

/** One pupil's slip. */
export const LoginSlipSchema = v.object({
  /** As the school wrote it, in the pupil's own script. */
  name: v.string(),
  /** The pupil's class ("6B"); empty when the roster gave none. */
  class_name: v.string(),
  /** The classroom (venue) the pupil sits in; null: none assigned. */
  classroom: v.nullable(v.string()),
  /** XXXX-XXXX-XXXX, as the pupil types it. */
  login_code: v.string(),
  /** The language the slip is written in (the pupil's; English when the roster gave none). */
  locale: v.picklist(catalogKeys),
});
export type LoginSlip = v.InferOutput<typeof LoginSlipSchema>;

/** GET /admin/schedules/:code/slips: everything the print route puts on the slips. */
export const LoginSlipsResponseSchema = v.object({
  school: v.object({ code: v.string(), name: v.string() }),
  schedule: v.object({
    code: v.string(),
    /** Empty when the test period has no name (show the code). */
    name: v.string(),
    starts_at: isoTimestamp,
    ends_at: isoTimestamp,
  }),
  /** The classroom asked for; null: the whole test period. */
  venue: v.nullable(v.object({ id: v.number(), name: v.string() })),
  /** Where a pupil types the code: the server's public origin + /login-code. */
  login_url: v.string(),
  /** Sorted by classroom, class, then name. */
  slips: v.array(LoginSlipSchema),
  ...serverTime,
});
export type LoginSlipsResponse = v.InferOutput<typeof LoginSlipsResponseSchema>;
