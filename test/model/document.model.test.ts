/**
 * The document machine (the score-report-embed route) walked transition by transition: with and
 * without a language in the URL, the language applied or not, the report loaded or refused, and
 * a retry after a failure; the login slips (the login-slips route) loaded, refused and retried.
 */
import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { documentMachine } from '../../machines/document/document.machine.ts';
import { selectDocumentView } from '../../machines/document/document.selectors.ts';
import type { DocumentContext, DocumentInput } from '../../machines/document/document.types.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';
import { never } from '../helpers/never.ts';
import { loginSlipsFixture } from '../helpers/login-slips-fixture.ts';
import { scoreReportFixture } from '../helpers/score-report-fixture.ts';
import { describeModel } from './suite.ts';

const machine = documentMachine.provide({ actors: { applyLocale: never(), loadScoreReport: never(), loadLoginSlips: never() } });
const report = scoreReportFixture();
const slips = loginSlipsFixture();

const inputs: DocumentInput[] = [
  { scheduleHistoryId: 4217, token: 'a'.repeat(43), document: 'report', locale: 'ja' },
  { scheduleHistoryId: 4217, token: null, document: 'certificate', locale: null },
  { document: 'slips', scheduleCode: 'TP-2026', venueId: 3, token: 'b'.repeat(43), locale: null },
];

describeModel({
  name: 'document',
  machine,
  inputs,
  samples: {
    'xstate.done.actor.applyLocale': [{ type: 'xstate.done.actor.applyLocale', output: undefined }],
    'xstate.error.actor.applyLocale': [{ type: 'xstate.error.actor.applyLocale', error: new Error('catalog not loaded') }],
    'xstate.done.actor.loadScoreReport': [{ type: 'xstate.done.actor.loadScoreReport', output: report }],
    'xstate.error.actor.loadScoreReport': [
      { type: 'xstate.error.actor.loadScoreReport', error: new ApiFailure('RESULT_NOT_RELEASED', 403) },
      { type: 'xstate.error.actor.loadScoreReport', error: new ApiFailure('NETWORK_ERROR') },
    ],
    'xstate.done.actor.loadLoginSlips': [{ type: 'xstate.done.actor.loadLoginSlips', output: slips }],
    'xstate.error.actor.loadLoginSlips': [
      { type: 'xstate.error.actor.loadLoginSlips', error: new ApiFailure('NOT_LOGGED_IN', 401) },
      { type: 'xstate.error.actor.loadLoginSlips', error: new ApiFailure('NETWORK_ERROR') },
    ],
  },
  contextKey: (context) => {
    const c = context as unknown as DocumentContext;
    return { error: c.error, loaded: c.report !== null || c.slips !== null };
  },
  invariants: (snapshot: AnyMachineSnapshot) => {
    const context = snapshot.context as DocumentContext;
    const view = selectDocumentView(snapshot as never);
    // ready holds a report, failed an error code, never both.
    if (snapshot.matches('ready')) {
      expect(context.report).not.toBeNull();
      expect(context.error).toBeNull();
      expect(view.status).toBe('ready');
    }
    if (snapshot.matches('failed')) {
      expect(context.report).toBeNull();
      expect(context.error).not.toBeNull();
      expect(view.status).toBe('error');
    }
    if (snapshot.matches('loading')) expect(view.status).toBe('loading');
    // The slips: ready holds them, failed an error code, never both; the page's language is never changed.
    if (snapshot.matches({ slips: 'ready' })) {
      expect(context.slips).not.toBeNull();
      expect(context.error).toBeNull();
      expect(view.status).toBe('ready');
    }
    if (snapshot.matches({ slips: 'failed' })) {
      expect(context.slips).toBeNull();
      expect(context.error).not.toBeNull();
      expect(view.status).toBe('error');
    }
    if (snapshot.matches({ slips: 'loading' })) expect(view.status).toBe('loading');
    if (context.document === 'slips') {
      expect(snapshot.matches('slips')).toBe(true);
      expect(context.report).toBeNull();
    } else {
      expect(snapshot.matches('slips')).toBe(false);
      expect(context.slips).toBeNull();
    }
    // Without a language in the URL, the language actor never runs.
    if (context.locale === null) expect(snapshot.matches({ loading: 'locale' })).toBe(false);
    // The document asked for is the one shown.
    expect(view.document).toBe(context.document);
  },
});
