/**
 * The score report and certificate PDFs at rest, on PGlite and PostgreSQL: the release's
 * `document` job prints a sitting's bought documents once (a fake renderer stands in for
 * Chromium and counts its prints), downloads are served from the stored bytes with a strong
 * ETag (304 on If-None-Match, Content-Length, Cache-Control private), the rights are checked as
 * before on every download (unpaid, unreleased, expired, another pupil), and a missing document
 * (another language) is printed once on its first download, however many ask at once.
 */
import { createHash } from 'node:crypto';
import type { Hono } from 'hono';
import { describe, expect, test } from 'vitest';
import { RESULT_RELEASE_MS } from '../../machines/schedule-history/schedule-history.machine.ts';
import { createApp } from '../../server/app.ts';
import { grantStoredDocument, type DocumentKind } from '../../server/documents/access.ts';
import type { DocumentRenderer, DocumentRequest } from '../../server/documents/renderer.ts';
import { documentLanguages } from '../../server/documents/store.ts';
import { runDueJobs } from '../../server/jobs/runner.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { useApi, type ApiContext } from '../helpers/server-api.ts';
import { addSitting, answerKey, buyItems, historyRow } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
const ORIGIN = 'http://127.0.0.1:9';

/** Counts its prints; each PDF names what was printed, so a test can tell them apart. */
function fakeRenderer(): DocumentRenderer & { requests: DocumentRequest[] } {
  const requests: DocumentRequest[] = [];
  return {
    requests,
    async render(request) {
      requests.push(request);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const url = new URL(request.url);
      return new TextEncoder().encode(`%PDF-1.7 fake ${url.pathname} ${url.searchParams.get('document')} ${url.searchParams.get('locale')}`);
    },
    async close() {},
  };
}

const sha = (bytes: Uint8Array) => `"${createHash('sha256').update(bytes).digest('base64url')}"`;

