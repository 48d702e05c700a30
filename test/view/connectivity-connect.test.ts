/**
 * The terminal check's logic without a browser: the judgements (connectivity.rules.ts), the real
 * check actors over a stand-in port (connectivity.actors.ts: each times its check, a missing
 * answer is a verdict, a time-out stops the work), and connect (connectivity.connect.ts) as a pure
 * function: the rows, the summary a teacher reads, and the events its callbacks send.
 */
import { describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor, waitFor } from 'xstate';
import { connectivityImplementations } from '../../machines/connectivity/connectivity.actors.ts';
import { connect } from '../../machines/connectivity/connectivity.connect.ts';
import { connectivityMachine } from '../../machines/connectivity/connectivity.machine.ts';
import {
  CHECK_TIMEOUT_MS,
  CLOCK_FAIL_MS,
  STORAGE_FAIL_BYTES,
  STORAGE_WARN_BYTES,
  judgeAnswer,
  judgeClock,
  judgeFonts,
  judgeOfflineShell,
  judgeStorage,
} from '../../machines/connectivity/connectivity.rules.ts';
import { checkIds, type CheckId, type CheckResult, type ConnectivityEvent } from '../../machines/connectivity/connectivity.types.ts';
import { FAKE_SERVER_TIME, createFakeConnectivity, fakeUrls, healthyAnswer, type FakeConnectivity } from '../helpers/fake-connectivity.ts';

function start(port: FakeConnectivity, clock?: SimulatedClock) {
  return createActor(connectivityMachine.provide(connectivityImplementations(port)), clock ? { clock } : {}).start();
}

async function finished(port: FakeConnectivity) {
  const actor = start(port);
  await waitFor(actor, (s) => s.matches('done'));
  return actor;
}

const verdicts = (results: Record<CheckId, CheckResult | null>) => Object.fromEntries(checkIds.map((id) => [id, results[id]?.verdict ?? null]));

