/**
 * The results machine's rules stated outright (seed sections 2, 3 and 8): where it opens, what
 * each screen loads and with which input, what owning the sheet and certificate allows, one
 * document at a time with its name, a 401 ending the results with the session's reason and any
 * other failure staying on the screen; and its real calls (results.actors.ts) over a port that
 * lacks them or has them.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromPromise, type AnyActorLogic } from 'xstate';
import type { ScoreReport } from '../../contract/results.ts';
import { loadShortResult, resultsImplementations } from '../../machines/results/results.actors.ts';
import { connect } from '../../machines/results/results.connect.ts';
import { resultsMachine } from '../../machines/results/results.machine.ts';
import {
  canDownloadCertificate,
  hasItemsToBuy,
  isRetryableLoad,
  ownedFactsOf,
  ownsResultSheet,
  selectLoad,
  selectResultsScreen,
} from '../../machines/results/results.selectors.ts';
import type { OwnedItems, ResultsInput } from '../../machines/results/results.types.ts';
import { ApiFailure, type ApiPort } from '../../machines/shared/ports.ts';
import { createFakeApi } from '../helpers/fake-api.ts';
import { scoreReportFixture } from '../helpers/score-report-fixture.ts';

const serverTime = '2026-11-22T09:00:00.000Z';
const returning = { reference: 'GR-00000000-0000-4000-8000-000000000001', sessionId: 'CS1234', redirectResult: 'X6Xtf' };

function shortResult(passed: boolean, owned: OwnedItems) {
  return {
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
  };
}

/** Every call the machine makes, with its input; none of them settles (the test's events do). */
function open(input: Partial<ResultsInput> = {}) {
  const calls: Array<{ src: string; input: unknown }> = [];
  const printed: number[] = [];
  const pending = (src: string) =>
    fromPromise(({ input: given }) => {
      calls.push({ src, input: given });
      return new Promise<never>(() => {});
    });
  const paymentInputs: unknown[] = [];
  const payment = createMachine({
    context: ({ input: given }) => {
      paymentInputs.push(given);
      return {};
    },
  });
  const actor = createActor(
    resultsMachine.provide({
      actors: {
        payment,
        loadShortResult: pending('loadShortResult'),
        loadScoreReport: pending('loadScoreReport'),
        downloadDocument: pending('downloadDocument'),
      } as never,
      actions: { printPage: () => void printed.push(1) },
    }),
    { input: { scheduleHistoryId: 7, appOrigin: 'https://gradus.test', ...input } },
  ).start();
  return { actor, calls, printed, paymentInputs };
}

type Actor = ReturnType<typeof open>['actor'];
const answer = (actor: Actor, id: string, output: unknown) => actor.send({ type: `xstate.done.actor.${id}`, output } as never);
const fail = (actor: Actor, id: string, error: unknown) => actor.send({ type: `xstate.error.actor.${id}`, error } as never);
const stateOf = (actor: Actor) => actor.getSnapshot().value;

function onShort(passed: boolean, owned: OwnedItems) {
  const opened = open();
  answer(opened.actor, 'loadShortResult', shortResult(passed, owned));
  return opened;
}

function onReport(passed = true, owned: OwnedItems = { result_sheet: true, certificate: true }) {
  const opened = onShort(passed, owned);
  opened.actor.send({ type: 'report.openRequested' });
  answer(opened.actor, 'loadScoreReport', scoreReportFixture());
  return opened;
}

function onPurchased(passed: boolean, owned: OwnedItems) {
  const opened = onShort(passed, { result_sheet: false, certificate: false });
  opened.actor.send({ type: 'resultItems.buyRequested' });
  opened.actor.send({ type: 'payment.continued' });
  answer(opened.actor, 'loadShortResult', shortResult(passed, owned));
  return opened;
}

