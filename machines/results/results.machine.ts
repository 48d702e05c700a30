/**
 * The results machine: one sitting's results after the testing menu (seed section 2,
 * "short-result, then the result sheet and certificate"). It owns the short result, the
 * payment of result items (the payment machine as its child `payment`), the purchased result,
 * the score report and the PDFs saved from them. The session invokes it (child `results`) when
 * the pupil asks for the results on the menu, or when the payment provider's redirect comes back
 * to /pay-exam-result; its states carry the screens' paths (`meta.path`), which the kiosk shows.
 *
 * Top states: opening -> shortResult (loading -> ready | failed) | payExamResult (a redirect
 * back: that checkout is confirmed first); shortResult -> payExamResult -> purchasedResult
 * (-> payExamResult again for what is not owned yet);
 * opening -> payExamResult | purchasedResult | reopeningReport -> scoreReport | shortResult after a
 * reload on that screen (input `reloadedAt`; the report reads what is owned first, and without the
 * sheet the short result stands in);
 * payExamResult -> shortResult | purchasedResult, purchasedResult -> payExamResult by the browser's
 * Back (the screen the pupil came from, loaded anew);
 * shortResult, purchasedResult -> scoreReport (loading -> ready (idle | downloading) | failed);
 * scoreReport -> shortResult | purchasedResult again by the browser's Back (the location the
 * session hands on: the screen the report was opened from, loaded anew);
 * every screen -> closed (back to the menu); any results call refused with a 401 -> refused.
 * Invariants:
 * - the score report opens only when the result sheet is owned; the certificate is downloaded
 *   only when it is owned and the exam was passed (seed section 3);
 * - one document at a time, and the screens say which (`downloading`);
 * - a 401 on any results call ends the results with the session's reason (seed section 8): the
 *   maintenance message for DURING_MAINTENANCE, the generic error for any other;
 * - the provider's redirect back is held only while pay-exam-result confirms it.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { ScoreReport } from '../../contract/results.ts';
import { paymentMachine } from '../payment/payment.machine.ts';
import { returnUrlOf } from '../payment/payment.return.ts';
import { errorOf } from '../shared/ports.ts';
import { isMaintenanceFailure, isUnauthorizedFailure, visibleFailure } from '../session/session.rules.ts';
import { matchesPath } from '../kiosk/routes.ts';
// The screens' paths (the kiosk shows them: `meta.path`), written out for the session's route
// table before this machine loads (results.routes.ts).
import { PAY_EXAM_RESULT_PATH, PURCHASED_RESULT_PATH, SCORE_REPORT_PATH, SHORT_RESULT_PATH } from './results.routes.ts';
import { canDownloadCertificate, ownedFactsOf, ownsResultSheet } from './results.selectors.ts';
import type { DocumentKind, ResultsContext, ResultsEvent, ResultsInput, ResultsOutput, ShortResultWithOwned } from './results.types.ts';

const provided = (name: string) => () => {
  throw new Error(`${name} is provided by the edge (results.actors.ts)`);
};

/** Every results call's first two error branches (seed section 8): the session ends. */
const endOnRefusal = [
  { guard: 'isMaintenance', target: '#results.refused', actions: { type: 'keepRefusal', params: { refusal: 'DURING_MAINTENANCE' } } },
  { guard: 'isUnauthorized', target: '#results.refused', actions: { type: 'keepRefusal', params: { refusal: 'GENERIC_ERROR' } } },
] as const;

