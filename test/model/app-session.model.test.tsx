// @vitest-environment jsdom
/**
 * The UI level of the session's model-based tests (ARCHITECTURE.md), the same approach as
 * app.model.test.tsx: an abstract model of what a visitor sees and does on a shared terminal
 * (typed URLs, the login pages, the entry routes, where each examinee lands, logging out),
 * where the server's answers and failures are explicit events. Its shortest paths (every
 * transition, self-transitions included) drive the real app: the real kiosk, session and
 * exam machines, router and screens, over an API whose calls wait for the path. Every state
 * checks what is on screen and the URL. The session machine's transitions taken are reported
 * as `model coverage session (through the app)`, and must be all of them (`sessionUnreachable`
 * is empty: a transition the screens offer no way to is a missing button, to be fixed there).
 *
 * The testing menu leads on to the exam fee, the short result, the result items' payment, the
 * purchased result and the score report (the results machine, the session's child: its
 * transitions are reported as `model coverage results (through the app)`). Payments go through the payment screens: the demo
 * provider's panel, and Adyen's Drop-in over a stand-in of the Adyen Web library (the real one
 * loads Adyen's scripts), whose callbacks the path fires. Confirmation backoffs run on a
 * SimulatedClock the path moves. The payment machine's transitions are reported as
 * `model coverage payment (through the app)`. A checkout left unfinished (Back) shows on the menu
 * as "Payment not completed"; the provider's redirect back (the returnUrl: the terminal loads
 * the payment screen with our reference, Adyen's sessionId and redirectResult) lands on that
 * screen's confirmation, not on the start of the app. The browser's Back on the score report
 * returns to the short or purchased result it was opened from, Back on the result payment and
 * on the purchased result returns where the pupil came from, a reload of the menu stays on the
 * menu, and a reload on the fee's payment or a results screen comes back to that screen once the
 * menu is read again (or to the menu, when the fee was paid meanwhile; to the short result, when
 * the report's sheet is not owned).
 */
import type { createMemoryHistory } from '@tanstack/react-router';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { SimulatedClock, createMachine } from 'xstate';
import { createTestModel } from 'xstate/graph';
import * as v from 'valibot';
import { paymentMachine } from '../../machines/payment/payment.machine.ts';
import { STATUS_BACKOFF_MAX_MS } from '../../machines/payment/payment.rules.ts';
import { resultsMachine } from '../../machines/results/results.machine.ts';
import { sessionMachine } from '../../machines/session/session.machine.ts';
import { examineeKeys, readPendingRevocations, readSession, readToken, storageKeys } from '../../machines/shared/storage.ts';
import {
  ExamPaymentSettingSchema,
  PaymentSessionSchema,
  PaymentStatusResponseSchema,
  ResultPaymentSettingSchema,
} from '../../contract/payments.ts';
import { ChoosePageStatusSchema, ScoreReportSchema, ShortResultSchema } from '../../contract/results.ts';
import { createControlledApi, type ControlledApi } from '../helpers/controlled-api.ts';
import { DEMO_PASSWORD, createFakeApi, demoLogins, type FakeApi } from '../helpers/fake-api.ts';
import { memoryStorage } from '../helpers/memory-storage.ts';
import { CoverageRecorder, allTransitions, recordByMachine } from './harness.ts';
import { renderKioskApp, sendCode, serverAnswers } from '../helpers/render-app.tsx';
import { adyenWeb, resetAdyenWeb } from '../helpers/adyen-web-stand-in.ts';

// Adyen Web's stand-in (test/helpers/adyen-web-stand-in.ts): the path fires its callbacks.
vi.mock('@adyen/adyen-web', () => import('../helpers/adyen-web-stand-in.ts'));
vi.mock('@adyen/adyen-web/styles/adyen.css', () => ({}));

