/**
 * The results machine walked transition by transition, opened from the menu and by the payment
 * provider's redirect back: the short result loaded, failed or refused (a 401 in maintenance or
 * any other ends the results with the session's reason), the result payment and its ways out,
 * the purchased result and its certificate, the score report with print, PDF and certificate,
 * the browser's Back from it to the short or purchased result (never to the payment), Back from
 * the payment to the screen it was opened from and from the purchased result to the payment, and
 * a reload on each screen (opened again there; the score report once what is owned is known, else
 * the short result).
 * Invariants: the report opens only with the sheet owned, the certificate downloads only owned
 * and passed, one document at a time, the redirect back held only by the payment it opened, and
 * the screens' binding (results.connect.ts) shows the screen the machine is on.
 */
import assert from 'node:assert/strict';
import { createMachine, type AnyMachineSnapshot } from 'xstate';
import { connect } from '../../machines/results/results.connect.ts';
import { resultsMachine } from '../../machines/results/results.machine.ts';
import { canDownloadCertificate, ownedFactsOf, type ResultsSnapshot } from '../../machines/results/results.selectors.ts';
import type { ResultsContext, ResultsInput } from '../../machines/results/results.types.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';
import { never } from '../helpers/never.ts';
import { describeModel } from './suite.ts';

const machine = resultsMachine.provide({
  actors: {
    // The payment machine has its own model (test/model/payment.model.test.ts): here a child that never ends.
    payment: createMachine({}),
    loadShortResult: never(),
    loadScoreReport: never(),
    downloadDocument: never(),
  } as never,
  actions: { printPage: () => {} },
});

const serverTime = '2026-11-22T09:00:00.000Z';
/** Back from Adyen's redirect: the returnUrl with our reference, Adyen's sessionId and redirectResult. */
const returning = { reference: 'GR-00000000-0000-4000-8000-000000000001', sessionId: 'CS1234', redirectResult: 'X6Xtf' };

const inputs: ResultsInput[] = [
  { scheduleHistoryId: 7, appOrigin: 'https://gradus.test' },
  { scheduleHistoryId: 7, appOrigin: 'https://gradus.test', returning },
  // A reload on a results screen (the session reopens the results with the browser's path).
  ...['/short-result', '/pay-exam-result', '/purchased-result', '/score-report/7'].map((reloadedAt) => ({
    scheduleHistoryId: 7,
    appOrigin: 'https://gradus.test',
    reloadedAt,
  })),
];

const shortResult = (passed: boolean, owned: { result_sheet: boolean; certificate: boolean }) => ({
  result: {
    schedule_history_id: 7,
    subject: { id: 1 as const, name: 'English' },
    level: { id: 1, name: 'Level 1', order: 1 },
    exam_date: serverTime,
    score: passed ? 17 : 9,
    max_score: 20,
    passed,
    correct_count: passed ? 17 : 9,
    question_count: 20,
    correct_rate: passed ? 85 : 45,
    viewable_until: '2028-11-22T09:00:00.000Z',
    server_time: serverTime,
  },
  owned,
});

/** No answer, 401 in maintenance, any other 401. */
const failures = [new ApiFailure('NETWORK_ERROR'), new ApiFailure('DURING_MAINTENANCE', 401), new ApiFailure('NOT_LOGGED_IN', 401)];
const errorsOf = (id: string) => failures.map((error) => ({ type: `xstate.error.actor.${id}`, error }));
const contextOf = (snapshot: AnyMachineSnapshot) => snapshot.context as ResultsContext;

describeModel({
  name: 'results',
  machine,
  inputs,
  samples: {
    'xstate.done.actor.loadShortResult': [
      { type: 'xstate.done.actor.loadShortResult', output: shortResult(true, { result_sheet: false, certificate: false }) },
      { type: 'xstate.done.actor.loadShortResult', output: shortResult(true, { result_sheet: true, certificate: true }) },
      { type: 'xstate.done.actor.loadShortResult', output: shortResult(false, { result_sheet: true, certificate: false }) },
    ],
    'xstate.error.actor.loadShortResult': errorsOf('loadShortResult'),
    'xstate.done.actor.loadScoreReport': [{ type: 'xstate.done.actor.loadScoreReport', output: { result: { passed: true } } }],
    'xstate.error.actor.loadScoreReport': errorsOf('loadScoreReport'),
    'xstate.done.actor.downloadDocument': [{ type: 'xstate.done.actor.downloadDocument', output: undefined }],
    'xstate.error.actor.downloadDocument': errorsOf('downloadDocument'),
    // The browser's Back (or Forward) to each results screen: where the pupil came from is a way back.
    'location.unmatched': ['/short-result', '/purchased-result', '/pay-exam-result'].map((path) => ({
      type: 'location.unmatched',
      path,
      known: true,
      search: {},
    })),
  },
  // Only what the guards read: what is owned, whether the exam passed, and a redirect to confirm.
  contextKey: (context) => {
    const c = context as unknown as ResultsContext;
    return [c.owned?.result_sheet, c.owned?.certificate, c.short?.passed, c.report?.result.passed, c.returning !== null];
  },
  // node:assert rather than expect: invariants run after every event of every path, where expect's cost dominates.
  invariants: (snapshot) => {
    const context = contextOf(snapshot);
    const api = connect(snapshot as unknown as ResultsSnapshot, () => {});
    // The score report is shown only with the result sheet owned.
    if (snapshot.matches('scoreReport')) assert.equal(context.owned?.result_sheet, true);
    // A reload on the report reads what is owned first, with no screen (the reloaded URL stays).
    if (snapshot.matches('reopeningReport')) assert.deepStrictEqual(Object.values(snapshot.getMeta()), []);
    // The certificate downloads only owned and passed; one document at a time, named while it downloads.
    const downloading = {
      certificate:
        snapshot.matches({ purchasedResult: { ready: 'downloading' } }) ||
        snapshot.matches({ scoreReport: { ready: 'downloadingCertificate' } }),
      report: snapshot.matches({ scoreReport: { ready: 'downloadingReport' } }),
    };
    if (downloading.certificate) assert.equal(canDownloadCertificate(ownedFactsOf(context)), true);
    assert.equal(context.downloading, downloading.certificate ? 'certificate' : downloading.report ? 'report' : null);
    // The result payment runs exactly while its screen shows; the redirect back is held only there.
    assert.equal(Boolean(snapshot.children.payment), snapshot.matches('payExamResult'));
    if (context.returning !== null) assert.equal(snapshot.matches('payExamResult'), true);
    // Done: back to the menu, or refused with the session's reason.
    assert.equal(snapshot.status === 'done', snapshot.matches('closed') || snapshot.matches('refused'));
    assert.equal(context.refusal !== null, snapshot.matches('refused'));
    if (snapshot.status === 'done') assert.deepStrictEqual(snapshot.output, { refusal: context.refusal });
    // The binding shows the screen the machine is on (the paths the kiosk shows are its states').
    const screen = Object.values(snapshot.getMeta()).reduce<string | null>(
      (found, meta) => (meta as { screen?: string } | undefined)?.screen ?? found,
      null,
    );
    assert.equal(api.screen, screen);
  },
});
