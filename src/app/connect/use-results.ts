/**
 * The results screens' binding: the results actor (the session's child `results`), subscribed
 * with `useSelector` and turned by machines/results/results.connect.ts into exactly what each
 * results screen renders and sends. While the results do not run (the session is on its way to
 * or from them) every screen shows its loading state.
 */
import { useSelector } from '@xstate/react';
import { connect, type ResultsApi } from '../../../machines/results/results.connect.ts';
import { useSystemActor } from '../actors.ts';

export function useResults(): ResultsApi {
  const results = useSystemActor('results');
  const snapshot = useSelector(results, (current) => current);
  return connect(snapshot, (event) => results?.send(event));
}
