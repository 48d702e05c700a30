/**
 * Builds the production kiosk machine from the edge's ports: the session, exam, document,
 * proctor and connectivity machines with their real calls and storage writes. All but the
 * session load on demand (kiosk.lazy.ts, machines/shared/lazy-machine.ts).
 */
import type { ConnectivityPort } from '../connectivity/connectivity.types.ts';
import type { DocumentDeps } from '../document/document.types.ts';
import type { ExamDeps } from '../exam/exam.actors.ts';
import type { FilePort } from '../administration/administration.types.ts';
import type { AdminPort } from '../proctor/proctor.types.ts';
import { sessionImplementations, type SsoStartUrl } from '../session/session.actors.ts';
import { sessionMachine } from '../session/session.machine.ts';
import { bothModules, lazyMachine, type LazyModule } from '../shared/lazy-machine.ts';
import { ApiFailure, type ApiPort, type StoragePort } from '../shared/ports.ts';
import type { PaymentPort } from '../payment/payment.types.ts';
import { connectivityModules, documentModules, examModules, proctorModules } from './kiosk.lazy.ts';
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

/** A port given as it is: a module loaded already. */
function portModule<T extends object>(port: T | LazyModule<T>): LazyModule<T> {
  if ('load' in port && 'current' in port) return port as LazyModule<T>;
  return { load: () => Promise.resolve(port as T), current: () => port as T };
}

export function createKioskMachine(
  deps: {
    api: ApiPort & Partial<PaymentPort>;
    storage: StoragePort;
    leaveApp?: (url: string) => void;
    ssoStartUrl?: SsoStartUrl;
    language?: DocumentDeps['language'];
    saveFile?: (file: Blob, name: string) => void;
    print?: () => void;
    /**
     * The staff API for the proctor page (/proctor), with the administrator's file calls; without it
     * every staff call fails clearly.
     */
    admin?: AdminPort & Partial<FilePort>;
    /**
     * The terminal check's browser work (/checking-domain-connection), or the module that makes it
     * (loaded with the connectivity machine); without it every check ends as `broken`.
     */
    connectivity?: ConnectivityPort | LazyModule<ConnectivityPort>;
  } & Omit<ExamDeps, 'api'>,
) {
  return kioskMachine.provide({
    actors: {
      session: sessionMachine.provide(sessionImplementations(deps)),
      // Loaded on demand with their real calls (kiosk.lazy.ts).
      exam: lazyMachine(examModules, ([machine, actors]) => machine.examMachine.provide(actors.examImplementations(deps))),
      document: lazyMachine(documentModules, ([machine, actors]) =>
        machine.documentMachine.provide(actors.documentImplementations({ api: deps.api, language: deps.language })),
      ),
      proctor: lazyMachine(proctorModules, ([machine, actors]) =>
        machine.proctorMachine.provide(actors.proctorImplementations({ admin: deps.admin ?? noAdmin, storage: deps.storage })),
      ),
      connectivity: lazyMachine(bothModules(connectivityModules, portModule(deps.connectivity ?? noConnectivity)), ([[machine, actors], port]) =>
        machine.connectivityMachine.provide(actors.connectivityImplementations(port)),
      ),
    },
  });
}
