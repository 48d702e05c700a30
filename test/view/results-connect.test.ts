/**
 * results.connect.ts as a pure function: a snapshot of the results machine (driven with its own
 * events) in, exactly what short-result, purchased-result and score-report render out. What can
 * be bought (the sheet always, the certificate only for a pass), opened (with the sheet owned),
 * downloaded (the certificate owned and passed, also while it downloads) or tried again (not a
 * result that is not released or no longer viewable; on the score report only where trying again
 * may help), and every callback sends the event it names to the results actor.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { connect } from '../../machines/results/results.connect.ts';
import { resultsMachine } from '../../machines/results/results.machine.ts';
import type { OwnedItems, ResultsEvent } from '../../machines/results/results.types.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';
import { isPendingSnapshot, lazyMachine, type LazyModule } from '../../machines/shared/lazy-machine.ts';
import { never } from '../helpers/never.ts';
import { scoreReportFixture } from '../helpers/score-report-fixture.ts';

const serverTime = '2026-11-22T09:00:00.000Z';

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

/** The results of sitting 7, opened from the menu: the short result loading. */
function opened() {
  return createActor(
    resultsMachine.provide({
      actors: { payment: createMachine({}), loadShortResult: never(), loadScoreReport: never(), downloadDocument: never() } as never,
      actions: { printPage: () => {} },
    }),
    { input: { scheduleHistoryId: 7, appOrigin: 'https://gradus.test' } },
  ).start();
}

const answer = (actor: ReturnType<typeof opened>, type: string, output: unknown) => actor.send({ type, output } as never);
const refuse = (actor: ReturnType<typeof opened>, type: string, error: ApiFailure) => actor.send({ type, error } as never);

/** The short result shown, with what is owned. */
function onShortResult(passed: boolean, owned: OwnedItems) {
  const actor = opened();
  answer(actor, 'xstate.done.actor.loadShortResult', shortResult(passed, owned));
  return actor;
}

/** The purchased result shown (bought through pay-exam-result), with what is owned now. */
function onPurchasedResult(passed: boolean, owned: OwnedItems) {
  const actor = onShortResult(passed, { result_sheet: false, certificate: false });
  actor.send({ type: 'resultItems.buyRequested' });
  actor.send({ type: 'payment.continued' });
  answer(actor, 'xstate.done.actor.loadShortResult', shortResult(passed, owned));
  return actor;
}

/** The score report shown (the sheet and certificate owned, passed). */
function onScoreReport(report = scoreReportFixture()) {
  const actor = onShortResult(true, { result_sheet: true, certificate: true });
  actor.send({ type: 'report.openRequested' });
  answer(actor, 'xstate.done.actor.loadScoreReport', report);
  return actor;
}

/** A module that never arrives: the lazy machine stays pending. */
const notLoaded: LazyModule<unknown> = { load: () => new Promise(() => {}), current: () => undefined };

