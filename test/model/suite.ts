/**
 * Declares a Vitest suite for one machine's model: one test per generated path (named by the
 * path it walks), each replayed on a real actor and compared with the model's expected state
 * while the machine's invariants are checked at every step; then the coverage test, which
 * prints `model coverage <machine>: N/M transitions` and fails on any transition not taken.
 */
import { describe, expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import { CoverageRecorder, allTransitions, modelPaths, replay, type ModelSpec } from './harness.ts';

export function describeModel<TMachine extends AnyStateMachine>(spec: ModelSpec<TMachine>): void {
  describe(`${spec.name} machine, every transition`, () => {
    const recorder = new CoverageRecorder(spec.name, allTransitions(spec.machine));
    spec.inputs.forEach((input, inputIndex) => {
      const paths = modelPaths(spec, input);
      describe(`from input ${inputIndex + 1}`, () => {
        for (const path of paths) {
          it(path.description, () => {
            const final = replay(spec.machine, input, path.events, recorder, spec.invariants);
            expect(final.value).toEqual(path.expected.value);
            expect(final.status).toBe(path.expected.status);
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
