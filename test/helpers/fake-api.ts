/**
 * An in-memory ApiPort for machine and view tests: it keeps one exam's state the way the
 * server does (deadline fixed at Start, answers by idempotency key), and can be told to fail.
 */
import type { PaymentPort } from '../../machines/payment/payment.types.ts';
import type { ApiPort, FailureCode } from '../../machines/shared/ports.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';
import { scoreReportFixture } from './score-report-fixture.ts';
import type { HeartbeatRequest } from '../../contract/presence.ts';
import type { ExamDetails, Question } from '../../contract/exam.ts';
import type { PaymentLine, PaymentProvider, PaymentSession, PaymentStatusResponse } from '../../contract/payments.ts';
import type { ResultItemKind } from '../../contract/payments.ts';
import type { ChoosePageStatus, ShortResult } from '../../contract/results.ts';
import type { ExamineeInfo, ExamListItem, LoginResponse } from '../../contract/session.ts';

export const demoExaminee: ExamineeInfo = {
  user_key: 'u-1',
  test_key: 't-1',
  login_type: 0,
  examinee_name: 'Aiko Tanaka',
  level_id: 1,
  subject_id: 1,
  schedule_code: 'SCH-2026',
  org_code: 'ORG1',
  org_login_method: 1,
  enable_mode_step: false,
  org_category: 'SCHOOL',
  is_my_page_login: false,
  foreign_payment_method: false,
  venue_id: 1,
  grade_id: 4,
  email: null,
  schedule_history_id: 7,
  flag_retake: false,
};

export const demoQuestions: Question[] = [
  { id: 101, number: 1, type: 'single_choice', prompt: 'A baby dog is a…', choices: [{ id: 'a', label: 'puppy' }, { id: 'b', label: 'kitten' }] },
  { id: 102, number: 2, type: 'text', prompt: 'The opposite of hot is…', choices: [] },
  { id: 103, number: 3, type: 'single_choice', prompt: 'Which is a colour?', choices: [{ id: 'a', label: 'blue' }, { id: 'b', label: 'run' }] },
];

export const VALID_CODE = 'AC3E-F4GH-J6KM';

/** Login IDs the fake server knows (password `secret` for all). */
export const demoLogins = {
  /** An ID login (type 1) that lands on login-confirm. */
  id: 'pupil1',
  /** A my-page ID login whose basic info is missing. */
  myPage: 'mypage1',
  /** A foreign-payment ID login whose basic info is registered. */
  registered: 'mypage2',
  /** An examinee login (type 5) with an exam list. */
  examinee: 'examinee1',
} as const;
export const DEMO_PASSWORD = 'secret';
/** Organisations the fake server knows: ORG1 (ID login) and EXORG (examinee login). */
export const demoOrganizations = { id: 'ORG1', examinee: 'EXORG' } as const;

export const demoExamList: ExamListItem[] = [
  {
    schedule_history_id: 7,
    subject: { id: 1, name: 'English (vocabulary)' },
    level: { id: 1, name: 'Level 1', order: 1 },
    exam: { id: 1, title: 'English vocabulary, level 1' },
    status: 0,
    score: null,
    scoring: 'not_taken',
    locked: false,
  },
  {
    schedule_history_id: 8,
    subject: { id: 1, name: 'English (vocabulary)' },
    level: { id: 2, name: 'Level 2', order: 2 },
    exam: { id: 2, title: 'English vocabulary, level 2' },
    status: 0,
    score: null,
    scoring: 'not_taken',
    locked: true,
  },
];

export const demoChooseStatus: Omit<ChoosePageStatus, 'server_time'> = {
  exam_fee: { required: false, status: 0 },
  exam: { schedule_history_id: 7, status: 0, can_take: true },
  result: { released: false, payment_status: 0 },
};