const resultsSetup = setup({
  types: {
    context: {} as ResultsContext,
    events: {} as ResultsEvent,
    input: {} as ResultsInput,
    output: {} as ResultsOutput,
  },
  actors: {
    /** A checkout of result items (the payment machine, provided with its port by the edge). */
    payment: paymentMachine,
    /** GET /get-short-result and what of the result is owned (GET /get-setting-payment-for-result). */
    loadShortResult: fromPromise<ShortResultWithOwned, { id: number }>(provided('loadShortResult')),
    /** GET /score-report/results. */
    loadScoreReport: fromPromise<ScoreReport, { id: number }>(provided('loadScoreReport')),
    /** GET /score-report/pdf-report or /get-certificate, saved as a file by the edge. */
    downloadDocument: fromPromise<void, { id: number; document: DocumentKind }>(provided('downloadDocument')),
  },
  actions: {
    /** Opens the browser's print dialog (the score report's print stylesheet); provided by the edge. */
    printPage: () => provided('printPage')(),
    keepShortResult: assign((_, loaded: ShortResultWithOwned) => ({ short: loaded.result, owned: loaded.owned, failure: null })),
    keepReport: assign((_, report: ScoreReport) => ({ report, failure: null })),
    /** A results call or download failed: the results screens show why. */
    keepFailure: assign({ failure: ({ event }) => visibleFailure(errorOf(event)) }),
    keepRefusal: assign((_, params: { refusal: ResultsContext['refusal'] }) => ({ refusal: params.refusal })),
    markDownloading: assign((_, params: { document: DocumentKind }) => ({ downloading: params.document, failure: null })),
    clearDownloading: assign({ downloading: null }),
    /** The redirect back belongs to the payment it opened: gone once the pupil leaves it. */
    forgetReturn: assign({ returning: null }),
  },
  guards: {
    isPaymentReturn: ({ context }) => context.returning !== null,
    /** The location is this screen's path (the browser's Back or Forward, a typed URL). */
    isLocationOf: ({ event }, params: { path: string }) => event.type === 'location.unmatched' && event.path === params.path,
    /** The page was reloaded on this screen (its path, or its pattern: the score report's). */
    wasReloadedAt: ({ context }, params: { path: string }) => context.reloadedAt !== null && matchesPath(params.path, context.reloadedAt),
    ownsResultSheet: ({ context }) => ownsResultSheet(context),
    canDownloadCertificate: ({ context }) => canDownloadCertificate(ownedFactsOf(context)),
    isMaintenance: ({ event }) => isMaintenanceFailure(errorOf(event)),
    isUnauthorized: ({ event }) => isUnauthorizedFailure(errorOf(event)),
  },
});

type StateConfig = Parameters<typeof resultsSetup.createStateConfig>[0];

/**
 * A results screen that loads first: `loading` (busy) runs its call and keeps the answer, then the
 * screen is `ready`; a failure shows why with "Try again" (`failed`); a 401 ends the results.
 */
function loadingFirst(load: 'shortResult' | 'scoreReport', ready: StateConfig) {
  return resultsSetup.createStateConfig({
    initial: 'loading',
    states: {
      loading: {
        tags: ['busy'],
        invoke:
          load === 'shortResult'
            ? {
                id: 'loadShortResult',
                src: 'loadShortResult',
                input: ({ context }) => ({ id: context.id }),
                onDone: { target: 'ready', actions: { type: 'keepShortResult', params: ({ event }) => event.output } },
                onError: [...endOnRefusal, { target: 'failed', actions: 'keepFailure' }],
              }
            : {
                id: 'loadScoreReport',
                src: 'loadScoreReport',
                input: ({ context }) => ({ id: context.id }),
                onDone: { target: 'ready', actions: { type: 'keepReport', params: ({ event }) => event.output } },
                onError: [...endOnRefusal, { target: 'failed', actions: 'keepFailure' }],
              },
      },
      failed: { on: { 'retry.requested': 'loading' } },
      ready,
    },
  });
}

/** A document saved as a PDF (busy, named while it downloads); done or failed, the screen is `idle` again. */
function downloading(document: DocumentKind) {
  return resultsSetup.createStateConfig({
    tags: ['busy'],
    entry: { type: 'markDownloading', params: { document } },
    exit: 'clearDownloading',
    invoke: {
      id: 'downloadDocument',
      src: 'downloadDocument',
      input: ({ context }) => ({ id: context.id, document }),
      onDone: 'idle',
      onError: [...endOnRefusal, { target: 'idle', actions: 'keepFailure' }],
    },
  });
}

