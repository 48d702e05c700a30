/**
 * proctor.actors.ts over a scripted AdminPort (each answer given by the test, each request
 * recorded): the path, method, token and body of every call; a 2xx answer parsed with its schema
 * (off the contract: GENERIC_ERROR naming the call); any other status a refusal with the
 * envelope's code, or GENERIC_ERROR without one; the roster in full or its changes since a
 * cursor, each only when asked for; the staff token kept under its own key. test/view/admin-client.test.ts runs the
 * same actors over the real admin client and the fake server.
 */
import { describe, expect, it } from 'vitest';
import { createActor, toPromise, type AnyActorLogic } from 'xstate';
import type { RosterChanges, RosterPupil } from '../../contract/admin.ts';
import { loadRoster, performAction, proctorImplementations } from '../../machines/proctor/proctor.actors.ts';
import type { ActionRequest, AdminPort, AdminRequest, AdminResponse } from '../../machines/proctor/proctor.types.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';
import { storageKeys } from '../../machines/shared/storage.ts';
import { FAKE_NOW, demoPupils, demoRoster, demoSchedules, demoStaff } from '../helpers/fake-admin.ts';
import { memoryStorage } from '../helpers/memory-storage.ts';

const server_time = new Date(FAKE_NOW).toISOString();
const pupil: RosterPupil = demoPupils()[0]!;

/** A port that answers each request with the next scripted answer, and records what it was asked. */
function scripted(...answers: AdminResponse[]) {
  const requests: AdminRequest[] = [];
  const port: AdminPort = {
    send: async (request) => {
      requests.push(request);
      const answer = answers.shift();
      if (!answer) throw new Error(`unexpected request ${request.method} ${request.path}`);
      return answer;
    },
  };
  return { port, requests };
}

const answer = (status: number, body: unknown, etag: string | null = null): AdminResponse => ({ status, body, etag });

/** What a promise rejects with: the ApiFailure's code, status and message. */
async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => {
      throw new Error('resolved, expected a refusal');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiFailure);
  const failure = error as ApiFailure;
  return { code: failure.code, status: failure.status, message: failure.message };
}

function run<T>(logic: unknown, input?: unknown): Promise<T> {
  return toPromise(createActor(logic as AnyActorLogic, { input }).start()) as Promise<T>;
}

