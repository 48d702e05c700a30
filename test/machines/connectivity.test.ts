/**
 * The terminal check's judgements (machines/connectivity/connectivity.rules.ts) at their limits:
 * each threshold on both sides, what makes an answer "ours", the clock's midpoint, the time a
 * check took, and the summary a teacher reads. test/view/connectivity-connect.test.ts shows them
 * through the machine and its real actors.
 */
import { describe, expect, it } from 'vitest';
import { createActor, toPromise, type AnyActorLogic } from 'xstate';
import { CHECK_PATH, connectivityMachine } from '../../machines/connectivity/connectivity.machine.ts';
import {
  broken,
  CHECK_TIMEOUT_MS,
  CLOCK_FAIL_MS,
  CLOCK_WARN_MS,
  clockUnknown,
  judgeAnswer,
  judgeClock,
  judgeFonts,
  judgeOfflineShell,
  judgeStorage,
  notInBuild,
  serverTimeOf,
  SLOW_FILE_MS,
  SLOW_HOST_MS,
  STORAGE_FAIL_BYTES,
  STORAGE_WARN_BYTES,
  timedOut,
  unreachable,
} from '../../machines/connectivity/connectivity.rules.ts';
import { selectRows, selectRunning, selectSummary } from '../../machines/connectivity/connectivity.selectors.ts';
import { checkIds, type CheckResult } from '../../machines/connectivity/connectivity.types.ts';
import { never } from '../helpers/never.ts';
import { FAKE_SERVER_TIME, fakeUrls, healthyAnswer } from '../helpers/fake-connectivity.ts';

const url = 'http://gradus.test/x';

describe('an answer to a GET', () => {
  const health = healthyAnswer(fakeUrls.apiHealth);

  it('a 2xx status passes on to the content; anything else is an HTTP error with its status', () => {
    for (const status of [200, 204, 299]) expect(judgeAnswer('api', { ...health, status }, 10, url).reason, String(status)).toBe('ok');
    for (const status of [199, 300, 304, 404, 500]) {
      expect(judgeAnswer('api', { ...health, status }, 10, url), String(status)).toEqual({
        verdict: 'fail',
        reason: 'httpError',
        ms: 10,
        detail: { status, url },
      });
    }
  });

  it('the API answers with its own health body; not JSON, or another body, is not ours', () => {
    expect(judgeAnswer('api', { ...health, body: 'not json' }, 10, url)).toEqual({ verdict: 'fail', reason: 'unexpectedAnswer', ms: 10, detail: { status: 200, url } });
    expect(judgeAnswer('api', { ...health, body: JSON.stringify({ ok: false, server_time: FAKE_SERVER_TIME }) }, 10, url).reason).toBe('unexpectedAnswer');
  });

  it('the front host answers HTML with the app root; KaTeX as JavaScript and CSS naming katex; content types in any case', () => {
    const front = healthyAnswer(fakeUrls.front);
    expect(judgeAnswer('front', { ...front, contentType: 'TEXT/HTML' }, 10, url).reason).toBe('ok');
    expect(judgeAnswer('front', { ...front, contentType: 'text/plain' }, 10, url).reason).toBe('unexpectedAnswer');
    expect(judgeAnswer('front', { ...front, body: '<div id="app"></div>' }, 10, url).reason).toBe('unexpectedAnswer');

    const script = healthyAnswer(fakeUrls.mathScript);
    expect(judgeAnswer('mathScript', { ...script, contentType: 'application/JavaScript', body: 'KATEX' }, 10, url).reason).toBe('ok');
    expect(judgeAnswer('mathScript', { ...script, contentType: 'text/css' }, 10, url).reason).toBe('unexpectedAnswer');
    expect(judgeAnswer('mathScript', { ...script, body: 'var other={}' }, 10, url).reason).toBe('unexpectedAnswer');

    const style = healthyAnswer(fakeUrls.mathStyle);
    expect(judgeAnswer('mathStyle', { ...style, contentType: 'Text/CSS; charset=utf-8' }, 10, url).reason).toBe('ok');
    expect(judgeAnswer('mathStyle', { ...style, contentType: 'text/javascript' }, 10, url).reason).toBe('unexpectedAnswer');
    expect(judgeAnswer('mathStyle', { ...style, body: 'katex{}' }, 10, url).reason).toBe('unexpectedAnswer');
  });

  it('slow: a host after 2 s, a math file after 5 s, each to the millisecond', () => {
    expect(judgeAnswer('api', health, SLOW_HOST_MS, url)).toEqual({ verdict: 'pass', reason: 'ok', ms: SLOW_HOST_MS, detail: { url } });
    expect(judgeAnswer('api', health, SLOW_HOST_MS + 1, url)).toEqual({ verdict: 'warning', reason: 'slow', ms: SLOW_HOST_MS + 1, detail: { url } });
    const script = healthyAnswer(fakeUrls.mathScript);
    const style = healthyAnswer(fakeUrls.mathStyle);
    expect(judgeAnswer('mathScript', script, SLOW_FILE_MS, url).verdict).toBe('pass');
    expect(judgeAnswer('mathScript', script, SLOW_FILE_MS + 1, url).reason).toBe('slow');
    expect(judgeAnswer('mathStyle', style, SLOW_FILE_MS, url).verdict).toBe('pass');
    expect(judgeAnswer('mathStyle', style, SLOW_FILE_MS + 1, url).reason).toBe('slow');
    expect([SLOW_HOST_MS, SLOW_FILE_MS]).toEqual([2_000, 5_000]);
  });

  it('the time is whole milliseconds, never below 0', () => {
    expect(judgeAnswer('api', health, 12.6, url).ms).toBe(13);
    expect(judgeAnswer('api', health, -3, url).ms).toBe(0);
    expect(unreachable(40.4, url)).toEqual({ verdict: 'fail', reason: 'unreachable', ms: 40, detail: { url } });
    expect(notInBuild(7)).toEqual({ verdict: 'fail', reason: 'notInBuild', ms: 7, detail: {} });
  });
});

