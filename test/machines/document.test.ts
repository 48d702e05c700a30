/**
 * The document machine's pieces outside the model walk (test/model/document.model.test.ts): how
 * the print route's URL is read (seed section 2: `/score-report-embed/{id}?token=&locale=&document=`),
 * the real calls (the URL's token, the page's language), and the certificate refused for a result
 * that did not pass; the login slips' print route (`/login-slips/{code}?token=&venue=`) and its call.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, toPromise, type AnyActorLogic } from 'xstate';
import type { ScoreReport } from '../../contract/results.ts';
import { documentImplementations } from '../../machines/document/document.actors.ts';
import { documentMachine } from '../../machines/document/document.machine.ts';
import { DOCUMENT_PATH_PATTERN, documentRequestOf } from '../../machines/document/document.rules.ts';
import { selectDocumentView } from '../../machines/document/document.selectors.ts';
import type { DocumentDeps } from '../../machines/document/document.types.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';
import { never } from '../helpers/never.ts';
import { loginSlipsFixture } from '../helpers/login-slips-fixture.ts';
import { scoreReportFixture } from '../helpers/score-report-fixture.ts';

const TOKEN = 'a'.repeat(43);

describe('documentRequestOf: the print route of seed section 2', () => {
  it('reads the sitting, the token, the language and the document', () => {
    expect(documentRequestOf('/score-report-embed/4217', { token: TOKEN, locale: 'ja', document: 'certificate' })).toEqual({
      scheduleHistoryId: 4217,
      token: TOKEN,
      document: 'certificate',
      locale: 'ja',
    });
    expect(documentRequestOf('/score-report-embed/4217/', { locale: 'ar-nu-arab' })).toEqual({
      scheduleHistoryId: 4217,
      token: null,
      document: 'report',
      locale: 'ar-nu-arab',
    });
    expect(documentRequestOf('/score-report-embed/1')).toEqual({ scheduleHistoryId: 1, token: null, document: 'report', locale: null });
    expect(documentRequestOf('/score-report-embed/9999999999')).toMatchObject({ scheduleHistoryId: 9_999_999_999 });
  });

  it('is not the print route for another path or an id that is no id', () => {
    for (const path of [
      '/score-report/4217',
      '/score-report-embed/',
      '/score-report-embed/0',
      '/score-report-embed/0123',
      '/score-report-embed/12345678901',
      '/score-report-embed/12a',
      '/x/score-report-embed/12',
      '/score-report-embed/12/x',
    ]) {
      expect(documentRequestOf(path), path).toBeNull();
      expect(DOCUMENT_PATH_PATTERN.test(path), path).toBe(false);
    }
  });

  it('refuses a malformed token, an unknown language or document', () => {
    const searches: Record<string, string>[] = [
      { token: 'short' },
      { token: 'x'.repeat(201) },
      { token: `${'a'.repeat(20)}.${'a'.repeat(20)}` },
      { locale: 'xx' },
      { document: 'receipt' },
    ];
    for (const search of searches) {
      expect(documentRequestOf('/score-report-embed/12', search), JSON.stringify(search)).toBeNull();
    }
    expect(documentRequestOf('/score-report-embed/12', { token: 'a'.repeat(10) })?.token).toBe('a'.repeat(10));
    expect(documentRequestOf('/score-report-embed/12', { token: 'A-_9'.repeat(50) })?.token).toBe('A-_9'.repeat(50));
  });
});

describe('the document machine with its real calls', () => {
  const report = scoreReportFixture();

  function run(deps: DocumentDeps, input: { token: string | null; locale: string | null; document?: 'report' | 'certificate' }) {
    const actor = createActor(documentMachine.provide(documentImplementations(deps)), {
      input: { scheduleHistoryId: 4217, document: 'report', ...input },
    }).start();
    return actor;
  }

  const settled = (actor: ReturnType<typeof run>) =>
    new Promise<ReturnType<ReturnType<typeof run>['getSnapshot']>>((resolve) => {
      const check = () => {
        const snapshot = actor.getSnapshot();
        if (snapshot.matches('ready') || snapshot.matches('failed')) resolve(snapshot);
      };
      actor.subscribe(check);
      check();
    });

  it('applies the language of the URL, then loads the report with the URL token', async () => {
    const calls: string[] = [];
    const deps: DocumentDeps = {
      api: { scoreReport: vi.fn(async (id: number, token?: string) => (calls.push(`report ${id} ${token}`), report)) },
      language: { change: vi.fn(async (language: string) => void calls.push(`language ${language}`)) },
    };
    const snapshot = await settled(run(deps, { token: TOKEN, locale: 'ja' }));
    expect(calls).toEqual(['language ja', `report 4217 ${TOKEN}`]);
    expect(snapshot.context.report).toBe(report);
  });

  it('without a token in the URL the stored one is used (no token argument); without a language none is changed', async () => {
    const scoreReport = vi.fn(async (_id: number, _token?: string) => report);
    const change = vi.fn(async () => {});
    await settled(run({ api: { scoreReport }, language: { change } }, { token: null, locale: null }));
    expect(scoreReport).toHaveBeenCalledWith(4217, undefined);
    expect(change).not.toHaveBeenCalled();
  });

  it('a language the page cannot load leaves the current one, and the report still loads', async () => {
    const snapshot = await settled(
      run(
        { api: { scoreReport: async () => report }, language: { change: async () => Promise.reject(new Error('no catalog')) } },
        { token: null, locale: 'ja' },
      ),
    );
    expect(snapshot.value).toBe('ready');
  });

  it('a page without a language switch still loads the report', async () => {
    const snapshot = await settled(run({ api: { scoreReport: async () => report } }, { token: null, locale: 'ja' }));
    expect(snapshot.value).toBe('ready');
  });

  it('a client that cannot load score reports fails with the generic error, and says why', async () => {
    const rejection = await toPromise(
      createActor(documentImplementations({ api: {} }).actors.loadScoreReport, { input: { scheduleHistoryId: 1, token: null } }).start(),
    ).catch((error: unknown) => error);
    expect(rejection).toBeInstanceOf(ApiFailure);
    expect(rejection).toMatchObject({ code: 'GENERIC_ERROR', message: 'This client cannot load score reports.' });
    const snapshot = await settled(run({ api: {} }, { token: null, locale: null }));
    expect(snapshot.context.error).toBe('GENERIC_ERROR');
  });
});

describe('the certificate of a result that did not pass', () => {
  it('is refused with NOT_PASSED; the report of the same result is shown', () => {
    const failed: ScoreReport = { ...scoreReportFixture(), result: { ...scoreReportFixture().result, passed: false } };
    const snapshotOf = (document: 'report' | 'certificate') => {
      const actor = createActor(documentMachine.provide({ actors: { loadScoreReport: never() } }), {
        input: { scheduleHistoryId: 1, token: null, document, locale: null },
      }).start();
      actor.send({ type: 'xstate.done.actor.loadScoreReport', output: failed } as never);
      return actor.getSnapshot();
    };
    expect(selectDocumentView(snapshotOf('certificate'))).toEqual({ status: 'error', document: 'certificate', report: null, slips: null, error: 'NOT_PASSED' });
    expect(selectDocumentView(snapshotOf('report'))).toEqual({ status: 'ready', document: 'report', report: failed, slips: null, error: null });
    const passed = scoreReportFixture();
    expect(passed.result.passed).toBe(true);
  });
});

describe('what the kiosk reads of the document machine', () => {
  const start = (locale: string | null) =>
    createActor(documentMachine.provide({ actors: { applyLocale: never(), loadScoreReport: never() } }), {
      input: { scheduleHistoryId: 1, token: null, document: 'report', locale },
    }).start();
  const screenOf = (snapshot: { getMeta(): Record<string, { screen?: string } | undefined> }) =>
    [...new Set(Object.values(snapshot.getMeta()).map((meta) => meta?.screen))];

  it('every state is the embed screen; loading is busy, the rest are not', () => {
    const actor = start('ja');
    expect(actor.getSnapshot().value).toEqual({ loading: 'locale' });
    expect(screenOf(actor.getSnapshot())).toEqual(['score-report-embed']);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    actor.send({ type: 'xstate.done.actor.applyLocale', output: undefined } as never);
    expect(actor.getSnapshot().value).toEqual({ loading: 'report' });
    actor.send({ type: 'xstate.error.actor.loadScoreReport', error: new ApiFailure('NETWORK_ERROR') } as never);
    expect(actor.getSnapshot().value).toBe('failed');
    expect(screenOf(actor.getSnapshot())).toEqual(['score-report-embed']);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    actor.send({ type: 'retry.requested' });
    expect(actor.getSnapshot().value).toEqual({ loading: 'report' });
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.send({ type: 'xstate.done.actor.loadScoreReport', output: scoreReportFixture() } as never);
    expect(actor.getSnapshot().value).toBe('ready');
    expect(screenOf(actor.getSnapshot())).toEqual(['score-report-embed']);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
  });

  it('a language that fails still goes on to the report', () => {
    const actor = start('ja');
    actor.send({ type: 'xstate.error.actor.applyLocale', error: new Error('no catalog') } as never);
    expect(actor.getSnapshot().value).toEqual({ loading: 'report' });
  });

  it('unprovided, each call fails loudly, naming who provides it', async () => {
    for (const name of ['applyLocale', 'loadScoreReport'] as const) {
      const logic = documentMachine.implementations.actors[name] as AnyActorLogic;
      const rejection = await toPromise(createActor(logic, { input: {} as never }).start()).catch((error: Error) => error.message);
      expect(rejection).toBe(`${name} is provided by the edge`);
    }
  });
});

describe('the login slips print route', () => {
  it('reads the test period, the classroom and the slips token; without a token or with a bad code it is no print route', () => {
    expect(documentRequestOf('/login-slips/SPRING-2026', { token: TOKEN, venue: '12' })).toEqual({
      document: 'slips',
      scheduleCode: 'SPRING-2026',
      venueId: 12,
      token: TOKEN,
      locale: null,
    });
    expect(documentRequestOf('/login-slips/SPRING-2026/', { token: TOKEN })).toMatchObject({ venueId: null });
    for (const [path, search] of [
      ['/login-slips/SPRING-2026', {}],
      ['/login-slips/SPRING-2026', { token: 'short' }],
      ['/login-slips/SPRING-2026', { token: TOKEN, venue: '0' }],
      ['/login-slips/', { token: TOKEN }],
      ['/login-slips/a%20b', { token: TOKEN }],
      ['/login-slips/a/b', { token: TOKEN }],
    ] as const) {
      expect(documentRequestOf(path, search), `${path} ${JSON.stringify(search)}`).toBeNull();
    }
  });

  it('loads the slips with the test period, the classroom and the URL token, and never changes the page language', async () => {
    const slips = loginSlipsFixture();
    const change = vi.fn(async () => undefined);
    const loginSlips = vi.fn(async () => slips);
    const actor = createActor(documentMachine.provide(documentImplementations({ api: { loginSlips }, language: { change } })), {
      input: { document: 'slips', scheduleCode: 'SPRING-2026', venueId: 12, token: TOKEN, locale: null },
    }).start();
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ slips: 'ready' })).toBe(true));
    expect(loginSlips).toHaveBeenCalledWith('SPRING-2026', 12, TOKEN);
    expect(change).not.toHaveBeenCalled();
    expect(selectDocumentView(actor.getSnapshot())).toEqual({ status: 'ready', document: 'slips', report: null, slips, error: null });
  });

  it('a client without the slips call fails the slips with GENERIC_ERROR', async () => {
    const actor = createActor(documentMachine.provide(documentImplementations({ api: {} })), {
      input: { document: 'slips', scheduleCode: 'SPRING-2026', venueId: null, token: TOKEN, locale: null },
    }).start();
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ slips: 'failed' })).toBe(true));
    expect(actor.getSnapshot().context.error).toBe('GENERIC_ERROR');
  });
});
