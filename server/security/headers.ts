/**
 * The security headers of every response (the page, /api/* and the static assets), with Hono's
 * `secureHeaders`:
 * - Content-Security-Policy: our own origin for everything, no inline script and no eval (the
 *   built index.html loads one module script by URL; the service worker is registered from
 *   the app's own code, vite.config.ts `injectRegister: false`, and is a file, sw.js). Inline
 *   style ATTRIBUTES are allowed (`style-src-attr 'unsafe-inline'`): KaTeX writes its layout
 *   into style attributes; style elements and sheets still come only from us and Adyen.
 *   Adyen Web's Drop-in, wherever payment runs, reaches the hosts Adyen documents for test and
 *   live: checkoutshopper-{test,live}.adyen.com (scripts, styles, images, the secured card
 *   fields' frames, API calls), checkoutshopper-{test,live}.cdn.adyen.com (images, styles,
 *   scripts) and checkoutanalytics-{test,live}.adyen.com (its analytics calls). 3-D Secure
 *   challenges come from the card issuer's own host: with live Adyen, set CSP_FRAME_SRC=https:
 *   (the issuers cannot be listed; Adyen recommends allowing frames from any https host there).
 *   KaTeX's fonts are served from our own host (font-src 'self', and data: for the one small font
 *   the build inlines into KaTeX's stylesheet, which also comes from us). worker-src 'self' for the
 *   service worker. frame-ancestors: EMBED_TARGET_ORIGIN when the kiosk is embedded, else
 *   'none' (and X-Frame-Options: DENY for older browsers). Violations are reported to
 *   POST /api/csp-report (report-uri; report-to as well over TLS, where the Reporting API
 *   delivers).
 * - Strict-Transport-Security only on requests that came over TLS (directly or by a trusted
 *   proxy's X-Forwarded-Proto), max-age HSTS_MAX_AGE; none on plain http.
 * - Permissions-Policy: no camera, microphone, geolocation, sensors, USB...; fullscreen and
 *   payment for us (and payment for Adyen's frames).
 * - Cross-Origin-Opener-Policy: same-origin-allow-popups (a payment method may open a popup).
 * - and Hono's defaults: nosniff, Referrer-Policy no-referrer, CORP same-origin, ...
 *
 * The API's responses under /api (JSON, the metrics, redirects) are data, never a page: they carry
 * the short set OWASP's REST Security Cheat Sheet names for an API (`apiHeaders`): a CSP that
 * allows nothing and lets no one frame them, X-Frame-Options DENY, nosniff, no referrer, CORP
 * same-origin (and HSTS over TLS). What only governs a page (script and style sources, the
 * Permissions-Policy, COOP, the reporting of violations) would be 1.5 KB more on the response to
 * every answer save, read by no browser. The two documents (PDF) open as a page and keep the page's set.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import type { AppEnv } from '../http/env.ts';
import { DOCUMENT_PATHS } from '../http/negotiation.ts';
import { responseHeaders, isJsonResponse, writeResponseHeaders } from '../http/response-headers.ts';
import { isSecureRequest } from './client.ts';
import type { SecuritySettings } from './settings.ts';

/** Where browsers send CSP violation reports (mounted under /api by server/security/csp-report.ts). */
export const CSP_REPORT_PATH = '/api/csp-report';
export const CSP_REPORT_GROUP = 'csp-endpoint';

/** The hosts Adyen Web's Drop-in uses, test and live. */
export const adyenHosts = {
  shopper: ['https://checkoutshopper-test.adyen.com', 'https://checkoutshopper-live.adyen.com'],
  cdn: ['https://checkoutshopper-test.cdn.adyen.com', 'https://checkoutshopper-live.cdn.adyen.com'],
  analytics: ['https://checkoutanalytics-test.adyen.com', 'https://checkoutanalytics-live.adyen.com'],
} as const;

export type HeaderSettings = {
  security: SecuritySettings;
  /** The parent window's origin in embedded mode (EMBED_TARGET_ORIGIN); null: never framed. */
  embedTargetOrigin: string | null;
};