describe('the judgements', () => {
  it('a host answers: the status first, then that it is the right file, then the time', () => {
    const health = healthyAnswer(fakeUrls.apiHealth);
    expect(judgeAnswer('api', health, 40, fakeUrls.apiHealth)).toEqual({ verdict: 'pass', reason: 'ok', ms: 40, detail: { url: fakeUrls.apiHealth } });
    expect(judgeAnswer('api', health, 2_500, fakeUrls.apiHealth)).toMatchObject({ verdict: 'warning', reason: 'slow' });
    expect(judgeAnswer('api', { ...health, status: 503 }, 40, fakeUrls.apiHealth)).toMatchObject({
      verdict: 'fail', reason: 'httpError', detail: { status: 503 },
    });
    // A web filter's page answers 200 in HTML: not the API, not KaTeX.
    const filterPage = { status: 200, contentType: 'text/html', body: '<h1>This site is blocked</h1>' };
    expect(judgeAnswer('api', filterPage, 40, fakeUrls.apiHealth)).toMatchObject({ verdict: 'fail', reason: 'unexpectedAnswer' });
    expect(judgeAnswer('mathScript', filterPage, 40, fakeUrls.mathScript)).toMatchObject({ verdict: 'fail', reason: 'unexpectedAnswer' });
    expect(judgeAnswer('front', filterPage, 40, fakeUrls.front)).toMatchObject({ verdict: 'fail', reason: 'unexpectedAnswer' });
    expect(judgeAnswer('mathStyle', healthyAnswer(fakeUrls.mathStyle), 40, fakeUrls.mathStyle)).toMatchObject({ verdict: 'pass' });
    // A math file may take longer than a host's small answer before it is slow.
    expect(judgeAnswer('mathScript', healthyAnswer(fakeUrls.mathScript), 3_000, fakeUrls.mathScript)).toMatchObject({ verdict: 'pass' });
    expect(judgeAnswer('front', healthyAnswer(fakeUrls.front), 3_000, fakeUrls.front)).toMatchObject({ verdict: 'warning' });
  });

  it('the clock: within 2 s passes, beyond a warning, beyond a minute a problem, either way', () => {
    const at = Date.parse(FAKE_SERVER_TIME);
    expect(judgeClock(FAKE_SERVER_TIME, at - 500, at + 500)).toMatchObject({ verdict: 'pass', detail: { offsetMs: 0 }, ms: 1_000 });
    expect(judgeClock(FAKE_SERVER_TIME, at - 5_000, at - 5_000)).toMatchObject({ verdict: 'warning', reason: 'clockOff', detail: { offsetMs: 5_000 } });
    expect(judgeClock(FAKE_SERVER_TIME, at + 5_000, at + 5_000)).toMatchObject({ verdict: 'warning', detail: { offsetMs: -5_000 } });
    expect(judgeClock(FAKE_SERVER_TIME, at + CLOCK_FAIL_MS + 1, at + CLOCK_FAIL_MS + 1)).toMatchObject({ verdict: 'fail', reason: 'clockOff' });
  });

  it('storage: the round trip first, then the room left', () => {
    expect(judgeStorage({ availableBytes: 1e10, roundTrip: 'failed' }, 5)).toMatchObject({ verdict: 'fail', reason: 'storageBlocked' });
    expect(judgeStorage({ availableBytes: 1e10, roundTrip: 'mismatch' }, 5)).toMatchObject({ verdict: 'fail', reason: 'storageBlocked' });
    expect(judgeStorage({ availableBytes: 1e10, roundTrip: 'unavailable' }, 5)).toMatchObject({ verdict: 'fail', reason: 'storageBlocked' });
    expect(judgeStorage({ availableBytes: null, roundTrip: 'ok' }, 5)).toMatchObject({ verdict: 'warning', reason: 'storageUnmeasured' });
    expect(judgeStorage({ availableBytes: STORAGE_FAIL_BYTES - 1, roundTrip: 'ok' }, 5)).toMatchObject({ verdict: 'fail', reason: 'storageFull' });
    expect(judgeStorage({ availableBytes: STORAGE_WARN_BYTES - 1, roundTrip: 'ok' }, 5)).toMatchObject({ verdict: 'warning', reason: 'storageLow' });
    expect(judgeStorage({ availableBytes: STORAGE_WARN_BYTES, roundTrip: 'ok' }, 5)).toMatchObject({
      verdict: 'pass', detail: { availableBytes: STORAGE_WARN_BYTES },
    });
  });

  it('the offline shell: in control passes, installed but not in control warns, none is a problem', () => {
    const shell = { supported: true, registered: true, active: true, controlled: true };
    expect(judgeOfflineShell(shell, 1)).toMatchObject({ verdict: 'pass' });
    expect(judgeOfflineShell({ ...shell, controlled: false }, 1)).toMatchObject({ verdict: 'warning', reason: 'shellWaiting' });
    expect(judgeOfflineShell({ ...shell, active: false, controlled: false }, 1)).toMatchObject({ verdict: 'warning', reason: 'shellWaiting' });
    expect(judgeOfflineShell({ supported: true, registered: false, active: false, controlled: false }, 1)).toMatchObject({
      verdict: 'fail', reason: 'shellMissing',
    });
    expect(judgeOfflineShell({ ...shell, supported: false }, 1)).toMatchObject({ verdict: 'fail', reason: 'shellUnsupported' });
  });

  it('fonts: a missing glyph is a problem; unmeasured only a warning', () => {
    const facts = { language: 'km', sample: 'ខ្មែរ', measured: true, missing: 0 };
    expect(judgeFonts(facts, 3)).toMatchObject({ verdict: 'pass', detail: { language: 'km', sample: 'ខ្មែរ' } });
    expect(judgeFonts({ ...facts, missing: 2 }, 3)).toMatchObject({ verdict: 'fail', reason: 'fontsMissing', detail: { missing: 2 } });
    expect(judgeFonts({ ...facts, measured: false }, 3)).toMatchObject({ verdict: 'warning', reason: 'fontsUnmeasured' });
  });
});

