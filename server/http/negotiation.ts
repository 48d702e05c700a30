/**
 * Content negotiation (seed section 8 lists HTTP 406 among the statuses the API answers). Each
 * call answers one media type: JSON, or a PDF for the two documents (/score-report/pdf-report,
 * /get-certificate; the login slips), or CSV (the results export). A request whose Accept header admits that type neither exactly, by its
 * `type/*` nor by `*\/*` (with q > 0), is answered 406 NOT_ACCEPTABLE before any work is done,
 * so nothing is written for a caller that said it cannot read the answer. Without an Accept
 * header anything is acceptable (RFC 9110, 12.5.1). Error bodies stay JSON whatever was asked:
 * the contract's ErrorBody is the one way a refusal is told.
 *
 * Calls whose answer is not the API's own (the Adyen webhook's `[accepted]`, the Prometheus
 * metrics, the CSP reports, the single sign-on redirects) are left to their own rules.
 */
import type { MiddlewareHandler } from 'hono';
import { DomainError } from '../domain/errors.ts';
import type { AppEnv } from './env.ts';

export type MediaType = 'application/json' | 'application/pdf' | 'text/csv';

/** The media type a call answers with, by its path under /api; null: not negotiated here. */
export type ProducesOf = (path: string) => MediaType | null;

type Range = { type: string; subtype: string; q: number };

/** How many different Accept headers `negotiate` remembers its verdict on. */
const KNOWN_ACCEPTS = 256;

/** The media ranges of an Accept header, each with its weight; malformed entries are skipped. */
export function parseAccept(header: string): Range[] {
  const ranges: Range[] = [];
  for (const part of header.split(',')) {
    const [range = '', ...params] = part.split(';').map((p) => p.trim());
    const match = /^([A-Za-z0-9!#$&^_.+*-]+)\/([A-Za-z0-9!#$&^_.+*-]+)$/.exec(range);
    if (!match) continue;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split('=').map((p) => p.trim());
      if (name?.toLowerCase() === 'q' && value !== undefined) {
        const weight = Number(value);
        q = Number.isFinite(weight) && weight >= 0 && weight <= 1 ? weight : 0;
      }
    }
    ranges.push({ type: match[1]!.toLowerCase(), subtype: match[2]!.toLowerCase(), q });
  }
  return ranges;
}

/**
 * Whether an Accept header admits the media type: the most specific range that matches it
 * decides (`application/json;q=0` refuses JSON even next to `*\/*`). A header with nothing
 * readable in it is treated as absent.
 */
export function accepts(header: string | undefined, mediaType: MediaType): boolean {
  if (header === undefined || header.trim() === '') return true;
  const ranges = parseAccept(header);
  if (ranges.length === 0) return true;
  const [type, subtype] = mediaType.split('/') as [string, string];
  const specificity = (r: Range) => (r.type === type && r.subtype === subtype ? 3 : r.type === type && r.subtype === '*' ? 2 : r.type === '*' && r.subtype === '*' ? 1 : 0);
  let best: Range | undefined;
  for (const range of ranges) {
    const s = specificity(range);
    if (s > 0 && (!best || s > specificity(best))) best = range;
  }
  return best !== undefined && best.q > 0;
}

/** Refuses, with 406 NOT_ACCEPTABLE, a request whose Accept admits nothing the call answers with. */
export function negotiate(producesOf: ProducesOf): MiddlewareHandler<AppEnv> {
  // Terminals send the same few Accept headers all day: each is judged once per media type
  // (at most KNOWN_ACCEPTS of them kept; past that, judged each time as before).
  const judged = new Map<string, boolean>();
  const admits = (header: string | undefined, mediaType: MediaType): boolean => {
    if (header === undefined) return true;
    const key = `${mediaType} ${header}`;
    let verdict = judged.get(key);
    if (verdict === undefined) {
      verdict = accepts(header, mediaType);
      if (judged.size < KNOWN_ACCEPTS && header.length <= 512) judged.set(key, verdict);
    }
    return verdict;
  };
  return async (c, next) => {
    const produces = producesOf(c.req.path.replace(/^\/api(?=\/)/, ''));
    if (produces !== null && !admits(c.req.header('accept'), produces)) {
      throw new DomainError('NOT_ACCEPTABLE', `This call answers with ${produces}, which the Accept header does not admit.`);
    }
    await next();
  };
}

/** The API's two documents (PDF, shown by the browser as a page), by their path under /api. */
export const DOCUMENT_PATHS: readonly string[] = ['/score-report/pdf-report', '/get-certificate'];

/** The API's own calls: JSON, but for the documents (PDF); the others named above are not negotiated. */
export function apiProduces(exempt: readonly string[]): ProducesOf {
  return (path) => {
    if (exempt.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) return null;
    if (DOCUMENT_PATHS.includes(path)) return 'application/pdf';
    // A test period's exports (server/routes/exports.ts): the login slips and the results.
    if (/^\/admin\/schedules\/[^/]+\/slips\.pdf$/.test(path)) return 'application/pdf';
    if (/^\/admin\/schedules\/[^/]+\/results\.csv$/.test(path)) return 'text/csv';
    return 'application/json';
  };
}