/** The result of the demo schedule history (7): released one week after the exam. */
export const demoShortResult: Omit<ShortResult, 'server_time'> = {
  schedule_history_id: 7,
  subject: { id: 1, name: 'English (vocabulary)' },
  level: { id: 1, name: 'Level 1', order: 1 },
  exam_date: '2026-10-14T01:30:00.000Z',
  score: 78,
  max_score: 100,
  passed: true,
  correct_count: 31,
  question_count: 40,
  correct_rate: 77.5,
  viewable_until: '2028-10-14T01:30:00.000Z',
};

/** Prices of the payable items, USD minor units. */
export const demoPrices = { exam_fee: 1500, result_sheet: 500, certificate: 800 } as const;

/** One checkout the fake server opened (its items are paid once the provider authorises). */
interface FakeCheckout {
  kinds: PaymentLine['kind'][];
  status: 0 | 1 | 2;
  outcome: PaymentStatusResponse['outcome'];
}

export interface FakeApi extends ApiPort, PaymentPort {
  calls: string[];
  /** Make the next call of this method fail with this code. */
  failNext(method: keyof ApiPort | keyof PaymentPort, code: FailureCode, status?: number): void;
  status: number;
  /** What GET /exam-details names as the question to resume at (a sitting a proctor moved here); default null. */
  resumeQuestionIndex: number | null;
  saved: Map<number, { value: string; key: string; answeredAt?: string }>;
  /** The heartbeats received, oldest first. */
  heartbeats: HeartbeatRequest[];
  /** Moves the deadline (a proctor's extension): later calls answer the new one. */
  setDeadline(at: number): void;
  /** The deadline fixed at Start (or moved since), ISO 8601. */
  deadlineAt(): string;
  /** What GET /get-status-choose-page answers (the testing menu), without server_time. */
  menu: Omit<ChoosePageStatus, 'server_time'>;
  /** The payment provider the server is set up with. */
  provider: PaymentProvider;
  /** What of schedule history 7 is paid: the exam fee and the result items (NOT_PAID 0, PENDING 1, PAID 2). */
  paid: Record<PaymentLine['kind'], 0 | 1 | 2>;
  /** The checkouts opened, by reference. */
  checkouts: Map<string, FakeCheckout>;
  /** The bearer tokens GET /score-report/results was asked with (undefined: the stored one). */
  reportTokens: Array<string | undefined>;
  shortResult: NonNullable<ApiPort['shortResult']>;
  scoreReport: NonNullable<ApiPort['scoreReport']>;
  resultDocument: NonNullable<ApiPort['resultDocument']>;
}

