/**
 * Builds the production kiosk machine from the edge's ports: the session and exam machines
 * with their real calls and storage writes.
 */
import { examImplementations } from '../exam/exam.actors.ts';
import { examMachine } from '../exam/exam.machine.ts';
import { sessionImplementations, type SsoStartUrl } from '../session/session.actors.ts';
import { sessionMachine } from '../session/session.machine.ts';
import type { ExamDeps } from '../exam/exam.actors.ts';
import type { ApiPort, StoragePort } from '../shared/ports.ts';
import { kioskMachine } from './kiosk.machine.ts';

export function createKioskMachine(
  deps: { api: ApiPort; storage: StoragePort; leaveApp?: (url: string) => void; ssoStartUrl?: SsoStartUrl } & Omit<ExamDeps, 'api'>,
) {
  return kioskMachine.provide({
    actors: {
      session: sessionMachine.provide(sessionImplementations(deps)),
      exam: examMachine.provide(examImplementations(deps)),
    },
  });
}