/** What a visitor sees and does; the server's answers are events too. */
const visitorModel = createMachine({
  id: 'visitor',
  initial: 'codePage',
  states: {
    codePage: {
      on: {
        'pupil.sendsEmptyCode': 'codePage',
        'pupil.sendsMalformedCode': 'codePage',
        'pupil.sendsCode': 'codeSubmitting',
        'pupil.opensUnknownPage': 'notFound',
        'pupil.opensExamPage': 'forbidden',
        'pupil.opensRoot': 'codePage',
        'pupil.typesMenuUrl': 'forbidden',
        'pupil.opensProtectedPage': 'forbidden',
        'pupil.types404': 'notFound',
        'pupil.types403': 'forbidden',
        'pupil.opensExamEnd': 'examEndKept',
        'pupil.opensAppEntryWithoutOrg': 'notFound',
        'pupil.opensAppEntry': 'appEntryLoginLoading',
        'pupil.opensLoginPage': 'loginLoading',
        'pupil.opensOauthWithError': 'entryFailed',
        'pupil.opensOauth': 'identifyingOauth',
        'pupil.opensPartnerEntryWithoutToken': 'entryFailed',
        'pupil.opensKenya': 'exchangingKenya',
        'pupil.opensKenyaWithBadToken': 'exchangingBadKenya',
        'pupil.opensEgypt': 'identifyingEgypt',
      },
    },
    codeSubmitting: {
      on: {
        'server.refusesCode': 'codePage',
        'server.acceptsCode': 'examFlowCode',
      },
    },
    examFlowCode: {
      on: {
        'server.sendsDetails': 'confirmingCode',
        'terminal.restarts': 'examFlowRestored',
      },
    },
    examFlowRestored: {},
    confirmingCode: {
      on: {
        'pupil.saysNotMe': 'loggingOutCode',
        'pupil.confirms': 'tutorial',
      },
    },
    tutorial: { on: { 'pupil.continues': 'readyToStart' } },
    readyToStart: { on: { 'pupil.pressesStart': 'starting' } },
    starting: { on: { 'server.startsExam': 'examStarted' } },
    examStarted: {},
    loggingOutCode: {
      on: {
        'server.endsSession': 'codePageAfterLogout',
        // 401: the token was revoked or had expired already.
        'server.refusesToken': 'codePageAfterLogout',
        'network.fails': 'codePageAfterOfflineLogout',
      },
    },
    codePageAfterLogout: {},
    // No answer: nothing of the pupil is left, but the token waits to be revoked.
    codePageAfterOfflineLogout: {},
    notFound: {
      on: {
        'pupil.goesToLogin': 'codePage',
        'pupil.typesLoginCodeUrl': 'codePage',
      },
    },
    forbidden: { on: { 'pupil.goesToLogin': 'codePage' } },
    examEndKept: { on: { 'pupil.logsOut': 'codePage' } },
    entryFailed: { on: { 'pupil.goesToLogin': 'codePage' } },
    appEntryLoginLoading: { on: { 'server.sendsPlace': 'loginReady' } },
    loginLoading: {
      on: {
        'server.sendsPlace': 'loginReady',
        'server.refusesPlace': 'loginInvalid',
        'network.fails': 'loginPlaceFailed',
      },
    },
    loginInvalid: {},
    loginPlaceFailed: { on: { 'pupil.triesAgain': 'loginLoading' } },
    loginReady: {
      on: {
        'pupil.sendsEmptyCredentials': 'loginReady',
        'pupil.sendsCredentials': 'loginSubmitting',
        'pupil.sendsMyPageCredentials': 'myPageSubmitting',
        'pupil.sendsRegisteredCredentials': 'registeredSubmitting',
      },
    },
    loginSubmitting: {
      on: {
        'server.refusesLogin': 'loginReady',
        'server.acceptsLogin': 'examFlowId',
      },
    },
    examFlowId: { on: { 'server.sendsDetails': 'confirmingId' } },
    confirmingId: { on: { 'pupil.saysNotMe': 'loggingOutId' } },
    loggingOutId: { on: { 'server.endsSession': 'loginPageAfterLogout' } },
    loginPageAfterLogout: {},
    myPageSubmitting: { on: { 'server.acceptsLogin': 'inputInfo' } },
    registeredSubmitting: { on: { 'server.acceptsLogin': 'info' } },
    inputInfo: {
      on: {
        'pupil.reviewsEmptyForm': 'inputInfo',
        'pupil.fillsForm': 'inputInfoFilled',
      },
    },
    inputInfoFilled: { on: { 'pupil.reviews': 'confirmingInfo' } },
    confirmingInfo: {
      on: {
        'pupil.changesDetails': 'inputInfoFilled',
        'pupil.registers': 'savingInfo',
      },
    },
    savingInfo: {
      on: {
        'server.savesInfo': 'info',
        'network.fails': 'confirmingInfo',
        'server.isInMaintenance': 'loggingOutWithError',
        'server.refusesToken': 'loggingOutWithError',
      },
    },
    info: {
      on: {
        'pupil.continues': 'menuLoading',
        'terminal.restarts': 'infoRestored',
      },
    },
    infoRestored: {},
    menuLoading: {
      on: {
        'server.sendsMenu': 'menuReady',
        'server.sendsMenuWithFee': 'menuWithFee',
        'server.sendsMenuWithResults': 'menuWithResults',
        'network.fails': 'menuFailed',
        'server.isInMaintenance': 'loggingOutWithError',
        'server.refusesToken': 'loggingOutWithError',
      },
    },
    menuFailed: { on: { 'pupil.triesAgain': 'menuLoading' } },
    // After a reload on a screen past the menu: the menu's status again, no screen of its own.
    feeReopening: {
      on: {
        'server.sendsMenuWithFee': 'feeLoading',
        // Paid meanwhile (another tab): the menu stands in, and says so.
        'server.sendsMenuWithFeePaid': 'menuFeePaid',
        'network.fails': 'menuFailed',
        'server.isInMaintenance': 'loggingOutWithError',
        'server.refusesToken': 'loggingOutWithError',
      },
    },
    menuFeePaid: {},
    resultsReopening: { on: { 'server.sendsMenuWithResults': 'resultLoading' } },
    resultPayReopening: { on: { 'server.sendsMenuWithResults': 'resultPayLoading' } },
    purchasedReopening: { on: { 'server.sendsMenuWithResults': 'purchasedLoading' } },
    reportReopening: { on: { 'server.sendsMenuWithResults': 'reportOwnedLoading' } },
    // The report reopened: what is owned is read first (no screen yet).
    reportOwnedLoading: {
      on: {
        'server.sendsOwnedResult': 'reportLoading',
        'server.sendsResult': 'resultReady',
        'network.fails': 'resultFailed',
        'server.isInMaintenance': 'loggingOutWithError',
        'server.refusesToken': 'loggingOutWithError',
      },
    },
    menuReady: {
      on: {
        'pupil.takesTest': 'examFlowMenu',
        // A reload of the menu stays on the menu (loaded anew), not on the basic information.
        'terminal.restarts': 'menuLoading',
      },
    },
    examFlowMenu: {},
    loggingOutWithError: { on: { 'server.endsSession': 'loginPageWithError' } },
    loginPageWithError: {},
    identifyingOauth: {
      on: {
        'server.identifiesToken': 'examListLoading',
        'server.refusesToken': 'entryFailedWithSchool',
      },
    },
    entryFailedWithSchool: { on: { 'pupil.goesToLogin': 'loginLoading' } },
    examListLoading: {
      on: {
        'server.sendsExams': 'examListReady',
        'network.fails': 'examListFailed',
        'server.isInMaintenance': 'loggingOutWithError',
        'server.refusesToken': 'loggingOutWithError',
      },
    },
    examListFailed: { on: { 'pupil.triesAgain': 'examListLoading' } },
    examListReady: { on: { 'pupil.choosesExam': 'examFlowChosen' } },
    examFlowChosen: {},
    exchangingKenya: {
      on: {
        'server.exchangesToken': 'identifyingPartner',
        'network.fails': 'entryFailed',
      },
    },
    exchangingBadKenya: { on: { 'server.exchangesToken': 'entryFailed' } },
    identifyingEgypt: { on: { 'server.identifiesToken': 'partnerExamList' } },
    identifyingPartner: { on: { 'server.identifiesToken': 'partnerExamList' } },
    partnerExamList: { on: { 'server.sendsExams': 'partnerExamListReady' } },
    partnerExamListReady: { on: { 'pupil.logsOut': 'partnerLoggingOut' } },
    partnerLoggingOut: { on: { 'server.endsSession': 'leavingForPartner' } },
    leavingForPartner: {
      on: {
        'server.sendsConfig': 'leftForPartner',
        'server.sendsConfigWithoutUrl': 'codePageAfterLogout',
        'network.fails': 'codePageAfterLogout',
      },
    },
    leftForPartner: {},
    // The exam fee (pay-exam-fee): the payment machine as the payment screen shows it.
    menuWithFee: { on: { 'pupil.paysFee': 'feeLoading' } },
    feeLoading: {
      on: {
        'server.sendsFeeSetting': 'feeChoosing',
        'server.sendsPaidFeeSetting': 'feeNothingToPay',
        'server.sendsAdyenFeeSetting': 'adyenFeeChoosing',
        'network.fails': 'feeLoadFailed',
      },
    },
    feeLoadFailed: {
      on: {
        'pupil.triesAgain': 'feeLoading',
        'pupil.goesBackToMenu': 'menuLoading',
      },
    },
    feeNothingToPay: { on: { 'pupil.continues': 'menuLoading' } },
    feeChoosing: {
      on: {
        // A reload on the fee's payment: the menu is read again first (the URL stays).
        'terminal.restarts': 'feeReopening',
        'pupil.agreesToTerms': 'feeAgreed',
        'pupil.goesBackToMenu': 'menuLoading',
      },
    },
    feeAgreed: { on: { 'pupil.pays': 'feeStarting' } },
    feeStarting: {
      on: {
        'server.opensCheckout': 'feeCheckout',
        'server.saysAlreadyPaid': 'feeLoading',
        'server.refusesCheckout': 'feeDeclined',
      },
    },
    feeCheckout: {
      on: {
        // Back (the browser's button) leaves the checkout open: PENDING on the server.
        'pupil.leavesCheckout': 'feeLeftLoading',
        'pupil.authorisesDemo': 'feeReportingAuthorised',
        'pupil.refusesDemo': 'feeReportingRefused',
        'pupil.cancelsDemo': 'feeReportingCancelled',
      },
    },
    feeReportingAuthorised: {
      on: {
        'server.confirmsPayment': 'feePaid',
        'server.keepsCheckoutOpen': 'feeWaiting',
        'server.reportsCheckoutError': 'feeDeclined',
        'network.fails': 'feeDeclined',
      },
    },
    feeReportingRefused: {
      on: {
        'server.confirmsOutcome': 'feeDeclined',
        'server.keepsCheckoutOpen': 'feeLastWait',
      },
    },
    feeReportingCancelled: { on: { 'server.confirmsOutcome': 'feeDeclined' } },
    feeWaiting: { on: { 'time.passes': 'feeChecking' } },
    feeChecking: {
      on: {
        'server.confirmsPayment': 'feePaid',
        'server.keepsCheckoutOpen': 'feeWaiting',
        'network.fails': 'feeWaiting',
        'server.fails': 'feeDeclined',
      },
    },
    // The provider said refused but the server heard nothing: one more look, then the provider's word.
    feeLastWait: { on: { 'time.passes': 'feeLastCheck' } },
    feeLastCheck: { on: { 'server.keepsCheckoutOpen': 'feeDeclined' } },
    feeDeclined: {
      on: {
        'pupil.triesAgain': 'feeAgreed',
        'pupil.goesBackToMenu': 'menuLoading',
      },
    },
    feePaid: { on: { 'pupil.continues': 'menuLoading' } },
    feeLeftLoading: { on: { 'server.sendsMenuWithPendingFee': 'menuWithPendingFee' } },
    menuWithPendingFee: {
      on: {
        'pupil.resumesPayment': 'feeLoading',
        // The shopper finished on the provider's (bank's) page, which sends the browser back.
        'provider.redirectsBack': 'feeReturnLoading',
      },
    },
    feeReturnLoading: {
      on: {
        'server.sendsFeeSetting': 'feeChecking',
        'server.sendsAdyenFeeSetting': 'adyenFeeReturning',
      },
    },
    adyenFeeReturning: { on: { 'adyen.completesRedirect': 'feeChecking' } },
    adyenFeeChoosing: { on: { 'pupil.agreesAndPays': 'adyenFeeStarting' } },
    adyenFeeStarting: { on: { 'server.opensCheckout': 'adyenFeeCheckout' } },
    adyenFeeCheckout: { on: { 'adyen.completes': 'feeChecking' } },
    // The results (short-result), their payment (pay-exam-result), purchased-result, score-report.
    menuWithResults: { on: { 'pupil.viewsResults': 'resultLoading' } },
    resultLoading: {
      on: {
        'server.sendsResult': 'resultReady',
        'server.sendsOwnedResult': 'resultOwnedReady',
        'network.fails': 'resultFailed',
        'server.isInMaintenance': 'loggingOutWithError',
        'server.refusesToken': 'loggingOutWithError',
      },
    },
    resultFailed: {
      on: {
        'pupil.triesAgain': 'resultLoading',
        'pupil.goesBackToMenu': 'menuLoading',
      },
    },
    resultReady: {
      on: {
        'terminal.restarts': 'resultsReopening',
        // Back on the result payment opened from here: the short result again.
        'pupil.buysThenPressesBack': 'resultLoading',
        'pupil.buysResultItems': 'resultPayLoading',
        'pupil.goesBackToMenu': 'menuLoading',
      },
    },
    resultOwnedReady: {
      on: {
        'pupil.opensReport': 'reportLoading',
        // The browser's Back on the score report: the short result it was opened from, loaded anew.
        'pupil.readsReportThenPressesBack': 'resultLoading',
      },
    },
    resultPayLoading: {
      on: {
        'server.sendsResultSetting': 'resultChoosing',
        'server.sendsAdyenResultSetting': 'adyenResultChoosing',
        'network.fails': 'resultPayLoadFailed',
      },
    },
    resultPayLoadFailed: {
      on: {
        'pupil.triesAgain': 'resultPayLoading',
        // "Back to menu" on pay-exam-result returns to the short result.
        'pupil.goesBackToMenu': 'resultLoading',
      },
    },
    resultChoosing: { on: { 'pupil.ticksItems': 'resultItemsTicked', 'terminal.restarts': 'resultPayReopening' } },
    resultItemsTicked: { on: { 'pupil.agreesToTerms': 'resultAgreed' } },
    resultAgreed: { on: { 'pupil.pays': 'resultStarting' } },
    resultStarting: { on: { 'server.opensCheckout': 'resultCheckout' } },
    resultCheckout: {
      on: {
        'provider.redirectsBack': 'resultReturnLoading',
        'pupil.authorisesDemo': 'resultReporting',
        'pupil.refusesDemo': 'resultReportingRefused',
      },
    },
    resultReporting: { on: { 'server.confirmsPayment': 'resultPaid' } },
    resultReportingRefused: { on: { 'server.confirmsOutcome': 'resultDeclined' } },
    resultDeclined: { on: { 'pupil.triesAgain': 'resultAgreed' } },
    resultPaid: { on: { 'pupil.continues': 'purchasedLoading' } },
    adyenResultChoosing: { on: { 'pupil.choosesAgreesAndPays': 'adyenResultStarting' } },
    adyenResultStarting: { on: { 'server.opensCheckout': 'adyenResultCheckout' } },
    adyenResultCheckout: { on: { 'adyen.completes': 'resultChecking' } },
    resultChecking: { on: { 'server.confirmsPayment': 'resultPaid' } },
    resultReturnLoading: { on: { 'server.sendsAdyenResultSetting': 'adyenResultReturning' } },
    adyenResultReturning: { on: { 'adyen.completesRedirect': 'resultChecking' } },
    purchasedLoading: {
      on: {
        'server.sendsOwnedResult': 'purchasedReady',
        'server.sendsPartlyOwnedResult': 'purchasedPartReady',
        'network.fails': 'purchasedFailed',
        'server.isInMaintenance': 'loggingOutWithError',
        'server.refusesToken': 'loggingOutWithError',
      },
    },
    purchasedFailed: { on: { 'pupil.triesAgain': 'purchasedLoading' } },
    // The result sheet owned, the certificate not yet: "Buy" opens pay-exam-result again.
    purchasedPartReady: {
      on: {
        'pupil.buysResultItems': 'resultPayLoading',
        // Back on the result payment opened from here: the purchased result again.
        'pupil.buysThenPressesBack': 'purchasedLoading',
      },
    },
    purchasedReady: {
      on: {
        'terminal.restarts': 'purchasedReopening',
        // Back: the result payment the pupil came from.
        'pupil.pressesBack': 'resultPayLoading',
        'pupil.downloadsCertificate': 'purchasedDownloading',
        'pupil.opensReport': 'reportLoading',
        'pupil.goesBackToMenu': 'menuLoading',
        // The browser's Back on the score report: the purchased result it was opened from, loaded anew.
        'pupil.readsReportThenPressesBack': 'purchasedLoading',
      },
    },
    purchasedDownloading: {
      on: {
        'server.sendsDocument': 'purchasedReady',
        'network.fails': 'purchasedDownloadFailed',
        'server.isInMaintenance': 'loggingOutWithError',
        'server.refusesToken': 'loggingOutWithError',
      },
    },
    purchasedDownloadFailed: { on: { 'pupil.downloadsCertificate': 'purchasedDownloading' } },
    reportLoading: {
      on: {
        'server.sendsReport': 'reportReady',
        'network.fails': 'reportFailed',
        'server.isInMaintenance': 'loggingOutWithError',
        'server.refusesToken': 'loggingOutWithError',
      },
    },
    reportFailed: {
      on: {
        'pupil.triesAgain': 'reportLoading',
        'pupil.typesMenuUrl': 'menuLoading',
        'pupil.goesBackToMenu': 'menuLoading',
      },
    },
    reportReady: {
      on: {
        'terminal.restarts': 'reportReopening',
        'pupil.prints': 'reportReady',
        'pupil.savesPdf': 'reportDownloading',
        'pupil.downloadsCertificate': 'reportCertificateDownloading',
        // Back from the score report: its button, or the menu's URL.
        'pupil.goesBackToMenu': 'menuLoading',
        'pupil.typesMenuUrl': 'menuLoading',
      },
    },
    reportDownloading: {
      on: {
        'server.sendsDocument': 'reportReady',
        'network.fails': 'reportDownloadFailed',
        'server.isInMaintenance': 'loggingOutWithError',
        'server.refusesToken': 'loggingOutWithError',
      },
    },
    reportCertificateDownloading: {
      on: {
        'server.sendsDocument': 'reportReady',
        'network.fails': 'reportDownloadFailed',
        'server.isInMaintenance': 'loggingOutWithError',
        'server.refusesToken': 'loggingOutWithError',
      },
    },
    reportDownloadFailed: {
      on: {
        'pupil.savesPdf': 'reportDownloading',
        'pupil.downloadsCertificate': 'reportCertificateDownloading',
      },
    },
  },
});