export const resultsMachine = resultsSetup.createMachine({
  id: 'results',
  context: ({ input }) => ({
    id: input.scheduleHistoryId,
    appOrigin: input.appOrigin,
    returning: input.returning ?? null,
    reloadedAt: input.reloadedAt ?? null,
    short: null,
    owned: null,
    report: null,
    failure: null,
    downloading: null,
    refusal: null,
  }),
  initial: 'opening',
  states: {
    // The provider's redirect back lands on the payment screen's confirmation, not on the start.
    // A reload lands on the screen it was on (the session reopens the results with its path).
    opening: {
      always: [
        { guard: 'isPaymentReturn', target: 'payExamResult' },
        { guard: { type: 'wasReloadedAt', params: { path: PAY_EXAM_RESULT_PATH } }, target: 'payExamResult' },
        { guard: { type: 'wasReloadedAt', params: { path: PURCHASED_RESULT_PATH } }, target: 'purchasedResult' },
        { guard: { type: 'wasReloadedAt', params: { path: SCORE_REPORT_PATH } }, target: 'reopeningReport' },
        { target: 'shortResult' },
      ],
    },
    // A reload on the score report: what is owned first (the report opens only with the sheet, its
    // certificate only owned and passed). No path meanwhile: the reloaded URL stays. A failure is the
    // short result's (Try again there).
    reopeningReport: {
      tags: ['busy'],
      invoke: {
        id: 'loadShortResult',
        src: 'loadShortResult',
        input: ({ context }) => ({ id: context.id }),
        onDone: { target: 'reportOrResult', actions: { type: 'keepShortResult', params: ({ event }) => event.output } },
        onError: [...endOnRefusal, { target: 'shortResult.failed', actions: 'keepFailure' }],
      },
    },
    reportOrResult: {
      always: [{ guard: 'ownsResultSheet', target: 'scoreReport' }, { target: 'shortResult.ready' }],
    },
    // Seed section 2: short-result, then the result sheet and certificate.
    shortResult: {
      meta: { path: SHORT_RESULT_PATH, screen: 'short-result' },
      on: { 'menu.requested': 'closed' },
      ...loadingFirst('shortResult', {
        on: {
          'resultItems.buyRequested': '#results.payExamResult',
          'report.openRequested': { guard: 'ownsResultSheet', target: '#results.scoreReport' },
        },
      }),
    },
    payExamResult: {
      meta: { path: PAY_EXAM_RESULT_PATH, screen: 'pay-exam-result' },
      invoke: {
        id: 'payment',
        src: 'payment',
        input: ({ context }) => ({
          scheduleHistoryId: context.id,
          purpose: 'result_fee' as const,
          returnUrl: returnUrlOf(context.appOrigin, 'result_fee', context.id),
          returning: context.returning,
        }),
      },
      exit: 'forgetReturn',
      // "Back to menu" on pay-exam-result returns to the short result. The browser's Back: the
      // screen it was opened from (the short result or the purchased result), loaded anew.
      on: {
        'payment.continued': 'purchasedResult',
        'menu.requested': 'shortResult',
        'location.unmatched': [
          { guard: { type: 'isLocationOf', params: { path: SHORT_RESULT_PATH } }, target: 'shortResult' },
          { guard: { type: 'isLocationOf', params: { path: PURCHASED_RESULT_PATH } }, target: 'purchasedResult' },
        ],
      },
    },
    purchasedResult: {
      meta: { path: PURCHASED_RESULT_PATH, screen: 'purchased-result' },
      on: {
        'menu.requested': 'closed',
        // The browser's Back: the payment it was reached from (what is not owned yet is bought there).
        'location.unmatched': { guard: { type: 'isLocationOf', params: { path: PAY_EXAM_RESULT_PATH } }, target: 'payExamResult' },
      },
      ...loadingFirst('shortResult', {
        initial: 'idle',
        on: {
          // "Buy the result sheet / certificate": what is not owned yet is bought on pay-exam-result (seed section 2).
          'resultItems.buyRequested': '#results.payExamResult',
          'report.openRequested': { guard: 'ownsResultSheet', target: '#results.scoreReport' },
        },
        states: {
          idle: { on: { 'certificate.downloadRequested': { guard: 'canDownloadCertificate', target: 'downloading' } } },
          downloading: downloading('certificate'),
        },
      }),
    },
    scoreReport: {
      meta: { path: SCORE_REPORT_PATH, screen: 'score-report' },
      on: {
        'menu.requested': 'closed',
        // The browser's Back: the screen the report was opened from (the short result or the
        // purchased result, both offer it once the sheet is owned), loaded anew. Other results
        // paths (the payment) are not a way back.
        'location.unmatched': [
          { guard: { type: 'isLocationOf', params: { path: SHORT_RESULT_PATH } }, target: 'shortResult' },
          { guard: { type: 'isLocationOf', params: { path: PURCHASED_RESULT_PATH } }, target: 'purchasedResult' },
        ],
      },
      ...loadingFirst('scoreReport', {
        initial: 'idle',
        on: { 'report.printRequested': { actions: 'printPage' } },
        states: {
          idle: {
            on: {
              'report.pdfRequested': 'downloadingReport',
              'certificate.downloadRequested': { guard: 'canDownloadCertificate', target: 'downloadingCertificate' },
            },
          },
          downloadingReport: downloading('report'),
          downloadingCertificate: downloading('certificate'),
        },
      }),
    },
    /** Back to the testing menu (the session loads it again). */
    closed: { type: 'final' },
    /** A results call was refused with a 401: the session ends with `refusal`. */
    refused: { type: 'final' },
  },
  output: ({ context }) => ({ refusal: context.refusal }),
});
