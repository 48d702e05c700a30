/**
 * document.connect.ts as a pure function: a snapshot of the document machine (its calls answered
 * by hand) in, exactly what the print route renders out. The certificate shows once it is ready
 * (and only for a passed result); the report waits for KaTeX only when it shows a formula; a
 * failure says why, and Retry (offered where trying again may help) sends `retry.requested` to
 * the document itself.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { connect } from '../../machines/document/document.connect.ts';
import { documentMachine } from '../../machines/document/document.machine.ts';
import type { ResultDocumentInput } from '../../machines/document/document.types.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';
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
    expect(api()).toEqual({ status: 'ready', page: 'report', report, slips: null, error: null, needsMath: false, canRetry: false, retry: expect.any(Function) });
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
    loaded(actor, scoreReportFixture());
    expect(api()).toMatchObject({ status: 'ready', page: 'certificate' });
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
    const send = vi.fn();
    connect(actor.getSnapshot(), send).retry();
    expect(send).toHaveBeenCalledWith({ type: 'retry.requested' });
    api().retry();
    expect(api().status).toBe('loading');
  });
});