interface AppUnderTest {
  control: ControlledApi;
  history: ReturnType<typeof createMemoryHistory>;
  storage: ReturnType<typeof memoryStorage>;
  user: ReturnType<typeof userEvent.setup>;
  left: string[];
  /** The app's clock: the payment's confirmation backoff moves only when the path says so. */
  clock: SimulatedClock;
  /** The token each POST /logout was sent with (never without one). */
  logoutTokens: Array<string | undefined>;
  /** The edge's file download and print dialog. */
  saveFile: Mock<(file: Blob, name: string) => void>;
  print: Mock<() => void>;
  stop: () => void;
}

const recorder = new CoverageRecorder('session', allTransitions(sessionMachine));
const paymentRecorder = new CoverageRecorder('payment', allTransitions(paymentMachine));
const resultsRecorder = new CoverageRecorder('results', allTransitions(resultsMachine));

const record = recordByMachine(
  new Map([
    ['session', recorder],
    ['payment', paymentRecorder],
    ['results', resultsRecorder],
  ]),
);

/**
 * Session transitions no path through the rendered app can take, because the view gives no way
 * to send their event: the report test requires exactly these to be missing.
 */
/** Session transitions the screens give no way to: none (a gap here is a missing button). */
const sessionUnreachable: Record<string, string> = {};

let current: AppUnderTest | undefined;

/** Boots the app at `url`: storage as the terminal has it (a stored INCORRECT_DEVICE end). */
async function renderApp(options: { url: string; storage?: ReturnType<typeof memoryStorage>; control?: ControlledApi }) {
  const storage = options.storage ?? memoryStorage();
  const control = options.control ?? createControlledApi();
  const left: string[] = [];
  const logoutTokens: Array<string | undefined> = [];
  // The logout call as the machine makes it: which token it carries is recorded.
  const api = { ...control.api, logout: (token?: string) => (logoutTokens.push(token), control.api.logout(token)) };
  const clock = new SimulatedClock();
  const saveFile = vi.fn<(file: Blob, name: string) => void>();
  const print = vi.fn<() => void>();
  const { kiosk, history, stopSync } = await renderKioskApp({
    deps: { api, storage, leaveApp: (url) => void left.push(url), saveFile, print },
    input: { storedSession: readSession(storage), storedToken: null, storedErrorCode: 'INCORRECT_DEVICE' },
    url: options.url,
    inspect: record,
    clock,
  });
  const app: AppUnderTest = {
    control,
    history,
    storage,
    user: userEvent.setup(),
    left,
    logoutTokens,
    clock,
    saveFile,
    print,
    stop: () => {
      stopSync();
      kiosk.stop();
    },
  };
  current = app;
  return app;
}