describe('loadRoster', () => {
  const input = { token: 'tok', code: 'SPRING 2026/A', venueId: null, since: null };
  const changes = (pupils = demoRoster().pupils.slice(0, 1)): RosterChanges => ({
    kind: 'changes',
    since: `0.${FAKE_NOW}`,
    venue: null,
    pupils,
    cursor: `7.${FAKE_NOW + 5_000}`,
    upload_window_ms: 1,
    server_time: new Date(FAKE_NOW + 5_000).toISOString(),
  });

  it('asks for the schedule\'s roster in full, the code encoded as one path segment, with no If-None-Match', async () => {
    const { port, requests } = scripted(answer(200, demoRoster(), '"2"'));
    expect(await loadRoster(port, input)).toEqual({ kind: 'full', roster: demoRoster() });
    expect(requests).toEqual([{ method: 'GET', path: '/admin/schedules/SPRING%202026%2FA/roster', token: 'tok' }]);
  });

  it('asks for one room\'s changes since the cursor, and reads them as changes', async () => {
    const { port, requests } = scripted(answer(200, changes()));
    expect(await loadRoster(port, { ...input, venueId: 3, since: `0.${FAKE_NOW}` })).toEqual({ kind: 'changes', changes: changes() });
    expect(requests).toEqual([
      { method: 'GET', path: '/admin/schedules/SPRING%202026%2FA/roster', token: 'tok', query: { venue_id: 3, since: `0.${FAKE_NOW}` } },
    ]);
  });

  it('an answer of the other kind than asked for, or a 304, is GENERIC_ERROR', async () => {
    expect(await refusal(loadRoster(scripted(answer(200, changes())).port, input))).toMatchObject({ code: 'GENERIC_ERROR', status: 200 });
    expect(await refusal(loadRoster(scripted(answer(200, demoRoster())).port, { ...input, since: '1.2' }))).toMatchObject({ code: 'GENERIC_ERROR' });
    expect(await refusal(loadRoster(scripted(answer(304, undefined)).port, input))).toMatchObject({ code: 'GENERIC_ERROR', status: 304 });
  });

  it('a refusal is its envelope\'s code; an answer off the contract is GENERIC_ERROR', async () => {
    expect(await refusal(loadRoster(scripted(answer(401, { code: 'NOT_LOGGED_IN', message: 'Sign in' })).port, input))).toEqual({
      code: 'NOT_LOGGED_IN', status: 401, message: 'Sign in',
    });
    expect(await refusal(loadRoster(scripted(answer(422, { code: 'ROSTER_CURSOR_INVALID', message: 'm' })).port, { ...input, since: '1.2' }))).toMatchObject({
      code: 'ROSTER_CURSOR_INVALID', status: 422,
    });
    expect(await refusal(loadRoster(scripted(answer(500, 'oops')).port, input))).toMatchObject({ code: 'GENERIC_ERROR', status: 500 });
    expect(await refusal(loadRoster(scripted(answer(199, demoRoster())).port, input))).toMatchObject({ code: 'GENERIC_ERROR', status: 199 });
    expect(await refusal(loadRoster(scripted(answer(300, demoRoster())).port, input))).toMatchObject({ status: 300 });
    expect(await refusal(loadRoster(scripted(answer(200, { pupils: 'none' })).port, input))).toEqual({
      code: 'GENERIC_ERROR', status: 200, message: 'Unexpected roster',
    });
    expect(await loadRoster(scripted(answer(299, demoRoster(), null)).port, input)).toMatchObject({ kind: 'full' });
  });
});

