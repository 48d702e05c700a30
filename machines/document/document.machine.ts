/**
 * The document machine: one score report or certificate opened for printing or as a PDF (the
 * `score-report-embed/{id}` route, seed section 2). The PDF renderer and the Android app open it
 * with a bearer token and a language in the URL.
 *
 * Top states: loading (locale -> report) -> ready | failed; failed -> loading on retry.
 * Invariants:
 * - the token lives in this machine's memory only: nothing is written to storage;
 * - `ready` holds a report, `failed` an error code, never both;
 * - the language is applied before the report is shown, so the page is never half in another language
 *   (a language that cannot be loaded leaves the current one, and the report still loads).
 */
import { assign, fromPromise, setup } from 'xstate';
import type { ScoreReport } from '../../contract/results.ts';
import { failureCodeOf } from '../shared/ports.ts';
import type { DocumentContext, DocumentEvent, DocumentInput } from './document.types.ts';

export const documentMachine = setup({
  types: {
    context: {} as DocumentContext,
    events: {} as DocumentEvent,
    input: {} as DocumentInput,
  },
  actors: {
    applyLocale: fromPromise<void, { locale: string | null }>(async () => {
      throw new Error('applyLocale is provided by the edge');
    }),
    loadScoreReport: fromPromise<ScoreReport, { scheduleHistoryId: number; token: string | null }>(async () => {
      throw new Error('loadScoreReport is provided by the edge');
    }),
  },
  guards: {
    hasLocale: ({ context }) => context.locale !== null,
  },
}).createMachine({
  id: 'document',
  context: ({ input }) => ({ ...input, report: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      meta: { screen: 'score-report-embed' },
      tags: ['busy'],
      initial: 'choosing',
      states: {
        choosing: {
          always: [{ guard: 'hasLocale', target: 'locale' }, { target: 'report' }],
        },
        locale: {
          invoke: {
            id: 'applyLocale',
            src: 'applyLocale',
            input: ({ context }) => ({ locale: context.locale }),
            onDone: { target: 'report' },
            // The current language stays; the document is still worth showing.
            onError: { target: 'report' },
          },
        },
        report: {
          invoke: {
            id: 'loadScoreReport',
            src: 'loadScoreReport',
            input: ({ context }) => ({ scheduleHistoryId: context.scheduleHistoryId, token: context.token }),
            onDone: {
              target: '#document.ready',
              actions: assign({ report: ({ event }) => event.output, error: null }),
            },
            onError: {
              target: '#document.failed',
              actions: assign({ report: null, error: ({ event }) => failureCodeOf(event.error) }),
            },
          },
        },
      },
    },
    ready: { meta: { screen: 'score-report-embed' } },
    failed: {
      meta: { screen: 'score-report-embed' },
      on: { 'retry.requested': { target: 'loading.report', actions: assign({ error: null }) } },
    },
  },
});
