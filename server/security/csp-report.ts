/**
 * POST /csp-report: where browsers report Content-Security-Policy violations (server/security/
 * headers.ts names it in report-uri and report-to). Both formats are read with valibot:
 * `application/csp-report` (`{"csp-report": {...}}`, report-uri) and `application/reports+json`
 * (a list of `{type: "csp-violation", body: {...}}`, the Reporting API). Each violation is
 * counted (gradus_csp_reports_total{directive}, on the fixed label set `cspDirectives`) and
 * logged, with URLs cut to origin and path (a query may hold a token); the answer is 204, with
 * no body. Per client address at most
 * `throttleLimits.cspReports` a minute are counted and logged; more are answered and dropped.
 *
 * GET /test/csp-reports answers the count, only where POST /test/clock exists
 * (GRADUS_CLOCK_CONTROL=1, tests only): the end-to-end journey asserts it stays 0.
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import { DomainError } from '../domain/errors.ts';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { parseWith, readJsonBody } from '../http/validate.ts';
import type { Metrics } from '../observability/metrics.ts';
import { clientAddress } from './client.ts';
import type { SecuritySettings } from './settings.ts';
import type { LoginThrottle } from './throttle.ts';

const text = v.optional(v.pipe(v.string(), v.maxLength(4096)));
const position = v.optional(v.union([v.number(), v.string()]));

/** The legacy body (report-uri), kebab-case. */
const LegacyReportSchema = v.object({
  'csp-report': v.looseObject({
    'document-uri': text,
    'violated-directive': text,
    'effective-directive': text,
    'blocked-uri': text,
    'source-file': text,
    'line-number': position,
    disposition: text,
  }),
});

/** The Reporting API's body (report-to), camelCase. */
const ViolationBodySchema = v.looseObject({
  documentURL: text,
  effectiveDirective: text,
  blockedURL: text,
  sourceFile: text,
  lineNumber: position,
  disposition: text,
});
const ReportListSchema = v.pipe(
  v.array(v.looseObject({ type: v.pipe(v.string(), v.maxLength(64)), body: v.optional(v.unknown()) })),
  v.maxLength(100),
);

export const CspReportRequestSchema = v.union([LegacyReportSchema, ReportListSchema]);

export type Violation = { directive: string; blocked: string; document: string; source: string; line: string; disposition: string };

/** A URL as it may be logged: origin and path only; keywords such as `inline` or `eval` as they are. */
function loggable(value: string | undefined): string {
  if (value === undefined || value === '') return '';
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return `${url.origin}${url.pathname}`.slice(0, 300);
    return `${url.protocol}`;
  } catch {
    return value.replace(/[^\w.:-]/g, '').slice(0, 40);
  }
}

/**
 * The metric's label set, fixed: the directives of CSP Level 3 (and the Reporting API's names for
 * them). A report names any directive it likes; each new name would be a new series kept for the
 * life of the process, so anything else is counted as `other` (the log line keeps the name).
 */
export const cspDirectives = [
  'default-src',
  'script-src',
  'script-src-elem',
  'script-src-attr',
  'style-src',
  'style-src-elem',
  'style-src-attr',
  'img-src',
  'font-src',
  'connect-src',
  'media-src',
  'object-src',
  'frame-src',
  'child-src',
  'worker-src',
  'manifest-src',
  'fenced-frame-src',
  'base-uri',
  'form-action',
  'frame-ancestors',
  'sandbox',
  'trusted-types',
  'require-trusted-types-for',
  'upgrade-insecure-requests',
  'webrtc',
  'other',
] as const;
type CspDirective = (typeof cspDirectives)[number];

/** A report's directive as it may be logged: a directive-shaped name, else `unknown`. */
function directiveOf(value: string | undefined): string {
  const name = (value ?? '').trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  return /^[a-z][a-z-]{1,39}$/.test(name) ? name : 'unknown';
}

/** A directive as a metric label: one of `cspDirectives`. */
export function directiveLabel(directive: string): CspDirective {
  return (cspDirectives as readonly string[]).includes(directive) ? (directive as CspDirective) : 'other';
}

export function violationsOf(report: v.InferOutput<typeof CspReportRequestSchema>): Violation[] {
  if (!Array.isArray(report)) {
    const r = report['csp-report'];
    return [
      {
        directive: directiveOf(r['effective-directive'] ?? r['violated-directive']),
        blocked: loggable(r['blocked-uri']),
        document: loggable(r['document-uri']),
        source: loggable(r['source-file']),
        line: String(r['line-number'] ?? ''),
        disposition: r.disposition ?? '',
      },
    ];
  }
  return report
    .filter((item) => item.type === 'csp-violation')
    .flatMap((item) => {
      const parsed = v.safeParse(ViolationBodySchema, item.body);
      if (!parsed.success) return [];
      const b = parsed.output;
      return [
        {
          directive: directiveOf(b.effectiveDirective),
          blocked: loggable(b.blockedURL),
          document: loggable(b.documentURL),
          source: loggable(b.sourceFile),
          line: String(b.lineNumber ?? ''),
          disposition: b.disposition ?? '',
        },
      ];
    });
}

export function cspReportRoutes(
  deps: AppDeps,
  options: { metrics: Metrics; throttle: LoginThrottle; security: SecuritySettings },
): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.post('/csp-report', async (c) => {
    const report = parseWith(CspReportRequestSchema, await readJsonBody(c));
    const violations = violationsOf(report);
    if (violations.length > 0 && (await options.throttle.admitReport(clientAddress(c, options.security)))) {
      for (const violation of violations) {
        options.metrics.cspReports.inc({ directive: directiveLabel(violation.directive) });
        deps.logger.info(`csp violation: ${violation.directive}`, { csp: violation });
      }
    }
    return c.body(null, 204);
  });

  routes.get('/test/csp-reports', async (c) => {
    if (!deps.settings.clockControl) throw new DomainError('NOT_FOUND', 'No such API route.');
    const counted = await options.metrics.cspReports.get();
    const count = counted.values.reduce((sum, sample) => sum + sample.value, 0);
    return c.json({ count, server_time: c.get('now').toISOString() }, 200);
  });

  return routes;
}