describe('results: opening and the short result', () => {
  it('opens on the short result, loading it for the sitting, busy until it comes', () => {
    const { actor, calls } = open();
    expect(stateOf(actor)).toEqual({ shortResult: 'loading' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().getMeta()['results.shortResult']).toEqual({ path: '/short-result', screen: 'short-result' });
    expect(calls).toEqual([{ src: 'loadShortResult', input: { id: 7 } }]);
    expect(actor.getSnapshot().context).toEqual({
      id: 7,
      appOrigin: 'https://gradus.test',
      returning: null,
      reloadedAt: null,
      short: null,
      owned: null,
      report: null,
      failure: null,
      downloading: null,
      refusal: null,
    });
    const output = shortResult(true, { result_sheet: false, certificate: false });
    answer(actor, 'loadShortResult', output);
    expect(stateOf(actor)).toEqual({ shortResult: 'ready' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(actor.getSnapshot().context).toMatchObject({ short: output.result, owned: output.owned, failure: null });
  });

  it("opens on the result payment when the provider's redirect comes back, and hands it the checkout", () => {
    const { actor, paymentInputs, calls } = open({ returning, scheduleHistoryId: 9 });
    expect(stateOf(actor)).toBe('payExamResult');
    expect(actor.getSnapshot().getMeta()['results.payExamResult']).toEqual({ path: '/pay-exam-result', screen: 'pay-exam-result' });
    expect(calls).toEqual([]);
    expect(paymentInputs).toEqual([
      {
        scheduleHistoryId: 9,
        purpose: 'result_fee',
        returnUrl: 'https://gradus.test/pay-exam-result?schedule_history_id=9',
        returning,
      },
    ]);
    // Leaving the payment forgets the redirect: it belongs to that checkout only.
    actor.send({ type: 'menu.requested' });
    expect(stateOf(actor)).toEqual({ shortResult: 'loading' });
    expect(actor.getSnapshot().context.returning).toBeNull();
  });

  it('keeps a failure on the screen and loads again on Try again (400 is the generic error)', () => {
    const { actor, calls } = open();
    fail(actor, 'loadShortResult', new ApiFailure('RESULT_NOT_RELEASED', 403));
    expect(stateOf(actor)).toEqual({ shortResult: 'failed' });
    expect(actor.getSnapshot().context.failure).toBe('RESULT_NOT_RELEASED');
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    actor.send({ type: 'retry.requested' });
    expect(stateOf(actor)).toEqual({ shortResult: 'loading' });
    expect(calls).toHaveLength(2);
    fail(actor, 'loadShortResult', new ApiFailure('VALIDATION_ERROR', 400));
    expect(actor.getSnapshot().context.failure).toBe('GENERIC_ERROR');
    answer(actor, 'loadShortResult', shortResult(true, { result_sheet: false, certificate: false }));
    expect(stateOf(actor)).toEqual({ shortResult: 'failed' });
    actor.send({ type: 'retry.requested' });
    answer(actor, 'loadShortResult', shortResult(true, { result_sheet: false, certificate: false }));
    expect(actor.getSnapshot().context.failure).toBeNull();
  });

  it.each([
    [new ApiFailure('DURING_MAINTENANCE', 401), 'DURING_MAINTENANCE'],
    [new ApiFailure('NOT_LOGGED_IN', 401), 'GENERIC_ERROR'],
  ] as const)('ends the results as refused on a 401 (%s), with the session reason %s', (error, refusal) => {
    const { actor } = open();
    fail(actor, 'loadShortResult', error);
    expect(actor.getSnapshot().status).toBe('done');
    expect(stateOf(actor)).toBe('refused');
    expect(actor.getSnapshot().output).toEqual({ refusal });
  });

  it('a 503 in maintenance is a failure on the screen, not a refusal', () => {
    const { actor } = open();
    fail(actor, 'loadShortResult', new ApiFailure('DURING_MAINTENANCE', 503));
    expect(stateOf(actor)).toEqual({ shortResult: 'failed' });
    expect(actor.getSnapshot().context.refusal).toBeNull();
  });

  it('goes back to the menu from every screen with no refusal', () => {
    for (const actor of [open().actor, onPurchased(true, { result_sheet: true, certificate: false }).actor, onReport().actor]) {
      actor.send({ type: 'menu.requested' });
      expect(stateOf(actor)).toBe('closed');
      expect(actor.getSnapshot().output).toEqual({ refusal: null });
    }
  });

  it('opens the score report only with the result sheet owned; buying opens the result payment', () => {
    const without = onShort(true, { result_sheet: false, certificate: true });
    without.actor.send({ type: 'report.openRequested' });
    expect(stateOf(without.actor)).toEqual({ shortResult: 'ready' });
    without.actor.send({ type: 'resultItems.buyRequested' });
    expect(stateOf(without.actor)).toBe('payExamResult');
    expect(without.paymentInputs).toEqual([
      { scheduleHistoryId: 7, purpose: 'result_fee', returnUrl: 'https://gradus.test/pay-exam-result?schedule_history_id=7', returning: null },
    ]);
    const owned = onShort(false, { result_sheet: true, certificate: false });
    owned.actor.send({ type: 'report.openRequested' });
    expect(stateOf(owned.actor)).toEqual({ scoreReport: 'loading' });
    expect(owned.actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(owned.calls.at(-1)).toEqual({ src: 'loadScoreReport', input: { id: 7 } });
    expect(owned.actor.getSnapshot().getMeta()['results.scoreReport']).toEqual({ path: '/score-report/$id', screen: 'score-report' });
  });

  it('ignores the buy and report events while loading or failed', () => {
    const { actor } = open();
    actor.send({ type: 'resultItems.buyRequested' });
    expect(stateOf(actor)).toEqual({ shortResult: 'loading' });
    fail(actor, 'loadShortResult', new ApiFailure('NETWORK_ERROR'));
    actor.send({ type: 'resultItems.buyRequested' });
    actor.send({ type: 'report.openRequested' });
    expect(stateOf(actor)).toEqual({ shortResult: 'failed' });
  });
});

describe('results: the purchased result and the certificate', () => {
  it('loads the purchased result after the payment, and downloads the certificate owned and passed', () => {
    const { actor, calls } = onShort(true, { result_sheet: false, certificate: false });
    actor.send({ type: 'resultItems.buyRequested' });
    actor.send({ type: 'payment.continued' });
    expect(stateOf(actor)).toEqual({ purchasedResult: 'loading' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().getMeta()['results.purchasedResult']).toEqual({ path: '/purchased-result', screen: 'purchased-result' });
    expect(calls.at(-1)).toEqual({ src: 'loadShortResult', input: { id: 7 } });
    answer(actor, 'loadShortResult', shortResult(true, { result_sheet: true, certificate: true }));
    expect(stateOf(actor)).toEqual({ purchasedResult: { ready: 'idle' } });
    expect(actor.getSnapshot().context.owned).toEqual({ result_sheet: true, certificate: true });
    actor.send({ type: 'certificate.downloadRequested' });
    expect(stateOf(actor)).toEqual({ purchasedResult: { ready: 'downloading' } });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().context.downloading).toBe('certificate');
    expect(calls.at(-1)).toEqual({ src: 'downloadDocument', input: { id: 7, document: 'certificate' } });
    answer(actor, 'downloadDocument', undefined);
    expect(stateOf(actor)).toEqual({ purchasedResult: { ready: 'idle' } });
    expect(actor.getSnapshot().context.downloading).toBeNull();
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
  });

  it('does not download a certificate not owned, nor one of an exam not passed', () => {
    for (const [passed, owned] of [
      [true, { result_sheet: true, certificate: false }],
      [false, { result_sheet: true, certificate: true }],
    ] as const) {
      const { actor, calls } = onPurchased(passed, owned);
      const before = calls.length;
      actor.send({ type: 'certificate.downloadRequested' });
      expect(stateOf(actor)).toEqual({ purchasedResult: { ready: 'idle' } });
      expect(calls).toHaveLength(before);
    }
  });

  it('keeps a failed download on the screen (idle again), and a 401 ends the results', () => {
    const { actor } = onPurchased(true, { result_sheet: true, certificate: true });
    actor.send({ type: 'certificate.downloadRequested' });
    fail(actor, 'downloadDocument', new ApiFailure('DOCUMENT_UNAVAILABLE', 503));
    expect(stateOf(actor)).toEqual({ purchasedResult: { ready: 'idle' } });
    expect(actor.getSnapshot().context).toMatchObject({ failure: 'DOCUMENT_UNAVAILABLE', downloading: null });
    actor.send({ type: 'certificate.downloadRequested' });
    expect(actor.getSnapshot().context.failure).toBeNull();
    fail(actor, 'downloadDocument', new ApiFailure('DURING_MAINTENANCE', 401));
    expect(actor.getSnapshot().output).toEqual({ refusal: 'DURING_MAINTENANCE' });
  });

  it('a failed purchased result is tried again; a 401 ends the results; the report opens with the sheet', () => {
    const first = onShort(true, { result_sheet: false, certificate: false });
    first.actor.send({ type: 'resultItems.buyRequested' });
    first.actor.send({ type: 'payment.continued' });
    fail(first.actor, 'loadShortResult', new ApiFailure('NETWORK_ERROR'));
    expect(stateOf(first.actor)).toEqual({ purchasedResult: 'failed' });
    expect(first.actor.getSnapshot().context.failure).toBe('NETWORK_ERROR');
    first.actor.send({ type: 'retry.requested' });
    expect(stateOf(first.actor)).toEqual({ purchasedResult: 'loading' });
    fail(first.actor, 'loadShortResult', new ApiFailure('NOT_LOGGED_IN', 401));
    expect(first.actor.getSnapshot().output).toEqual({ refusal: 'GENERIC_ERROR' });

    const sheet = onPurchased(false, { result_sheet: true, certificate: false });
    sheet.actor.send({ type: 'report.openRequested' });
    expect(stateOf(sheet.actor)).toEqual({ scoreReport: 'loading' });
    const none = onPurchased(false, { result_sheet: false, certificate: false });
    none.actor.send({ type: 'report.openRequested' });
    expect(stateOf(none.actor)).toEqual({ purchasedResult: { ready: 'idle' } });
  });
});

describe('results: the score report', () => {
  it('keeps the report, prints, and downloads the PDF and the certificate one at a time', () => {
    const { actor, calls, printed } = onReport();
    expect(stateOf(actor)).toEqual({ scoreReport: { ready: 'idle' } });
    expect(actor.getSnapshot().context.report).toEqual(scoreReportFixture());
    expect(actor.getSnapshot().context.failure).toBeNull();
    actor.send({ type: 'report.printRequested' });
    expect(printed).toEqual([1]);
    actor.send({ type: 'report.pdfRequested' });
    expect(stateOf(actor)).toEqual({ scoreReport: { ready: 'downloadingReport' } });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().context.downloading).toBe('report');
    expect(calls.at(-1)).toEqual({ src: 'downloadDocument', input: { id: 7, document: 'report' } });
    // One document at a time.
    actor.send({ type: 'certificate.downloadRequested' });
    expect(stateOf(actor)).toEqual({ scoreReport: { ready: 'downloadingReport' } });
    answer(actor, 'downloadDocument', undefined);
    expect(stateOf(actor)).toEqual({ scoreReport: { ready: 'idle' } });
    expect(actor.getSnapshot().context.downloading).toBeNull();
    actor.send({ type: 'certificate.downloadRequested' });
    expect(stateOf(actor)).toEqual({ scoreReport: { ready: 'downloadingCertificate' } });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().context.downloading).toBe('certificate');
    expect(calls.at(-1)).toEqual({ src: 'downloadDocument', input: { id: 7, document: 'certificate' } });
    actor.send({ type: 'report.pdfRequested' });
    expect(stateOf(actor)).toEqual({ scoreReport: { ready: 'downloadingCertificate' } });
    fail(actor, 'downloadDocument', new ApiFailure('DOCUMENT_UNAVAILABLE', 503));
    expect(stateOf(actor)).toEqual({ scoreReport: { ready: 'idle' } });
    expect(actor.getSnapshot().context).toMatchObject({ downloading: null, failure: 'DOCUMENT_UNAVAILABLE' });
    actor.send({ type: 'report.pdfRequested' });
    fail(actor, 'downloadDocument', new ApiFailure('TIMEOUT'));
    expect(actor.getSnapshot().context).toMatchObject({ downloading: null, failure: 'TIMEOUT' });
  });

  it('a 401 on a download or on the report ends the results', () => {
    for (const event of ['report.pdfRequested', 'certificate.downloadRequested'] as const) {
      const { actor } = onReport();
      actor.send({ type: event });
      fail(actor, 'downloadDocument', new ApiFailure('NOT_LOGGED_IN', 401));
      expect(actor.getSnapshot().output).toEqual({ refusal: 'GENERIC_ERROR' });
    }
    for (const [error, refusal] of [
      [new ApiFailure('DURING_MAINTENANCE', 401), 'DURING_MAINTENANCE'],
      [new ApiFailure('NOT_LOGGED_IN', 401), 'GENERIC_ERROR'],
    ] as const) {
      const { actor } = onShort(true, { result_sheet: true, certificate: false });
      actor.send({ type: 'report.openRequested' });
      fail(actor, 'loadScoreReport', error);
      expect(actor.getSnapshot().output).toEqual({ refusal });
    }
  });

  it('downloads no certificate on the report without it owned and passed; a failed report is tried again', () => {
    const { actor, calls } = onReport(true, { result_sheet: true, certificate: false });
    actor.send({ type: 'certificate.downloadRequested' });
    expect(stateOf(actor)).toEqual({ scoreReport: { ready: 'idle' } });
    const failed = onShort(true, { result_sheet: true, certificate: false });
    failed.actor.send({ type: 'report.openRequested' });
    fail(failed.actor, 'loadScoreReport', new ApiFailure('NETWORK_ERROR'));
    expect(stateOf(failed.actor)).toEqual({ scoreReport: 'failed' });
    expect(failed.actor.getSnapshot().context.failure).toBe('NETWORK_ERROR');
    failed.actor.send({ type: 'retry.requested' });
    expect(stateOf(failed.actor)).toEqual({ scoreReport: 'loading' });
    expect(failed.calls.filter((call) => call.src === 'loadScoreReport')).toHaveLength(2);
    expect(calls.filter((call) => call.src === 'downloadDocument')).toHaveLength(0);
  });
});

describe('results selectors', () => {
  const report = (passed: boolean) => ({ result: { passed } }) as unknown as ScoreReport;

  it('takes the pass from the short result, else the report, else not passed', () => {
    const short = shortResult(true, { result_sheet: true, certificate: true }).result;
    expect(ownedFactsOf({ short, owned: null, report: report(false) })).toEqual({ owned: null, passed: true });
    expect(ownedFactsOf({ short: { ...short, passed: false }, owned: null, report: report(true) }).passed).toBe(false);
    expect(ownedFactsOf({ short: null, owned: { result_sheet: true, certificate: false }, report: report(true) })).toEqual({
      owned: { result_sheet: true, certificate: false },
      passed: true,
    });
    expect(ownedFactsOf({ short: null, owned: null, report: null }).passed).toBe(false);
  });

  it('owns the sheet, downloads the certificate and has something to buy exactly as the seed says', () => {
    expect(ownsResultSheet({ owned: null })).toBe(false);
    expect(ownsResultSheet({ owned: { result_sheet: true, certificate: false } })).toBe(true);
    expect(ownsResultSheet({ owned: { result_sheet: false, certificate: true } })).toBe(false);
    expect(canDownloadCertificate({ owned: { result_sheet: false, certificate: true }, passed: true })).toBe(true);
    expect(canDownloadCertificate({ owned: { result_sheet: true, certificate: true }, passed: false })).toBe(false);
    expect(canDownloadCertificate({ owned: { result_sheet: true, certificate: false }, passed: true })).toBe(false);
    expect(canDownloadCertificate({ owned: null, passed: true })).toBe(false);
    expect(hasItemsToBuy({ owned: null, passed: true })).toBe(false);
    expect(hasItemsToBuy({ owned: { result_sheet: false, certificate: true }, passed: true })).toBe(true);
    expect(hasItemsToBuy({ owned: { result_sheet: true, certificate: false }, passed: true })).toBe(true);
    expect(hasItemsToBuy({ owned: { result_sheet: true, certificate: false }, passed: false })).toBe(false);
    expect(hasItemsToBuy({ owned: { result_sheet: true, certificate: true }, passed: true })).toBe(false);
  });

  it('offers Try again for every failure but a result not released or no longer viewable', () => {
    expect(isRetryableLoad(null)).toBe(true);
    expect(isRetryableLoad('NETWORK_ERROR')).toBe(true);
    expect(isRetryableLoad('RESULT_NOT_RELEASED')).toBe(false);
    expect(isRetryableLoad('RESULT_VIEW_EXPIRED')).toBe(false);
  });

  it('names the screen and the load of each state, none once over', () => {
    const { actor } = open();
    expect(selectResultsScreen(actor.getSnapshot())).toBe('short-result');
    expect(selectLoad(actor.getSnapshot(), 'shortResult')).toBe('loading');
    fail(actor, 'loadShortResult', new ApiFailure('NETWORK_ERROR'));
    expect(selectLoad(actor.getSnapshot(), 'shortResult')).toBe('error');
    expect(selectLoad(actor.getSnapshot(), 'scoreReport')).toBe('loading');
    const ready = onReport();
    expect(selectResultsScreen(ready.actor.getSnapshot())).toBe('score-report');
    expect(selectLoad(ready.actor.getSnapshot(), 'scoreReport')).toBe('ready');
    expect(selectLoad(ready.actor.getSnapshot(), 'shortResult')).toBe('loading');
    expect(selectResultsScreen(onPurchased(true, { result_sheet: true, certificate: false }).actor.getSnapshot())).toBe('purchased-result');
    expect(selectResultsScreen(open({ returning }).actor.getSnapshot())).toBe('pay-exam-result');
    ready.actor.send({ type: 'menu.requested' });
    expect(selectResultsScreen(ready.actor.getSnapshot())).toBeNull();
  });
});

describe('results actors', () => {
  it('reads what is owned from the payment setting: an item is owned only when PAID', async () => {
    const api = createFakeApi();
    api.menu = { ...api.menu, result: { ...api.menu.result, released: true } };
    api.paid = { exam_fee: 2, result_sheet: 2, certificate: 1 };
    const loaded = await loadShortResult(api, 7);
    expect(loaded.owned).toEqual({ result_sheet: true, certificate: false });
    expect(loaded.result.schedule_history_id).toBe(7);
    expect(api.calls).toEqual(['shortResult', 'resultPaymentSetting']);
    api.paid = { exam_fee: 2, result_sheet: 0, certificate: 2 };
    expect((await loadShortResult(api, 7)).owned).toEqual({ result_sheet: false, certificate: true });
  });

  it('fails as GENERIC_ERROR where the port lacks a results call', async () => {
    const api = createFakeApi();
    const lacking = (name: keyof typeof api) => ({ ...api, [name]: undefined }) as unknown as ApiPort;
    await expect(loadShortResult(lacking('shortResult'), 7)).rejects.toMatchObject({ code: 'GENERIC_ERROR' });
    await expect(loadShortResult(lacking('resultPaymentSetting'), 7)).rejects.toMatchObject({ code: 'GENERIC_ERROR' });
    const run = async (port: ApiPort, src: 'loadScoreReport' | 'downloadDocument', input: unknown) => {
      const logic = resultsImplementations({ api: port }).actors[src];
      const actor = createActor(logic as AnyActorLogic, { input });
      const errors: unknown[] = [];
      actor.subscribe({ error: (error) => void errors.push(error) });
      actor.start();
      await vi.waitFor(() => expect(errors).toHaveLength(1), { timeout: 10_000 });
      return errors[0];
    };
    expect(await run(lacking('scoreReport'), 'loadScoreReport', { id: 7 })).toMatchObject({ code: 'GENERIC_ERROR' });
    expect(await run(lacking('resultDocument'), 'downloadDocument', { id: 7, document: 'report' })).toMatchObject({ code: 'GENERIC_ERROR' });
  });

  it('loads the report of the sitting, saves each document under its own name, and prints through the edge', async () => {
    const api = createFakeApi();
    api.paid = { exam_fee: 2, result_sheet: 2, certificate: 2 };
    const saved: string[] = [];
    let printed = 0;
    const implementations = resultsImplementations({ api, saveFile: (_file, name) => void saved.push(name), print: () => void (printed += 1) });
    const settle = (src: 'loadScoreReport' | 'downloadDocument', input: unknown) =>
      new Promise((resolve, reject) => {
        const actor = createActor(implementations.actors[src] as AnyActorLogic, { input });
        actor.subscribe({ complete: () => resolve(actor.getSnapshot().output), error: reject });
        actor.start();
      });
    expect(await settle('loadScoreReport', { id: 12 })).toMatchObject({ schedule_history_id: 12 });
    await settle('downloadDocument', { id: 12, document: 'report' });
    await settle('downloadDocument', { id: 12, document: 'certificate' });
    expect(saved).toEqual(['score-report-12.pdf', 'certificate-12.pdf']);
    expect(api.calls).toEqual(['scoreReport', 'resultDocument', 'resultDocument']);
    (implementations.actions.printPage as () => void)();
    expect(printed).toBe(1);
    // Without a file saver or a print dialog nothing breaks.
    const bare = resultsImplementations({ api });
    await new Promise((resolve, reject) => {
      const actor = createActor(bare.actors.downloadDocument as AnyActorLogic, { input: { id: 12, document: 'report' } });
      actor.subscribe({ complete: () => resolve(undefined), error: reject });
      actor.start();
    });
    expect(() => (bare.actions.printPage as () => void)()).not.toThrow();
  });
});

describe('results stand-ins', () => {
  it('say that the edge provides every call and the print dialog', async () => {
    const { actors, actions } = resultsMachine.implementations;
    for (const name of ['loadShortResult', 'loadScoreReport', 'downloadDocument'] as const) {
      const actor = createActor(actors[name] as AnyActorLogic, { input: { id: 7, document: 'report' } });
      const failed = new Promise<unknown>((resolve) => actor.subscribe({ error: resolve }));
      actor.start();
      expect(((await failed) as Error).message).toBe(`${name} is provided by the edge (results.actors.ts)`);
    }
    expect(() => (actions.printPage as () => void)()).toThrow('printPage is provided by the edge (results.actors.ts)');
  });
});

describe('results connect, the edges', () => {
  it('sells and opens nothing while the results do not run', () => {
    const api = connect(undefined, () => {});
    expect(api.shortResult).toMatchObject({ canBuy: false, canOpenReport: false });
    expect(api.purchasedResult).toMatchObject({ canBuy: false, canOpenReport: false, canDownloadCertificate: false, purchases: null });
  });

  it('tells a failure on the purchased result only when its own load failed, and tries it again', () => {
    const { actor } = open();
    fail(actor, 'loadShortResult', new ApiFailure('NETWORK_ERROR'));
    expect(connect(actor.getSnapshot(), () => {}).purchasedResult.error).toBeNull();
    const purchased = onShort(true, { result_sheet: false, certificate: false });
    purchased.actor.send({ type: 'resultItems.buyRequested' });
    purchased.actor.send({ type: 'payment.continued' });
    fail(purchased.actor, 'loadShortResult', new ApiFailure('NETWORK_ERROR'));
    const sent: unknown[] = [];
    connect(purchased.actor.getSnapshot(), (event) => sent.push(event)).purchasedResult.onRetry();
    expect(sent).toEqual([{ type: 'retry.requested' }]);
  });

  it('says no download failed while the report itself failed to load', () => {
    const { actor } = onShort(true, { result_sheet: true, certificate: true });
    actor.send({ type: 'report.openRequested' });
    fail(actor, 'loadScoreReport', new ApiFailure('NETWORK_ERROR'));
    expect(connect(actor.getSnapshot(), () => {}).scoreReport.download).toEqual({ report: 'idle', certificate: 'idle' });
  });

  it('runs the result payment as its child `payment`, with its real calls from the edge', async () => {
    const { actor } = open({ returning: { reference: 'GR-1', sessionId: null, redirectResult: null } });
    expect(actor.getSnapshot().children.payment).toBeDefined();
    const api = createFakeApi();
    api.menu = { ...api.menu, result: { ...api.menu.result, released: true } };
    const { actors } = resultsImplementations({ api });
    const payment = createActor(actors.payment, {
      input: { scheduleHistoryId: 7, purpose: 'result_fee', returnUrl: 'https://gradus.test/pay-exam-result?schedule_history_id=7' },
    }).start();
    await vi.waitFor(() => expect(payment.getSnapshot().matches('choosing')).toBe(true), { timeout: 10_000 });
    expect(api.calls).toEqual(['resultPaymentSetting']);
    const load = createActor(actors.loadShortResult, { input: { id: 7 } });
    const done = new Promise<unknown>((resolve, reject) => load.subscribe({ complete: () => resolve(load.getSnapshot().output), error: reject }));
    load.start();
    expect(await done).toMatchObject({ owned: { result_sheet: false, certificate: false } });
  });
});
