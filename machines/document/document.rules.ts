/**
 * Reading the embed route's URL: `/score-report-embed/{id}?token=&locale=&document=report|certificate`
 * (seed section 2), and the login slips' print route `/login-slips/{schedule code}?token=&venue=`.
 * Pure functions: the kiosk asks whether a location is a document, and with what.
 */
import * as v from 'valibot';
import { LoginSlipsSearchSchema } from '../../contract/exports.ts';
import { catalogKeys } from '../../contract/languages.ts';
import type { DocumentInput } from './document.types.ts';

/** The login slips' print route: a test period's code as the admin API takes it. */
export const LOGIN_SLIPS_PATH_PATTERN = /^\/login-slips\/([A-Za-z0-9_-]{1,64})\/?$/;

export const DOCUMENT_PATH_PATTERN = /^\/score-report-embed\/([1-9][0-9]{0,9})\/?$/;

const SearchSchema = v.object({
  token: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{10,200}$/))),
  locale: v.optional(v.picklist([...catalogKeys, 'ar-nu-arab'])),
  document: v.optional(v.picklist(['report', 'certificate']), 'report'),
});

/** The document a location asks for, or null when it is not the embed route (or malformed). */
export function documentRequestOf(path: string, search: Record<string, string> = {}): DocumentInput | null {
  const slips = LOGIN_SLIPS_PATH_PATTERN.exec(path);
  if (slips) {
    const query = v.safeParse(LoginSlipsSearchSchema, search);
    if (!query.success) return null;
    return { document: 'slips', scheduleCode: slips[1]!, venueId: query.output.venue ?? null, token: query.output.token, locale: null };
  }
  const match = DOCUMENT_PATH_PATTERN.exec(path);
  if (!match) return null;
  const query = v.safeParse(SearchSchema, search);
  if (!query.success) return null;
  return {
    scheduleHistoryId: Number(match[1]),
    token: query.output.token ?? null,
    document: query.output.document,
    locale: query.output.locale ?? null,
  };
}