describe('performAction', () => {
  const request = (overrides: Partial<ActionRequest>): ActionRequest => ({
    kind: 'move_terminal',
    sittingId: 501,
    examineeName: 'Amara Okafor',
    answersSaved: 5,
    venueId: null,
    venueName: null,
    pupilsInExam: 0,
    reason: 'Frozen',
    minutes: null,
    ...overrides,
  });

  it('the room-wide extension: the schedule\'s path, with its room only when one is chosen', async () => {
    const roomWide = scripted(answer(200, { extended: 3, server_time }), answer(200, { extended: 0, server_time }));
    const all = request({ kind: 'extend_room', sittingId: null, minutes: 5, reason: 'Fire drill' });
    expect(await performAction(roomWide.port, { token: 'tok', scheduleCode: 'A B', request: all })).toEqual({
      pupil: null, extended: 3, server_time,
    });
    await performAction(roomWide.port, { token: 'tok', scheduleCode: 'A B', request: { ...all, venueId: 11 } });
    expect(roomWide.requests).toEqual([
      { method: 'POST', path: '/admin/schedules/A%20B/extend', token: 'tok', body: { minutes: 5, reason: 'Fire drill' } },
      { method: 'POST', path: '/admin/schedules/A%20B/extend', token: 'tok', body: { minutes: 5, reason: 'Fire drill', venue_id: 11 } },
    ]);
  });

  it('a pupil\'s extension: the sitting\'s path with minutes and reason; the answer\'s pupil row', async () => {
    const { port, requests } = scripted(answer(200, { pupil, deadline_at: server_time, server_time }));
    expect(await performAction(port, { token: 'tok', scheduleCode: 'X', request: request({ kind: 'extend', minutes: 10 }) })).toEqual({
      pupil, extended: null, server_time,
    });
    expect(requests).toEqual([{ method: 'POST', path: '/admin/sittings/501/extend', token: 'tok', body: { minutes: 10, reason: 'Frozen' } }]);
  });

  it('sends the idempotency key of a confirmed action with each call that has one', async () => {
    const key = '0b7f9a52-3c1e-4d2a-9f4b-8e6d5c4b3a21';
    const { port, requests } = scripted(
      answer(200, { pupil, server_time }),
      answer(200, { pupil, deadline_at: server_time, server_time }),
      answer(200, { extended: 1, server_time }),
    );
    await performAction(port, { token: 'tok', scheduleCode: 'X', request: request({ kind: 'retake', idempotencyKey: key }) });
    await performAction(port, { token: 'tok', scheduleCode: 'X', request: request({ kind: 'extend', minutes: 3, idempotencyKey: key }) });
    await performAction(port, { token: 'tok', scheduleCode: 'X', request: request({ kind: 'extend_room', sittingId: null, minutes: 3, idempotencyKey: key }) });
    expect(requests.map((r) => r.body)).toEqual([
      { reason: 'Frozen', idempotency_key: key },
      { minutes: 3, reason: 'Frozen', idempotency_key: key },
      { minutes: 3, reason: 'Frozen', idempotency_key: key },
    ]);
  });

  it('move-terminal and retake: their paths with the reason alone', async () => {
    const { port, requests } = scripted(answer(200, { pupil, server_time }), answer(201, { pupil, server_time }));
    expect(await performAction(port, { token: 'tok', scheduleCode: 'X', request: request({ kind: 'move_terminal' }) })).toEqual({
      pupil, extended: null, server_time,
    });
    await performAction(port, { token: 'tok', scheduleCode: 'X', request: request({ kind: 'retake', reason: 'Reset' }) });
    expect(requests).toEqual([
      { method: 'POST', path: '/admin/sittings/501/move-terminal', token: 'tok', body: { reason: 'Frozen' } },
      { method: 'POST', path: '/admin/sittings/501/retake', token: 'tok', body: { reason: 'Reset' } },
    ]);
  });

  it('only a 2xx answer is read: 199 and 300 are refusals even with a body on the contract; 299 is an answer', async () => {
    const body = { pupil, server_time };
    const act = (status: number) =>
      performAction(scripted(answer(status, body)).port, { token: 'tok', scheduleCode: 'X', request: request({ kind: 'retake' }) });
    expect(await refusal(act(199))).toMatchObject({ code: 'GENERIC_ERROR', status: 199 });
    expect(await refusal(act(300))).toMatchObject({ code: 'GENERIC_ERROR', status: 300 });
    expect(await act(299)).toEqual({ pupil, extended: null, server_time });
    expect(await act(200)).toEqual({ pupil, extended: null, server_time });
  });

  it('an action on a pupil without a sitting is refused before any call; an answer off the contract names the call', async () => {
    const none = scripted();
    expect(await refusal(performAction(none.port, { token: 'tok', scheduleCode: 'X', request: request({ sittingId: null }) }))).toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    expect(none.requests).toEqual([]);
    expect(await refusal(performAction(scripted(answer(200, { pupil: null, server_time })).port, { token: 'tok', scheduleCode: 'X', request: request({ kind: 'retake' }) }))).toEqual({
      code: 'GENERIC_ERROR', status: 200, message: 'Unexpected response from POST /admin/sittings/501/retake',
    });
    expect(await refusal(performAction(scripted(answer(409, { code: 'ER_SCHEDULE_HISTORY_COMPLETED', message: 'Done' })).port, { token: 'tok', scheduleCode: 'X', request: request({}) }))).toEqual({
      code: 'ER_SCHEDULE_HISTORY_COMPLETED', status: 409, message: 'Done',
    });
  });
});

