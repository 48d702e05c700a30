/**
 * Partner single sign-on: POST /api/api_connect/<partner>/login-link exchanges a partner's token
 * for our access token (seed section 2 rule 2; section 3's Kenya-link response). The partners
 * cannot be reached from here, so the configured HTTP gateway (server/partners/gateway.ts) is
 * pointed at a double on 127.0.0.1 that speaks the documented verification JSON.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { KenyaLinkResponseSchema, MeResponseSchema } from '../../contract/session.ts';
import type { AppSettings } from '../../server/config.ts';
import { examinees, organizations } from '../../server/db/schema.ts';
import { TOKEN_PATTERN } from '../../server/domain/tokens.ts';
import { httpPartnerGateway, type PartnerVerifyResponse } from '../../server/partners/gateway.ts';
import type { Logger } from '../../server/logger.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, useApi } from '../helpers/server-api.ts';
import { addSitting } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();

/** What the double answers for a token: a status and a body (JSON unless a string). */
type Answer = { status: number; body: PartnerVerifyResponse | string };

/** The partner's verification endpoint: answers per token, records what it was sent. */
class PartnerDouble {
  readonly answers = new Map<string, Answer>();
  readonly received: { authorization: string | undefined; contentType: string | undefined; body: unknown }[] = [];
  private server: http.Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      let text = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (text += chunk));
      req.on('end', () => {
        const body: unknown = JSON.parse(text);
        this.received.push({ authorization: req.headers.authorization, contentType: req.headers['content-type'], body });
        const token = (body as { token?: unknown }).token;
        const answer = (typeof token === 'string' && this.answers.get(token)) || { status: 200, body: { valid: false, error: 'unknown' } };
        res.statusCode = answer.status;
        res.setHeader('Content-Type', 'application/json');
        res.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/verify`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

const silent: Logger = { info: () => {}, error: () => {} };

describe.each(kinds)('partner login links on %s', (kind) => {
  const kenya = new PartnerDouble();
  const settings: Partial<AppSettings> = {};
  beforeAll(async () => {
    await kenya.start();
    const gateway = (partner: 'kenya' | 'egypt') =>
      httpPartnerGateway(partner, { verifyUrl: new URL(kenya.url), key: 'kenya-shared-key', logger: silent });
    settings.partners = {
      kenya: gateway('kenya'),
      egypt: gateway('egypt'),
      // A partner whose verification endpoint does not answer at all.
      mumbai: httpPartnerGateway('mumbai', { verifyUrl: new URL('http://127.0.0.1:9/verify'), logger: silent }),
    };
  });
  afterAll(() => kenya.close());
  beforeEach(() => {
    kenya.received.length = 0;
  });
  const api = useApi(kind, settings);
  const link = (body: unknown, partner = 'kenya') => api.call('POST', `/api/api_connect/${partner}/login-link`, { body });

  /** A pupil of a fresh organisation, and a partner token the double vouches for them with. */
  async function partnerPupil(options: { loginMethod?: number; venueDisabled?: boolean; stepMode?: boolean; orgDisabled?: boolean } = {}) {
    const sitting = await addSitting(api.db, {
      organization: { loginMethod: options.loginMethod ?? 2, disabled: options.orgDisabled ?? false },
      venue: { disabled: options.venueDisabled ?? false },
    });
    const [row] = await api.db
      .select({ orgCode: organizations.code })
      .from(examinees)
      .innerJoin(organizations, eq(organizations.id, examinees.organizationId))
      .where(eq(examinees.id, sitting.examineeId));
    const loginId = `ke-${randomUUID().slice(0, 12)}`;
    await api.db.update(examinees).set({ loginId }).where(eq(examinees.id, sitting.examineeId));
    const token = `partner-token-${randomUUID()}`;
    kenya.answers.set(token, {
      status: 200,
      body: { valid: true, user_id: loginId, org_code: row!.orgCode, language: 'en-gb', step_mode: options.stepMode ?? false },
    });
    return { ...sitting, loginId, orgCode: row!.orgCode, token };
  }

  function refusal(response: { status: number; body: unknown }) {
    expect(response.status).toBe(200);
    const body = v.parse(KenyaLinkResponseSchema, response.body);
    expect(body).toMatchObject({ access_token: null, language_code: null, login_type: null, org_step_mode: null });
    return body;
  }

  test('a Kenyan pupil\'s token is exchanged for our access token, which works on GET /api/me', async () => {
    const pupil = await partnerPupil();
    const response = await link({ token: pupil.token });
    expect(response.status).toBe(200);
    const body = v.parse(KenyaLinkResponseSchema, response.body);
    expect(body).toEqual({
      access_token: expect.stringMatching(TOKEN_PATTERN),
      language_code: 'en-gb',
      login_type: 6,
      error: null,
      org_code: pupil.orgCode,
      org_step_mode: false,
    });
    const me = await api.call('GET', '/api/me', { token: body.access_token! });
    expect(me.status).toBe(200);
    expect(v.parse(MeResponseSchema, me.body).examinee).toMatchObject({ login_type: 6, org_code: pupil.orgCode });

    // The partner was asked with the documented request, and our key.
    expect(kenya.received).toEqual([
      { authorization: 'Bearer kenya-shared-key', contentType: 'application/json', body: { token: pupil.token } },
    ]);
  });

  test('step mode comes from the partner, or from an organisation in step mode', async () => {
    const byPartner = await partnerPupil({ stepMode: true });
    expect(v.parse(KenyaLinkResponseSchema, (await link({ token: byPartner.token })).body).org_step_mode).toBe(true);
    const byOrg = await partnerPupil();
    await api.db.update(organizations).set({ enableModeStep: true }).where(eq(organizations.code, byOrg.orgCode));
    expect(v.parse(KenyaLinkResponseSchema, (await link({ token: byOrg.token })).body).org_step_mode).toBe(true);
  });

  test('the same exchange serves Egypt, with login type 7', async () => {
    const pupil = await partnerPupil();
    const body = v.parse(KenyaLinkResponseSchema, (await link({ token: pupil.token }, 'egypt')).body);
    expect(body).toMatchObject({ login_type: 7, error: null, org_code: pupil.orgCode });
    expect(body.access_token).toMatch(TOKEN_PATTERN);
  });

  test.each(['invalid_role', 'user_notfound', 'unknown'] as const)('a token the partner refuses with %s is refused with that code', async (code) => {
    const token = `refused-${randomUUID()}`;
    kenya.answers.set(token, { status: 200, body: { valid: false, error: code } });
    expect(refusal(await link({ token }))).toMatchObject({ error: code, org_code: null });
  });

  test('a pupil of an organisation we do not know is refused with school_notfound', async () => {
    const token = `elsewhere-${randomUUID()}`;
    kenya.answers.set(token, { status: 200, body: { valid: true, user_id: 'someone', org_code: 'NO-SUCH-SCHOOL', language: null, step_mode: false } });
    expect(refusal(await link({ token }))).toMatchObject({ error: 'school_notfound', org_code: 'NO-SUCH-SCHOOL' });
  });

  test('a user the partner knows but we do not is refused with user_notfound', async () => {
    const pupil = await partnerPupil();
    const token = `stranger-${randomUUID()}`;
    kenya.answers.set(token, { status: 200, body: { valid: true, user_id: 'not-a-pupil-here', org_code: pupil.orgCode, language: null, step_mode: false } });
    expect(refusal(await link({ token }))).toMatchObject({ error: 'user_notfound', org_code: pupil.orgCode });
  });

  test.each([
    ['a disabled organisation', { orgDisabled: true }, 'disabled_org'],
    ['a disabled classroom', { venueDisabled: true }, 'disabled_class'],
    ['an organisation that logs in by code', { loginMethod: 1 }, 'invalid_login_method'],
  ] as const)('a pupil of %s is refused with %s', async (_, options, code) => {
    const pupil = await partnerPupil(options);
    expect(refusal(await link({ token: pupil.token }))).toMatchObject({ error: code, org_code: pupil.orgCode });
  });

  test.each([
    ['an HTTP 500', { status: 500, body: { valid: true, user_id: 'x', org_code: 'GRADUS-DEMO', language: null, step_mode: false } }],
    ['a body that is not JSON', { status: 200, body: '<html>oops</html>' }],
    ['an error code that is not an SSO code', { status: 200, body: '{"valid":false,"error":"DISABLED_CLASS"}' }],
  ] as const)('a partner answering with %s is refused as unknown', async (_, answer) => {
    const token = `odd-${randomUUID()}`;
    kenya.answers.set(token, answer);
    expect(refusal(await link({ token }))).toMatchObject({ error: 'unknown' });
  });

  test('a partner that cannot be reached is refused as unknown', async () => {
    expect(refusal(await link({ token: 'any' }, 'mumbai'))).toMatchObject({ error: 'unknown' });
  });

  test('a partner without a configured gateway is refused as unknown, without calling anyone', async () => {
    expect(refusal(await link({ token: 'any' }, 'philippines'))).toMatchObject({ error: 'unknown' });
    expect(kenya.received).toEqual([]);
  });

  test('bad input is a VALIDATION_ERROR and reaches no partner', async () => {
    for (const body of [{}, { token: '' }, { token: '   ' }, { token: 42 }, { token: 'x'.repeat(4097) }]) {
      const response = await link(body);
      expect(response.status, JSON.stringify(body).slice(0, 40)).toBe(422);
      expect(errorOf(response)).toMatchObject({ code: 'VALIDATION_ERROR', issues: [{ field: 'token' }] });
    }
    const notJson = await api.call('POST', '/api/api_connect/kenya/login-link', { rawBody: '{token', headers: { 'Content-Type': 'application/json' } });
    expect(notJson.status).toBe(400);
    expect(errorOf(notJson).code).toBe('VALIDATION_ERROR');
    expect(kenya.received).toEqual([]);
  });

  test('an unknown partner is 404 NOT_FOUND', async () => {
    const response = await link({ token: 'any' }, 'atlantis');
    expect(response.status).toBe(404);
    expect(errorOf(response).code).toBe('NOT_FOUND');
  });
});
