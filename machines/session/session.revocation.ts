/**
 * Revocations that did not reach the server at logout, sent again later.
 *
 * A logout with no answer (offline, a time-out), in maintenance or on a server failure wipes
 * the terminal at once (session.machine.ts, signingOut) but leaves the token in the
 * pending-revocation store (machines/shared/storage.ts: only the token strings, never a
 * session). The edge calls `flush()` when the network returns (the browser's online event),
 * at boot, and now and then while anything waits.
 *
 * Promises:
 * - each token is sent with its own Authorization header, never the current pupil's;
 * - a token leaves the store once the server ended it, or answered 401 other than
 *   DURING_MAINTENANCE (revoked or expired already: done);
 * - it stays on no answer, a server failure or maintenance (the server ended nothing), to be
 *   tried at the next flush;
 * - one flush at a time; a flush asked for while one runs runs once more after it, so a
 *   token held meanwhile is not left waiting for the next trigger.
 */
import type { ApiPort, StoragePort } from '../shared/ports.ts';
import { dropRevocation, readPendingRevocations } from '../shared/storage.ts';
import { isUnauthorizedFailure } from './session.rules.ts';

export interface RevocationSender {
  /** Sends every waiting revocation; resolves to how many still wait afterwards. */
  flush(): Promise<number>;
  /** How many tokens wait for revocation now. */
  pending(): number;
}

export function createRevocationSender(deps: { api: Pick<ApiPort, 'logout'>; storage: StoragePort }): RevocationSender {
  let running: Promise<number> | undefined;
  let again = false;

  async function sendAll(): Promise<number> {
    for (const token of readPendingRevocations(deps.storage)) {
      try {
        await deps.api.logout(token);
        dropRevocation(deps.storage, token);
      } catch (error) {
        if (isUnauthorizedFailure(error)) dropRevocation(deps.storage, token);
      }
    }
    return readPendingRevocations(deps.storage).length;
  }

  async function run(): Promise<number> {
    let left = await sendAll();
    while (again) {
      again = false;
      left = await sendAll();
    }
    return left;
  }

  return {
    flush() {
      if (running) {
        again = true;
        return running;
      }
      running = run().finally(() => {
        running = undefined;
      });
      return running;
    },
    pending: () => readPendingRevocations(deps.storage).length,
  };
}
