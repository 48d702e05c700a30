/**
 * The connectivity machine walked transition by transition: every check's outcome (a pass, a
 * warning, a problem), a defect in a check and every time-out are explicit events of the path,
 * and so are "Check again", a change of language and "Back". Invariants: the checks run one at a
 * time in their order, each ends with exactly one result, a new round starts with none, and what
 * the page shows (connectivity.connect.ts) always matches the machine: the rows, the summary's
 * count of problems, and "Check again" only once the round is done.
 */
import { expect } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import { connect, type ConnectivitySnapshot } from '../../machines/connectivity/connectivity.connect.ts';
import { actorOf, connectivityMachine } from '../../machines/connectivity/connectivity.machine.ts';
import { CHECK_TIMEOUT_MS } from '../../machines/connectivity/connectivity.rules.ts';
import { checkIds, type CheckId, type CheckResult, type ConnectivityContext } from '../../machines/connectivity/connectivity.types.ts';
import { never } from '../helpers/never.ts';
import { describeModel } from './suite.ts';

const machine = connectivityMachine.provide({
  actors: Object.fromEntries(Object.values(actorOf).map((src) => [src, never()])) as never,
});

/** A sample output that reads as its name in a path's description (the harness prints events as JSON). */
function named<T extends object>(value: T, name: string): T {
  return Object.defineProperty(value, 'toJSON', { value: () => name, enumerable: false });
}

/** A pass, a warning and a problem of each check, as its actor would resolve. */
const outcomes: Record<CheckId, CheckResult[]> = {
  api: [
    { verdict: 'pass', reason: 'ok', ms: 34, detail: { url: '/api/health' } },
    { verdict: 'warning', reason: 'slow', ms: 2_400, detail: { url: '/api/health' } },
    { verdict: 'fail', reason: 'unreachable', ms: 12, detail: { url: '/api/health' } },
  ],
  front: [
    { verdict: 'pass', reason: 'ok', ms: 20, detail: { url: '/' } },
    { verdict: 'fail', reason: 'unexpectedAnswer', ms: 25, detail: { url: '/', status: 200 } },
  ],
  mathScript: [
    { verdict: 'pass', reason: 'ok', ms: 80, detail: { url: '/assets/katex-1.js' } },
    { verdict: 'fail', reason: 'httpError', ms: 9, detail: { url: '/assets/katex-1.js', status: 404 } },
  ],
  mathStyle: [
    { verdict: 'pass', reason: 'ok', ms: 15, detail: { url: '/assets/katex-1.css' } },
    { verdict: 'fail', reason: 'notInBuild', ms: 0, detail: {} },
  ],
  clock: [
    { verdict: 'pass', reason: 'ok', ms: 30, detail: { offsetMs: 300 } },
    { verdict: 'warning', reason: 'clockOff', ms: 30, detail: { offsetMs: -5_000 } },
    { verdict: 'fail', reason: 'clockOff', ms: 30, detail: { offsetMs: 3_600_000 } },
  ],
  storage: [
    { verdict: 'pass', reason: 'ok', ms: 40, detail: { availableBytes: 2e9 } },
    { verdict: 'fail', reason: 'storageBlocked', ms: 5, detail: {} },
  ],
  offlineShell: [
    { verdict: 'pass', reason: 'ok', ms: 3, detail: {} },
    { verdict: 'warning', reason: 'shellWaiting', ms: 3, detail: {} },
    { verdict: 'fail', reason: 'shellMissing', ms: 3, detail: {} },
  ],
  fonts: [
    { verdict: 'pass', reason: 'ok', ms: 12, detail: { language: 'ar', sample: 'العربية', missing: 0 } },
    { verdict: 'fail', reason: 'fontsMissing', ms: 12, detail: { language: 'km', sample: 'ខ្មែរ', missing: 4 } },
  ],
};

const samples: Record<string, AnyEventObject[]> = {
  'check.requested': [{ type: 'check.requested' }],
  'check.closed': [{ type: 'check.closed' }],
  'language.changed': [{ type: 'language.changed', language: 'ar' }],
};
for (const check of checkIds) {
  const src = actorOf[check];
  samples[`xstate.done.actor.${src}`] = outcomes[check].map((output) => ({
    type: `xstate.done.actor.${src}`,
    output: named(output, `${output.verdict}: ${output.reason}`),
  }));
  samples[`xstate.error.actor.${src}`] = [{ type: `xstate.error.actor.${src}`, error: new Error('defect in the check') }];
}

const contextOf = (snapshot: AnyMachineSnapshot) => snapshot.context as ConnectivityContext;

describeModel({
  name: 'connectivity',
  machine,
  inputs: [undefined],
  samples,
  invariants: (snapshot) => {
    const { results } = contextOf(snapshot);
    const api = connect(snapshot as unknown as ConnectivitySnapshot, () => {});
    const running = checkIds.find((id) => snapshot.matches({ checking: id }));
    if (snapshot.matches('checking')) {
      // One check at a time, in order: the ones before it have results, it and the rest none.
      expect(running).toBeDefined();
      const index = checkIds.indexOf(running!);
      checkIds.forEach((id, i) => expect(results[id] !== null, id).toBe(i < index));
      expect(api.rows.map((r) => r.status)).toEqual(
        checkIds.map((id, i) => (i < index ? results[id]!.verdict : i === index ? 'running' : 'waiting')),
      );
      expect(api.summary).toEqual({ kind: 'checking', done: index, total: checkIds.length });
      expect(snapshot.hasTag('busy')).toBe(true);
    }
    if (snapshot.matches('done')) {
      // Every check ended with its result; the summary counts the problems the rows show.
      for (const id of checkIds) expect(results[id], id).not.toBeNull();
      const problems = api.rows.filter((r) => r.status === 'fail').length;
      const warnings = api.rows.filter((r) => r.status === 'warning').length;
      expect(api.summary).toEqual(
        problems > 0
          ? { kind: 'notReady', problems, warnings }
          : warnings > 0
            ? { kind: 'readyWithWarnings', problems: 0, warnings }
            : { kind: 'ready', problems: 0, warnings: 0 },
      );
      expect(snapshot.hasTag('busy')).toBe(false);
    }
    // A time-out is a problem after exactly the time waited (the clock's only a warning: not compared).
    for (const id of checkIds) {
      const result = results[id];
      if (result?.reason === 'timeout') expect(result).toMatchObject({ verdict: 'fail', ms: CHECK_TIMEOUT_MS });
      if (result?.reason === 'broken') expect(result.verdict).toBe('fail');
    }
    expect(api.canCheckAgain).toBe(snapshot.matches('done'));
    expect(api.running).toBe(snapshot.matches('checking'));
    expect(snapshot.status).toBe(snapshot.matches('closed') ? 'done' : 'active');
  },
});
