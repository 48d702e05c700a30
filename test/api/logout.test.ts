/**
 * Logout ends the session on the server, seen from the API and through the
 * client path: the browser's API client (src/api/client.ts) over real HTTP to the API, driven
 * by the kiosk's real session machine and its storage writes.
 *
 * - POST /api/logout with the pupil's token revokes it: GET /api/me with it answers 401;
 * - the same call without the token (what the client did before: the token wiped first) is
 *   refused and leaves the token valid, which is why the order matters;
 * - "Log out" on the terminal sends the token and then wipes: afterwards the old token is 401
 *   and nothing of the pupil is left, not even a revocation to send;
 * - logout with no network wipes the terminal at once and keeps only the token; the
 *   revocation sent when the network is back ends it (a second one finds it gone: 401, done).
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createActor } from 'xstate';
import { createKioskMachine } from '../../machines/kiosk/kiosk.actors.ts';
import { selectPath } from '../../machines/kiosk/kiosk.selectors.ts';
import { waitForKiosk } from '../../machines/kiosk/kiosk.watch.ts';
import { createRevocationSender } from '../../machines/session/session.revocation.ts';
import { ApiFailure, type ApiPort } from '../../machines/shared/ports.ts';
import { examineeKeys, readPendingRevocations, readToken, storageKeys } from '../../machines/shared/storage.ts';
import { createApiClient } from '../../src/api/client.ts';
import { memoryStorage } from '../helpers/memory-storage.ts';
import { useApi } from '../helpers/server-api.ts';
import { addSitting } from '../helpers/server-fixtures.ts';
import { examOf } from '../helpers/kiosk-exam.ts';

/** The terminal's identity (X-Device-Token): a UUID, as the browser makes it. */
const DEVICE_TOKEN = '00000000-0000-4000-8000-0000000000d1';

describe('logout ends the token on the server', () => {
  const api = useApi('pglite');
  let server: ReturnType<typeof serve> | undefined;
  let baseURL = '';

  beforeAll(async () => {
    await new Promise<void>((resolve) => {
      server = serve({ fetch: api.app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
        baseURL = `http://127.0.0.1:${info.port}/api`;
        resolve();
      });
    });
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  const me = (token: string) => api.call('GET', '/api/me', { token });

  /** A terminal: the kiosk over the real client, its storage, and a switch for the network. */
  function terminal() {
    const storage = memoryStorage();
    const client = createApiClient({ baseURL, getToken: () => readToken(storage), getLanguage: () => 'en', getDeviceToken: () => DEVICE_TOKEN });
    const network = { up: true };
    const down = () => Promise.reject(new ApiFailure('NETWORK_ERROR'));
    const port: ApiPort = { ...client, logout: (token) => (network.up ? client.logout(token) : down()) };
    const kiosk = createActor(createKioskMachine({ api: port, storage }), { input: { storedSession: null } }).start();
    return { storage, client, port, network, kiosk };
  }

  /** Logs in with the code: the terminal shows "Is this you?" (whose "No, log out" logs out). */
  async function logInOnTerminal(t: ReturnType<typeof terminal>, loginCode: string): Promise<string> {
    t.kiosk.getSnapshot().children.session!.send({ type: 'loginCode.submitted', code: loginCode });
    await waitForKiosk(t.kiosk, (s) => selectPath(s) === '/login-confirm', 10_000);
    const token = readToken(t.storage);
    if (!token) throw new Error('no token stored after login');
    expect((await me(token)).status).toBe(200);
    return token;
  }

  test('POST /api/logout with the token revokes it: GET /api/me answers 401 NOT_LOGGED_IN', async () => {
    const pupil = await addSitting(api.db);
    const { token } = await api.loginAs(pupil.loginCode);
    expect((await me(token)).status).toBe(200);
    expect((await api.call('POST', '/api/logout', { token })).status).toBe(200);
    const after = await me(token);
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ code: 'NOT_LOGGED_IN' });
  });

  test('POST /api/logout without the token is refused and the token stays valid', async () => {
    const pupil = await addSitting(api.db);
    const { token } = await api.loginAs(pupil.loginCode);
    expect((await api.call('POST', '/api/logout')).status).toBe(401);
    expect((await me(token)).status).toBe(200);
  });

  test('"Log out" on the terminal sends the token, then wipes: the old token answers 401', async () => {
    const pupil = await addSitting(api.db);
    const t = terminal();
    const token = await logInOnTerminal(t, pupil.loginCode);
    examOf(t.kiosk).send({ type: 'identity.rejected' });
    await waitForKiosk(t.kiosk, (s) => selectPath(s) === '/login-code?logout=1', 10_000);
    expect((await me(token)).status).toBe(401);
    expect(examineeKeys.filter((key) => t.storage.getItem(key) !== null)).toEqual([]);
    expect(t.storage.getItem(storageKeys.pendingRevocations)).toBeNull();
    t.kiosk.stop();
  });

  test('offline, the terminal is wiped at once and the revocation is sent when the network is back', async () => {
    const pupil = await addSitting(api.db);
    const t = terminal();
    const token = await logInOnTerminal(t, pupil.loginCode);
    t.network.up = false;
    examOf(t.kiosk).send({ type: 'identity.rejected' });
    await waitForKiosk(t.kiosk, (s) => selectPath(s) === '/login-code?logout=1', 10_000);
    // Nothing the next pupil could log in with: only the bare token, under its own key.
    expect(examineeKeys.filter((key) => t.storage.getItem(key) !== null)).toEqual([]);
    expect(Object.keys(t.storage.dump()).sort()).toEqual([storageKeys.pendingRevocations]);
    expect(readPendingRevocations(t.storage)).toEqual([token]);
    // The server has not heard of it yet.
    expect((await me(token)).status).toBe(200);

    const revocations = createRevocationSender({ api: t.port, storage: t.storage });
    expect(await revocations.flush()).toBe(1);
    t.network.up = true;
    expect(await revocations.flush()).toBe(0);
    expect((await me(token)).status).toBe(401);
    expect(t.storage.getItem(storageKeys.pendingRevocations)).toBeNull();
    t.kiosk.stop();
  });

  test('a revocation of a token already ended answers 401 and counts as done', async () => {
    const pupil = await addSitting(api.db);
    const { token } = await api.loginAs(pupil.loginCode);
    expect((await api.call('POST', '/api/logout', { token })).status).toBe(200);
    const storage = memoryStorage();
    storage.setItem(storageKeys.pendingRevocations, JSON.stringify([token]));
    const client = createApiClient({ baseURL, getToken: () => null, getLanguage: () => 'en', getDeviceToken: () => DEVICE_TOKEN });
    expect(await createRevocationSender({ api: client, storage }).flush()).toBe(0);
    expect(readPendingRevocations(storage)).toEqual([]);
  });
});