describe('results connect', () => {
  it('shows every screen loading and sends nothing while the results do not run', () => {
    const send = vi.fn();
    const api = connect(undefined, send);
    expect(api.screen).toBeNull();
    expect([api.shortResult.status, api.purchasedResult.status, api.scoreReport.status]).toEqual(['loading', 'loading', 'loading']);
    api.shortResult.onBuy();
    api.scoreReport.onBack();
    api.paymentOwner({ type: 'menu.requested' });
    expect(send).not.toHaveBeenCalled();
  });

  it('shows every screen loading and sends nothing while the results machine itself still loads (a pending snapshot)', () => {
    // The session invokes the results lazily (machines/session/session.lazy.ts): a module that has not arrived.
    const pending = createActor(lazyMachine(notLoaded, () => resultsMachine), { input: {} as never }).start().getSnapshot();
    expect(isPendingSnapshot(pending)).toBe(true);
    const send = vi.fn();
    const api = connect(pending as never, send);
    expect(api.screen).toBeNull();
    expect([api.shortResult.status, api.purchasedResult.status, api.scoreReport.status]).toEqual(['loading', 'loading', 'loading']);
    api.shortResult.onBuy();
    api.scoreReport.onBack();
    expect(send).not.toHaveBeenCalled();
  });

  it('offers to buy while nothing is owned, and no score report yet; each button sends its event', () => {
    const actor = onShortResult(true, { result_sheet: false, certificate: false });
    const sent: ResultsEvent[] = [];
    const api = connect(actor.getSnapshot(), (event) => sent.push(event));
    expect(api.screen).toBe('short-result');
    expect(api.shortResult).toMatchObject({ status: 'ready', canBuy: true, canOpenReport: false, error: null });
    expect(api.shortResult.result?.score).toBe(17);
    api.shortResult.onBuy();
    api.shortResult.onOpenReport();
    api.shortResult.onBack();
    api.shortResult.onRetry();
    expect(sent).toEqual([
      { type: 'resultItems.buyRequested' },
      { type: 'report.openRequested' },
      { type: 'menu.requested' },
      { type: 'retry.requested' },
    ]);
  });

  it('opens the score report once the sheet is owned, and still sells the certificate of a pass', () => {
    const api = connect(onShortResult(true, { result_sheet: true, certificate: false }).getSnapshot(), () => {});
    expect(api.shortResult).toMatchObject({ canOpenReport: true, canBuy: true });
  });

  it('sells nothing more when all that can be bought is owned (no certificate without a pass)', () => {
    expect(connect(onShortResult(true, { result_sheet: true, certificate: true }).getSnapshot(), () => {}).shortResult.canBuy).toBe(false);
    expect(connect(onShortResult(false, { result_sheet: true, certificate: false }).getSnapshot(), () => {}).shortResult.canBuy).toBe(false);
    expect(connect(onShortResult(false, { result_sheet: false, certificate: false }).getSnapshot(), () => {}).shortResult.canBuy).toBe(true);
  });

  it.each([
    ['RESULT_NOT_RELEASED', false],
    ['RESULT_VIEW_EXPIRED', false],
    ['TIMEOUT', true],
    ['PAYMENT_REQUIRED', true],
  ] as const)('after %s, offers Try again: %s', (code, canRetry) => {
    const actor = opened();
    refuse(actor, 'xstate.error.actor.loadShortResult', new ApiFailure(code, code === 'TIMEOUT' ? undefined : 403));
    const api = connect(actor.getSnapshot(), () => {});
    expect(api.shortResult).toMatchObject({ status: 'error', error: code, canRetry, canBuy: false, result: null });
  });

  it('downloads the certificate only owned and passed, and keeps the button while it downloads', () => {
    const passed = onPurchasedResult(true, { result_sheet: true, certificate: true });
    const sent: ResultsEvent[] = [];
    let api = connect(passed.getSnapshot(), (event) => sent.push(event));
    expect(api.screen).toBe('purchased-result');
    expect(api.purchasedResult).toMatchObject({
      status: 'ready',
      purchases: { result_sheet: true, certificate: true, passed: true },
      canOpenReport: true,
      canDownloadCertificate: true,
      canBuy: false,
      download: { status: 'idle', error: null },
    });
    api.purchasedResult.onDownloadCertificate();
    passed.send(sent.at(-1)!);
    api = connect(passed.getSnapshot(), () => {});
    expect(api.purchasedResult).toMatchObject({ canDownloadCertificate: true, download: { status: 'downloading', error: null } });
    refuse(passed, 'xstate.error.actor.downloadDocument', new ApiFailure('DOCUMENT_UNAVAILABLE', 503));
    expect(connect(passed.getSnapshot(), () => {}).purchasedResult.download).toEqual({ status: 'failed', error: 'DOCUMENT_UNAVAILABLE' });

    const notPassed = connect(onPurchasedResult(false, { result_sheet: true, certificate: false }).getSnapshot(), () => {});
    expect(notPassed.purchasedResult).toMatchObject({ canDownloadCertificate: false, canBuy: false, purchases: { passed: false } });
  });

  it('sends the purchased result\'s Buy to pay-exam-result and Back to the menu', () => {
    const sent: ResultsEvent[] = [];
    const api = connect(onPurchasedResult(true, { result_sheet: true, certificate: false }).getSnapshot(), (event) => sent.push(event));
    expect(api.purchasedResult.canBuy).toBe(true);
    api.purchasedResult.onBuy();
    api.purchasedResult.onBack();
    api.purchasedResult.onOpenReport();
    expect(sent).toEqual([{ type: 'resultItems.buyRequested' }, { type: 'menu.requested' }, { type: 'report.openRequested' }]);
  });

  it('tells a failed load of the purchased result, and only then', () => {
    const actor = onShortResult(true, { result_sheet: false, certificate: false });
    actor.send({ type: 'resultItems.buyRequested' });
    actor.send({ type: 'payment.continued' });
    expect(connect(actor.getSnapshot(), () => {}).purchasedResult).toMatchObject({ status: 'loading', error: null, purchases: { passed: true } });
    refuse(actor, 'xstate.error.actor.loadShortResult', new ApiFailure('NETWORK_ERROR'));
    expect(connect(actor.getSnapshot(), () => {}).purchasedResult).toMatchObject({ status: 'error', error: 'NETWORK_ERROR' });
  });

  it('shows the score report with its downloads, and both as failed after a failed one', () => {
    const actor = onScoreReport();
    const sent: ResultsEvent[] = [];
    let api = connect(actor.getSnapshot(), (event) => sent.push(event));
    expect(api.screen).toBe('score-report');
    expect(api.scoreReport).toMatchObject({ status: 'ready', variant: 'screen', error: null, download: { report: 'idle', certificate: 'idle' } });
    expect(api.scoreReport.report?.result.score).toBe(78);
    api.scoreReport.onPrint();
    api.scoreReport.onDownloadPdf();
    api.scoreReport.onDownloadCertificate();
    api.scoreReport.onBack();
    expect(sent).toEqual([
      { type: 'report.printRequested' },
      { type: 'report.pdfRequested' },
      { type: 'certificate.downloadRequested' },
      { type: 'menu.requested' },
    ]);
    actor.send({ type: 'report.pdfRequested' });
    expect(connect(actor.getSnapshot(), () => {}).scoreReport.download).toEqual({ report: 'working', certificate: 'idle' });
    refuse(actor, 'xstate.error.actor.downloadDocument', new ApiFailure('DOCUMENT_UNAVAILABLE', 503));
    api = connect(actor.getSnapshot(), () => {});
    expect(api.scoreReport.download).toEqual({ report: 'failed', certificate: 'failed' });
    actor.send({ type: 'certificate.downloadRequested' });
    expect(connect(actor.getSnapshot(), () => {}).scoreReport.download).toEqual({ report: 'idle', certificate: 'working' });
  });

  it('hands the screen a report whose school hides rankings as the server sent it: no rank, no score distribution', () => {
    const hidden = scoreReportFixture({ rank: { status: 'hidden' }, distribution: null });
    const api = connect(onScoreReport(hidden).getSnapshot(), () => {});
    expect(api.scoreReport.status).toBe('ready');
    expect(api.scoreReport.report).toMatchObject({ rank: { status: 'hidden' }, distribution: null });
    // A school that shows rankings: both reach the screen.
    const shown = connect(onScoreReport().getSnapshot(), () => {}).scoreReport.report;
    expect(shown?.rank.status).toBe('complete');
    expect(shown?.distribution).toHaveLength(6);
  });

  it.each([
    ['NETWORK_ERROR', true],
    ['GENERIC_ERROR', true],
    ['PAYMENT_REQUIRED', false],
    ['RESULT_NOT_RELEASED', false],
  ] as const)('offers Try again on the score report after %s: %s', (code, retryable) => {
    const actor = onShortResult(true, { result_sheet: true, certificate: false });
    actor.send({ type: 'report.openRequested' });
    refuse(actor, 'xstate.error.actor.loadScoreReport', new ApiFailure(code, code === 'NETWORK_ERROR' ? undefined : 403));
    const sent: ResultsEvent[] = [];
    const api = connect(actor.getSnapshot(), (event) => sent.push(event));
    expect(api.scoreReport).toMatchObject({ status: 'error', error: code, report: null });
    expect(api.scoreReport.onRetry !== undefined).toBe(retryable);
    api.scoreReport.onRetry?.();
    expect(sent).toEqual(retryable ? [{ type: 'retry.requested' }] : []);
  });

  it('sends pay-exam-result\'s Back and Continue to the results', () => {
    const actor = onShortResult(true, { result_sheet: false, certificate: false });
    actor.send({ type: 'resultItems.buyRequested' });
    const sent: ResultsEvent[] = [];
    const api = connect(actor.getSnapshot(), (event) => sent.push(event));
    expect(api.screen).toBe('pay-exam-result');
    api.paymentOwner({ type: 'menu.requested' });
    api.paymentOwner({ type: 'payment.continued' });
    expect(sent).toEqual([{ type: 'menu.requested' }, { type: 'payment.continued' }]);
  });
});
