/**
 * Stored documents served from their files, on PGlite and PostgreSQL: a server given a directory
 * streams a stored document from a file named by its ETag (written by the release's `document`
 * job, and from the database row by a download when it goes missing), with the same answer as from the row
 * (bytes, length, ETag, 304, HEAD); and the rights are checked on every download before any of
 * that, so a logged-out token, the tokens a reset revoked, an expired token and another pupil's
 * are refused at once although the file is there (and never answered 304).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, describe, expect, test } from 'vitest';
import { RESULT_RELEASE_MS } from '../../machines/schedule-history/schedule-history.machine.ts';
import { createApp } from '../../server/app.ts';
import { results } from '../../server/db/schema.ts';
import { documentFiles } from '../../server/documents/files.ts';
import type { DocumentRenderer } from '../../server/documents/renderer.ts';
import { issueToken, revokeAllOfExaminee } from '../../server/domain/tokens.ts';
import { runDueJobs } from '../../server/jobs/runner.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { useApi, type ApiContext } from '../helpers/server-api.ts';
import { addSitting, answerKey, buyItems, historyRow } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
const ORIGIN = 'http://127.0.0.1:9';

/** Each PDF names what was printed, so a test can tell them apart. */
const renderer: DocumentRenderer = {
  async render(request) {
    const url = new URL(request.url);
    return new TextEncoder().encode(`%PDF-1.7 fake ${url.pathname} ${url.searchParams.get('document')} ${url.searchParams.get('locale')}`);
  },
  async close() {},
};

/** Where a document of this ETag is kept: <directory>/<first two characters>/<hash>.pdf. */
function fileOf(directory: string, etag: string): string {
  const hash = etag.slice(1, -1);
  return path.join(directory, hash.slice(0, 2), `${hash}.pdf`);
}

