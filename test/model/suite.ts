/**
 * Declares a Vitest suite for one machine's model: one test per generated path that no other
 * path extends (named by the path it walks), each replayed on a real actor while the machine's
 * invariants are checked at every step, and compared with the model's expected state where it
 * ends and where each path it extends ends (harness.ts, `longestWalks`); then the coverage test, which
 * prints `model coverage <machine>: N/M transitions` and fails on any transition not taken.
 */
import assert from 'node:assert/strict';
import { describe, expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import { CoverageRecorder, allTransitions, longestWalks, modelPaths, replay, type ModelSpec } from './harness.ts';

export function describeModel<TMachine extends AnyStateMachine>(spec: ModelSpec<TMachine>): void {
  describe(`${spec.name} machine, every transition`, () => {
    const recorder = new CoverageRecorder(spec.name, allTransitions(spec.machine));
    spec.inputs.forEach((input, inputIndex) => {
      const walks = longestWalks(modelPaths(spec, input));
      describe(`from input ${inputIndex + 1}`, () => {
        for (const walk of walks) {
          it(walk.description, () => {
            const final = replay(spec.machine, input, walk.events, recorder, (snapshot, taken) => {
              spec.invariants?.(snapshot);
              // node:assert: the same comparisons at a small fraction of expect's cost, at every step.
              for (const path of walk.checkpoints.get(taken) ?? []) {
                assert.deepStrictEqual(snapshot.value, path.expected.value, path.description);
                assert.equal(snapshot.status, path.expected.status, path.description);
              }
            });
            expect(final.value).toEqual(walk.expected.value);
            expect(final.status).toBe(walk.expected.status);
          });
        }
      });
    });
    it(`covers all transitions of the ${spec.name} machine`, () => {
      recorder.report('logic');
      expect(recorder.missing()).toEqual([]);
      expect(recorder.taken.size).toBe(recorder.all.size);
    });
  });
}
