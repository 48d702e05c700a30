/**
 * The real side effects of the results machine, from the edge's ports (src/api/client.ts
 * validates every response against the contract): the results calls, the documents saved as
 * files, the print dialog, and the result payment with its own port.
 * `resultsMachine.provide(resultsImplementations(deps))`.
 */
import { fromPromise } from 'xstate';
import { PaymentStatus } from '../../contract/payments.ts';
import type { ScoreReport } from '../../contract/results.ts';
import { paymentActors, paymentPortOf } from '../payment/payment.actors.ts';
import { paymentMachine } from '../payment/payment.machine.ts';
import type { PaymentPort } from '../payment/payment.types.ts';
import { ApiFailure, type ApiPort } from '../shared/ports.ts';
import type { DocumentKind, ShortResultWithOwned } from './results.types.ts';

/** GET /get-short-result and, from GET /get-setting-payment-for-result, which result items are owned. */
export async function loadShortResult(api: ApiPort & Partial<PaymentPort>, id: number): Promise<ShortResultWithOwned> {
  if (!api.shortResult || !api.resultPaymentSetting) throw new ApiFailure('GENERIC_ERROR');
  const result = await api.shortResult(id);
  const setting = await api.resultPaymentSetting(id);
  const paid = (kind: 'result_sheet' | 'certificate') => setting.items.some((item) => item.kind === kind && item.status === PaymentStatus.PAID);
  return { result, owned: { result_sheet: paid('result_sheet'), certificate: paid('certificate') } };
}

export function resultsImplementations(deps: {
  api: ApiPort & Partial<PaymentPort>;
  /** Saves a downloaded document (the browser: a file download). */
  saveFile?: (file: Blob, name: string) => void;
  /** Opens the print dialog (the browser: window.print). */
  print?: () => void;
}) {
  const { api } = deps;
  return {
    actors: {
      payment: paymentMachine.provide({ actors: paymentActors(paymentPortOf(api)) }),
      loadShortResult: fromPromise<ShortResultWithOwned, { id: number }>(({ input }) => loadShortResult(api, input.id)),
      loadScoreReport: fromPromise<ScoreReport, { id: number }>(({ input }) =>
        api.scoreReport ? api.scoreReport(input.id) : Promise.reject(new ApiFailure('GENERIC_ERROR')),
      ),
      downloadDocument: fromPromise<void, { id: number; document: DocumentKind }>(async ({ input }) => {
        if (!api.resultDocument) throw new ApiFailure('GENERIC_ERROR');
        const file = await api.resultDocument(input.id, input.document);
        deps.saveFile?.(file, input.document === 'report' ? `score-report-${input.id}.pdf` : `certificate-${input.id}.pdf`);
      }),
    },
    actions: {
      printPage: () => deps.print?.(),
    },
  };
}
