/**
 * The proctor page's staff calls end to end below the machine: the real actors
 * (machines/proctor/proctor.actors.ts) over the browser's admin client (src/api/admin-client.ts)
 * against a tiny local HTTP server. The staff token and only it as the bearer, the language
 * headers, the roster in full and its changes since a cursor, every answer parsed with the contract's schemas,
 * the error envelope, and what the network did.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createActor, toPromise, type AnyActorLogic } from 'xstate';
import { loadRoster, performAction, proctorImplementations } from '../../machines/proctor/proctor.actors.ts';
import type { ActionRequest } from '../../machines/proctor/proctor.types.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';
import { storageKeys, writeStaffToken } from '../../machines/shared/storage.ts';
import { createAdminClient } from '../../src/api/admin-client.ts';
import { demoPupils, demoRoster, demoStaff } from '../helpers/fake-admin.ts';
import { memoryStorage } from '../helpers/memory-storage.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

let server: Server;
let baseURL: string;
let handler: Handler;
let seen: Seen[];

function json(status: number, body: unknown, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };
}

const serverTime = '2026-11-24T09:20:00.000Z';

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen = [];
  handler = json(500, { code: 'GENERIC_ERROR', message: 'no handler' });
});

const client = () => createAdminClient({ baseURL, getLanguage: () => 'ja' });

function run<T>(logic: AnyActorLogic, input?: unknown): Promise<T> {
  return toPromise(createActor(logic, { input }).start()) as Promise<T>;
}

describe('the admin client and the proctor actors', () => {
  it('signs in without a bearer, with the language headers, and parses the staff', async () => {
    handler = json(200, { access_token: 'staff-1', staff: demoStaff, server_time: serverTime });
    const { actors } = proctorImplementations({ admin: client(), storage: memoryStorage() });
    const answer = await run<{ staff: unknown }>(actors.signIn, { org_code: 'GRADUS-DEMO', login_id: 'proctor.demo', password: 'pw' });
    expect(answer.staff).toEqual(demoStaff);
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/api/admin/login' });
    expect(JSON.parse(seen[0]!.body)).toEqual({ org_code: 'GRADUS-DEMO', login_id: 'proctor.demo', password: 'pw' });
    expect(seen[0]!.headers.authorization).toBeUndefined();
    expect(seen[0]!.headers['accept-language']).toBe('ja');
    expect(seen[0]!.headers['x-locale']).toBe('ja');
  });

  it('restores with the stored staff token as the bearer, never the pupil token or the device token', async () => {
    handler = json(200, { staff: demoStaff, server_time: serverTime });
    const storage = memoryStorage();
    storage.setItem(storageKeys.token, 'pupil-token');
    storage.setItem(storageKeys.deviceToken, '0f0e0d0c-0b0a-4908-8706-050403020100');
    writeStaffToken(storage, 'staff-7');
    const { actors } = proctorImplementations({ admin: client(), storage });
    expect(await run(actors.restoreSession)).toEqual({ token: 'staff-7', staff: demoStaff });
    expect(seen[0]!.headers.authorization).toBe('Bearer staff-7');
    expect(seen[0]!.headers['x-device-token']).toBeUndefined();
  });

  it('restores nothing, and asks nothing, without a stored staff token', async () => {
    const { actors } = proctorImplementations({ admin: client(), storage: memoryStorage() });
    expect(await run(actors.restoreSession)).toBeNull();
    expect(seen).toEqual([]);
  });

  it('asks for the roster in full, then for a room\'s changes with the cursor in the query', async () => {
    handler = json(200, demoRoster(), { etag: '"abc"' });
    const first = await loadRoster(client(), { token: 'staff-1', code: 'DEMO-2026', venueId: null, since: null });
    expect(first).toEqual({ kind: 'full', roster: demoRoster() });
    expect(seen[0]!.url).toBe('/api/admin/schedules/DEMO-2026/roster');
    expect(seen[0]!.headers['if-none-match']).toBeUndefined();
    const changes = { kind: 'changes', since: '5.1000', venue: null, pupils: [], cursor: '6.2000', upload_window_ms: 0, server_time: new Date(2000).toISOString() };
    handler = json(200, changes);
    expect(await loadRoster(client(), { token: 'staff-1', code: 'DEMO-2026', venueId: 3, since: '5.1000' })).toEqual({ kind: 'changes', changes });
    expect(seen[1]!.url).toBe('/api/admin/schedules/DEMO-2026/roster?venue_id=3&since=5.1000');
  });

  it('rejects with the envelope code and status, GENERIC_ERROR for an answer off the contract', async () => {
    handler = json(401, { code: 'NOT_LOGGED_IN', message: 'gone' });
    const refused = await loadRoster(client(), { token: 'old', code: 'DEMO-2026', venueId: null, since: null }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiFailure);
    expect(refused).toMatchObject({ code: 'NOT_LOGGED_IN', status: 401 });
    handler = json(200, { pupils: 'not a roster' });
    await expect(loadRoster(client(), { token: 'staff-1', code: 'DEMO-2026', venueId: null, since: null })).rejects.toMatchObject({ code: 'GENERIC_ERROR' });
  });

  it('posts each action to its path with its body, and parses the pupil row or the count', async () => {
    const pupil = { ...demoPupils()[0]!, state: 'moving' as const, device_bound: false };
    const request = (kind: ActionRequest['kind'], extra: Partial<ActionRequest> = {}): ActionRequest => ({
      kind, sittingId: 501, examineeName: 'Amara Okafor', answersSaved: 5, venueId: null, venueName: null, pupilsInExam: 0,
      reason: 'Terminal 1 froze', minutes: null, ...extra,
    });
    handler = json(200, { pupil, server_time: serverTime });
    expect(await performAction(client(), { token: 's', scheduleCode: 'DEMO-2026', request: request('move_terminal') })).toEqual({
      pupil, extended: null, server_time: serverTime,
    });
    await performAction(client(), { token: 's', scheduleCode: 'DEMO-2026', request: request('retake') });
    handler = json(200, { pupil, deadline_at: serverTime, server_time: serverTime });
    await performAction(client(), { token: 's', scheduleCode: 'DEMO-2026', request: request('extend', { minutes: 5 }) });
    handler = json(200, { extended: 3, server_time: serverTime });
    expect(
      await performAction(client(), { token: 's', scheduleCode: 'DEMO-2026', request: request('extend_room', { sittingId: null, minutes: 10, venueId: 11 }) }),
    ).toEqual({ pupil: null, extended: 3, server_time: serverTime });
    expect(seen.map((s) => [s.url, JSON.parse(s.body)])).toEqual([
      ['/api/admin/sittings/501/move-terminal', { reason: 'Terminal 1 froze' }],
      ['/api/admin/sittings/501/retake', { reason: 'Terminal 1 froze' }],
      ['/api/admin/sittings/501/extend', { minutes: 5, reason: 'Terminal 1 froze' }],
      ['/api/admin/schedules/DEMO-2026/extend', { minutes: 10, reason: 'Terminal 1 froze', venue_id: 11 }],
    ]);
  });

  it('signs out with the token; a 401 (already gone) is a sign-out too', async () => {
    handler = json(401, { code: 'NOT_LOGGED_IN', message: 'gone' });
    const { actors } = proctorImplementations({ admin: client(), storage: memoryStorage() });
    await expect(run(actors.signOut, { token: 'staff-1' })).resolves.toBeUndefined();
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/api/admin/logout' });
    expect(seen[0]!.headers.authorization).toBe('Bearer staff-1');
  });

  it('says NETWORK_ERROR when no answer comes, and TIMEOUT when it comes too late', async () => {
    const closed = createAdminClient({ baseURL: 'http://127.0.0.1:9/api', getLanguage: () => 'en' });
    await expect(closed.send({ method: 'GET', path: '/admin/me', token: 's' })).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
    handler = () => undefined; // never answers
    const slow = createAdminClient({ baseURL, getLanguage: () => 'en', timeoutMs: 100 });
    await expect(slow.send({ method: 'GET', path: '/admin/me', token: 's' })).rejects.toMatchObject({ code: 'TIMEOUT' });
  });
});