/** The CSP directives (Hono's option names: camelCase directives, each a list of sources). */
export function cspDirectives(settings: HeaderSettings, reportTo: boolean) {
  const { shopper, cdn, analytics } = adyenHosts;
  const extraFrames = settings.security.extraFrameSources;
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...shopper, ...cdn],
    styleSrc: ["'self'", ...shopper, ...cdn],
    styleSrcAttr: ["'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', ...shopper, ...cdn],
    // data: too: the build inlines KaTeX's smallest font (Size3, under Vite's 4 KB inline limit) into its own stylesheet.
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'", ...shopper, ...analytics],
    frameSrc: [...shopper, ...extraFrames],
    workerSrc: ["'self'"],
    manifestSrc: ["'self'"],
    mediaSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'self'", ...extraFrames],
    frameAncestors: settings.embedTargetOrigin === null ? ["'none'"] : [settings.embedTargetOrigin],
    reportUri: [CSP_REPORT_PATH],
    ...(reportTo ? { reportTo: CSP_REPORT_GROUP } : {}),
  };
}

/** The security headers of the API's responses (see the top of this file), without HSTS. */
export const apiHeaders: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/** Whether a request's response is the API's data (the short set), not a page, an asset or a document. */
export function isApiResponse(path: string): boolean {
  return path.startsWith('/api/') && !DOCUMENT_PATHS.includes(path.slice('/api'.length));
}

export function securityHeaders(settings: HeaderSettings): MiddlewareHandler<AppEnv> {
  const framed = settings.embedTargetOrigin !== null;
  const common: NonNullable<Parameters<typeof secureHeaders>[0]> = {
    // Sent per request below: only over TLS.
    strictTransportSecurity: false,
    xFrameOptions: framed ? false : 'DENY',
    crossOriginOpenerPolicy: 'same-origin-allow-popups',
    referrerPolicy: 'no-referrer',
    permissionsPolicy: {
      camera: [],
      microphone: [],
      geolocation: [],
      usb: [],
      serial: [],
      hid: [],
      midi: [],
      accelerometer: [],
      gyroscope: [],
      magnetometer: [],
      displayCapture: [],
      browsingTopics: [],
      fullscreen: ['self'],
      payment: ['self', ...adyenHosts.shopper],
    },
  };
  const plain = secureHeaders({ ...common, contentSecurityPolicy: cspDirectives(settings, false) });
  const overTls = secureHeaders({
    ...common,
    contentSecurityPolicy: cspDirectives(settings, true),
    reportingEndpoints: [{ name: CSP_REPORT_GROUP, url: CSP_REPORT_PATH }],
  });
  const hsts = settings.security.hstsMaxAge > 0 ? `max-age=${settings.security.hstsMaxAge}` : undefined;
  // Each set once, as Hono's secureHeaders writes it, then handed to every response as one record
  // (server/http/response-headers.ts): no header is built or validated per request.
  let sets: { plain: Record<string, string>; overTls: Record<string, string> } | undefined;
  const loading = Promise.all([headersOf(plain), headersOf(overTls)]).then(([p, t]) => {
    sets = { plain: p, overTls: hsts ? { ...t, 'strict-transport-security': hsts } : t };
    return sets;
  });
  const api = { plain: apiHeaders, overTls: hsts ? { ...apiHeaders, 'strict-transport-security': hsts } : apiHeaders };

  return async (c, next) => {
    const { plain: overPlainHttp, overTls: overHttps } = isApiResponse(c.req.path) ? api : (sets ?? (await loading));
    const first = responseHeaders(c, isSecureRequest(c, settings.security) ? overHttps : overPlainHttp);
    await next();
    // As secureHeaders does (nothing of ours sets it; a jsonResponse cannot carry it).
    if (!isJsonResponse(c.res)) {
      try {
        c.res.headers.delete('X-Powered-By');
      } catch {
        // A response whose headers cannot change (fetched from elsewhere) keeps them.
      }
    }
    if (first) writeResponseHeaders(c);
  };
}

/** The headers a secureHeaders middleware puts on a response (it sets the same ones on every response). */
async function headersOf(middleware: MiddlewareHandler): Promise<Record<string, string>> {
  const probe = new Hono().use(middleware).get('/', (c) => c.body(null, 204));
  const response = await probe.request('/');
  return Object.fromEntries(response.headers);
}
