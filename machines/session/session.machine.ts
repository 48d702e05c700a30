/**
 * The session machine: who is logged in on this terminal, how they got in, where they land
 * and how they leave (seed sections 2, 3, 4, 6, 8). It owns every way in (login code, login ID
 * and password, examinee login, the entry routes), the entry guard rules 1-7, the landing rules
 * (basic information, testing menu, exam list, or straight into the exam flow) and every way
 * out (logout per login type, and the 401 of any call).
 *
 * Top states: checking (boot: a stored session resumes its chosen exam, or lands again) ->
 * signedOut (loginCode | login | entering | entryFailed | forbidden | notFound | examEndKept |
 * leavingForPartner | left) -> signedIn (landing -> basicInfo -> inputInfo | info ->
 * testingMenu -> payExamFee | results; info -> reopening -> reopened -> payExamFee | results |
 * testingMenu (a reload past the menu); examList; -> examFlow) -> signingOut -> leaving (the
 * login page of the login type, with logout=1 or school and error_code; or the partner's site).
 *
 * Where each part lives: this file has the top states and the signed-in ones;
 * `session.signed-out.ts` the ways in while signed out; `session.setup.ts` the actors, actions
 * and guards by name; `session.rules.ts` the pure rules they decide with; `session.types.ts` the
 * context, events and input; `session.actors.ts` the real calls and storage writes, and
 * `session.lazy.ts` the children (`payment`, `results`) loaded on demand;
 * `session.revocation.ts` the logout's revocations sent again later; `session.selectors.ts`
 * snapshot to view (the testing menu, the exam list); `session.connect.ts` what the screens
 * render and may send.
 *
 * The ways in and out in full, the children and the URL, and the invariants:
 * machines/session/README.md.
 */
import { and, assign, or, stateIn, type DoneActorEvent, type ErrorActorEvent } from 'xstate';
import type { ChoosePageStatus } from '../../contract/results.ts';
import type { ExamineeSession, ExamList, SaveExamineeInfoRequest } from '../../contract/session.ts';
import { returnUrlOf } from '../payment/payment.return.ts';
import { exitOf, exitSearch, tokenOf, validateBasicInfo, visibleFailure } from './session.rules.ts';
import { endSessionOnRefusal, sessionSetup } from './session.setup.ts';
import { signedOutState } from './session.signed-out.ts';
import type { SessionContext, SessionEvent } from './session.types.ts';

export { sessionFromLogin } from './session.rules.ts';

const emptyBasicInfo = { values: { examinee_name: '', grade_id: null, email: '' }, errors: {}, failure: null };

/**
 * A screen's data loaded on entering it (the testing menu, the exam list): `loading` until the
 * call answers, then `ready` with what `keep` takes of it; a 401 ends the session (seed
 * section 8), any other failure is shown in `failed` until the pupil tries again.
 */
const loadedOnEntry = <Src extends 'loadTestingMenu' | 'loadExamList', Output>(src: Src, keep: (output: Output) => Partial<SessionContext>) => ({
  loading: {
    tags: ['busy' as const],
    invoke: {
      id: src,
      src,
      onDone: {
        target: 'ready' as const,
        actions: assign<SessionContext, DoneActorEvent<Output>, undefined, SessionEvent, never>(({ event }) => ({ ...keep(event.output), failure: null })),
      },
      onError: [
        ...endSessionOnRefusal,
        {
          target: 'failed' as const,
          actions: assign<SessionContext, ErrorActorEvent, undefined, SessionEvent, never>({ failure: ({ event }) => visibleFailure(event.error) }),
        },
      ],
    },
  },
  failed: { on: { 'retry.requested': 'loading' as const } },
});

