/**
 * The pending-revocation store and its sender (machines/session/session.revocation.ts): tokens
 * whose logout found no network, kept as bare strings under their own key and sent again later.
 */
import { describe, expect, it } from 'vitest';
import { createRevocationSender } from '../../machines/session/session.revocation.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';
import {
  dropRevocation,
  holdRevocation,
  readPendingRevocations,
  readSession,
  readToken,
  storageKeys,
} from '../../machines/shared/storage.ts';
import { memoryStorage } from '../helpers/memory-storage.ts';

/** A logout endpoint that answers per token as the test says. */
function serverSaying(answers: Record<string, 'ok' | ApiFailure>) {
  const sent: Array<string | undefined> = [];
  return {
    sent,
    logout: async (token?: string) => {
      sent.push(token);
      const answer = answers[token ?? ''];
      if (answer instanceof ApiFailure) throw answer;
    },
  };
}

describe('the pending-revocation store', () => {
  it('holds bare tokens under its own key, once each, and is never read as a session', () => {
    const storage = memoryStorage();
    holdRevocation(storage, 'token-a');
    holdRevocation(storage, 'token-b');
    holdRevocation(storage, 'token-a');
    expect(readPendingRevocations(storage)).toEqual(['token-b', 'token-a']);
    expect(Object.keys(storage.dump())).toEqual([storageKeys.pendingRevocations]);
    expect(readToken(storage)).toBeNull();
    expect(readSession(storage)).toBeNull();
  });

  it('removes its key once the last token is dropped', () => {
    const storage = memoryStorage();
    holdRevocation(storage, 'token-a');
    dropRevocation(storage, 'token-a');
    expect(storage.dump()).toEqual({});
  });

  it('reads anything but a list of token strings as nothing waiting', () => {
    const storage = memoryStorage();
    for (const raw of ['not json', '{"token":"x"}', '[1,2]', '[""]']) {
      storage.setItem(storageKeys.pendingRevocations, raw);
      expect(readPendingRevocations(storage)).toEqual([]);
    }
  });
});

describe('sending the revocations', () => {
  it('sends each token with its own Authorization and forgets the ones the server ended', async () => {
    const storage = memoryStorage();
    holdRevocation(storage, 'token-a');
    holdRevocation(storage, 'token-b');
    const server = serverSaying({ 'token-a': 'ok', 'token-b': 'ok' });
    expect(await createRevocationSender({ api: server, storage }).flush()).toBe(0);
    expect(server.sent).toEqual(['token-a', 'token-b']);
    expect(storage.dump()).toEqual({});
  });

  it('counts a 401 (revoked or expired already, or reset by an administrator) as done', async () => {
    const storage = memoryStorage();
    holdRevocation(storage, 'token-a');
    holdRevocation(storage, 'token-b');
    const server = serverSaying({
      'token-a': new ApiFailure('NOT_LOGGED_IN', 401),
      'token-b': new ApiFailure('ER_SCHEDULE_HISTORY_RETAKE', 401),
    });
    expect(await createRevocationSender({ api: server, storage }).flush()).toBe(0);
    expect(readPendingRevocations(storage)).toEqual([]);
  });

  it('keeps a token on no answer, a time-out, a server failure or maintenance, and tries it again next time', async () => {
    const storage = memoryStorage();
    for (const token of ['offline', 'slow', 'broken', 'maintenance', 'fine']) holdRevocation(storage, token);
    const answers: Record<string, 'ok' | ApiFailure> = {
      offline: new ApiFailure('NETWORK_ERROR'),
      slow: new ApiFailure('TIMEOUT'),
      broken: new ApiFailure('GENERIC_ERROR', 500),
      maintenance: new ApiFailure('DURING_MAINTENANCE', 401),
      fine: 'ok',
    };
    const server = serverSaying(answers);
    const sender = createRevocationSender({ api: server, storage });
    expect(await sender.flush()).toBe(4);
    expect(readPendingRevocations(storage)).toEqual(['offline', 'slow', 'broken', 'maintenance']);
    expect(sender.pending()).toBe(4);
    // The network is back and maintenance is over.
    for (const token of ['offline', 'slow', 'broken', 'maintenance']) answers[token] = 'ok';
    expect(await sender.flush()).toBe(0);
    expect(server.sent.filter((token) => token === 'maintenance')).toHaveLength(2);
  });

  it('runs one flush at a time, and once more for a token held while it ran', async () => {
    const storage = memoryStorage();
    holdRevocation(storage, 'token-a');
    const sent: Array<string | undefined> = [];
    let release: () => void = () => {};
    const api = {
      logout: (token?: string) => {
        sent.push(token);
        return token === 'token-a' ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
      },
    };
    const sender = createRevocationSender({ api, storage });
    const first = sender.flush();
    holdRevocation(storage, 'token-b');
    const second = sender.flush();
    expect(second).toBe(first);
    release();
    expect(await first).toBe(0);
    expect(sent).toEqual(['token-a', 'token-b']);
  });
});