describe('proctorImplementations', () => {
  it('restores with the stored staff token and GET /admin/me; without one it asks nothing', async () => {
    const stored = memoryStorage({ [storageKeys.staffToken]: 'kept' });
    const { port, requests } = scripted(answer(200, { staff: demoStaff, server_time }));
    const { actors } = proctorImplementations({ admin: port, storage: stored });
    expect(await run(actors.restoreSession)).toEqual({ token: 'kept', staff: demoStaff });
    expect(requests).toEqual([{ method: 'GET', path: '/admin/me', token: 'kept' }]);

    const empty = scripted();
    expect(await run(proctorImplementations({ admin: empty.port, storage: memoryStorage() }).actors.restoreSession)).toBeNull();
    expect(empty.requests).toEqual([]);
  });

  it('signs in without a token, loads schedules and the audit with it', async () => {
    const credentials = { org_code: 'GRADUS-DEMO', login_id: 'grace', password: 'secret' };
    const { port, requests } = scripted(
      answer(200, { access_token: 'new', staff: demoStaff, server_time }),
      answer(200, { schedules: demoSchedules, server_time }),
      answer(200, { entries: [], server_time }),
    );
    const { actors } = proctorImplementations({ admin: port, storage: memoryStorage() });
    expect(await run(actors.signIn, credentials)).toEqual({ access_token: 'new', staff: demoStaff, server_time });
    expect(await run(actors.loadSchedules, { token: 'new' })).toEqual({ schedules: demoSchedules, server_time });
    expect(await run(actors.loadAudit, { token: 'new', code: 'DEMO-2026' })).toEqual({ entries: [], server_time });
    expect(requests).toEqual([
      { method: 'POST', path: '/admin/login', token: null, body: credentials },
      { method: 'GET', path: '/admin/schedules', token: 'new' },
      { method: 'GET', path: '/admin/audit', token: 'new', query: { schedule: 'DEMO-2026' } },
    ]);
  });

  it('runs the roster and the actions as actors', async () => {
    const { port, requests } = scripted(answer(200, demoRoster()), answer(200, { pupil, server_time }));
    const { actors } = proctorImplementations({ admin: port, storage: memoryStorage() });
    expect(await run(actors.loadRoster, { token: 't', code: 'C', venueId: null, since: null })).toEqual({ kind: 'full', roster: demoRoster() });
    const request = { kind: 'retake', sittingId: 7, reason: 'r', minutes: null } as unknown as ActionRequest;
    expect(await run(actors.performAction, { token: 't', scheduleCode: 'C', request })).toEqual({ pupil, extended: null, server_time });
    expect(requests.map((r) => r.path)).toEqual(['/admin/schedules/C/roster', '/admin/sittings/7/retake']);
  });

  it('signs out with the token: 2xx and 401 are a sign-out, anything else a refusal; no token, no call', async () => {
    for (const status of [200, 204, 299, 401]) {
      const { port, requests } = scripted(answer(status, undefined));
      await expect(run(proctorImplementations({ admin: port, storage: memoryStorage() }).actors.signOut, { token: 'tok' })).resolves.toBeUndefined();
      expect(requests).toEqual([{ method: 'POST', path: '/admin/logout', token: 'tok' }]);
    }
    for (const status of [199, 300, 403, 500]) {
      const { port } = scripted(answer(status, { code: 'GENERIC_ERROR', message: 'no' }));
      expect(await refusal(run(proctorImplementations({ admin: port, storage: memoryStorage() }).actors.signOut, { token: 'tok' }))).toMatchObject({ status });
    }
    const none = scripted();
    await run(proctorImplementations({ admin: none.port, storage: memoryStorage() }).actors.signOut, { token: '' });
    expect(none.requests).toEqual([]);
  });

  it('keeps the staff token under its own key, and forgets only that', () => {
    const storage = memoryStorage({ other: 'x' });
    const { items } = storage;
    const { actions } = proctorImplementations({ admin: scripted().port, storage });
    actions.storeToken(undefined, { token: 'abc' });
    expect(Object.fromEntries(items)).toEqual({ other: 'x', [storageKeys.staffToken]: 'abc' });
    actions.forgetToken();
    expect(Object.fromEntries(items)).toEqual({ other: 'x' });
  });
});