describe('the clock', () => {
  const server = Date.parse(FAKE_SERVER_TIME);
  const offBy = (offset: number) => judgeClock(FAKE_SERVER_TIME, server - offset - 100, server - offset + 100);

  it('is compared at the midpoint of the call; off by up to 2 s passes, up to a minute warns, beyond fails', () => {
    expect(offBy(0)).toEqual({ verdict: 'pass', reason: 'ok', ms: 200, detail: { offsetMs: 0 } });
    expect(offBy(CLOCK_WARN_MS)).toMatchObject({ verdict: 'pass', detail: { offsetMs: CLOCK_WARN_MS } });
    expect(offBy(CLOCK_WARN_MS + 1)).toMatchObject({ verdict: 'warning', reason: 'clockOff' });
    expect(offBy(-(CLOCK_WARN_MS + 1))).toMatchObject({ verdict: 'warning', reason: 'clockOff', detail: { offsetMs: -(CLOCK_WARN_MS + 1) } });
    expect(offBy(CLOCK_FAIL_MS)).toMatchObject({ verdict: 'warning' });
    expect(offBy(CLOCK_FAIL_MS + 1)).toMatchObject({ verdict: 'fail', reason: 'clockOff' });
    expect(offBy(-(CLOCK_FAIL_MS + 1))).toMatchObject({ verdict: 'fail', reason: 'clockOff' });
    expect([CLOCK_WARN_MS, CLOCK_FAIL_MS]).toEqual([2_000, 60_000]);
  });

  it('reads the server time only from a 2xx health answer', () => {
    const health = healthyAnswer(fakeUrls.apiHealth);
    expect(serverTimeOf(health)).toBe(FAKE_SERVER_TIME);
    expect(serverTimeOf({ ...health, status: 299 })).toBe(FAKE_SERVER_TIME);
    for (const status of [199, 300, 503]) expect(serverTimeOf({ ...health, status }), String(status)).toBeNull();
    expect(serverTimeOf({ ...health, body: '<html>' })).toBeNull();
    expect(serverTimeOf({ ...health, body: JSON.stringify({ ok: true }) })).toBeNull();
  });

  it('unknown, or stopped at its time-out, is a warning; any other check stopped is a problem', () => {
    expect(clockUnknown(12)).toEqual({ verdict: 'warning', reason: 'clockUnknown', ms: 12, detail: {} });
    expect(timedOut('clock')).toEqual({ verdict: 'warning', reason: 'clockUnknown', ms: CHECK_TIMEOUT_MS, detail: {} });
    expect(timedOut('fonts')).toEqual({ verdict: 'fail', reason: 'timeout', ms: CHECK_TIMEOUT_MS, detail: {} });
    expect(broken()).toEqual({ verdict: 'fail', reason: 'broken', ms: 0, detail: {} });
  });
});