describe('the checks over the port', () => {
  it('a healthy terminal: every check passes, one at a time in order, each timed', async () => {
    const port = createFakeConnectivity();
    const actor = await finished(port);
    const { results } = actor.getSnapshot().context;
    expect(verdicts(results)).toEqual(Object.fromEntries(checkIds.map((id) => [id, 'pass'])));
    expect(port.asked).toEqual([fakeUrls.apiHealth, fakeUrls.front, fakeUrls.mathScript, fakeUrls.mathStyle, fakeUrls.apiHealth]);
    // The fake clock moves 7 ms per reading: each check read it twice.
    for (const id of checkIds) expect(results[id]!.ms, id).toBe(7);
    // The clock is the fifth check: read at +63 and +70 ms; the server's time was +0, the midpoint +66.5.
    expect(results.clock!.detail.offsetMs).toBe(-66);
    expect(connect(actor.getSnapshot(), () => {}).summary).toEqual({ kind: 'ready', warnings: 0, problems: 0 });
  });

  it('a blocked KaTeX file, a clock 3 minutes behind and no offline shell: 3 problems, named', async () => {
    const port = createFakeConnectivity();
    port.answers.set(fakeUrls.mathScript, 'unreachable');
    port.clock = Date.parse(FAKE_SERVER_TIME) - 180_000;
    port.shellFacts = { supported: true, registered: false, active: false, controlled: false };
    const actor = await finished(port);
    const { results } = actor.getSnapshot().context;
    expect(results.mathScript).toMatchObject({ verdict: 'fail', reason: 'unreachable', detail: { url: fakeUrls.mathScript } });
    expect(results.clock).toMatchObject({ verdict: 'fail', reason: 'clockOff' });
    expect(results.clock!.detail.offsetMs).toBeGreaterThan(179_000);
    expect(results.offlineShell).toMatchObject({ verdict: 'fail', reason: 'shellMissing' });
    expect(connect(actor.getSnapshot(), () => {}).summary).toEqual({ kind: 'notReady', problems: 3, warnings: 0 });
  });

  it('a build that names no math file, and an API that is down: the clock is then not compared', async () => {
    const port = createFakeConnectivity();
    port.urlsOf = { ...fakeUrls, mathScript: null, mathStyle: null };
    port.answers.set(fakeUrls.apiHealth, { status: 500, contentType: 'application/json', body: '{"code":"GENERIC_ERROR"}' });
    const actor = await finished(port);
    const { results } = actor.getSnapshot().context;
    expect(results.api).toMatchObject({ verdict: 'fail', reason: 'httpError', detail: { status: 500 } });
    expect(results.mathScript).toMatchObject({ verdict: 'fail', reason: 'notInBuild' });
    expect(results.mathStyle).toMatchObject({ verdict: 'fail', reason: 'notInBuild' });
    expect(results.clock).toMatchObject({ verdict: 'warning', reason: 'clockUnknown' });
    expect(connect(actor.getSnapshot(), () => {}).summary).toEqual({ kind: 'notReady', problems: 3, warnings: 1 });
  });

  it('a check that hangs is stopped at its time-out, its work aborted, and the round goes on', async () => {
    const clock = new SimulatedClock();
    const port = createFakeConnectivity();
    port.hold = true;
    const actor = start(port, clock);
    expect(actor.getSnapshot().matches({ checking: 'api' })).toBe(true);
    clock.increment(CHECK_TIMEOUT_MS - 1);
    expect(actor.getSnapshot().context.results.api).toBeNull();
    clock.increment(1);
    expect(actor.getSnapshot().context.results.api).toEqual({ verdict: 'fail', reason: 'timeout', ms: CHECK_TIMEOUT_MS, detail: {} });
    expect(port.aborted).toEqual([fakeUrls.apiHealth]);
    expect(actor.getSnapshot().matches({ checking: 'front' })).toBe(true);
    port.hold = false;
    port.release();
    await waitFor(actor, (s) => s.matches('done'));
    expect(actor.getSnapshot().context.results.front).toMatchObject({ verdict: 'pass' });
  });

  it('a defect in a check is a problem of its own, never a pass', async () => {
    const port = createFakeConnectivity();
    port.storage = () => Promise.reject(new Error('defect'));
    const actor = await finished(port);
    expect(actor.getSnapshot().context.results.storage).toEqual({ verdict: 'fail', reason: 'broken', ms: 0, detail: {} });
  });

  it('"Check again" forgets the last round first; a language change checks only the fonts again', async () => {
    const port = createFakeConnectivity();
    port.fontFacts = { language: 'km', sample: 'ខ្មែរ', measured: true, missing: 3 };
    const actor = await finished(port);
    expect(actor.getSnapshot().context.results.fonts).toMatchObject({ verdict: 'fail' });

    port.hold = true;
    port.fontFacts = { language: 'ar', sample: 'العربية', measured: true, missing: 0 };
    actor.send({ type: 'language.changed', language: 'ar' });
    expect(actor.getSnapshot().matches({ checking: 'fonts' })).toBe(true);
    expect(actor.getSnapshot().context.results.fonts).toBeNull();
    expect(actor.getSnapshot().context.results.api).toMatchObject({ verdict: 'pass' });
    port.hold = false;
    port.release();
    await waitFor(actor, (s) => s.matches('done'));
    expect(actor.getSnapshot().context.results.fonts).toMatchObject({ verdict: 'pass', detail: { language: 'ar' } });
    const asked = port.asked.length;

    port.hold = true;
    actor.send({ type: 'check.requested' });
    expect(Object.values(actor.getSnapshot().context.results).every((r) => r === null)).toBe(true);
    expect(connect(actor.getSnapshot(), () => {}).summary).toEqual({ kind: 'checking', done: 0, total: 8 });
    port.hold = false;
    port.release();
    await waitFor(actor, (s) => s.matches('done'));
    expect(port.asked.length).toBe(asked + 5);
  });
});