export const sessionMachine = sessionSetup.createMachine({
  id: 'session',
  context: ({ input }) => ({
    session: input.storedSession,
    loginError: null,
    pendingCode: null,
    search: {},
    place: null,
    placeError: null,
    credentials: null,
    passwordError: null,
    storedToken: input.storedToken ?? null,
    storedErrorCode: input.storedErrorCode ?? null,
    entry: null,
    entryError: null,
    basicInfo: emptyBasicInfo,
    menu: null,
    exams: [],
    failure: null,
    exit: null,
    appOrigin: input.appOrigin ?? 'http://localhost',
    paymentReturn: null,
    reloadedAt: null,
  }),
  initial: 'checking',
  states: {
    checking: {
      always: [
        // After a reload, an exam already chosen (or given by the login) resumes where it was;
        // my-page users land again (their basic information), and the reloaded URL takes them on:
        // the menu's by testingMenu's `route`, a screen past the menu by `info` (`reopening`).
        { guard: 'hasResumableExam', target: 'signedIn.examFlow' },
        { guard: 'hasStoredSession', target: 'signedIn' },
        { target: 'signedOut' },
      ],
    },
    signedOut: signedOutState,
    signedIn: {
      initial: 'landing',
      on: {
        'logout.requested': {
          target: 'signingOut',
          actions: assign({ exit: ({ context, event }) => (event.errorCode ? exitOf(context, event.errorCode) : context.exit) }),
        },
        // The payment provider's redirect back (the returnUrl): the payment screen it names confirms that checkout.
        'location.unmatched': [
          { guard: 'isFeePaymentReturn', target: '.payExamFee', actions: 'keepPaymentReturn' },
          { guard: 'isResultPaymentReturn', target: '.results', actions: 'keepPaymentReturn' },
        ],
        'session.updated': {
          actions: [
            assign({ session: ({ context, event }) => ({ ...(context.session as ExamineeSession), ...event.change }) }),
            { type: 'persistChange', params: ({ event }) => ({ change: event.change }) },
          ],
        },
      },
      states: {
        // Seed section 2, "Next screen after login".
        landing: {
          always: [
            { guard: 'isMyPageUser', target: 'basicInfo' },
            { guard: 'landsOnExamList', target: 'examList' },
            { target: 'examFlow' },
          ],
        },
        basicInfo: {
          always: [{ guard: 'isBasicInfoMissing', target: 'inputInfo' }, { target: 'info' }],
        },
        inputInfo: {
          meta: { path: '/examinee-input-info', screen: 'examinee-input-info' },
          entry: assign({
            basicInfo: ({ context }) => ({
              values: {
                examinee_name: context.session?.examinee_name ?? '',
                grade_id: context.session?.grade_id ?? null,
                email: context.session?.email ?? '',
              },
              errors: {},
              failure: null,
            }),
          }),
          initial: 'editing',
          states: {
            editing: {
              on: {
                'basicInfo.changed': {
                  actions: assign({ basicInfo: ({ context, event }) => ({ ...context.basicInfo, values: event.values }) }),
                },
                'basicInfo.reviewed': [
                  {
                    guard: 'isBasicInfoInvalid',
                    actions: assign({
                      basicInfo: ({ context }) => ({ ...context.basicInfo, errors: validateBasicInfo(context.basicInfo.values) }),
                    }),
                  },
                  { target: 'confirming', actions: assign({ basicInfo: ({ context }) => ({ ...context.basicInfo, errors: {}, failure: null }) }) },
                ],
              },
            },
            confirming: {
              on: {
                'basicInfo.edited': 'editing',
                'basicInfo.confirmed': 'saving',
              },
            },
            saving: {
              tags: ['busy'],
              invoke: {
                id: 'saveBasicInfo',
                src: 'saveBasicInfo',
                input: ({ context }) => ({
                  examinee_name: context.basicInfo.values.examinee_name.trim(),
                  grade_id: context.basicInfo.values.grade_id as SaveExamineeInfoRequest['grade_id'],
                  email: context.basicInfo.values.email.trim(),
                }),
                onDone: {
                  target: '#session.signedIn.info',
                  actions: [
                    assign({
                      session: ({ context, event }) => ({
                        ...(context.session as ExamineeSession),
                        examinee_name: event.output.examinee.examinee_name,
                        grade_id: event.output.examinee.grade_id,
                        email: event.output.examinee.email,
                      }),
                    }),
                    {
                      type: 'persistChange',
                      params: ({ event }) => ({
                        change: {
                          examinee_name: event.output.examinee.examinee_name,
                          grade_id: event.output.examinee.grade_id,
                          email: event.output.examinee.email,
                        },
                      }),
                    },
                  ],
                },
                onError: [
                  ...endSessionOnRefusal,
                  {
                    target: 'confirming',
                    actions: assign({ basicInfo: ({ context, event }) => ({ ...context.basicInfo, failure: visibleFailure(event.error) }) }),
                  },
                ],
              },
            },
          },
        },
        info: {
          meta: { path: '/examinee-info', screen: 'examinee-info' },
          on: {
            'basicInfo.acknowledged': 'testingMenu',
            // A reload on the fee's payment or a results screen: the session was restored here (landing),
            // and the URL the browser reloaded is that screen's. The provider's redirect back is not
            // one (it confirms its checkout: signedIn's `location.unmatched`).
            'location.unmatched': { guard: 'isMyPageScreenLocation', target: 'reopening', actions: 'keepReloadedAt' },
          },
        },
        // The menu's status again (no path: the reloaded URL stays): it names the sitting the screen
        // shows and whether that screen can still be shown. A failure shows on the menu (Try again).
        reopening: {
          tags: ['busy'],
          invoke: {
            id: 'loadTestingMenu',
            src: 'loadTestingMenu',
            onDone: { target: 'reopened', actions: assign({ menu: ({ event }) => event.output, failure: null }) },
            onError: [...endSessionOnRefusal, { target: 'testingMenu.failed', actions: assign({ failure: ({ event }) => visibleFailure(event.error) }) }],
          },
        },
        // The screen the pupil was on, as the menu's own buttons would open it; where it cannot be
        // shown any more (the fee paid meanwhile, the result not viewable), the menu, which says why.
        reopened: {
          always: [
            { guard: and(['wasReloadedOnFee', 'mustPayFee']), target: 'payExamFee' },
            { guard: and(['wasReloadedOnResults', 'isResultReleased']), target: 'results' },
            { target: 'testingMenu.ready' },
          ],
        },
        testingMenu: {
          id: 'sessionTestingMenu',
          meta: { path: '/testing-menu', screen: 'testing-menu' },
          // Back from a payment or results screen returns here (the menu is loaded again). So does
          // the menu's own URL on the basic information: a reload of the menu restores the session
          // on the basic information (landing), and the address bar's /testing-menu takes the pupil
          // on to where they were, as "Continue" would.
          route: {
            guard: or([stateIn({ signedIn: 'payExamFee' }), stateIn({ signedIn: 'results' }), stateIn({ signedIn: 'info' })]),
          },
          // A reload reopened on the menu (or on its failure) is over.
          entry: 'forgetReload',
          initial: 'loading',
          states: {
            ...loadedOnEntry('loadTestingMenu', (menu: ChoosePageStatus) => ({ menu })),
            ready: {
              on: {
                'fee.payRequested': { guard: 'mustPayFee', target: '#session.signedIn.payExamFee' },
                'results.viewRequested': { guard: 'isResultReleased', target: '#session.signedIn.results' },
                'test.chosen': {
                  guard: 'canTakeTest',
                  target: '#session.signedIn.examFlow',
                  actions: [
                    assign({
                      session: ({ context }) => ({
                        ...(context.session as ExamineeSession),
                        schedule_history_id: context.menu?.exam.schedule_history_id ?? null,
                      }),
                    }),
                    {
                      type: 'persistChange',
                      params: ({ context }) => ({ change: { schedule_history_id: context.session?.schedule_history_id ?? null } }),
                    },
                  ],
                },
              },
            },
          },
        },
        // The exam fee (my-page and foreign-payment users pay before they take the test).
        payExamFee: {
          meta: { path: '/pay-exam-fee', screen: 'pay-exam-fee' },
          entry: 'forgetReload',
          invoke: {
            id: 'payment',
            src: 'payment',
            input: ({ context }) => {
              const id = context.paymentReturn?.scheduleHistoryId ?? context.menu?.exam.schedule_history_id ?? 0;
              return {
                scheduleHistoryId: id,
                purpose: 'exam_fee' as const,
                returnUrl: returnUrlOf(context.appOrigin, 'exam_fee', id),
                returning: context.paymentReturn,
              };
            },
          },
          exit: assign({ paymentReturn: null }),
          // Its screen's other events go to the payment child itself.
          on: { 'payment.continued': 'testingMenu', 'menu.requested': 'testingMenu' },
        },
        // Seed section 2: short-result, then the result sheet and certificate (machines/results: its
        // states carry the screens' paths). It ends back on the menu, or with a 401 that ends the session.
        results: {
          meta: { screensOf: 'results' },
          // The browser's Back or Forward among the results' own screens: the results judge it (the
          // provider's redirect back and every other path are the session's, above).
          on: { 'location.unmatched': { guard: 'isResultsLocation', actions: 'forwardToResults' } },
          invoke: {
            id: 'results',
            src: 'results',
            input: ({ context }) => ({
              scheduleHistoryId: context.paymentReturn?.scheduleHistoryId ?? context.menu?.exam.schedule_history_id ?? 0,
              appOrigin: context.appOrigin,
              returning: context.paymentReturn,
              // A reload: the results open again on the screen the browser was on.
              reloadedAt: context.reloadedAt ?? undefined,
            }),
            onDone: [
              {
                guard: { type: 'isResultsRefusal', params: ({ event }) => event.output },
                target: '#session.signingOut',
                actions: { type: 'endForResultsRefusal', params: ({ event }) => event.output },
              },
              { target: 'testingMenu' },
            ],
          },
          exit: [assign({ paymentReturn: null }), 'forgetReload'],
        },
        examList: {
          type: 'parallel',
          meta: { screen: 'exam-list' },
          states: {
            page: {
              initial: 'deciding',
              states: {
                deciding: { always: [{ guard: 'isStepMode', target: 'stepMode' }, { target: 'plain' }] },
                plain: { meta: { path: '/exam' } },
                stepMode: { meta: { path: '/exam-step-mode' } },
              },
            },
            list: {
              initial: 'loading',
              states: {
                ...loadedOnEntry('loadExamList', ({ exams }: ExamList) => ({ exams })),
                ready: {
                  on: {
                    'exam.chosen': {
                      guard: 'isChoosableExam',
                      target: '#session.signedIn.examFlow',
                      actions: [
                        assign({
                          session: ({ context, event }) => ({
                            ...(context.session as ExamineeSession),
                            schedule_history_id: event.scheduleHistoryId,
                          }),
                        }),
                        { type: 'persistChange', params: ({ event }) => ({ change: { schedule_history_id: event.scheduleHistoryId } }) },
                      ],
                    },
                  },
                },
              },
            },
          },
        },
        /** The exam machine shows the screens from here on (the kiosk starts it). */
        examFlow: {
          entry: 'notifySignedIn',
        },
      },
    },
    signingOut: {
      tags: ['busy'],
      // The server ends the token first, so POST /logout carries it. The token is
      // noted for revocation before the call: a page closed mid-call still gets it revoked at
      // the next boot (machines/session/session.revocation.ts).
      entry: [
        assign({ exit: ({ context }) => context.exit ?? exitOf(context, null) }),
        { type: 'holdRevocation', params: ({ context }) => ({ token: tokenOf(context) }) },
        'forgetReload',
      ],
      invoke: {
        id: 'endServerSession',
        src: 'endServerSession',
        input: ({ context }) => ({ token: tokenOf(context) }),
        // Whatever the server says, storage is wiped now: the next pupil finds nothing.
        onDone: {
          target: 'leaving',
          actions: ['wipeSession', { type: 'dropRevocation', params: ({ context }) => ({ token: tokenOf(context) }) }],
        },
        onError: [
          // 401: the token was revoked or had expired already; nothing is left to revoke.
          {
            guard: 'isUnauthorized',
            target: 'leaving',
            actions: ['wipeSession', { type: 'dropRevocation', params: ({ context }) => ({ token: tokenOf(context) }) }],
          },
          // No answer, maintenance or a server failure: the token waits, sent when the network returns.
          { target: 'leaving', actions: 'wipeSession' },
        ],
      },
      exit: [
        assign({
          session: null,
          loginError: null,
          passwordError: null,
          menu: null,
          exams: [],
          failure: null,
          basicInfo: emptyBasicInfo,
        }),
        'notifySignedOut',
      ],
    },
    // Seed section 4: the login page of the login type, or the partner's site.
    leaving: {
      always: [
        { guard: 'isPartnerExit', target: 'signedOut.leavingForPartner' },
        { guard: 'isCodeExit', target: 'signedOut.loginCode', actions: assign({ search: ({ context }) => exitSearch(context), exit: null }) },
        { target: 'signedOut.login', actions: assign({ search: ({ context }) => exitSearch(context, true), exit: null }) },
      ],
    },
  },
});