describe('storage, the offline shell and the fonts', () => {
  it('storage: under 5 MB left fails, under 50 MB warns, each threshold itself is enough', () => {
    const ok = (availableBytes: number) => judgeStorage({ availableBytes, roundTrip: 'ok' }, 3);
    expect(ok(STORAGE_FAIL_BYTES - 1)).toEqual({ verdict: 'fail', reason: 'storageFull', ms: 3, detail: { availableBytes: STORAGE_FAIL_BYTES - 1 } });
    expect(ok(STORAGE_FAIL_BYTES)).toMatchObject({ verdict: 'warning', reason: 'storageLow', detail: { availableBytes: STORAGE_FAIL_BYTES } });
    expect(ok(STORAGE_WARN_BYTES - 1)).toMatchObject({ verdict: 'warning', reason: 'storageLow' });
    expect(ok(STORAGE_WARN_BYTES)).toEqual({ verdict: 'pass', reason: 'ok', ms: 3, detail: { availableBytes: STORAGE_WARN_BYTES } });
    expect([STORAGE_FAIL_BYTES, STORAGE_WARN_BYTES]).toEqual([5 * 1024 * 1024, 50 * 1024 * 1024]);
    expect(judgeStorage({ availableBytes: null, roundTrip: 'ok' }, 3)).toEqual({ verdict: 'warning', reason: 'storageUnmeasured', ms: 3, detail: {} });
  });

  it('the offline shell: in control passes only when also active', () => {
    const shell = { supported: true, registered: true, active: true, controlled: true };
    expect(judgeOfflineShell(shell, 2)).toEqual({ verdict: 'pass', reason: 'ok', ms: 2, detail: {} });
    expect(judgeOfflineShell({ ...shell, active: false }, 2)).toMatchObject({ verdict: 'warning', reason: 'shellWaiting' });
    expect(judgeOfflineShell({ ...shell, registered: false, active: false }, 2)).toMatchObject({ verdict: 'fail', reason: 'shellMissing' });
  });

  it('the fonts: one missing glyph is a problem', () => {
    const facts = { language: 'my', sample: 'မြန်မာ', measured: true, missing: 1 };
    expect(judgeFonts(facts, 4)).toEqual({ verdict: 'fail', reason: 'fontsMissing', ms: 4, detail: { language: 'my', sample: 'မြန်မာ', missing: 1 } });
    expect(judgeFonts({ ...facts, missing: 0 }, 4)).toMatchObject({ verdict: 'pass', reason: 'ok' });
  });
});