describe('connect', () => {
  it('rows while a round runs: done, running, waiting; "Check again" waits for the round', async () => {
    const port = createFakeConnectivity();
    port.hold = true;
    const actor = start(port);
    port.release();
    await waitFor(actor, (s) => s.matches({ checking: 'front' }));
    const api = connect(actor.getSnapshot(), () => {});
    expect(api.rows.map((r) => [r.id, r.status])).toEqual([
      ['api', 'pass'],
      ['front', 'running'],
      ['mathScript', 'waiting'],
      ['mathStyle', 'waiting'],
      ['clock', 'waiting'],
      ['storage', 'waiting'],
      ['offlineShell', 'waiting'],
      ['fonts', 'waiting'],
    ]);
    expect(api.summary).toEqual({ kind: 'checking', done: 1, total: 8 });
    expect(api.running).toBe(true);
    expect(api.canCheckAgain).toBe(false);
  });

  it('warnings without problems: ready, with warnings', async () => {
    const port = createFakeConnectivity();
    port.shellFacts = { supported: true, registered: true, active: true, controlled: false };
    port.storageFacts = { availableBytes: 20 * 1024 * 1024, roundTrip: 'ok' };
    const actor = await finished(port);
    expect(connect(actor.getSnapshot(), () => {}).summary).toEqual({ kind: 'readyWithWarnings', warnings: 2, problems: 0 });
  });

  it('each callback sends the event it names', async () => {
    const actor = await finished(createFakeConnectivity());
    const send = vi.fn<(event: ConnectivityEvent) => void>();
    const api = connect(actor.getSnapshot(), send);
    expect(api.canCheckAgain).toBe(true);
    api.checkAgain();
    api.languageChanged('th');
    api.close();
    expect(send.mock.calls.map(([event]) => event)).toEqual([
      { type: 'check.requested' },
      { type: 'language.changed', language: 'th' },
      { type: 'check.closed' },
    ]);
  });

  it('"Back" ends the machine, mid-round too', async () => {
    const port = createFakeConnectivity();
    port.hold = true;
    const actor = start(port);
    actor.send({ type: 'check.closed' });
    expect(actor.getSnapshot().status).toBe('done');
    expect(port.aborted).toEqual([fakeUrls.apiHealth]);
  });
});
