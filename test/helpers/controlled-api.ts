/**
 * An ApiPort whose calls wait until the test says how they end: the UI-level model tests make
 * "the server answers" and "the network fails" explicit steps of a path. Successful answers
 * come from the in-memory fake server (fake-api.ts), so they stay consistent.
 */
import { ApiFailure, type ApiPort, type FailureCode } from '../../machines/shared/ports.ts';
import { createFakeApi, type FakeApi } from './fake-api.ts';

interface PendingCall {
  method: keyof ApiPort;
  resolve: () => void;
  reject: (failure: ApiFailure) => void;
}

export interface ControlledApi {
  api: ApiPort;
  server: FakeApi;
  /** Methods of the calls now waiting, oldest first. */
  waiting(): Array<keyof ApiPort>;
  /** Lets the oldest waiting call of this method reach the fake server and answer. */
  answer(method: keyof ApiPort): void;
  /** Fails the oldest waiting call of this method with this code. */
  fail(method: keyof ApiPort, code: FailureCode, status?: number): void;
  /** Answers every waiting call of these methods, repeatedly, until none waits. */
  answerAll(...methods: Array<keyof ApiPort>): Promise<void>;
}

export function createControlledApi(): ControlledApi {
  const server = createFakeApi();
  const pending: PendingCall[] = [];
  const gate = <K extends keyof ApiPort>(method: K) =>
    ((...args: unknown[]) =>
      new Promise((resolve, reject) => {
        pending.push({
          method,
          resolve: () => (server[method] as (...a: unknown[]) => Promise<unknown>)(...args).then(resolve, reject),
          reject,
        });
      })) as ApiPort[K];
  const api: ApiPort = {
    login: gate('login'),
    examDetails: gate('examDetails'),
    startExam: gate('startExam'),
    examQuestions: gate('examQuestions'),
    saveAnswer: gate('saveAnswer'),
    finishExam: gate('finishExam'),
    logout: gate('logout'),
    organization: gate('organization'),
    schedule: gate('schedule'),
    loginWithId: gate('loginWithId'),
    loginExaminee: gate('loginExaminee'),
    appSchedule: gate('appSchedule'),
    kenyaLoginLink: gate('kenyaLoginLink'),
    me: gate('me'),
    saveExamineeInfo: gate('saveExamineeInfo'),
    chooseStatus: gate('chooseStatus'),
    exams: gate('exams'),
    clientConfig: gate('clientConfig'),
  };
  const take = (method: keyof ApiPort): PendingCall => {
    const index = pending.findIndex((call) => call.method === method);
    if (index < 0) throw new Error(`no ${method} call is waiting (waiting: ${pending.map((c) => c.method).join(', ') || 'none'})`);
    return pending.splice(index, 1)[0]!;
  };
  return {
    api,
    server,
    waiting: () => pending.map((call) => call.method),
    answer: (method) => take(method).resolve(),
    fail: (method, code, status) => take(method).reject(new ApiFailure(code, status)),
    async answerAll(...methods) {
      for (let round = 0; round < 50; round++) {
        const next = pending.find((call) => methods.includes(call.method));
        if (!next) return;
        take(next.method).resolve();
        await new Promise((r) => setTimeout(r, 0));
      }
    },
  };
}
