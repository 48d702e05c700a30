/**
 * An ApiPort whose calls wait until the test says how they end: the UI-level model tests make
 * "the server answers" and "the network fails" explicit steps of a path. Successful answers
 * come from the in-memory fake server (fake-api.ts), so they stay consistent.
 */
import type { PaymentPort } from '../../machines/payment/payment.types.ts';
import { ApiFailure, type ApiPort, type FailureCode } from '../../machines/shared/ports.ts';
import { createFakeApi, type FakeApi } from './fake-api.ts';

/** Every call the app makes: the ApiPort and the payment calls. */
type Method = keyof ApiPort | keyof PaymentPort;

interface PendingCall {
  method: Method;
  resolve: () => void;
  reject: (failure: ApiFailure) => void;
}

export interface ControlledApi {
  api: ApiPort & PaymentPort;
  server: FakeApi;
  /** Methods of the calls now waiting, oldest first. */
  waiting(): Method[];
  /** Lets the oldest waiting call of this method reach the fake server and answer. */
  answer(method: Method): void;
  /** Fails the oldest waiting call of this method with this code. */
  fail(method: Method, code: FailureCode, status?: number): void;
  /** Answers every waiting call of these methods, repeatedly, until none waits. */
  answerAll(...methods: Method[]): Promise<void>;
}

export function createControlledApi(): ControlledApi {
  const server = createFakeApi();
  const pending: PendingCall[] = [];
  const gate = <K extends Method>(method: K) =>
    ((...args: unknown[]) =>
      new Promise((resolve, reject) => {
        pending.push({
          method,
          resolve: () => (server[method] as (...a: unknown[]) => Promise<unknown>)(...args).then(resolve, reject),
          reject,
        });
      })) as (ApiPort & PaymentPort)[K];
  const api: ApiPort & PaymentPort = {
    login: gate('login'),
    examDetails: gate('examDetails'),
    startExam: gate('startExam'),
    examQuestions: gate('examQuestions'),
    saveAnswer: gate('saveAnswer'),
    heartbeat: gate('heartbeat'),
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
    shortResult: gate('shortResult'),
    scoreReport: gate('scoreReport'),
    resultDocument: gate('resultDocument'),
    examPaymentSetting: gate('examPaymentSetting'),
    resultPaymentSetting: gate('resultPaymentSetting'),
    createExamFeeSession: gate('createExamFeeSession'),
    createResultFeeSession: gate('createResultFeeSession'),
    paymentStatus: gate('paymentStatus'),
    completeDemoPayment: gate('completeDemoPayment'),
  };
  const take = (method: Method): PendingCall => {
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
