/**
 * Security headers (server/security/headers.ts), the CSP report endpoint
 * (server/security/csp-report.ts), payment return URLs (server/security/return-url.ts) and the
 * environment they are read from (server/security/settings.ts).
 * Headers are checked on the page (/ and a client route), an asset and the API, through the
 * real server (startServer) on a socket, as a browser gets them.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ErrorBodySchema } from '../../contract/errors.ts';
import { createApp } from '../../server/app.ts';
import { defaultSettings } from '../../server/config.ts';
import { startServer, type RunningServer } from '../../server/main.ts';
import { silentLogger } from '../../server/logger.ts';
import { adyenHosts } from '../../server/security/headers.ts';
import { DEFAULT_HSTS_MAX_AGE, defaultSecuritySettings, securitySettingsFromEnv } from '../../server/security/settings.ts';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../helpers/db.ts';
import { useApi } from '../helpers/server-api.ts';
import { addSitting } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();

/** The CSP as a map of directive to sources. */
function cspOf(header: string | null): Map<string, string[]> {
  expect(header, 'a Content-Security-Policy header').not.toBeNull();
  return new Map(
    header!
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

describe('security headers on the page, the assets and the API (real server)', () => {
  const dist = mkdtempSync(path.join(tmpdir(), 'gradus-dist-headers-'));
  let server: RunningServer;

  beforeAll(async () => {
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Gradus</title><script type="module" src="/assets/index-1a2b3c.js"></script>');
    writeFileSync(path.join(dist, 'assets', 'index-1a2b3c.js'), 'export {};');
    writeFileSync(path.join(dist, 'assets', 'KaTeX_Main-Regular-abc.woff2'), 'font');
    server = await startServer({ port: 0, memory: true, distDir: dist, logger: silentLogger, seed: false, runJobs: false });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  // The pages, the assets, and the two documents (a PDF opens as a page), answered or refused.
  const paths = ['/', '/login-code', '/assets/index-1a2b3c.js', '/assets/KaTeX_Main-Regular-abc.woff2', '/api/get-certificate', '/api/score-report/pdf-report'];

  test.each(paths)('%s: a CSP with no inline script, Adyen where payment runs, KaTeX fonts from us, framed by nobody', async (urlPath) => {
    const response = await fetch(`${server.url}${urlPath}`);
    await response.arrayBuffer();
    const csp = cspOf(response.headers.get('content-security-policy'));
    expect(csp.get('default-src')).toEqual(["'self'"]);
    const scripts = csp.get('script-src')!;
    expect(scripts).toContain("'self'");
    for (const forbidden of ["'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", 'data:', '*', 'https:']) expect(scripts).not.toContain(forbidden);
    expect(csp.has('script-src-elem')).toBe(false);
    expect(csp.has('script-src-attr')).toBe(false);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    // KaTeX's fonts: files from us, and the one small font the build inlines into KaTeX's stylesheet.
    expect(csp.get('font-src')).toEqual(["'self'", 'data:']);
    expect(csp.get('worker-src')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('report-uri')).toEqual(['/api/csp-report']);
    // Plain http: the Reporting API would not deliver; report-uri does.
    expect(csp.has('report-to')).toBe(false);
    for (const host of [...adyenHosts.shopper]) {
      for (const directive of ['script-src', 'style-src', 'img-src', 'connect-src', 'frame-src']) expect(csp.get(directive), directive).toContain(host);
    }
    for (const host of adyenHosts.cdn) for (const directive of ['img-src', 'style-src']) expect(csp.get(directive), directive).toContain(host);
    for (const host of adyenHosts.analytics) expect(csp.get('connect-src')).toContain(host);

    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
    const permissions = response.headers.get('permissions-policy') ?? '';
    for (const denied of ['camera=()', 'microphone=()', 'geolocation=()', 'usb=()']) expect(permissions).toContain(denied);
    expect(permissions).toContain('fullscreen=(self)');
    // Plain http: no HSTS (browsers ignore it there, and a LAN install may have no TLS at all).
    expect(response.headers.get('strict-transport-security')).toBeNull();
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  const apiPaths = ['/api/health', '/api/nowhere', '/api/exam/answers', '/api/client-config', '/api/organization?org_code=nowhere'];

  test.each(apiPaths)("%s: the API's short set: nothing may load, nobody may frame it, nothing a page alone reads", async (urlPath) => {
    const response = await fetch(`${server.url}${urlPath}`, urlPath === '/api/exam/answers' ? { method: 'POST', body: '{}' } : {});
    await response.arrayBuffer();
    const names = [...response.headers.keys()].filter((name) => !['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'vary', 'content-encoding', 'transfer-encoding'].includes(name));
    expect(names.sort()).toEqual([
      'cache-control',
      'content-security-policy',
      'cross-origin-resource-policy',
      'referrer-policy',
      'x-content-type-options',
      'x-frame-options',
      'x-request-id',
    ]);
    expect(response.headers.get('content-security-policy')).toBe(`default-src 'none'; frame-ancestors 'none'`);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});

describe('security headers as configured', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('pglite', { seed: false });
  });
  afterAll(async () => {
    await database?.close();
  });
  const appWith = (settings: Partial<typeof defaultSettings>) => createApp({ db: database.db, logger: silentLogger, settings });

  test('embedded: frame-ancestors is EMBED_TARGET_ORIGIN and there is no X-Frame-Options; the API is still framed by nobody', async () => {
    const app = appWith({ clientConfig: { ...defaultSettings.clientConfig, embedTargetOrigin: 'https://portal.example.org' } });
    const response = await app.request('/login-code');
    expect(cspOf(response.headers.get('content-security-policy')).get('frame-ancestors')).toEqual(['https://portal.example.org']);
    expect(response.headers.get('x-frame-options')).toBeNull();
    const api = await app.request('/api/health');
    expect(cspOf(api.headers.get('content-security-policy')).get('frame-ancestors')).toEqual(["'none'"]);
    expect(api.headers.get('x-frame-options')).toBe('DENY');
  });

  test('over TLS: HSTS with HSTS_MAX_AGE on pages and the API, and report-to with its Reporting-Endpoints on pages', async () => {
    const response = await appWith({}).request('https://gradus.example.org/login-code');
    expect(response.headers.get('strict-transport-security')).toBe(`max-age=${DEFAULT_HSTS_MAX_AGE}`);
    expect(cspOf(response.headers.get('content-security-policy')).get('report-to')).toEqual(['csp-endpoint']);
    expect(response.headers.get('reporting-endpoints')).toBe('csp-endpoint="/api/csp-report"');
    const api = await appWith({}).request('https://gradus.example.org/api/health');
    expect(api.headers.get('strict-transport-security')).toBe(`max-age=${DEFAULT_HSTS_MAX_AGE}`);
    expect(api.headers.get('reporting-endpoints')).toBeNull();
    const off = appWith({ security: { ...defaultSecuritySettings, hstsMaxAge: 0 } });
    expect((await off.request('https://gradus.example.org/login-code')).headers.get('strict-transport-security')).toBeNull();
    expect((await off.request('https://gradus.example.org/api/health')).headers.get('strict-transport-security')).toBeNull();
  });

  test("a TLS proxy's X-Forwarded-Proto counts only with TRUST_PROXY", async () => {
    const headers = { 'X-Forwarded-Proto': 'https' };
    expect((await appWith({}).request('/api/health', { headers })).headers.get('strict-transport-security')).toBeNull();
    const behindProxy = appWith({ security: { ...defaultSecuritySettings, trustProxy: 1 } });
    expect((await behindProxy.request('/api/health', { headers })).headers.get('strict-transport-security')).toBe(`max-age=${DEFAULT_HSTS_MAX_AGE}`);
  });

  test('CSP_FRAME_SRC adds frame and form sources (3-D Secure issuers with live Adyen)', async () => {
    const app = appWith({ security: { ...defaultSecuritySettings, extraFrameSources: ['https:'] } });
    const csp = cspOf((await app.request('/login-code')).headers.get('content-security-policy'));
    expect(csp.get('frame-src')).toContain('https:');
    expect(csp.get('form-action')).toEqual(["'self'", 'https:']);
  });
});

describe('the environment of the security settings', () => {
  test('defaults, and each variable read', () => {
    expect(securitySettingsFromEnv({})).toEqual({ security: defaultSecuritySettings, metricsPort: undefined });
    expect(
      securitySettingsFromEnv({
        TRUST_PROXY: '1',
        HSTS_MAX_AGE: '31536000',
        PUBLIC_ORIGIN: 'https://exams.example.org/some/path',
        CSP_FRAME_SRC: 'https: https://*.issuer.example',
        METRICS_PORT: '9464',
      }),
    ).toEqual({
      security: { trustProxy: 1, hstsMaxAge: 31_536_000, publicOrigin: 'https://exams.example.org', extraFrameSources: ['https:', 'https://*.issuer.example'] },
      metricsPort: 9464,
    });
  });

  test.each([
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY'],
    [{ HSTS_MAX_AGE: '-1' }, 'HSTS_MAX_AGE'],
    [{ PUBLIC_ORIGIN: 'javascript:alert(1)' }, 'PUBLIC_ORIGIN'],
    [{ CSP_FRAME_SRC: "'unsafe-inline'" }, 'CSP_FRAME_SRC'],
    [{ METRICS_PORT: '70000' }, 'METRICS_PORT'],
  ])('a bad value stops the start, naming the variable: %o', (env, name) => {
    expect(() => securitySettingsFromEnv(env)).toThrow(name);
  });
});

describe.each(kinds)('CSP violation reports on %s', (kind) => {
  const api = useApi(kind, { clockControl: true });
  const count = async () => ((await api.call('GET', '/api/test/csp-reports')).body as { count: number }).count;

  test('a report-uri report is validated, counted, logged without its query, and answered 204', async () => {
    const before = await count();
    const response = await api.call('POST', '/api/csp-report', {
      headers: { 'Content-Type': 'application/csp-report' },
      rawBody: JSON.stringify({
        'csp-report': {
          'document-uri': 'http://localhost/score-report-embed/12?token=SECRET-TOKEN-VALUE',
          'violated-directive': 'script-src-elem',
          'effective-directive': 'script-src-elem',
          'original-policy': "default-src 'self'",
          'blocked-uri': 'inline',
          'line-number': 3,
          disposition: 'enforce',
        },
      }),
    });
    expect(response.status).toBe(204);
    expect(response.body).toBe('');
    expect(await count()).toBe(before + 1);
    const logged = api.logLines.find((line) => line.startsWith('csp violation'));
    expect(logged).toBe('csp violation: script-src-elem');
  });

  test('a Reporting API batch counts each csp-violation and nothing else', async () => {
    const before = await count();
    const report = (directive: string) => ({
      type: 'csp-violation',
      age: 10,
      url: 'http://localhost/start',
      user_agent: 'Chromium',
      body: { documentURL: 'http://localhost/start', effectiveDirective: directive, blockedURL: 'https://evil.example/x.js', disposition: 'enforce' },
    });
    const response = await api.call('POST', '/api/csp-report', {
      headers: { 'Content-Type': 'application/reports+json' },
      rawBody: JSON.stringify([report('script-src-elem'), report('connect-src'), { type: 'deprecation', body: { id: 'x' } }]),
    });
    expect(response.status).toBe(204);
    expect(await count()).toBe(before + 2);
  });

  test('a body that is no report is refused (VALIDATION_ERROR) and not counted', async () => {
    const before = await count();
    for (const rawBody of ['not json', JSON.stringify({ hello: 'world' }), JSON.stringify({ 'csp-report': 'x' })]) {
      const response = await api.call('POST', '/api/csp-report', { headers: { 'Content-Type': 'application/csp-report' }, rawBody });
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(v.parse(ErrorBodySchema, response.body).code).toBe('VALIDATION_ERROR');
    }
    expect(await count()).toBe(before);
  });
});

describe('the CSP report count outside tests', () => {
  const api = useApi('pglite');
  test('is not public: GET /api/test/csp-reports is a 404 without GRADUS_CLOCK_CONTROL', async () => {
    expect((await api.call('GET', '/api/test/csp-reports')).status).toBe(404);
  });
});

describe.each(kinds)("a payment's return URL on %s", (kind) => {
  const api = useApi(kind);
  const open = async (returnUrl: string, app = api) => {
    const pupil = await addSitting(app.db, { isMyPageLogin: true });
    const { token, scheduleHistoryId } = await app.loginAs(pupil.loginCode);
    return app.call('POST', '/api/payment/adyen/sessions/exam-fee', {
      token,
      body: { schedule_history_id: scheduleHistoryId, terms_accepted: true, return_url: returnUrl },
    });
  };
  const expectRefused = (response: Awaited<ReturnType<typeof open>>) => {
    expect(response.status).toBe(422);
    const body = v.parse(ErrorBodySchema, response.body);
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.issues).toEqual([{ field: 'return_url', rule: 'invalid' }]);
  };

  test.each([
    'javascript:alert(document.cookie)',
    'JavaScript://localhost/%0aalert(1)',
    'data:text/html,<script>alert(1)</script>',
    'https://evil.example/pay-exam-fee',
    'http://localhost.evil.example/pay-exam-fee',
    'http://user:pass@localhost/pay-exam-fee',
    'https://localhost/pay-exam-fee',
  ])('%s is refused (VALIDATION_ERROR on return_url)', async (returnUrl) => {
    expectRefused(await open(returnUrl));
  });

  test('without PUBLIC_ORIGIN, a page on this machine is accepted', async () => {
    expect((await open('http://localhost/pay-exam-fee')).status).toBe(201);
  });
});

describe("a payment's return URL with PUBLIC_ORIGIN", () => {
  const api = useApi('pglite', { security: { ...defaultSecuritySettings, publicOrigin: 'https://exams.example.org' } });
  const open = async (returnUrl: string) => {
    const pupil = await addSitting(api.db, { isMyPageLogin: true });
    const { token, scheduleHistoryId } = await api.loginAs(pupil.loginCode);
    return api.call('POST', '/api/payment/adyen/sessions/result-fee', {
      token,
      body: { schedule_history_id: scheduleHistoryId, items: ['result_sheet'], terms_accepted: true, return_url: returnUrl },
    });
  };

  test('only PUBLIC_ORIGIN is ours: the request host is not trusted over it', async () => {
    const refused = await open('http://localhost/pay-exam-result');
    expect(refused.status).toBe(422);
    expect(v.parse(ErrorBodySchema, refused.body).issues).toEqual([{ field: 'return_url', rule: 'invalid' }]);
    // Past the return URL: refused for what the sitting is (no result to buy yet), not for the URL.
    const ours = await open('https://exams.example.org/pay-exam-result');
    expect(v.parse(ErrorBodySchema, ours.body).issues ?? []).not.toContainEqual({ field: 'return_url', rule: 'invalid' });
  });
});
