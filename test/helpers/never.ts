/** Fake actors for model tests: they never settle, so the path's own events decide. */
import { fromPromise } from 'xstate';

export function never<TOutput, TInput = unknown>() {
  return fromPromise<TOutput, TInput>(() => new Promise<TOutput>(() => {}));
}
