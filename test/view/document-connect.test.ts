/**
 * document.connect.ts as a pure function: a snapshot of the document machine (its calls answered
 * by hand) in, exactly what the print route renders out. The certificate shows once it is ready
 * (and only for a passed result); the report waits for KaTeX only when it shows a formula; a
 * failure says why, and Retry (offered where trying again may help) sends `retry.requested` to
 * the document itself. The login slips are ready only once their languages' catalogs are loaded
 * for them; a failed catalog load is an error with no Retry.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { connect, connectLoginSlips } from '../../machines/document/document.connect.ts';
import { documentMachine } from '../../machines/document/document.machine.ts';
import type { ResultDocumentInput } from '../../machines/document/document.types.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';
import { loginSlipsFixture } from '../helpers/login-slips-fixture.ts';
import { never } from '../helpers/never.ts';
import { scoreReportFixture } from '../helpers/score-report-fixture.ts';

function start(input: Partial<ResultDocumentInput> = {}) {
  const machine = documentMachine.provide({ actors: { applyLocale: never(), loadScoreReport: never() } });
  const actor = createActor(machine, {
    input: { scheduleHistoryId: 4217, token: null, document: 'report', locale: null, ...input },
  }).start();
  return { actor, api: () => connect(actor.getSnapshot(), actor.send) };
}

const loaded = (actor: { send(event: never): void }, report: unknown) =>
  actor.send({ type: 'xstate.done.actor.loadScoreReport', output: report } as never);

describe('document connect', () => {
  it('shows the report loading, then the report, ready for print without KaTeX when it shows no formula', () => {
    const { actor, api } = start();
    expect(api()).toMatchObject({ status: 'loading', page: 'report', report: null, error: null, needsMath: false });
    const report = { ...scoreReportFixture(), wrong_answer_example: null };
    loaded(actor, report);
    expect(api()).toEqual({
      status: 'ready',
      page: 'report',
      report,
      slips: null,
      error: null,
      needsMath: false,
      canRetry: false,
      retry: expect.any(Function),
      scoreReport: { variant: 'print', status: 'ready', report, error: null },
      certificate: null,
    });
  });

  it('waits for KaTeX when the report shows a formula, never for the certificate', () => {
    const withMath = scoreReportFixture();
    expect(withMath.wrong_answer_example?.math).toBe(true);
    const report = start();
    loaded(report.actor, withMath);
    expect(report.api().needsMath).toBe(true);
    const certificate = start({ document: 'certificate' });
    loaded(certificate.actor, withMath);
    expect(certificate.api()).toMatchObject({ page: 'certificate', needsMath: false });
  });

  it('shows the certificate once ready, and the report page while it loads', () => {
    const { actor, api } = start({ document: 'certificate' });
    expect(api()).toMatchObject({ status: 'loading', page: 'report' });
    expect(api().certificate).toBeNull();
    const report = scoreReportFixture();
    loaded(actor, report);
    expect(api()).toMatchObject({ status: 'ready', page: 'certificate' });
    expect(api().certificate).toEqual({ report });
  });

  it('issues no certificate for a result that did not pass', () => {
    const { actor, api } = start({ document: 'certificate' });
    const failedResult = scoreReportFixture();
    loaded(actor, { ...failedResult, result: { ...failedResult.result, passed: false } });
    expect(api()).toMatchObject({ status: 'error', page: 'report', report: null, error: 'NOT_PASSED' });
  });

  it('says why loading failed; offers Retry only where trying again may help, and it goes to the document', () => {
    const refused = start();
    refused.actor.send({ type: 'xstate.error.actor.loadScoreReport', error: new ApiFailure('RESULT_NOT_RELEASED', 403) } as never);
    expect(refused.api()).toMatchObject({ status: 'error', page: 'report', error: 'RESULT_NOT_RELEASED', canRetry: false });
    const { actor, api } = start();
    actor.send({ type: 'xstate.error.actor.loadScoreReport', error: new ApiFailure('NETWORK_ERROR') } as never);
    expect(api()).toMatchObject({ status: 'error', page: 'report', error: 'NETWORK_ERROR', canRetry: true });
    // The score report's print part offers Retry only where trying again may help, and it goes to the document.
    expect(refused.api().scoreReport).toEqual({ variant: 'print', status: 'error', report: null, error: 'RESULT_NOT_RELEASED' });
    const send = vi.fn();
    connect(actor.getSnapshot(), send).retry();
    expect(send).toHaveBeenCalledWith({ type: 'retry.requested' });
    connect(actor.getSnapshot(), send).scoreReport.onRetry?.();
    expect(send).toHaveBeenNthCalledWith(2, { type: 'retry.requested' });
    api().retry();
    expect(api().status).toBe('loading');
  });

  it('shows the login slips once they and their languages\' catalogs are loaded; a failed catalog load is an error', () => {
    const machine = documentMachine.provide({ actors: { loadLoginSlips: never() } });
    const actor = createActor(machine, { input: { document: 'slips', scheduleCode: 'TP-2026', venueId: 3, token: 'slips-token', locale: null } }).start();
    const api = () => connect(actor.getSnapshot(), actor.send);
    expect(connectLoginSlips(api(), null)).toEqual({ status: 'loading', slips: null, catalogs: null, error: null });
    const slips = loginSlipsFixture();
    actor.send({ type: 'xstate.done.actor.loadLoginSlips', output: slips } as never);
    // The slips are in, their catalogs not yet; catalogs loaded for other slips are not theirs.
    expect(connectLoginSlips(api(), null)).toEqual({ status: 'loading', slips, catalogs: null, error: null });
    const catalogs = new Map([['en', 'English catalog']]);
    expect(connectLoginSlips(api(), { for: loginSlipsFixture(), catalogs })).toMatchObject({ status: 'loading', catalogs: null });
    expect(connectLoginSlips(api(), { for: slips, catalogs })).toEqual({ status: 'ready', slips, catalogs, error: null });
    expect(connectLoginSlips(api(), { for: slips, failed: true })).toEqual({ status: 'error', slips, catalogs: null, error: 'GENERIC_ERROR' });
  });

  it('says why the login slips failed, with Retry where it may help', () => {
    const machine = documentMachine.provide({ actors: { loadLoginSlips: never() } });
    const actor = createActor(machine, { input: { document: 'slips', scheduleCode: 'TP-2026', venueId: null, token: 'slips-token', locale: null } }).start();
    actor.send({ type: 'xstate.error.actor.loadLoginSlips', error: new ApiFailure('NETWORK_ERROR') } as never);
    const failed = connectLoginSlips(connect(actor.getSnapshot(), actor.send), null);
    expect(failed).toMatchObject({ status: 'error', slips: null, catalogs: null, error: 'NETWORK_ERROR' });
    failed.onRetry?.();
    expect(connectLoginSlips(connect(actor.getSnapshot(), actor.send), null).status).toBe('loading');
  });
});