const heading = (name: string | RegExp) => screen.findByRole('heading', { level: 1, name });

/** A reload past the menu: the menu's status is read again, the reloaded URL kept, no screen yet (the skeleton). */
async function reopening(app: AppUnderTest, path: string) {
  await waitFor(() => expect(app.control.waiting()).toContain('chooseStatus'));
  expect(app.history.location.pathname).toBe(path);
  expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
}
const url = (app: AppUnderTest) => `${app.history.location.pathname}${app.history.location.search}`;

async function open(app: AppUnderTest, path: string) {
  await act(async () => app.history.push(path));
}

async function serverFails(app: AppUnderTest, code: Parameters<ControlledApi['fail']>[1], status?: number) {
  await waitFor(() => expect(app.control.waiting().length).toBeGreaterThan(0));
  const method = app.control.waiting()[0]!;
  await act(async () => app.control.fail(method, code, status));
}

async function sendCredentials(app: AppUnderTest, loginId: string, password: string) {
  const id = await screen.findByRole('textbox', { name: 'Login ID' });
  await app.user.clear(id);
  if (loginId) await app.user.type(id, loginId);
  const secret = screen.getByLabelText('Password');
  await app.user.clear(secret);
  if (password) await app.user.type(secret, password);
  await app.user.click(screen.getByRole('button', { name: 'Log in' }));
}

const nothingOfThePupil = (app: AppUnderTest) => expect(examineeKeys.filter((key) => app.storage.items.has(key))).toEqual([]);

/**
 * Logging out: POST /logout waits, sent with the pupil's token, which is still
 * stored (nothing is wiped before the server ended it) and noted for revocation meanwhile.
 */
async function logoutWaitsWithToken(app: AppUnderTest) {
  await waitFor(() => expect(app.control.waiting()).toContain('logout'));
  const token = readToken(app.storage);
  expect(token).toBeTruthy();
  expect(app.logoutTokens.at(-1)).toBe(token);
  expect(readPendingRevocations(app.storage)).toEqual([token]);
}

type Method = Parameters<ControlledApi['answer']>[0];

/** The server answers the waiting call of `method` with `reply` instead of its own state. */
async function serverAnswersWith(app: AppUnderTest, method: Method, reply: () => unknown) {
  await waitFor(() => expect(app.control.waiting()).toContain(method));
  const server = app.control.server as unknown as Record<string, unknown>;
  const own = server[method];
  server[method] = async () => reply();
  await act(async () => app.control.answer(method));
  server[method] = own;
}

/** What a checkout's status call answers while the server has no outcome yet (PENDING). */
function stillOpen(app: AppUnderTest, outcome: 'open' | 'authorised' | 'error' = 'authorised') {
  const [reference] = [...app.control.server.checkouts.keys()].slice(-1);
  const kinds = app.control.server.checkouts.get(reference ?? '')?.kinds ?? ['exam_fee'];
  return { reference: reference ?? 'GR-unknown', status: 1 as const, outcome, kinds, server_time: new Date().toISOString() };
}

/** Adyen's redirect result for the paths (opaque to us; handed back to Adyen as it came). */
const REDIRECT_RESULT = 'X6XtfGC3!Y3Jg2';

/** Where the provider sends the browser back: the returnUrl the server gave it, with Adyen's additions. */
function providerReturnUrl(app: AppUnderTest, path: '/pay-exam-fee' | '/pay-exam-result') {
  const [reference] = [...app.control.server.checkouts.keys()].slice(-1);
  const query = new URLSearchParams({ schedule_history_id: '7', reference: reference ?? '', sessionId: 'CS1234', redirectResult: REDIRECT_RESULT });
  return `${path}?${query}`;
}

/** The provider's notification reached the server: every open checkout is paid. */
function providerNotifiesServer(server: FakeApi) {
  for (const checkout of server.checkouts.values()) {
    if (checkout.status === 2 || checkout.outcome !== 'open') continue;
    checkout.status = 2;
    checkout.outcome = 'paid';
    for (const kind of checkout.kinds) server.paid[kind] = 2;
  }
}

const menuWithFee: FakeApi['menu'] = {
  exam_fee: { required: true, status: 0 },
  exam: { schedule_history_id: 7, status: 0, can_take: false },
  result: { released: false, payment_status: 0 },
};
const menuWithResults: FakeApi['menu'] = {
  exam_fee: { required: true, status: 2 },
  exam: { schedule_history_id: 7, status: 1, can_take: false },
  result: { released: true, payment_status: 0 },
};

const payButton = () => screen.getByRole('button', { name: /^Pay / }) as HTMLButtonElement;
const termsBox = () => screen.getByRole('checkbox', { name: 'I have read and agree to the payment terms' }) as HTMLInputElement;

const model = createTestModel(visitorModel, {
  serializeTransition: (_state, event, previous) =>
    event ? ` via ${event.type} from ${JSON.stringify(previous?.value ?? null)}` : '',
});

const paths = model.getShortestPaths();

beforeAll(() => {
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
});

beforeEach(() => {
  resetAdyenWeb();
});

afterEach(() => {
  current?.stop();
  current = undefined;
});

describe('the fake server the paths drive', () => {
  it('answers the results and payment calls as the contract says', async () => {
    const server = createFakeApi();
    server.menu = structuredClone(menuWithResults);
    const parse = <S extends v.GenericSchema>(schema: S, value: unknown) => expect(v.safeParse(schema, value).issues).toBeUndefined();
    parse(ChoosePageStatusSchema, await server.chooseStatus());
    parse(ShortResultSchema, await server.shortResult(7));
    parse(ResultPaymentSettingSchema, await server.resultPaymentSetting(7));
    parse(ExamPaymentSettingSchema, await server.examPaymentSetting(7));
    const fee = await server.createExamFeeSession({ schedule_history_id: 7, terms_accepted: true, return_url: 'http://localhost/pay-exam-fee' });
    parse(PaymentSessionSchema, fee);
    parse(PaymentStatusResponseSchema, await server.paymentStatus(fee.reference));
    parse(PaymentStatusResponseSchema, await server.completeDemoPayment({ reference: fee.reference, outcome: 'authorised' }));
    expect(server.paid.exam_fee).toBe(2);
    server.provider = 'adyen';
    const items = await server.createResultFeeSession({
      schedule_history_id: 7,
      items: ['result_sheet', 'certificate'],
      terms_accepted: true,
      return_url: 'http://localhost/pay-exam-result',
    });
    parse(PaymentSessionSchema, items);
    expect(items.adyen_session).not.toBeNull();
    await expect(server.scoreReport(7)).rejects.toMatchObject({ code: 'PAYMENT_REQUIRED' });
    parse(ScoreReportSchema, await server.scoreReport(7, 'print-token-0123456789'));
    const pdf = await server.resultDocument(7, 'report');
    expect(pdf.type).toBe('application/pdf');
  });
});