export function createFakeApi(options: { now?: () => number } = {}): FakeApi {
  const now = options.now ?? (() => Date.now());
  const failures = new Map<string, ApiFailure>();
  let deadline: number | null = null;
  const api: FakeApi = {
    calls: [],
    status: 0,
    resumeQuestionIndex: null,
    saved: new Map(),
    heartbeats: [],
    setDeadline(at) {
      deadline = at;
    },
    deadlineAt() {
      if (deadline === null) throw new Error('the fake exam has not started');
      return iso(deadline);
    },
    menu: structuredClone(demoChooseStatus),
    provider: 'demo',
    paid: { exam_fee: 0, result_sheet: 0, certificate: 0 },
    checkouts: new Map(),
    reportTokens: [],
    failNext(method, code, status) {
      failures.set(method, new ApiFailure(code, status));
    },
    async login(body) {
      track('login');
      if (body.login_code.toUpperCase().replace(/-/g, '') !== VALID_CODE.replace(/-/g, '')) {
        throw new ApiFailure('LOGIN_CODE_INCORRECT', 401);
      }
      const response: LoginResponse = { access_token: 'token-1', examinee: demoExaminee, server_time: iso(now()) };
      return response;
    },
    async examDetails() {
      track('examDetails');
      return details();
    },
    async startExam() {
      track('startExam');
      if (api.status === 0) {
        api.status = 6;
        deadline = now() + 40 * 60_000;
      }
      return { status: 6 as const, started_at: iso(deadline! - 2_400_000), deadline_at: iso(deadline!), server_time: iso(now()) };
    },
    async examQuestions() {
      track('examQuestions');
      if (api.status !== 6) throw new ApiFailure('EXAM_NOT_STARTED', 403);
      return {
        questions: demoQuestions,
        answers: [...api.saved].map(([question_id, a]) => ({ question_id, value: a.value, answered_at: iso(now()) })),
        deadline_at: iso(deadline!),
        server_time: iso(now()),
      };
    },
    async saveAnswer(body) {
      track('saveAnswer');
      const held = api.saved.get(body.question_id);
      const ack = { question_id: body.question_id, idempotency_key: body.idempotency_key, deadline_at: iso(deadline!), server_time: iso(now()) };
      if (held?.key === body.idempotency_key) return { ...ack, outcome: 'duplicate' as const };
      // As the server: the latest answered_at wins; an older one is acknowledged as superseded.
      if (held?.answeredAt && Date.parse(held.answeredAt) > Date.parse(body.answered_at)) {
        return { ...ack, outcome: 'superseded' as const, current_value: held.value };
      }
      api.saved.set(body.question_id, { value: body.value, key: body.idempotency_key, answeredAt: body.answered_at });
      return { ...ack, outcome: 'saved' as const };
    },
    async heartbeat(body) {
      track('heartbeat');
      api.heartbeats.push(body);
      if (api.status !== 6) throw new ApiFailure('EXAM_NOT_STARTED', 403);
      return { status: 6 as const, deadline_at: iso(deadline!), server_time: iso(now()) };
    },
    async finishExam() {
      track('finishExam');
      api.status = 1;
      return { status: 1 as const, answer_count: api.saved.size, digest: 'ab'.repeat(32), finished_at: iso(now()), server_time: iso(now()) };
    },
    async logout() {
      track('logout');
    },
    async organization(code) {
      track('organization');
      if (code === demoOrganizations.id) return organization(code, 1);
      if (code === demoOrganizations.examinee) return organization(code, 3);
      throw new ApiFailure('INVALID_SCHEDULE', 404);
    },
    async schedule(query) {
      track('schedule');
      if (query.schedule_code !== demoExaminee.schedule_code) throw new ApiFailure('INVALID_SCHEDULE', 404);
      return {
        schedule_code: query.schedule_code,
        name: 'November 2026',
        organization: { code: demoOrganizations.id, name: 'Sakura Primary' },
        venue: query.venue_id ? { id: query.venue_id, name: 'Room 1' } : null,
        starts_at: iso(now() - 3_600_000),
        ends_at: iso(now() + 3_600_000),
        server_time: iso(now()),
      };
    },
    async loginWithId(body) {
      track('loginWithId');
      if (body.password !== DEMO_PASSWORD) throw new ApiFailure('INCORRECT_ID_PASSWORD', 401);
      if (body.login_id === demoLogins.id) return loginAs({ ...demoExaminee, login_type: 1 });
      if (body.login_id === demoLogins.myPage) {
        return loginAs({ ...demoExaminee, login_type: 1, is_my_page_login: true, grade_id: null, email: null });
      }
      if (body.login_id === demoLogins.registered) {
        return loginAs({ ...demoExaminee, login_type: 1, foreign_payment_method: true, email: 'aiko@example.com' });
      }
      throw new ApiFailure('INCORRECT_ID_PASSWORD', 401);
    },
    async loginExaminee(body) {
      track('loginExaminee');
      if (body.login_id !== demoLogins.examinee || body.password !== DEMO_PASSWORD) {
        throw new ApiFailure('INCORRECT_ID_PASSWORD', 401);
      }
      return loginAs({ ...demoExaminee, login_type: 5, org_code: body.org_code, org_login_method: 3, schedule_history_id: null });
    },
    async appSchedule(orgCode) {
      track('appSchedule');
      if (orgCode !== demoOrganizations.id) throw new ApiFailure('INVALID_SCHEDULE', 404);
      return { org_code: orgCode, organization_name: 'Sakura Primary', schedule_code: demoExaminee.schedule_code, server_time: iso(now()) };
    },
    async kenyaLoginLink(token) {
      track('kenyaLoginLink');
      if (token !== 'kenya-ok') {
        return { access_token: null, language_code: null, login_type: null, error: 'user_notfound', org_code: null, org_step_mode: null };
      }
      return { access_token: 'token-kenya', language_code: 'en', login_type: 6, error: null, org_code: 'KE1', org_step_mode: false };
    },
    async me() {
      track('me');
      return loginAs({ ...demoExaminee, login_type: 2, schedule_history_id: null });
    },
    async saveExamineeInfo(body) {
      track('saveExamineeInfo');
      return {
        examinee: { ...demoExaminee, examinee_name: body.examinee_name, grade_id: body.grade_id, email: body.email },
        server_time: iso(now()),
      };
    },
    async chooseStatus() {
      track('chooseStatus');
      return { ...structuredClone(api.menu), server_time: iso(now()) };
    },
    async exams() {
      track('exams');
      return { exams: demoExamList, server_time: iso(now()) };
    },
    async clientConfig() {
      track('clientConfig');
      return {
        partner_logout_urls: { '3': 'https://mumbai.example/', '4': 'https://ph.example/', '6': 'https://kenya.example/', '7': 'https://egypt.example/' },
        embed_target_origin: null,
        oidc_enabled: false,
        server_time: iso(now()),
      };
    },
    async shortResult(id) {
      track('shortResult');
      if (!api.menu.result.released) throw new ApiFailure('RESULT_NOT_RELEASED', 403);
      return { ...demoShortResult, schedule_history_id: id, server_time: iso(now()) };
    },
    async resultPaymentSetting(id) {
      track('resultPaymentSetting');
      const items = [resultLine('result_sheet'), resultLine('certificate')];
      const paidCount = items.filter((l) => l.status === 2).length;
      return { ...settingCommon(id), items, result_payment_status: paidCount === 2 ? 1 : paidCount === 1 ? 2 : 0 };
    },
    async examPaymentSetting(id) {
      track('examPaymentSetting');
      const status = api.paid.exam_fee;
      return { ...settingCommon(id), items: [line('exam_fee', status, status !== 2)], payment_status: status };
    },
    async createExamFeeSession() {
      track('createExamFeeSession');
      if (api.paid.exam_fee === 2) throw new ApiFailure('ALREADY_PAID', 409);
      return openCheckout(['exam_fee']);
    },
    async createResultFeeSession(body) {
      track('createResultFeeSession');
      if (body.items.every((kind) => api.paid[kind] === 2)) throw new ApiFailure('ALREADY_PAID', 409);
      return openCheckout(body.items);
    },
    async paymentStatus(reference) {
      track('paymentStatus');
      return statusOf(reference);
    },
    async completeDemoPayment(body) {
      track('completeDemoPayment');
      const checkout = api.checkouts.get(body.reference);
      if (!checkout) throw new ApiFailure('NOT_FOUND', 404);
      if (checkout.status !== 1) return statusOf(body.reference);
      if (body.outcome === 'authorised') settle(checkout, 'paid');
      else {
        // Refused or cancelled: no longer pending.
        checkout.status = 0;
        checkout.outcome = body.outcome;
        for (const kind of checkout.kinds) if (api.paid[kind] === 1) api.paid[kind] = 0;
      }
      return statusOf(body.reference);
    },
    async scoreReport(id, token) {
      track('scoreReport');
      api.reportTokens.push(token);
      if (token === undefined && api.paid.result_sheet !== 2) throw new ApiFailure('PAYMENT_REQUIRED', 403);
      return scoreReportFixture({ schedule_history_id: id, certificate_available: api.paid.certificate === 2 });
    },
    async resultDocument(id, document) {
      track('resultDocument');
      return new Blob([`%PDF-1.7 ${document} ${id}`], { type: 'application/pdf' });
    },
  };
  function line(kind: PaymentLine['kind'], status: 0 | 1 | 2, available: boolean): PaymentLine {
    const price = demoPrices[kind];
    return { kind, quantity: 1, unit_price_minor: price, total_minor: price, status, available };
  }
  function resultLine(kind: ResultItemKind): PaymentLine {
    const status = api.paid[kind];
    return line(kind, status, status !== 2 && (kind === 'result_sheet' || demoShortResult.passed));
  }
  function settingCommon(id: number) {
    return {
      schedule_history_id: id,
      provider: api.provider,
      currency: 'USD' as const,
      adyen: api.provider === 'adyen' ? { client_key: 'test_CLIENTKEY', environment: 'test' as const } : null,
      server_time: iso(now()),
    };
  }
  function openCheckout(kinds: PaymentLine['kind'][]): PaymentSession {
    const reference = `GR-${String(api.checkouts.size + 1).padStart(8, '0')}-0000-4000-8000-000000000001`;
    // Opened and not completed: PENDING (seed section 4), as the server writes it.
    api.checkouts.set(reference, { kinds, status: 1, outcome: 'open' });
    for (const kind of kinds) if (api.paid[kind] !== 2) api.paid[kind] = 1;
    const items = kinds.map((kind) => line(kind, 1, true));
    return {
      reference,
      provider: api.provider,
      currency: 'USD',
      amount_minor: items.reduce((sum, l) => sum + l.total_minor, 0),
      items,
      adyen_session: api.provider === 'adyen' ? { id: `CS${api.checkouts.size}`, session_data: 'Ab02b4c0' } : null,
      expires_at: iso(now() + 3_600_000),
      server_time: iso(now()),
    };
  }
  /** The provider authorised the checkout: its items are paid. */
  function settle(checkout: FakeCheckout, outcome: PaymentStatusResponse['outcome']) {
    checkout.status = 2;
    checkout.outcome = outcome;
    for (const kind of checkout.kinds) api.paid[kind] = 2;
  }
  function statusOf(reference: string): PaymentStatusResponse {
    const checkout = api.checkouts.get(reference);
    if (!checkout) throw new ApiFailure('NOT_FOUND', 404);
    return { reference, status: checkout.status, outcome: checkout.outcome, kinds: [...checkout.kinds].sort(), server_time: iso(now()) };
  }
  function loginAs(examinee: ExamineeInfo): LoginResponse {
    return { access_token: 'token-1', examinee, server_time: iso(now()) };
  }
  function organization(code: string, login_method: 1 | 3) {
    return {
      code,
      name: login_method === 3 ? 'Maple Learning Centre' : 'Sakura Primary',
      category: 'SCHOOL' as const,
      login_method,
      enable_mode_step: false,
      server_time: iso(now()),
    };
  }
  function track(method: keyof ApiPort | keyof PaymentPort) {
    api.calls.push(method);
    const failure = failures.get(method);
    if (failure) {
      failures.delete(method);
      throw failure;
    }
  }
  function details(): ExamDetails {
    return {
      schedule_history_id: 7,
      examinee_name: demoExaminee.examinee_name,
      subject: { id: 1, name: 'English (vocabulary)' },
      level: { id: 1, name: 'Level 1' },
      exam: { id: 1, title: 'English vocabulary, level 1', question_count: demoQuestions.length, time_limit_seconds: 2400 },
      status: api.status as ExamDetails['status'],
      started_at: deadline ? iso(deadline - 2_400_000) : null,
      deadline_at: deadline ? iso(deadline) : null,
      resume_question_index: api.resumeQuestionIndex,
      server_time: iso(now()),
    };
  }
  return api;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

