/**
 * The session machine walked transition by transition: every way in (login code, login ID +
 * password, examinee login, the entry routes of rules 1-4), the entry guards for visitors
 * (rules 5 and 7, /404), where each examinee lands, and every way out (logout per login type,
 * 401 with and without maintenance; the logout call answered, refused as already ended, or
 * unanswered with its token kept for revocation), the payment provider's redirect back to a
 * payment screen, the results (its child, walked by its own model: test/model/results.model.test.ts)
 * ending back on the menu or with a 401, and a reload on a my-page screen past the menu (the
 * restored session reads the menu again and reopens that screen, or the menu stands in).
 */
import assert from 'node:assert/strict';
import { createMachine, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { sessionFromLogin, sessionMachine } from '../../machines/session/session.machine.ts';
import { validateBasicInfo } from '../../machines/session/session.rules.ts';
import type { BasicInfoValues, LoginPlace } from '../../machines/session/session.types.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';
import type { ChoosePageStatus } from '../../contract/results.ts';
import type { LoginResponse } from '../../contract/session.ts';
import { demoChooseStatus, demoExamList, demoExaminee } from '../helpers/fake-api.ts';
import { never } from '../helpers/never.ts';
import { describeModel } from './suite.ts';

const serverTime = '2026-11-22T09:00:00.000Z';
const uuid = '00000000-0000-4000-8000-000000000000';
const loginResponse: LoginResponse = { access_token: 'token-1', examinee: demoExaminee, server_time: serverTime };
const idLogin: LoginResponse = { ...loginResponse, examinee: { ...demoExaminee, login_type: 1 } };
const examineeLogin: LoginResponse = {
  ...loginResponse,
  examinee: { ...demoExaminee, login_type: 5, org_login_method: 3, schedule_history_id: null },
};
const meResponse: LoginResponse = { ...loginResponse, examinee: { ...demoExaminee, login_type: 2, schedule_history_id: null } };
const myPageSession = sessionFromLogin(
  { ...loginResponse, examinee: { ...demoExaminee, login_type: 1, is_my_page_login: true, grade_id: null, email: null } },
  uuid,
);
const registeredForeignSession = sessionFromLogin(
  { ...loginResponse, examinee: { ...demoExaminee, login_type: 1, foreign_payment_method: true, email: 'aiko@example.com' } },
  uuid,
);
const place: LoginPlace = {
  organizationName: 'Sakura Primary',
  scheduleName: null,
  venueName: null,
  kind: 'id',
  orgCode: 'ORG1',
  ssoUrl: null,
  scheduleCode: null,
  venueId: null,
};
const validInfo: BasicInfoValues = { examinee_name: 'Aiko Tanaka', grade_id: 4, email: 'aiko@example.com' };
const invalidInfo: BasicInfoValues = { examinee_name: '', grade_id: null, email: 'not-an-email' };

const machine = sessionMachine.provide({
  actors: {
    loginWithCode: never(),
    loadLoginPlace: never(),
    loginWithPassword: never(),
    exchangeKenyaToken: never(),
    identifyToken: never(),
    saveBasicInfo: never(),
    loadTestingMenu: never(),
    loadExamList: never(),
    loadClientConfig: never(),
    endServerSession: never(),
    // The payment and results machines have their own models (payment.model.test.ts,
    // results.model.test.ts): here children that never end by themselves.
    payment: createMachine({}),
    results: createMachine({}),
  } as never,
  actions: {
    persistSession: () => {},
    wipeSession: () => {},
    holdRevocation: () => {},
    dropRevocation: () => {},
    persistChange: () => {},
    persistEntry: () => {},
    persistSchoolId: () => {},
    leaveApp: () => {},
    notifySignedIn: () => {},
    notifySignedOut: () => {},
  },
});

const unmatched = (path: string, search: Record<string, string> = {}, known = true) => ({
  type: 'location.unmatched',
  path,
  search,
  known,
});
const failures = [
  new ApiFailure('NETWORK_ERROR'),
  new ApiFailure('DURING_MAINTENANCE', 401),
  new ApiFailure('NOT_LOGGED_IN', 401),
];
const typedUrls = [
  unmatched('/app-entry'),
  unmatched('/app-entry', { organization_code: 'ORG1' }),
  unmatched('/oauth', { error: '1', errorCode: 'invalid_state', schoolId: 'S1' }),
  unmatched('/oauth', { accessToken: 'token-sso', schoolId: 'S1', loginType: '2', orgStepMode: '1' }),
  unmatched('/oauth-kenya', { token: 'kenya-token' }),
  unmatched('/oauth-egypt', { token: 'egypt-token', orgCode: 'EG1' }),
  unmatched('/oauth-kaigen'),
  unmatched('/login', { org_code: 'ORG1' }),
  unmatched('/exam-end'),
  unmatched('/examinee-info'),
  unmatched('/no-such-page', {}, false),
  unmatched('/start'),
];
/** The payment provider's redirect back (the returnUrl with our reference; Adyen's sessionId and redirectResult). */
const returnQuery = { schedule_history_id: '7', reference: 'GR-00000000-0000-4000-8000-000000000001', sessionId: 'CS1234', redirectResult: 'X6Xtf' };
const paymentReturns = [
  unmatched('/pay-exam-fee', returnQuery),
  unmatched('/pay-exam-result', returnQuery),
  // A payment screen's URL without a checkout to confirm is not a return: a reload on that screen
  // (reopened once the menu is read), as a results screen's URL is.
  unmatched('/pay-exam-fee'),
  unmatched('/score-report/7'),
];
const menuToPay = { ...demoChooseStatus, exam_fee: { required: true, status: 0 as const }, exam: { ...demoChooseStatus.exam, can_take: false } };
const menuReleased = {
  ...demoChooseStatus,
  exam: { schedule_history_id: 7, status: 5 as const, can_take: false },
  result: { released: true, payment_status: 0 as const },
};
/** Samples sent only in these signed-in states. */
const onlyIn =
  (states: string[], events: AnyEventObject[]) =>
  (snapshot: AnyMachineSnapshot): AnyEventObject[] =>
    states.some((state) => snapshot.matches({ signedIn: state })) ? events : [];
const menuFacts = (menu: ChoosePageStatus | null) =>
  menu === null ? null : [menu.exam_fee.required, menu.exam_fee.status, menu.result.released, menu.exam.can_take];
const errorsOf = (id: string, list: ApiFailure[] = failures) => list.map((error) => ({ type: `xstate.error.actor.${id}`, error }));

describeModel({
  name: 'session',
  machine,
  limit: 200_000,
  inputs: [
    { storedSession: null },
    { storedSession: sessionFromLogin(loginResponse, uuid) },
    { storedSession: myPageSession },
    { storedSession: registeredForeignSession },
    { storedSession: null, storedToken: 'token-stored', storedErrorCode: 'INCORRECT_DEVICE' },
  ],
  samples: {
    'loginCode.submitted': [
      { type: 'loginCode.submitted', code: '' },
      { type: 'loginCode.submitted', code: 'ab-cd' },
      { type: 'loginCode.submitted', code: 'ac3ef4ghj6km' },
    ],
    'login.submitted': [
      { type: 'login.submitted', login_id: ' ', password: '' },
      { type: 'login.submitted', login_id: 'pupil1', password: 'secret' },
    ],
    'xstate.done.actor.loginWithCode': [{ type: 'xstate.done.actor.loginWithCode', output: loginResponse }],
    'xstate.error.actor.loginWithCode': [
      { type: 'xstate.error.actor.loginWithCode', error: new ApiFailure('LOGIN_CODE_INCORRECT', 401) },
      { type: 'xstate.error.actor.loginWithCode', error: new ApiFailure('NETWORK_ERROR') },
    ],
    'xstate.done.actor.loadLoginPlace': [{ type: 'xstate.done.actor.loadLoginPlace', output: place }],
    'xstate.error.actor.loadLoginPlace': errorsOf('loadLoginPlace', [new ApiFailure('INVALID_SCHEDULE', 404), new ApiFailure('NETWORK_ERROR')]),
    'xstate.done.actor.loginWithPassword': [
      { type: 'xstate.done.actor.loginWithPassword', output: idLogin },
      { type: 'xstate.done.actor.loginWithPassword', output: examineeLogin },
    ],
    'xstate.error.actor.loginWithPassword': errorsOf('loginWithPassword', [
      new ApiFailure('INCORRECT_ID_PASSWORD', 401),
      new ApiFailure('VALIDATION_ERROR', 400),
    ]),
    'xstate.done.actor.exchangeKenyaToken': [
      {
        type: 'xstate.done.actor.exchangeKenyaToken',
        output: { access_token: 'token-ke', language_code: 'en', login_type: 6, error: null, org_code: 'KE1', org_step_mode: false },
      },
      {
        type: 'xstate.done.actor.exchangeKenyaToken',
        output: { access_token: null, language_code: null, login_type: null, error: 'user_notfound', org_code: null, org_step_mode: null },
      },
    ],
    'xstate.error.actor.exchangeKenyaToken': errorsOf('exchangeKenyaToken', [new ApiFailure('NETWORK_ERROR')]),
    'xstate.done.actor.identifyToken': [{ type: 'xstate.done.actor.identifyToken', output: meResponse }],
    'xstate.error.actor.identifyToken': errorsOf('identifyToken', [new ApiFailure('NOT_LOGGED_IN', 401)]),
    'basicInfo.changed': [
      { type: 'basicInfo.changed', values: invalidInfo },
      { type: 'basicInfo.changed', values: validInfo },
    ],
    'xstate.done.actor.saveBasicInfo': [
      { type: 'xstate.done.actor.saveBasicInfo', output: { examinee: { ...demoExaminee, ...validInfo }, server_time: serverTime } },
    ],
    'xstate.error.actor.saveBasicInfo': errorsOf('saveBasicInfo'),
    'xstate.done.actor.loadTestingMenu': onlyIn(['testingMenu', 'reopening'], [
      { type: 'xstate.done.actor.loadTestingMenu', output: { ...demoChooseStatus, server_time: serverTime } },
      { type: 'xstate.done.actor.loadTestingMenu', output: { ...menuToPay, server_time: serverTime } },
      { type: 'xstate.done.actor.loadTestingMenu', output: { ...menuReleased, server_time: serverTime } },
    ]),
    // The payment and results screens' ways back, sampled only where they can matter (each
    // sample sent everywhere would multiply the paths without adding a transition).
    'fee.payRequested': onlyIn(['testingMenu'], [{ type: 'fee.payRequested' }]),
    'results.viewRequested': onlyIn(['testingMenu'], [{ type: 'results.viewRequested' }]),
    'menu.requested': onlyIn(['payExamFee'], [{ type: 'menu.requested' }]),
    'payment.continued': onlyIn(['payExamFee'], [{ type: 'payment.continued' }]),
    // The results end back on the menu, or with a 401 (maintenance, or any other) that ends the session.
    'xstate.done.actor.results': onlyIn(['results'], [
      { type: 'xstate.done.actor.results', output: { refusal: null } },
      { type: 'xstate.done.actor.results', output: { refusal: 'DURING_MAINTENANCE' } },
      { type: 'xstate.done.actor.results', output: { refusal: 'GENERIC_ERROR' } },
    ]),
    'xstate.error.actor.loadTestingMenu': errorsOf('loadTestingMenu'),
    'xstate.done.actor.loadExamList': [{ type: 'xstate.done.actor.loadExamList', output: { exams: demoExamList, server_time: serverTime } }],
    'xstate.error.actor.loadExamList': errorsOf('loadExamList'),
    'exam.chosen': [{ type: 'exam.chosen', scheduleHistoryId: 7 }],
    'xstate.done.actor.loadClientConfig': [
      {
        type: 'xstate.done.actor.loadClientConfig',
        output: { partner_logout_urls: { '7': 'https://egypt.example/' }, embed_target_origin: null, oidc_enabled: false, server_time: serverTime },
      },
      {
        type: 'xstate.done.actor.loadClientConfig',
        output: { partner_logout_urls: {}, embed_target_origin: null, oidc_enabled: false, server_time: serverTime },
      },
    ],
    'xstate.error.actor.loadClientConfig': errorsOf('loadClientConfig', [new ApiFailure('NETWORK_ERROR')]),
    'xstate.done.actor.endServerSession': [{ type: 'xstate.done.actor.endServerSession', output: undefined }],
    // No answer (the token waits for revocation), and 401 (revoked or expired already: nothing waits).
    'xstate.error.actor.endServerSession': errorsOf('endServerSession', [new ApiFailure('NETWORK_ERROR'), new ApiFailure('NOT_LOGGED_IN', 401)]),
    // Typed URLs are judged the same from every signed-out screen: sampled on the login-code form.
    // The provider's redirect back reaches a terminal that boots a my-page pupil's session (basic information).
    // Back among the results' own screens is handed to the results (their model judges it).
    'location.unmatched': (snapshot) => {
      if (snapshot.matches({ signedOut: { loginCode: 'editing' } })) return typedUrls;
      if (snapshot.matches({ signedIn: 'results' })) return [{ type: 'location.unmatched', path: '/short-result', known: true, search: {} }];
      return snapshot.matches({ signedIn: 'info' }) ? paymentReturns : [];
    },
    'xstate.route': (snapshot) => [
      // The menu's URL: Back from the fee or the results, a reload of the menu (restored on the basic information).
      ...onlyIn(['payExamFee', 'results', 'testingMenu', 'info'], [{ type: 'xstate.route', to: '#sessionTestingMenu' }])(snapshot),
      // Rule 7: the testing menu's URL typed without a login shows /403.
      ...(snapshot.matches({ signedOut: { loginCode: 'editing' } }) ? [{ type: 'xstate.route', to: '#sessionTestingMenu' }] : []),
      { type: 'xstate.route', to: '#sessionLoginCode' },
      { type: 'xstate.route', to: '#sessionNotFound' },
      { type: 'xstate.route', to: '#sessionForbidden' },
    ],
    'session.updated': (snapshot) =>
      snapshot.matches({ signedIn: 'examFlow' }) ? [{ type: 'session.updated', change: { question_index: 2 } }] : [],
  },
  // Only what the guards read: the landing facts of the session, the entry's school, the
  // form's validity and who is leaving.
  contextKey: (context) => {
    const session = context.session as
      | { login_type: number; enable_mode_step: boolean; is_my_page_login: boolean; grade_id: number | null }
      | null;
    const basicInfo = context.basicInfo as { values: BasicInfoValues };
    return [
      session ? [session.login_type, session.enable_mode_step, session.is_my_page_login, session.grade_id === null] : null,
      Boolean((context.entry as { schoolId?: string } | null)?.schoolId),
      Object.keys(validateBasicInfo(basicInfo.values)).length === 0,
      (context.exit as { loginType?: number } | null)?.loginType ?? null,
      // The menu's facts the guards read.
      menuFacts(context.menu as ChoosePageStatus | null),
      // The screen a reload reopens.
      context.reloadedAt,
    ];
  },
  // node:assert rather than expect: invariants run after every event of every path, where expect's cost dominates.
  invariants: (snapshot) => {
    // A session is held exactly while signed in or signing out.
    const holds = snapshot.matches('signedIn') || snapshot.matches('signingOut');
    assert.equal(snapshot.context.session !== null, holds);
    // The exam flow starts only with a known schedule history.
    if (snapshot.matches({ signedIn: 'examFlow' })) assert.notEqual(snapshot.context.session.schedule_history_id, null);
    // A redirect back is held only by the payment screen (or the results) it opened.
    const paymentReturn = snapshot.context.paymentReturn as { scheduleHistoryId: number } | null;
    if (paymentReturn !== null) {
      assert.equal(snapshot.matches({ signedIn: 'payExamFee' }) || snapshot.matches({ signedIn: 'results' }), true);
    }
    // A reload's screen is held only until it is open again (or the menu stands in).
    if (snapshot.context.reloadedAt !== null) {
      assert.equal(snapshot.matches({ signedIn: 'reopening' }) || snapshot.matches({ signedIn: 'results' }), true);
    }
    // The results run exactly while their screens show (the session's child `results`).
    assert.equal(Boolean(snapshot.children.results), snapshot.matches({ signedIn: 'results' }));
  },
});