describe('a visitor through the app, every transition of the session model', () => {
  for (const path of paths) {
    it(path.description, async () => {
      let app = await renderApp({ url: '/login-code' });
      await heading('Log in with your login code');
      await path.test({
        states: {
          codePage: async () => {
            await heading('Log in with your login code');
            expect(app.history.location.pathname).toBe('/login-code');
          },
          codeSubmitting: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('login'));
          },
          examFlowCode: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('examDetails'));
            expect(app.storage.items.get(storageKeys.token)).toBe('token-1');
          },
          examFlowRestored: async () => {
            // The reloaded terminal resumes the stored session: the exam asks for its details again.
            await waitFor(() => expect(app.control.waiting()).toContain('examDetails'));
            expect(app.control.waiting()).not.toContain('login');
            expect(readSession(app.storage)?.token).toBe('token-1');
          },
          confirmingCode: async () => {
            await heading('Is this you?');
          },
          tutorial: async () => {
            await heading('How the test works');
          },
          readyToStart: async () => {
            await heading('Ready to start');
          },
          starting: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('startExam'));
          },
          examStarted: async () => {
            await waitFor(() => expect(app.history.location.pathname).toBe('/start'));
            expect(readSession(app.storage)?.schedule_history_id).toBe(7);
          },
          loggingOutCode: async () => {
            await logoutWaitsWithToken(app);
            expect(app.logoutTokens.at(-1)).toBe('token-1');
          },
          codePageAfterLogout: async () => {
            await heading('Log in with your login code');
            expect(url(app)).toBe('/login-code?logout=1');
            nothingOfThePupil(app);
            expect(readPendingRevocations(app.storage)).toEqual([]);
            expect(app.storage.items.has(storageKeys.pendingRevocations)).toBe(false);
          },
          codePageAfterOfflineLogout: async () => {
            await heading('Log in with your login code');
            expect(url(app)).toBe('/login-code?logout=1');
            nothingOfThePupil(app);
            // Only the bare token, under its own key: never readable as a session.
            expect(readPendingRevocations(app.storage)).toEqual(['token-1']);
            expect(readSession(app.storage)).toBeNull();
            expect(readToken(app.storage)).toBeNull();
          },
          notFound: async () => {
            await heading('Page not found');
            expect(app.history.location.pathname).toBe('/404');
          },
          forbidden: async () => {
            // Rule 7: the "not logged in" view with the header, one main and one h1.
            await heading('You are not logged in.');
            expect(screen.getByText('You need to log in to see this page.')).toBeTruthy();
            expect(screen.getByRole('banner')).toBeTruthy();
            expect(screen.getAllByRole('main')).toHaveLength(1);
            expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
            expect(app.history.location.pathname).toBe('/403');
          },
          examEndKept: async () => {
            // The end screen itself (its route may load lazily): not the heading of the screen before.
            expect(await screen.findByRole('button', { name: /Log out/ })).toBeTruthy();
            await heading(/.+/);
            expect(app.history.location.pathname).toBe('/exam-end');
          },
          entryFailed: async () => {
            await heading('Could not log in');
            expect(screen.getByRole('alert')).toBeTruthy();
          },
          entryFailedWithSchool: async () => {
            await heading('Could not log in');
            expect(app.storage.items.get(storageKeys.token)).toBeUndefined();
          },
          appEntryLoginLoading: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('appSchedule'));
            expect(url(app)).toBe('/login?org_code=ORG1&from=app_entry');
          },
          loginLoading: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('organization'));
            expect(app.history.location.pathname).toBe('/login');
          },
          loginInvalid: async () => {
            await screen.findByText(/Please check the address of this page/);
          },
          loginPlaceFailed: async () => {
            await screen.findByRole('button', { name: 'Try again' });
          },
          loginReady: async () => {
            await heading('Log in');
            expect(await screen.findByText('Sakura Primary')).toBeTruthy();
          },
          loginSubmitting: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('loginWithId'));
          },
          myPageSubmitting: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('loginWithId'));
          },
          registeredSubmitting: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('loginWithId'));
          },
          examFlowId: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('examDetails'));
          },
          confirmingId: async () => {
            await heading('Is this you?');
          },
          loggingOutId: async () => {
            await logoutWaitsWithToken(app);
          },
          loginPageAfterLogout: async () => {
            await waitFor(() => expect(url(app)).toBe('/login?school=ORG1&logout=1'));
            nothingOfThePupil(app);
            expect(readPendingRevocations(app.storage)).toEqual([]);
          },
          inputInfo: async () => {
            await heading('Your basic information');
            expect(app.history.location.pathname).toBe('/examinee-input-info');
          },
          inputInfoFilled: async () => {
            expect((screen.getByRole('textbox', { name: 'Email' }) as HTMLInputElement).value).toBe('aiko@example.com');
          },
          confirmingInfo: async () => {
            await heading('Check your details');
          },
          savingInfo: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('saveExamineeInfo'));
          },
          info: async () => {
            await heading('Your basic information');
            expect(app.history.location.pathname).toBe('/examinee-info');
            expect(screen.getByText('aiko@example.com')).toBeTruthy();
          },
          infoRestored: async () => {
            // A my-page user's reload shows their basic information again, then the menu.
            await heading('Your basic information');
            expect(app.history.location.pathname).toBe('/examinee-info');
          },
          menuLoading: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('chooseStatus'));
            expect(app.history.location.pathname).toBe('/testing-menu');
          },
          menuFailed: async () => {
            await screen.findByRole('button', { name: 'Try again' });
          },
          feeReopening: async () => {
            await reopening(app, '/pay-exam-fee');
          },
          menuFeePaid: async () => {
            await screen.findByText('Fee paid');
            expect(app.history.location.pathname).toBe('/testing-menu');
            // In place of the payment's URL: no entry of it is left behind.
            expect(app.history.length).toBe(1);
          },
          resultsReopening: async () => {
            await reopening(app, '/short-result');
          },
          resultPayReopening: async () => {
            await reopening(app, '/pay-exam-result');
          },
          purchasedReopening: async () => {
            await reopening(app, '/purchased-result');
          },
          reportReopening: async () => {
            await reopening(app, '/score-report/7');
          },
          reportOwnedLoading: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('shortResult'));
            expect(app.history.location.pathname).toBe('/score-report/7');
            expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
          },
          menuReady: async () => {
            await screen.findByRole('button', { name: 'Take test' });
          },
          examFlowMenu: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('examDetails'));
            expect(readSession(app.storage)?.schedule_history_id).toBe(7);
          },
          loggingOutWithError: async () => {
            await logoutWaitsWithToken(app);
          },
          loginPageWithError: async () => {
            // Seed section 4: a session ended by an error goes to the login page with school and error_code.
            await waitFor(() => expect(url(app)).toMatch(/^\/login\?school=ORG1&error_code=(DURING_MAINTENANCE|GENERIC_ERROR)$/));
            nothingOfThePupil(app);
            expect(readPendingRevocations(app.storage)).toEqual([]);
          },
          identifyingOauth: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('me'));
            expect(app.storage.items.get(storageKeys.token)).toBe('sso-token');
            await heading('Signing you in…');
          },
          examListLoading: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('exams'));
            expect(app.history.location.pathname).toBe('/exam-step-mode');
          },
          examListFailed: async () => {
            await screen.findByRole('button', { name: 'Try again' });
          },
          examListReady: async () => {
            await heading('Choose an exam');
            expect(screen.getAllByRole('button', { name: 'Start' }).length).toBeGreaterThan(0);
          },
          examFlowChosen: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('examDetails'));
            expect(readSession(app.storage)?.schedule_history_id).toBe(7);
          },
          exchangingKenya: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('kenyaLoginLink'));
          },
          exchangingBadKenya: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('kenyaLoginLink'));
          },
          identifyingEgypt: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('me'));
            expect(app.storage.items.get(storageKeys.loginType)).toBe('7');
          },
          identifyingPartner: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('me'));
            expect(app.storage.items.get(storageKeys.loginType)).toBe('6');
          },
          partnerExamList: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('exams'));
            expect(app.history.location.pathname).toBe('/exam');
          },
          partnerExamListReady: async () => {
            await heading('Choose an exam');
          },
          partnerLoggingOut: async () => {
            await logoutWaitsWithToken(app);
          },
          leavingForPartner: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('clientConfig'));
          },
          leftForPartner: async () => {
            await waitFor(() => expect(app.left.length).toBe(1));
            expect(app.left[0]).toMatch(/^https:\/\/(kenya|egypt)\.example\/$/);
            nothingOfThePupil(app);
            expect(readPendingRevocations(app.storage)).toEqual([]);
          },
          menuWithFee: async () => {
            await screen.findByRole('button', { name: 'Pay fee' });
            expect((screen.getByRole('button', { name: 'Take test' }) as HTMLButtonElement).disabled).toBe(true);
          },
          feeLoading: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('examPaymentSetting'));
            await heading('Pay the exam fee');
            expect(app.history.location.pathname).toBe('/pay-exam-fee');
          },
          feeLoadFailed: async () => {
            expect((await screen.findByRole('alert')).textContent).toContain('Network error');
            expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
          },
          feeNothingToPay: async () => {
            // Paid already when the screen opened: the payment machine starts in `paid`, and says so.
            await screen.findByText('This has already been paid for. You will not be charged again.');
            expect(within(screen.getByRole('list', { name: 'Paid items' })).getByText('Exam fee')).toBeTruthy();
            expect(screen.queryByRole('button', { name: /^Pay / })).toBeNull();
          },
          feeChoosing: async () => {
            await screen.findByRole('heading', { level: 2, name: 'What you pay for' });
            expect(termsBox().checked).toBe(false);
            expect(payButton().disabled).toBe(true);
            expect(screen.getByTestId('payment-total').textContent).toBe('$15.00');
          },
          feeAgreed: async () => {
            await waitFor(() => expect(termsBox().checked).toBe(true));
            expect(payButton().disabled).toBe(false);
          },
          feeStarting: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('createExamFeeSession'));
          },
          feeCheckout: async () => {
            await screen.findByRole('heading', { level: 2, name: 'Demo payment — no real card is charged' });
          },
          feeReportingAuthorised: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('completeDemoPayment'));
            await screen.findByText(/Confirming your payment/);
          },
          feeReportingRefused: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('completeDemoPayment'));
          },
          feeReportingCancelled: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('completeDemoPayment'));
          },
          feeWaiting: async () => {
            await screen.findByText(/Confirming your payment/);
            expect(app.control.waiting()).toEqual([]);
          },
          feeChecking: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('paymentStatus'));
            expect(screen.getByText(/Confirming your payment/)).toBeTruthy();
          },
          feeLastWait: async () => {
            await screen.findByText(/Confirming your payment/);
            expect(app.control.waiting()).toEqual([]);
          },
          feeLastCheck: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('paymentStatus'));
          },
          feeDeclined: async () => {
            await screen.findByRole('alert');
            expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
            expect(app.control.server.paid.exam_fee).not.toBe(2);
          },
          feePaid: async () => {
            await screen.findByText('Payment complete. Thank you.');
            expect(app.control.server.paid.exam_fee).toBe(2);
          },
          feeLeftLoading: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('chooseStatus'));
            expect(app.history.location.pathname).toBe('/testing-menu');
            // The checkout left behind is PENDING: opened, not completed.
            expect(app.control.server.paid.exam_fee).toBe(1);
          },
          menuWithPendingFee: async () => {
            await screen.findByText('Payment not completed');
            expect(screen.getByRole('button', { name: 'Go to the payment' })).toBeTruthy();
            expect((screen.getByRole('button', { name: 'Take test' }) as HTMLButtonElement).disabled).toBe(true);
          },
          feeReturnLoading: async () => {
            // Back from the provider: the payment screen, not the start of the app.
            await waitFor(() => expect(app.control.waiting()).toContain('examPaymentSetting'));
            await heading('Pay the exam fee');
            expect(app.history.location.pathname).toBe('/pay-exam-fee');
          },
          adyenFeeReturning: async () => {
            await waitFor(() => expect(adyenWeb.submitted).toEqual([{ details: { redirectResult: REDIRECT_RESULT } }]));
            expect(screen.getByText(/Confirming your payment/)).toBeTruthy();
            expect(adyenWeb.mounted).toBe(0);
          },
          adyenFeeChoosing: async () => {
            await screen.findByRole('heading', { level: 2, name: 'What you pay for' });
            expect(payButton().disabled).toBe(true);
          },
          adyenFeeStarting: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('createExamFeeSession'));
          },
          adyenFeeCheckout: async () => {
            await waitFor(() => expect(adyenWeb.mounted).toBe(1));
            expect(screen.queryByRole('heading', { name: /Demo payment/ })).toBeNull();
          },
          menuWithResults: async () => {
            await screen.findByRole('button', { name: 'View results' });
            expect(screen.getByText('Exam completed')).toBeTruthy();
          },
          resultLoading: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('shortResult'));
            await heading('Your result');
            expect(app.history.location.pathname).toBe('/short-result');
          },
          resultFailed: async () => {
            expect((await screen.findByRole('alert')).textContent).toContain('Network error');
          },
          resultReady: async () => {
            await screen.findByText('Passed');
            expect(screen.getByRole('button', { name: 'Buy the result sheet / certificate' })).toBeTruthy();
            expect(screen.queryByRole('button', { name: 'Open the score report' })).toBeNull();
          },
          resultOwnedReady: async () => {
            await screen.findByRole('button', { name: 'Open the score report' });
            expect(screen.queryByRole('button', { name: 'Buy the result sheet / certificate' })).toBeNull();
          },
          resultPayLoading: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('resultPaymentSetting'));
            await heading('Buy the result sheet and certificate');
            expect(app.history.location.pathname).toBe('/pay-exam-result');
          },
          resultPayLoadFailed: async () => {
            expect((await screen.findByRole('alert')).textContent).toContain('Network error');
          },
          resultChoosing: async () => {
            await screen.findByRole('heading', { level: 2, name: 'Choose what to buy' });
            expect(payButton().disabled).toBe(true);
            expect(screen.getByTestId('payment-total').textContent).toBe('$0.00');
          },
          resultItemsTicked: async () => {
            await waitFor(() => expect(screen.getByTestId('payment-total').textContent).toBe('$13.00'));
            expect(payButton().disabled).toBe(true);
          },
          resultAgreed: async () => {
            await waitFor(() => expect(payButton().disabled).toBe(false));
            expect(termsBox().checked).toBe(true);
          },
          resultStarting: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('createResultFeeSession'));
          },
          resultCheckout: async () => {
            await screen.findByRole('heading', { level: 2, name: 'Demo payment — no real card is charged' });
            expect(screen.getByTestId('payment-total').textContent).toBe('$13.00');
          },
          resultReporting: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('completeDemoPayment'));
          },
          resultReportingRefused: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('completeDemoPayment'));
          },
          resultDeclined: async () => {
            expect((await screen.findByRole('alert')).textContent).toContain('The card was refused.');
            expect(app.control.server.paid.result_sheet).toBe(0);
          },
          resultPaid: async () => {
            await screen.findByText('Payment complete. Thank you.');
            expect(app.control.server.paid.result_sheet).toBe(2);
          },
          adyenResultChoosing: async () => {
            await screen.findByRole('heading', { level: 2, name: 'Choose what to buy' });
          },
          adyenResultStarting: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('createResultFeeSession'));
          },
          adyenResultCheckout: async () => {
            await waitFor(() => expect(adyenWeb.mounted).toBe(1));
          },
          resultChecking: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('paymentStatus'));
          },
          resultReturnLoading: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('resultPaymentSetting'));
            await heading('Buy the result sheet and certificate');
            expect(app.history.location.pathname).toBe('/pay-exam-result');
          },
          adyenResultReturning: async () => {
            await waitFor(() => expect(adyenWeb.submitted).toEqual([{ details: { redirectResult: REDIRECT_RESULT } }]));
            expect(screen.getByText(/Confirming your payment/)).toBeTruthy();
          },
          purchasedLoading: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('shortResult'));
            await heading('Purchased result');
            expect(app.history.location.pathname).toBe('/purchased-result');
          },
          purchasedFailed: async () => {
            expect((await screen.findByRole('alert')).textContent).toContain('Network error');
          },
          purchasedReady: async () => {
            await screen.findByRole('button', { name: 'Download the certificate' });
            expect(screen.getByRole('button', { name: 'Open the score report' })).toBeTruthy();
          },
          purchasedPartReady: async () => {
            await screen.findByRole('button', { name: 'Buy the result sheet / certificate' });
            expect(screen.queryByRole('button', { name: 'Download the certificate' })).toBeNull();
          },
          purchasedDownloading: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('resultDocument'));
            expect(screen.getByRole('button', { name: 'Downloading the certificate…' })).toBeTruthy();
          },
          purchasedDownloadFailed: async () => {
            expect((await screen.findByRole('alert')).textContent).toContain('Network error');
            expect(screen.getByRole('button', { name: 'Download the certificate' })).toBeTruthy();
          },
          reportLoading: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('scoreReport'));
            expect(app.history.location.pathname).toBe('/score-report/7');
          },
          reportFailed: async () => {
            expect((await screen.findByRole('alert')).textContent).toContain('Network error');
          },
          reportReady: async () => {
            await screen.findByRole('button', { name: 'Save as PDF' });
            expect(screen.getByRole('heading', { level: 2, name: 'Overall result' })).toBeTruthy();
          },
          reportDownloading: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('resultDocument'));
            expect(screen.getByRole('button', { name: 'Preparing the PDF…' })).toBeTruthy();
          },
          reportCertificateDownloading: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('resultDocument'));
            expect(screen.getByRole('button', { name: 'Preparing the certificate…' })).toBeTruthy();
          },
          reportDownloadFailed: async () => {
            expect((await screen.findByRole('alert')).textContent).toContain('The document cannot be created right now.');
          },
        },
        events: {
          'pupil.sendsEmptyCode': () => sendCode(app.user, ''),
          'pupil.sendsMalformedCode': () => sendCode(app.user, 'abc'),
          'pupil.sendsCode': () => sendCode(app.user, 'ac3e f4gh j6km'),
          'server.refusesCode': async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('login'));
            await act(async () => app.control.fail('login', 'LOGIN_CODE_INCORRECT', 401));
          },
          'server.acceptsCode': () => serverAnswers(app.control, 'login'),
          'server.sendsDetails': () => serverAnswers(app.control, 'examDetails'),
          'terminal.restarts': async () => {
            // The terminal reloads: a new app over the same storage resumes the stored session.
            const storage = app.storage;
            app.stop();
            cleanup();
            app = await renderApp({ url: app.history.location.pathname, storage });
          },
          'pupil.saysNotMe': () => app.user.click(screen.getByRole('button', { name: 'No, log out' })),
          'pupil.confirms': () => app.user.click(screen.getByRole('button', { name: 'Yes, continue' })),
          'pupil.continues': () => app.user.click(screen.getByRole('button', { name: 'Continue' })),
          'pupil.pressesStart': () => app.user.click(screen.getByRole('button', { name: 'Start the test' })),
          'server.startsExam': () => serverAnswers(app.control, 'startExam'),
          'server.endsSession': () => serverAnswers(app.control, 'logout'),
          'network.fails': () => serverFails(app, 'NETWORK_ERROR'),
          'server.isInMaintenance': () => serverFails(app, 'DURING_MAINTENANCE', 401),
          'server.refusesToken': () => serverFails(app, 'NOT_LOGGED_IN', 401),
          'pupil.opensUnknownPage': () => open(app, '/no-such-page'),
          'pupil.opensExamPage': () => open(app, '/start'),
          // Rule 5: the root, neither public nor a screen of a stored login, goes to the login page.
          'pupil.opensRoot': () => open(app, '/'),
          'pupil.opensProtectedPage': () => open(app, '/examinee-info'),
          'pupil.types404': () => open(app, '/404'),
          'pupil.types403': () => open(app, '/403'),
          'pupil.typesLoginCodeUrl': () => open(app, '/login-code'),
          'pupil.opensExamEnd': () => open(app, '/exam-end'),
          'pupil.opensAppEntryWithoutOrg': () => open(app, '/app-entry'),
          'pupil.opensAppEntry': () => open(app, '/app-entry?organization_code=ORG1'),
          'pupil.opensLoginPage': () => open(app, '/login?org_code=ORG1'),
          'pupil.opensOauthWithError': () => open(app, '/oauth?error=1&errorCode=invalid_state&schoolId=ORG1'),
          'pupil.opensOauth': () => open(app, '/oauth?accessToken=sso-token&schoolId=ORG1&loginType=2&orgStepMode=1'),
          'pupil.opensPartnerEntryWithoutToken': () => open(app, '/oauth-kaigen'),
          'pupil.opensKenya': () => open(app, '/oauth-kenya?token=kenya-ok'),
          'pupil.opensKenyaWithBadToken': () => open(app, '/oauth-kenya?token=stolen'),
          'pupil.opensEgypt': () => open(app, '/oauth-egypt?token=egypt-token&orgCode=EG1'),
          'pupil.goesToLogin': async () => {
            const buttons = await screen.findAllByRole('button', { name: 'Go to the login page' });
            await app.user.click(buttons[0]!);
          },
          'pupil.logsOut': () => app.user.click(screen.getByRole('button', { name: /Log out/ })),
          'server.sendsPlace': async () => {
            await waitFor(() => expect(app.control.waiting().some((m) => m === 'organization' || m === 'appSchedule')).toBe(true));
            await act(async () => app.control.answer(app.control.waiting().includes('organization') ? 'organization' : 'appSchedule'));
          },
          'server.refusesPlace': async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('organization'));
            await act(async () => app.control.fail('organization', 'INVALID_SCHEDULE', 404));
          },
          'pupil.triesAgain': () => app.user.click(screen.getByRole('button', { name: 'Try again' })),
          'pupil.sendsEmptyCredentials': () => sendCredentials(app, '', ''),
          'pupil.sendsCredentials': () => sendCredentials(app, demoLogins.id, DEMO_PASSWORD),
          'pupil.sendsMyPageCredentials': () => sendCredentials(app, demoLogins.myPage, DEMO_PASSWORD),
          'pupil.sendsRegisteredCredentials': () => sendCredentials(app, demoLogins.registered, DEMO_PASSWORD),
          'server.refusesLogin': async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('loginWithId'));
            await act(async () => app.control.fail('loginWithId', 'INCORRECT_ID_PASSWORD', 401));
          },
          'server.acceptsLogin': () => serverAnswers(app.control, 'loginWithId'),
          'pupil.reviewsEmptyForm': () => app.user.click(screen.getByRole('button', { name: 'Next' })),
          'pupil.fillsForm': async () => {
            await app.user.type(screen.getByRole('textbox', { name: 'Name' }), 'Aiko Tanaka');
            await app.user.selectOptions(screen.getByRole('combobox', { name: 'Grade' }), '4');
            await app.user.type(screen.getByRole('textbox', { name: 'Email' }), 'aiko@example.com');
          },
          'pupil.reviews': () => app.user.click(screen.getByRole('button', { name: 'Next' })),
          'pupil.changesDetails': () => app.user.click(screen.getByRole('button', { name: 'Change' })),
          'pupil.registers': () => app.user.click(screen.getByRole('button', { name: 'Register' })),
          'server.savesInfo': () => serverAnswers(app.control, 'saveExamineeInfo'),
          'server.sendsMenu': () => serverAnswers(app.control, 'chooseStatus'),
          'pupil.takesTest': () => app.user.click(screen.getByRole('button', { name: 'Take test' })),
          'server.identifiesToken': () => serverAnswers(app.control, 'me'),
          'server.sendsExams': () => serverAnswers(app.control, 'exams'),
          'pupil.choosesExam': async () => {
            const [first] = screen.getAllByRole('button', { name: 'Start' });
            await app.user.click(first!);
          },
          'server.exchangesToken': () => serverAnswers(app.control, 'kenyaLoginLink'),
          'server.sendsConfig': () => serverAnswers(app.control, 'clientConfig'),
          'server.sendsConfigWithoutUrl': async () => {
            app.control.server.clientConfig = async () => ({
              partner_logout_urls: {},
              embed_target_origin: null,
              oidc_enabled: false,
              server_time: new Date().toISOString(),
            });
            await serverAnswers(app.control, 'clientConfig');
          },
          'server.sendsMenuWithFee': async () => {
            app.control.server.menu = structuredClone(menuWithFee);
            await serverAnswers(app.control, 'chooseStatus');
          },
          'server.sendsMenuWithResults': async () => {
            app.control.server.menu = structuredClone(menuWithResults);
            await serverAnswers(app.control, 'chooseStatus');
          },
          'pupil.paysFee': () => app.user.click(screen.getByRole('button', { name: 'Pay fee' })),
          'pupil.leavesCheckout': async () => {
            await act(async () => app.history.back());
          },
          'server.sendsMenuWithFeePaid': async () => {
            app.control.server.menu = { ...structuredClone(menuWithFee), exam_fee: { required: true, status: 2 } };
            await serverAnswers(app.control, 'chooseStatus');
          },
          'pupil.buysThenPressesBack': async () => {
            await app.user.click(screen.getByRole('button', { name: 'Buy the result sheet / certificate' }));
            app.control.server.provider = 'demo';
            await serverAnswers(app.control, 'resultPaymentSetting');
            await screen.findByRole('heading', { level: 2, name: 'Choose what to buy' });
            expect(app.history.location.pathname).toBe('/pay-exam-result');
            await act(async () => app.history.back());
          },
          'pupil.pressesBack': async () => {
            await act(async () => app.history.back());
          },
          'server.sendsMenuWithPendingFee': async () => {
            app.control.server.menu = { ...structuredClone(menuWithFee), exam_fee: { required: true, status: 1 } };
            await serverAnswers(app.control, 'chooseStatus');
          },
          'pupil.resumesPayment': () => app.user.click(screen.getByRole('button', { name: 'Go to the payment' })),
          'provider.redirectsBack': async () => {
            // The browser comes back from the provider's page: the app loads afresh at the returnUrl.
            const target = providerReturnUrl(app, app.history.location.pathname === '/pay-exam-result' ? '/pay-exam-result' : '/pay-exam-fee');
            const storage = app.storage;
            app.stop();
            cleanup();
            resetAdyenWeb();
            // The same server: the checkout the pupil left is there, PENDING.
            expect(app.control.waiting()).toEqual([]);
            app = await renderApp({ url: target, storage, control: app.control });
          },
          'adyen.completesRedirect': async () => {
            await waitFor(() => expect(adyenWeb.configs.length).toBe(1));
            await act(async () => adyenWeb.configs[0]!.onPaymentCompleted({ resultCode: 'Authorised' }));
          },
          'server.sendsFeeSetting': async () => {
            app.control.server.paid.exam_fee = 0;
            app.control.server.provider = 'demo';
            await serverAnswers(app.control, 'examPaymentSetting');
          },
          'server.sendsPaidFeeSetting': async () => {
            app.control.server.paid.exam_fee = 2;
            await serverAnswers(app.control, 'examPaymentSetting');
          },
          'server.sendsAdyenFeeSetting': async () => {
            app.control.server.paid.exam_fee = 0;
            app.control.server.provider = 'adyen';
            await serverAnswers(app.control, 'examPaymentSetting');
          },
          'pupil.goesBackToMenu': () => app.user.click(screen.getByRole('button', { name: 'Back to menu' })),
          'pupil.agreesToTerms': () => app.user.click(termsBox()),
          'pupil.pays': () => app.user.click(payButton()),
          'pupil.agreesAndPays': async () => {
            await app.user.click(termsBox());
            await app.user.click(payButton());
          },
          'pupil.choosesAgreesAndPays': async () => {
            await app.user.click(screen.getByRole('checkbox', { name: 'Result sheet' }));
            await app.user.click(termsBox());
            await app.user.click(payButton());
          },
          'server.opensCheckout': async () => {
            const method = app.control.waiting().includes('createExamFeeSession') ? 'createExamFeeSession' : 'createResultFeeSession';
            await serverAnswers(app.control, method);
          },
          'server.saysAlreadyPaid': async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('createExamFeeSession'));
            await act(async () => app.control.fail('createExamFeeSession', 'ALREADY_PAID', 409));
          },
          'server.refusesCheckout': async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('createExamFeeSession'));
            await act(async () => app.control.fail('createExamFeeSession', 'PAYMENT_ERROR', 422));
          },
          'pupil.authorisesDemo': () => app.user.click(screen.getByRole('button', { name: 'Authorise' })),
          'pupil.refusesDemo': () => app.user.click(screen.getByRole('button', { name: 'Refuse' })),
          'pupil.cancelsDemo': () => app.user.click(screen.getByRole('button', { name: 'Cancel' })),
          'adyen.completes': async () => {
            await waitFor(() => expect(adyenWeb.configs.length).toBe(1));
            await act(async () => adyenWeb.configs[0]!.onPaymentCompleted({ resultCode: 'Authorised' }));
          },
          'server.confirmsPayment': async () => {
            // The provider's notification reaches the server before the status call (Adyen's webhook).
            providerNotifiesServer(app.control.server);
            await waitFor(() => expect(app.control.waiting().some((m) => m === 'completeDemoPayment' || m === 'paymentStatus')).toBe(true));
            await act(async () => app.control.answer(app.control.waiting().includes('completeDemoPayment') ? 'completeDemoPayment' : 'paymentStatus'));
          },
          'server.confirmsOutcome': () => serverAnswers(app.control, 'completeDemoPayment'),
          'server.keepsCheckoutOpen': async () => {
            await waitFor(() => expect(app.control.waiting().some((m) => m === 'completeDemoPayment' || m === 'paymentStatus')).toBe(true));
            const method = app.control.waiting().includes('completeDemoPayment') ? 'completeDemoPayment' : 'paymentStatus';
            await serverAnswersWith(app, method, () => stillOpen(app));
          },
          'server.reportsCheckoutError': () => serverAnswersWith(app, 'completeDemoPayment', () => ({ ...stillOpen(app, 'error'), status: 0 })),
          'server.fails': async () => {
            await waitFor(() => expect(app.control.waiting().length).toBeGreaterThan(0));
            await act(async () => app.control.fail(app.control.waiting()[0]!, 'GENERIC_ERROR', 500));
          },
          'time.passes': async () => {
            await act(async () => app.clock.increment(STATUS_BACKOFF_MAX_MS));
          },
          'pupil.viewsResults': () => app.user.click(screen.getByRole('button', { name: 'View results' })),
          'server.sendsResult': async () => {
            app.control.server.paid.result_sheet = 0;
            app.control.server.paid.certificate = 0;
            await serverAnswers(app.control, 'shortResult');
            await serverAnswers(app.control, 'resultPaymentSetting');
          },
          'server.sendsOwnedResult': async () => {
            app.control.server.paid.result_sheet = 2;
            app.control.server.paid.certificate = 2;
            await serverAnswers(app.control, 'shortResult');
            await serverAnswers(app.control, 'resultPaymentSetting');
          },
          'server.sendsPartlyOwnedResult': async () => {
            app.control.server.paid.result_sheet = 2;
            app.control.server.paid.certificate = 0;
            await serverAnswers(app.control, 'shortResult');
            await serverAnswers(app.control, 'resultPaymentSetting');
          },
          'pupil.buysResultItems': () => app.user.click(screen.getByRole('button', { name: 'Buy the result sheet / certificate' })),
          'pupil.opensReport': () => app.user.click(screen.getByRole('button', { name: 'Open the score report' })),
          'pupil.readsReportThenPressesBack': async () => {
            await app.user.click(screen.getByRole('button', { name: 'Open the score report' }));
            await serverAnswers(app.control, 'scoreReport');
            await screen.findByRole('button', { name: 'Save as PDF' });
            expect(app.history.location.pathname).toBe('/score-report/7');
            await act(async () => app.history.back());
          },
          'server.sendsResultSetting': async () => {
            app.control.server.provider = 'demo';
            await serverAnswers(app.control, 'resultPaymentSetting');
          },
          'server.sendsAdyenResultSetting': async () => {
            app.control.server.provider = 'adyen';
            await serverAnswers(app.control, 'resultPaymentSetting');
          },
          'pupil.ticksItems': async () => {
            await app.user.click(screen.getByRole('checkbox', { name: 'Result sheet' }));
            await app.user.click(screen.getByRole('checkbox', { name: 'Certificate' }));
          },
          'pupil.downloadsCertificate': () => app.user.click(screen.getByRole('button', { name: 'Download the certificate' })),
          'pupil.savesPdf': () => app.user.click(screen.getByRole('button', { name: 'Save as PDF' })),
          'pupil.prints': async () => {
            const before = app.print.mock.calls.length;
            await app.user.click(screen.getByRole('button', { name: 'Print' }));
            expect(app.print).toHaveBeenCalledTimes(before + 1);
          },
          'server.sendsDocument': async () => {
            const before = app.saveFile.mock.calls.length;
            const name = screen.queryByRole('button', { name: 'Preparing the PDF…' }) ? 'score-report-7.pdf' : 'certificate-7.pdf';
            await serverAnswers(app.control, 'resultDocument');
            await waitFor(() => expect(app.saveFile).toHaveBeenCalledTimes(before + 1));
            const [file, saved] = app.saveFile.mock.calls[before]!;
            expect(saved).toBe(name);
            expect(file.type).toBe('application/pdf');
          },
          'server.sendsReport': () => serverAnswers(app.control, 'scoreReport'),
          'pupil.typesMenuUrl': () => open(app, '/testing-menu'),
        },
      });
    });
  }

  it('takes every transition of the session machine through the app', () => {
    recorder.report('ui');
    // Exactly the transitions the view gives no way to (sessionUnreachable): anything else missing fails.
    expect(recorder.missing()).toEqual(Object.keys(sessionUnreachable).sort());
    expect(recorder.taken.size).toBe(recorder.all.size - Object.keys(sessionUnreachable).length);
  });

  it('takes the payment machine through the payment screens', () => {
    paymentRecorder.report('ui');
    expect(paymentRecorder.missing()).toEqual([]);
    expect(paymentRecorder.taken.size).toBe(paymentRecorder.all.size);
  });

  it('takes the results machine through the results screens', () => {
    resultsRecorder.report('ui');
    expect(resultsRecorder.missing()).toEqual([]);
    expect(resultsRecorder.taken.size).toBe(resultsRecorder.all.size);
  });
});
