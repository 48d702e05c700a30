/**
 * Builds the production kiosk machine from the edge's ports: the session and exam machines
 * with their real calls and storage writes.
 */
import { documentImplementations } from '../document/document.actors.ts';
import { documentMachine } from '../document/document.machine.ts';
import type { DocumentDeps } from '../document/document.types.ts';
import { examImplementations } from '../exam/exam.actors.ts';
import { examMachine } from '../exam/exam.machine.ts';
import { sessionImplementations, type SsoStartUrl } from '../session/session.actors.ts';
import { sessionMachine } from '../session/session.machine.ts';
import type { ExamDeps } from '../exam/exam.actors.ts';
import type { ApiPort, StoragePort } from '../shared/ports.ts';
import type { PaymentPort } from '../payment/payment.types.ts';
import { kioskMachine } from './kiosk.machine.ts';

export function createKioskMachine(
  deps: {
    api: ApiPort & Partial<PaymentPort>;
    storage: StoragePort;
    leaveApp?: (url: string) => void;
    ssoStartUrl?: SsoStartUrl;
    language?: DocumentDeps['language'];
    saveFile?: (file: Blob, name: string) => void;
    print?: () => void;
  } & Omit<ExamDeps, 'api'>,
) {
  return kioskMachine.provide({
    actors: {
      session: sessionMachine.provide(sessionImplementations(deps)),
      exam: examMachine.provide(examImplementations(deps)),
      document: documentMachine.provide(documentImplementations({ api: deps.api, language: deps.language })),
    },
  });
}
