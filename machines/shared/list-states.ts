/**
 * The states of a list a staff page loads (the proctor's schedules and a schedule's audit trail,
 * each section of the administrator's console), the same in every machine: `loading` (busy)
 * invokes the list's call and goes to `ready` with its answer, or to `failed` (error), whose
 * "Try again" loads it again; a refusal the owner names (a 401: the staff session is over) is
 * judged before the failure. Its owner gives the call, what keeps the answer and `ready`.
 */
export function listStates<const Src extends string, const Input, const Keep, const Refusal, const Ready>(list: {
  /** The call, also the invoke's id. */
  src: Src;
  input: Input;
  /** The action (or actions) that keeps the answer. */
  keep: Keep;
  refusal: Refusal;
  ready: Ready;
}) {
  return {
    initial: 'loading',
    states: {
      loading: {
        tags: ['busy'],
        invoke: {
          id: list.src,
          src: list.src,
          input: list.input,
          onDone: { target: 'ready', actions: list.keep },
          onError: [list.refusal, { target: 'failed', actions: 'assignFailure' }],
        },
      },
      failed: { tags: ['error'], on: { 'retry.requested': 'loading' } },
      ready: list.ready,
    },
  } as const;
}