describe.each(kinds)('stored documents as files on %s', (kind) => {
  const api = useApi(kind);
  const directory = mkdtempSync(path.join(tmpdir(), 'gradus-documents-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));
  let app: Hono | undefined;
  const download = async (url: string, token: string, init: { headers?: Record<string, string>; method?: string } = {}) => {
    app ??= createApp({ db: api.db, clock: api.clock, logger: { info() {}, error() {} }, documents: { renderer, publicOrigin: ORIGIN, directory } }) as unknown as Hono;
    const response = await app.request(`/api${url}`, { method: init.method ?? 'GET', headers: { Authorization: `Bearer ${token}`, ...init.headers } });
    const bytes = new Uint8Array(await response.arrayBuffer());
    return { status: response.status, headers: response.headers, bytes, code: () => (JSON.parse(new TextDecoder().decode(bytes)) as { code: string }).code };
  };

  /** A pupil who finished with every answer right, bought both documents, and whose result is released and printed. */
  async function releasedPupil(context: ApiContext) {
    const pupil = await addSitting(context.db, { isMyPageLogin: true });
    const { token, scheduleHistoryId } = await context.startAs(pupil.loginCode);
    for (const q of await answerKey(context.db, pupil.examId)) {
      expect((await context.call('POST', '/api/exam/answers', { token, body: context.answer(scheduleHistoryId, q.id, q.correctAnswer) })).status).toBe(201);
    }
    expect((await context.call('POST', '/api/exam/finish', { token, body: { schedule_history_id: scheduleHistoryId } })).status).toBe(200);
    const finishedAt = (await historyRow(context.db, scheduleHistoryId)).finishedAt!;
    await buyItems(context.db, scheduleHistoryId, ['result_sheet', 'certificate'], context.clock.now());
    context.clock.set(new Date(Math.max(context.clock.now().getTime(), finishedAt.getTime() + RESULT_RELEASE_MS)));
    const printing = { renderer, origin: () => ORIGIN, files: documentFiles(directory) };
    expect((await runDueJobs(context.db, context.clock, { printing })).failed).toBe(0);
    return { pupil, scheduleHistoryId, finishedAt };
  }

  test('a stored document is streamed from its file, written by the release job and again from the row when missing', { timeout: 120_000 }, async () => {
    const { pupil, scheduleHistoryId } = await releasedPupil(api);
    const { token } = await api.loginAs(pupil.loginCode);
    const url = `/get-certificate?schedule_history_id=${scheduleHistoryId}`;
    // The release's job kept the printed certificate as a file before any download.
    const printed = new TextEncoder().encode(`%PDF-1.7 fake /score-report-embed/${scheduleHistoryId} certificate en`);
    expect(new Uint8Array(readFileSync(fileOf(directory, `"${createHash('sha256').update(printed).digest('base64url')}"`)))).toEqual(printed);

    const first = await download(url, token);
    expect(first.status).toBe(200);
    expect(new TextDecoder().decode(first.bytes)).toBe(`%PDF-1.7 fake /score-report-embed/${scheduleHistoryId} certificate en`);
    const etag = first.headers.get('etag')!;
    expect(etag).toBe(`"${createHash('sha256').update(first.bytes).digest('base64url')}"`);
    const file = fileOf(directory, etag);
    expect(new Uint8Array(readFileSync(file))).toEqual(first.bytes);

    const fromFile = await download(url, token);
    expect(fromFile.status).toBe(200);
    expect(fromFile.bytes).toEqual(first.bytes);
    expect(fromFile.headers.get('etag')).toBe(etag);
    expect(fromFile.headers.get('content-length')).toBe(String(first.bytes.byteLength));
    expect(fromFile.headers.get('content-type')).toBe('application/pdf');
    expect(fromFile.headers.get('content-disposition')).toBe(`attachment; filename="certificate-${scheduleHistoryId}.pdf"`);
    expect(fromFile.headers.get('cache-control')).toMatch(/^private\b/);

    const head = await download(url, token, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(first.bytes.byteLength));
    expect(head.bytes.byteLength).toBe(0);
    const revalidated = await download(url, token, { headers: { 'If-None-Match': etag } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.bytes.byteLength).toBe(0);

    rmSync(path.dirname(file), { recursive: true });
    const healed = await download(url, token);
    expect(healed.status).toBe(200);
    expect(healed.bytes).toEqual(first.bytes);
    expect(existsSync(file)).toBe(true);

    // The same bytes, however asked: the language named, the exam's language by default.
    const named = await download(`${url}&locale=en`, token);
    expect(named.headers.get('etag')).toBe(etag);
  });

  test('refusals stay immediate with the file there: logout, a reset, an expired token, another pupil, a token bound to another sitting', { timeout: 120_000 }, async () => {
    const { pupil, scheduleHistoryId } = await releasedPupil(api);
    const other = await releasedPupil(api);
    const url = `/score-report/pdf-report?schedule_history_id=${scheduleHistoryId}`;
    const { token } = await api.loginAs(pupil.loginCode);
    const served = await download(url, token);
    expect(served.status).toBe(200);
    const etag = served.headers.get('etag')!;
    expect(existsSync(fileOf(directory, etag))).toBe(true);
    const refused = async (byToken: string, status: number, code: string) => {
      const variants: Record<string, string>[] = [{}, { 'If-None-Match': etag }];
      for (const headers of variants) {
        const response = await download(url, byToken, { headers });
        expect(response.status).toBe(status);
        expect(response.code()).toBe(code);
      }
    };

    // Logged out.
    const loggedOut = await api.loginAs(pupil.loginCode);
    expect((await download(url, loggedOut.token)).status).toBe(200);
    expect((await api.call('POST', '/api/logout', { token: loggedOut.token })).status).toBe(200);
    await refused(loggedOut.token, 401, 'NOT_LOGGED_IN');

    // Expired.
    const now = api.clock.now();
    const shortLived = await issueToken(api.db, { examineeId: pupil.examineeId, scheduleHistoryId, now, ttlMs: 60_000 });
    expect((await download(url, shortLived)).status).toBe(200);
    api.clock.set(new Date(now.getTime() + 60_000));
    await refused(shortLived, 401, 'NOT_LOGGED_IN');

    // Another pupil's token, and a token of this pupil bound to another sitting.
    const stranger = await api.loginAs(other.pupil.loginCode);
    expect((await download(url, stranger.token)).status).toBe(404);
    const elsewhere = await addSitting(api.db, { isMyPageLogin: true });
    const bound = await issueToken(api.db, { examineeId: pupil.examineeId, scheduleHistoryId: elsewhere.scheduleHistoryId, now: api.clock.now(), ttlMs: 3_600_000 });
    expect((await download(url, bound)).status).toBe(404);

    // A reset for a retake: the tokens revoked, the result gone.
    await api.db.transaction(async (tx) => {
      await revokeAllOfExaminee(tx, pupil.examineeId, api.clock.now(), 'retake');
      await tx.delete(results).where(eq(results.scheduleHistoryId, scheduleHistoryId));
    });
    await refused(token, 401, 'ER_SCHEDULE_HISTORY_RETAKE');
    const fresh = await issueToken(api.db, { examineeId: pupil.examineeId, scheduleHistoryId, now: api.clock.now(), ttlMs: 3_600_000 });
    await refused(fresh, 403, 'RESULT_NOT_RELEASED');
  });
});