describe.each(kinds)('documents at rest on %s', (kind) => {
  const api = useApi(kind);
  const renderer = fakeRenderer();
  const printing = { renderer, origin: () => ORIGIN };
  let app: Hono | undefined;
  const download = async (path: string, token: string, headers: Record<string, string> = {}) => {
    app ??= createApp({ db: api.db, clock: api.clock, logger: { info() {}, error() {} }, documents: { renderer, publicOrigin: ORIGIN } }) as unknown as Hono;
    const response = await app.request(`/api${path}`, { headers: { Authorization: `Bearer ${token}`, ...headers } });
    return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
  };

  /** A pupil who answered every question right and finished; returns when they finished. */
  async function finishedPupil(context: ApiContext) {
    const pupil = await addSitting(context.db, { isMyPageLogin: true });
    const { token, scheduleHistoryId } = await context.startAs(pupil.loginCode);
    for (const q of await answerKey(context.db, pupil.examId)) {
      expect((await context.call('POST', '/api/exam/answers', { token, body: context.answer(scheduleHistoryId, q.id, q.correctAnswer) })).status).toBe(201);
    }
    expect((await context.call('POST', '/api/exam/finish', { token, body: { schedule_history_id: scheduleHistoryId } })).status).toBe(200);
    return { pupil, scheduleHistoryId, finishedAt: (await historyRow(context.db, scheduleHistoryId)).finishedAt! };
  }

  test('the release prints each bought document once; downloads are the stored bytes with an ETag', { timeout: 120_000 }, async () => {
    const { pupil, scheduleHistoryId, finishedAt } = await finishedPupil(api);
    await buyItems(api.db, scheduleHistoryId, ['result_sheet', 'certificate'], api.clock.now());
    const unpaid = await finishedPupil(api);

    // Before the release: refused, nothing printed.
    const early = await api.loginAs(pupil.loginCode);
    const refused = await download(`/score-report/pdf-report?schedule_history_id=${scheduleHistoryId}`, early.token);
    expect(refused.status).toBe(403);
    expect(JSON.parse(new TextDecoder().decode(refused.bytes)).code).toBe('RESULT_NOT_RELEASED');

    api.clock.set(new Date(finishedAt.getTime() + RESULT_RELEASE_MS));
    renderer.requests.length = 0;
    const summary = await runDueJobs(api.db, api.clock, { printing });
    expect(summary.failed).toBe(0);
    const printed = renderer.requests.filter((r) => r.url.includes(`/score-report-embed/${scheduleHistoryId}?`));
    expect(printed.map((r) => new URL(r.url).searchParams.get('document')).sort()).toEqual(['certificate', 'report']);
    for (const r of printed) {
      expect(r.url.startsWith(`${ORIGIN}/score-report-embed/${scheduleHistoryId}?token=`)).toBe(true);
      expect(new URL(r.url).searchParams.get('locale')).toBe('en');
      expect(r.landscape).toBe(new URL(r.url).searchParams.get('document') === 'certificate');
    }
    // The unpaid pupil's documents are not printed.
    expect(renderer.requests.some((r) => r.url.includes(`/score-report-embed/${unpaid.scheduleHistoryId}?`))).toBe(false);
    // Running the jobs again prints nothing more.
    await runDueJobs(api.db, api.clock, { printing });
    expect(renderer.requests).toHaveLength(printed.length);

    const { token } = await api.loginAs(pupil.loginCode);
    for (const [path, document] of [
      ['/score-report/pdf-report', 'report'],
      ['/get-certificate', 'certificate'],
    ] as const) {
      const first = await download(`${path}?schedule_history_id=${scheduleHistoryId}`, token);
      const second = await download(`${path}?schedule_history_id=${scheduleHistoryId}`, token);
      expect(first.status).toBe(200);
      expect(new TextDecoder().decode(first.bytes)).toBe(`%PDF-1.7 fake /score-report-embed/${scheduleHistoryId} ${document} en`);
      expect(second.bytes).toEqual(first.bytes);
      expect(first.headers.get('content-type')).toBe('application/pdf');
      expect(first.headers.get('content-length')).toBe(String(first.bytes.byteLength));
      expect(first.headers.get('etag')).toBe(sha(first.bytes));
      expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
      expect(first.headers.get('cache-control')).toMatch(/^private\b/);
      expect(first.headers.get('content-disposition')).toContain(document === 'report' ? 'score-report-' : 'certificate-');

      const revalidated = await download(`${path}?schedule_history_id=${scheduleHistoryId}`, token, { 'If-None-Match': first.headers.get('etag')! });
      expect(revalidated.status).toBe(304);
      expect(revalidated.bytes.byteLength).toBe(0);
      expect(revalidated.headers.get('etag')).toBe(first.headers.get('etag'));
      const stale = await download(`${path}?schedule_history_id=${scheduleHistoryId}`, token, { 'If-None-Match': '"something-else"' });
      expect(stale.status).toBe(200);
    }
    // Two downloads of each document, and revalidations: no print beyond the job's.
    expect(renderer.requests).toHaveLength(printed.length);

    // The usual way grants in one statement what the long way grants, and nothing else.
    const grant = (as: string, sitting: number, document: DocumentKind, locale?: string) =>
      grantStoredDocument(api.db, { token: as, scheduleHistoryId: sitting, kind: document, locale, now: api.clock.now(), selectable: documentLanguages });
    const granted = await grant(token, scheduleHistoryId, 'report');
    expect(granted).toMatchObject({ locale: 'en', principal: { examineeId: pupil.examineeId } });
    expect(granted?.etag).toMatch(/^"[\w-]+"$/);
    expect(await grant(token, scheduleHistoryId, 'certificate', 'en')).toMatchObject({ locale: 'en' });
    expect(await grant(token, scheduleHistoryId, 'report', 'fr'), 'not stored in French yet').toBeUndefined();

    // Refused as before: another pupil's sitting, an unpaid result, a result past its two years.
    const other = await api.loginAs(unpaid.pupil.loginCode);
    expect(await grant(other.token, scheduleHistoryId, 'report')).toBeUndefined();
    expect(await grant(other.token, unpaid.scheduleHistoryId, 'report')).toBeUndefined();
    expect((await download(`/score-report/pdf-report?schedule_history_id=${scheduleHistoryId}`, other.token)).status).not.toBe(200);
    const unpaidReport = await download(`/score-report/pdf-report?schedule_history_id=${unpaid.scheduleHistoryId}`, other.token);
    expect(unpaidReport.status).toBe(403);
    expect(JSON.parse(new TextDecoder().decode(unpaidReport.bytes)).code).toBe('PAYMENT_REQUIRED');
    const twoYears = new Date(finishedAt);
    twoYears.setUTCFullYear(twoYears.getUTCFullYear() + 2);
    api.clock.set(new Date(twoYears.getTime() + 2 * 86_400_000));
    const late = await api.loginAs(pupil.loginCode);
    const expired = await download(`/get-certificate?schedule_history_id=${scheduleHistoryId}`, late.token, { 'If-None-Match': sha(new Uint8Array()) });
    expect(expired.status).toBe(403);
    expect(JSON.parse(new TextDecoder().decode(expired.bytes)).code).toBe('RESULT_VIEW_EXPIRED');
    expect(await grant(late.token, scheduleHistoryId, 'certificate')).toBeUndefined();
    expect(renderer.requests).toHaveLength(printed.length);
  });

  test('a missing document is printed once on its first download, however many ask at once, then served', { timeout: 120_000 }, async () => {
    const { pupil, scheduleHistoryId, finishedAt } = await finishedPupil(api);
    await buyItems(api.db, scheduleHistoryId, ['result_sheet', 'certificate'], api.clock.now());
    // Released without the printing (no renderer given to the jobs): nothing is stored.
    api.clock.set(new Date(finishedAt.getTime() + RESULT_RELEASE_MS));
    await runDueJobs(api.db, api.clock);
    renderer.requests.length = 0;
    const { token } = await api.loginAs(pupil.loginCode);

    const burst = await Promise.all(
      Array.from({ length: 4 }, () => download(`/score-report/pdf-report?schedule_history_id=${scheduleHistoryId}&locale=ja`, token)),
    );
    expect(burst.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(renderer.requests).toHaveLength(1);
    expect(new URL(renderer.requests[0]!.url).searchParams.get('locale')).toBe('ja');
    const etag = burst[0]!.headers.get('etag');
    for (const r of burst) expect(r.headers.get('etag')).toBe(etag);
    const later = await download(`/score-report/pdf-report?schedule_history_id=${scheduleHistoryId}&locale=ja`, token);
    expect(later.headers.get('etag')).toBe(etag);
    expect(new TextDecoder().decode(later.bytes)).toContain('report ja');

    // English is another document: printed once too, and kept apart from the Japanese one.
    const english = await download(`/score-report/pdf-report?schedule_history_id=${scheduleHistoryId}`, token);
    expect(new TextDecoder().decode(english.bytes)).toContain('report en');
    expect(english.headers.get('etag')).not.toBe(etag);
    await download(`/score-report/pdf-report?schedule_history_id=${scheduleHistoryId}`, token);
    expect(renderer.requests).toHaveLength(2);

    // A failed print is not stored: the next download prints again.
    const failing: DocumentRenderer = { render: () => Promise.reject(new Error('chromium crashed')), close: async () => {} };
    const broken = createApp({ db: api.db, clock: api.clock, logger: { info() {}, error() {} }, documents: { renderer: failing, publicOrigin: ORIGIN } }) as unknown as Hono;
    const failed = await broken.request(`/api/get-certificate?schedule_history_id=${scheduleHistoryId}&locale=fr`, { headers: { Authorization: `Bearer ${token}` } });
    expect(failed.status).toBeGreaterThanOrEqual(500);
    const healed = await download(`/get-certificate?schedule_history_id=${scheduleHistoryId}&locale=fr`, token);
    expect(healed.status).toBe(200);
    expect(new TextDecoder().decode(healed.bytes)).toContain('certificate fr');
  });
});
