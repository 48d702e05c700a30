/**
 * The document machine: one score report or certificate opened for printing or as a PDF (the
 * `score-report-embed/{id}` route, seed section 2). The PDF renderer and the Android app open it
 * with a bearer token and a language in the URL. Or a test period's login slips (the
 * `login-slips/{code}` route), which the PDF renderer opens with the print's slips token.
 *
 * Top states: loading (locale -> report) -> ready | failed; failed -> loading on retry;
 * slips (loading -> ready | failed; failed -> loading on retry).
 * Invariants:
 * - the token lives in this machine's memory only: nothing is written to storage;
 * - `ready` holds a report, `failed` an error code, never both;
 * - the language is applied before the report is shown, so the page is never half in another language
 *   (a language that cannot be loaded leaves the current one, and the report still loads);
 * - the slips never change the page's language: each slip is written in its own pupil's.
 */
import { assign, setup } from 'xstate';
import { unprovided } from '../shared/unprovided.ts';
import type { LoginSlipsResponse } from '../../contract/exports.ts';
import type { ScoreReport } from '../../contract/results.ts';
import { failureCodeOf } from '../shared/ports.ts';
import type { DocumentContext, DocumentEvent, DocumentInput } from './document.types.ts';

/** The sitting a result document is about (the slips have none: never asked for them). */
function sittingOf(context: DocumentContext): { scheduleHistoryId: number; token: string | null } {
  if (context.scheduleHistoryId === null) throw new Error('The login slips are not a sitting’s document');
  return { scheduleHistoryId: context.scheduleHistoryId, token: context.token };
}

/** The test period and classroom of the slips (a result document has none: never asked for them). */
function slipsOf(context: DocumentContext): { scheduleCode: string; venueId: number | null; token: string } {
  if (context.scheduleCode === null || context.token === null) throw new Error('A result document has no login slips');
  return { scheduleCode: context.scheduleCode, venueId: context.venueId, token: context.token };
}

/** The context of a request: what the other kind of request has is null. */
function contextOf(input: DocumentInput): DocumentContext {
  const loaded = { report: null, slips: null, error: null };
  if (input.document === 'slips') {
    return { document: 'slips', scheduleHistoryId: null, scheduleCode: input.scheduleCode, venueId: input.venueId, token: input.token, locale: null, ...loaded };
  }
  return { document: input.document, scheduleHistoryId: input.scheduleHistoryId, scheduleCode: null, venueId: null, token: input.token, locale: input.locale, ...loaded };
}

export const documentMachine = setup({
  types: {
    context: {} as DocumentContext,
    events: {} as DocumentEvent,
    input: {} as DocumentInput,
  },
  actors: {
    applyLocale: unprovided<void, { locale: string | null }>('applyLocale'),
    loadScoreReport: unprovided<ScoreReport, { scheduleHistoryId: number; token: string | null }>('loadScoreReport'),
    loadLoginSlips: unprovided<LoginSlipsResponse, { scheduleCode: string; venueId: number | null; token: string }>('loadLoginSlips'),
  },
  guards: {
    hasLocale: ({ context }) => context.locale !== null,
    isLoginSlips: ({ context }) => context.document === 'slips',
  },
}).createMachine({
  id: 'document',
  context: ({ input }) => contextOf(input),
  initial: 'loading',
  states: {
    loading: {
      meta: { screen: 'score-report-embed' },
      tags: ['busy'],
      initial: 'choosing',
      states: {
        choosing: {
          always: [{ guard: 'isLoginSlips', target: '#document.slips' }, { guard: 'hasLocale', target: 'locale' }, { target: 'report' }],
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
            input: ({ context }) => sittingOf(context),
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
    // A test period's login slips, each in its pupil's language (the page's stays as it is).
    slips: {
      meta: { screen: 'login-slips' },
      initial: 'loading',
      states: {
        loading: {
          tags: ['busy'],
          invoke: {
            id: 'loadLoginSlips',
            src: 'loadLoginSlips',
            input: ({ context }) => slipsOf(context),
            onDone: { target: 'ready', actions: assign({ slips: ({ event }) => event.output, error: null }) },
            onError: { target: 'failed', actions: assign({ slips: null, error: ({ event }) => failureCodeOf(event.error) }) },
          },
        },
        ready: {},
        failed: {
          on: { 'retry.requested': { target: 'loading', actions: assign({ error: null }) } },
        },
      },
    },
  },
});