describe('what the page reads from a round', () => {
  const machine = connectivityMachine.provide({
    actors: Object.fromEntries(
      ['checkApi', 'checkFront', 'checkMathScript', 'checkMathStyle', 'checkClock', 'checkStorage', 'checkOfflineShell', 'checkFonts'].map((name) => [name, never()]),
    ),
  });
  const pass: CheckResult = { verdict: 'pass', reason: 'ok', ms: 1, detail: {} };

  it('rows wait, run and show their verdict; the summary counts the round', () => {
    const actor = createActor(machine).start();
    expect(selectRunning(actor.getSnapshot())).toBe('api');
    expect(selectRows(actor.getSnapshot()).map((r) => r.status)).toEqual(['running', ...Array(7).fill('waiting')]);
    actor.send({ type: 'xstate.done.actor.checkApi', output: pass } as never);
    actor.send({ type: 'xstate.done.actor.checkFront', output: { ...pass, verdict: 'warning', reason: 'slow' } } as never);
    expect(selectRows(actor.getSnapshot()).map((r) => r.status).slice(0, 4)).toEqual(['pass', 'warning', 'running', 'waiting']);
    expect(selectSummary(actor.getSnapshot())).toEqual({ kind: 'checking', done: 2, total: 8 });
    for (const name of ['checkMathScript', 'checkMathStyle', 'checkClock', 'checkStorage', 'checkOfflineShell', 'checkFonts']) {
      actor.send({ type: `xstate.done.actor.${name}`, output: pass } as never);
    }
    expect(selectRunning(actor.getSnapshot())).toBeNull();
    expect(selectSummary(actor.getSnapshot())).toEqual({ kind: 'readyWithWarnings', warnings: 1, problems: 0 });
    expect(checkIds).toHaveLength(8);
  });

  it('a round with a failure is not ready, whatever else passed or warned', () => {
    const actor = createActor(machine).start();
    const outputs = [pass, { ...pass, verdict: 'fail', reason: 'unreachable' }, { ...pass, verdict: 'warning', reason: 'slow' }, pass, pass, pass, pass, pass];
    ['checkApi', 'checkFront', 'checkMathScript', 'checkMathStyle', 'checkClock', 'checkStorage', 'checkOfflineShell', 'checkFonts'].forEach((name, i) =>
      actor.send({ type: `xstate.done.actor.${name}`, output: outputs[i] } as never),
    );
    expect(selectSummary(actor.getSnapshot())).toEqual({ kind: 'notReady', warnings: 1, problems: 1 });
  });

  it('"Back" closes the check from anywhere, for good', () => {
    const actor = createActor(machine).start();
    actor.send({ type: 'check.closed' });
    expect(actor.getSnapshot().status).toBe('done');
    expect(selectRunning(actor.getSnapshot())).toBeNull();
  });
});

describe('what the kiosk reads of the connectivity machine', () => {
  const checkNames = ['checkApi', 'checkFront', 'checkMathScript', 'checkMathStyle', 'checkClock', 'checkStorage', 'checkOfflineShell', 'checkFonts'];
  const machine = connectivityMachine.provide({ actors: Object.fromEntries(checkNames.map((name) => [name, never()])) });

  it('is one page: the seed route and the connectivity screen; busy while checking', () => {
    expect(CHECK_PATH).toBe('/checking-domain-connection');
    expect(connectivityMachine.config.meta).toEqual({ path: CHECK_PATH, screen: 'connectivity' });
    const actor = createActor(machine).start();
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    for (const name of checkNames) actor.send({ type: `xstate.done.actor.${name}`, output: broken() } as never);
    expect(actor.getSnapshot().value).toBe('done');
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
  });

  it('a language change during the fonts check starts that check again, for the new language', () => {
    const actor = createActor(machine).start();
    for (const name of checkNames.slice(0, -1)) actor.send({ type: `xstate.done.actor.${name}`, output: broken() } as never);
    const before = actor.getSnapshot().children.checkFonts;
    expect(before).toBeDefined();
    actor.send({ type: 'language.changed', language: 'km' });
    const after = actor.getSnapshot().children.checkFonts;
    expect(actor.getSnapshot().value).toEqual({ checking: 'fonts' });
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
  });

  it('unprovided, each check fails loudly, naming where it is provided', async () => {
    for (const name of checkNames) {
      const logic = connectivityMachine.implementations.actors[name] as AnyActorLogic;
      const rejection = await toPromise(createActor(logic).start()).catch((error: Error) => error.message);
      expect(rejection).toBe(`${name} is provided by the edge (connectivity.actors.ts)`);
    }
  });
});
