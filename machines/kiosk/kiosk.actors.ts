/**
 * Builds the production kiosk machine from the edge's ports: the session, exam, document,
 * proctor and connectivity machines with their real calls and storage writes.
 */
import { connectivityImplementations } from '../connectivity/connectivity.actors.ts';
import { connectivityMachine } from '../connectivity/connectivity.machine.ts';
import type { ConnectivityPort } from '../connectivity/connectivity.types.ts';
import { documentImplementations } from '../document/document.actors.ts';
import { documentMachine } from '../document/document.machine.ts';
import type { DocumentDeps } from '../document/document.types.ts';
import { examImplementations } from '../exam/exam.actors.ts';
import { examMachine } from '../exam/exam.machine.ts';
import { proctorImplementations } from '../proctor/proctor.actors.ts';
import { proctorMachine } from '../proctor/proctor.machine.ts';
import type { AdminPort } from '../proctor/proctor.types.ts';
import { sessionImplementations, type SsoStartUrl } from '../session/session.actors.ts';
import { sessionMachine } from '../session/session.machine.ts';
import type { ExamDeps } from '../exam/exam.actors.ts';
import { ApiFailure, type ApiPort, type StoragePort } from '../shared/ports.ts';
import type { PaymentPort } from '../payment/payment.types.ts';
import { kioskMachine } from './kiosk.machine.ts';

/** An edge without the staff API (older test set-ups): every staff call fails as GENERIC_ERROR. */
const noAdmin: AdminPort = { send: () => Promise.reject(new ApiFailure('GENERIC_ERROR')) };

/** An edge without the terminal check's browser work (older test set-ups): every check ends as `broken`. */
const unavailable = (): never => {
  throw new Error('No ConnectivityPort was given to createKioskMachine');
};
const noConnectivity: ConnectivityPort = {
  now: () => Date.now(),
  urls: unavailable,
  get: async () => unavailable(),
  storage: async () => unavailable(),
  offlineShell: async () => unavailable(),
  fonts: async () => unavailable(),
};

export function createKioskMachine(
  deps: {
    api: ApiPort & Partial<PaymentPort>;
    storage: StoragePort;
    leaveApp?: (url: string) => void;
    ssoStartUrl?: SsoStartUrl;
    language?: DocumentDeps['language'];
    saveFile?: (file: Blob, name: string) => void;
    print?: () => void;
    /** The staff API for the proctor page (/proctor); without it every staff call fails clearly. */
    admin?: AdminPort;
    /** The terminal check's browser work (/checking-domain-connection); without it every check ends as `broken`. */
    connectivity?: ConnectivityPort;
  } & Omit<ExamDeps, 'api'>,
) {
  return kioskMachine.provide({
    actors: {
      session: sessionMachine.provide(sessionImplementations(deps)),
      exam: examMachine.provide(examImplementations(deps)),
      document: documentMachine.provide(documentImplementations({ api: deps.api, language: deps.language })),
      proctor: proctorMachine.provide(proctorImplementations({ admin: deps.admin ?? noAdmin, storage: deps.storage })),
      connectivity: connectivityMachine.provide(connectivityImplementations(deps.connectivity ?? noConnectivity)),
    },
  });
}
