/**
 * Two things a client must not be able to grow or steer:
 * - the CSP report metric (server/security/csp-report.ts): 300 reports, each naming a directive
 *   of its own from an address of its own, make no series beyond the fixed label set;
 * - a payment's return URL (server/security/return-url.ts): without PUBLIC_ORIGIN our origin is
 *   not the request's Host. Sent to a real socket with `Host: evil.example`, a return_url of
 *   http://evil.example is refused; a page on this machine is still accepted.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ErrorBodySchema } from '../../contract/errors.ts';
import { loadStaffAccounts } from '../../server/seed/staff-accounts.ts';
import { cspDirectives } from '../../server/security/csp-report.ts';
import { defaultSecuritySettings } from '../../server/security/settings.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { useApi } from '../helpers/server-api.ts';
import { addSitting } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();

describe.each(kinds)('the CSP report metric on %s', (kind) => {
  const api = useApi(kind, { clockControl: true, security: { ...defaultSecuritySettings, trustProxy: 1 } });
  const proctor = loadStaffAccounts().find((a) => a.login_refused_with === null)!;

  test('300 reports with made-up directives: at most the fixed label set, the made-up ones as other', { timeout: 120_000 }, async () => {
    for (let i = 0; i < 300; i++) {
      const directive = i % 3 === 0 ? 'img-src' : `made-up-${randomUUID().slice(0, 8)}`;
      const response = await api.call('POST', '/api/csp-report', {
        headers: { 'Content-Type': 'application/csp-report', 'X-Forwarded-For': `10.0.${Math.floor(i / 250)}.${i % 250}` },
        rawBody: JSON.stringify({ 'csp-report': { 'document-uri': 'http://localhost/start', 'effective-directive': directive, 'blocked-uri': 'inline' } }),
      });
      expect(response.status).toBe(204);
    }
    const login = await api.call('POST', '/api/admin/login', { body: { org_code: proctor.org_code, login_id: proctor.login_id, password: proctor.password } });
    expect(login.status).toBe(200);
    const metrics = await api.call('GET', '/api/metrics', { token: (login.body as { access_token: string }).access_token });
    expect(metrics.status).toBe(200);
    const series = new Map(
      [...(metrics.body as string).matchAll(/^gradus_csp_reports_total\{directive="([^"]*)"\} (\d+)$/gm)].map((m) => [m[1]!, Number(m[2])]),
    );
    expect(series.size).toBeGreaterThan(0);
    expect(series.size).toBeLessThanOrEqual(cspDirectives.length);
    for (const label of series.keys()) expect(cspDirectives).toContain(label);
    expect(series.get('img-src')).toBe(100);
    expect(series.get('other')).toBe(200);
  });
});

describe.each(kinds)("a payment's return URL without PUBLIC_ORIGIN, on a socket, on %s", (kind) => {
  const api = useApi(kind);
  let server: ReturnType<typeof serve> | undefined;
  let port = 0;
  beforeAll(async () => {
    await new Promise<void>((resolve) => {
      server = serve({ fetch: api.app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
        port = info.port;
        resolve();
      });
    });
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  /** POST with a Host header of the caller's choosing (fetch would not send one). */
  const post = (urlPath: string, host: string, body: unknown, token?: string) =>
    new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const text = JSON.stringify(body);
      const request = http.request(
        {
          host: '127.0.0.1',
          port,
          path: urlPath,
          method: 'POST',
          headers: {
            Host: host,
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(text),
            ...(token ? { Authorization: `Bearer ${token}` } : {}),
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const raw = Buffer.concat(chunks).toString('utf8');
            resolve({ status: response.statusCode ?? 0, body: raw ? (JSON.parse(raw) as unknown) : undefined });
          });
        },
      );
      request.on('error', reject);
      request.end(text);
    });

  const openCheckout = async (host: string, returnUrl: string) => {
    const pupil = await addSitting(api.db, { isMyPageLogin: true });
    const login = await post('/api/login', host, { login_type: 0, login_code: pupil.loginCode });
    expect(login.status).toBe(200);
    const { access_token: token, examinee } = login.body as { access_token: string; examinee: { schedule_history_id: number } };
    return post(
      '/api/payment/adyen/sessions/exam-fee',
      host,
      { schedule_history_id: examinee.schedule_history_id, terms_accepted: true, return_url: returnUrl },
      token,
    );
  };

  test('Host: evil.example, return_url http://evil.example/phish: refused (VALIDATION_ERROR on return_url)', async () => {
    const refused = await openCheckout('evil.example', 'http://evil.example/phish');
    expect(refused.status).toBe(422);
    const body = v.parse(ErrorBodySchema, refused.body);
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.issues).toEqual([{ field: 'return_url', rule: 'invalid' }]);
  });

  test('a page on this machine is accepted whatever the Host says', async () => {
    expect((await openCheckout('evil.example', `http://127.0.0.1:${port}/pay-exam-fee`)).status).toBe(201);
    expect((await openCheckout(`127.0.0.1:${port}`, `http://localhost:5173/pay-exam-fee`)).status).toBe(201);
  });
});
