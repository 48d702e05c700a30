/**
 * The real side effects of the session machine, built from the edge's ports:
 * the login and logout calls, and the storage writes.
 */
import { fromPromise } from 'xstate';
import { LoginType, type LoginResponse } from '../../src/shared/contract.ts';
import type { ApiPort, StoragePort } from '../shared/ports.ts';
import { clearExaminee, updateSession, writeSession } from '../shared/storage.ts';

export function sessionImplementations(deps: { api: ApiPort; storage: StoragePort }) {
  return {
    actors: {
      loginWithCode: fromPromise<LoginResponse, { code: string }>(({ input }) =>
        deps.api.login({ login_type: LoginType.CODE, login_code: input.code }),
      ),
      endServerSession: fromPromise<void, void>(() => deps.api.logout()),
    },
    actions: {
      persistSession: (_: unknown, params: { session: Parameters<typeof writeSession>[1] }) =>
        writeSession(deps.storage, params.session),
      wipeSession: () => clearExaminee(deps.storage),
      persistChange: (_: unknown, params: { change: Parameters<typeof updateSession>[1] }) =>
        updateSession(deps.storage, params.change),
    },
  };
}
