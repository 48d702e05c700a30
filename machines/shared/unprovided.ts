/**
 * An actor a machine declares and its edge provides (`machine.provide({ actors })`, from the
 * `.actors.ts` beside it): run unprovided, it fails with "<name> is provided by the edge", naming
 * the file that provides it when given.
 */
import { fromPromise } from 'xstate';

export function unprovided<TOutput, TInput>(name: string, providedIn?: string) {
  return fromPromise<TOutput, TInput>(async () => {
    throw new Error(`${name} is provided by the edge${providedIn ? ` (${providedIn})` : ''}`);
  });
}
