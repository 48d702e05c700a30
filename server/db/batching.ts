/**
 * Natural batching: calls that arrive while the database is busy go to it together, as one
 * statement, instead of queueing for a connection one by one. For the answer save on PostgreSQL
 * (server/domain/answers/batch.ts), where a statement's fixed costs (the round trip, the commit and
 * its WAL flush, waking a backend, the driver's work per query) weigh more than its rows.
 *
 * Promises:
 * - No call waits for a timer: while fewer than `maxInFlight` batches are at the database, a
 *   call goes at once (a batch of one). Only calls that arrive while all of them are out wait,
 *   and go together as soon as one comes back, at most `maxBatch` at a time, oldest first.
 * - Calls that may not share a statement (`conflictKeys`: two saves of one question, or of
 *   one idempotency key) never do: the later waits for the next batch, in arrival order.
 * - Calls that may share a statement but not run beside each other in two (`ownerKeys`: the
 *   saves of one sitting, whose row each statement locks) are never at the database in two
 *   batches at once: a call whose owner key an outstanding batch holds waits until it is back,
 *   so a statement never meets another batch's lock.
 * - Each call gets its own answer (`runBatch` answers one result per item, in order), or its
 *   own error: when a batch fails as a whole (a statement fails atomically: nothing of it was
 *   written), each of its calls is run again alone with `runOne`, so one bad call (say, a
 *   unique key another request took) refuses only itself.
 */

export type Batcher<In, Out> = {
  run(item: In): Promise<Out>;
};

export type BatcherOptions<In, Out> = {
  /** Batches at the database at once. */
  maxInFlight: number;
  /** Calls in one batch at most. */
  maxBatch: number;
  /** Keys of which one batch holds each at most once. */
  conflictKeys(item: In): readonly string[];
  /** Keys of which only one outstanding batch holds any (as often as it likes). */
  ownerKeys(item: In): readonly string[];
  /** One result per item, in the items' order. */
  runBatch(items: readonly In[]): Promise<readonly Out[]>;
  /** One call alone, after its batch failed. */
  runOne(item: In): Promise<Out>;
};

type Waiting<In, Out> = { item: In; resolve: (out: Out) => void; reject: (error: unknown) => void };

export function createBatcher<In, Out>(options: BatcherOptions<In, Out>): Batcher<In, Out> {
  const queue: Waiting<In, Out>[] = [];
  let inFlight = 0;
  /** The owner keys of the batches at the database. */
  const owned = new Set<string>();

  /** The oldest calls that can share a statement; the others stay queued, in order. */
  function take(): { batch: Waiting<In, Out>[]; owners: string[] } {
    const batch: Waiting<In, Out>[] = [];
    const taken = new Set<string>();
    const owners = new Set<string>();
    const left: Waiting<In, Out>[] = [];
    for (const waiting of queue) {
      const keys = options.conflictKeys(waiting.item);
      const ownerKeys = options.ownerKeys(waiting.item);
      if (batch.length < options.maxBatch && keys.every((key) => !taken.has(key)) && ownerKeys.every((key) => !owned.has(key))) {
        for (const key of keys) taken.add(key);
        for (const key of ownerKeys) owners.add(key);
        batch.push(waiting);
      } else {
        left.push(waiting);
      }
    }
    queue.splice(0, queue.length, ...left);
    return { batch, owners: [...owners] };
  }

  async function send(batch: readonly Waiting<In, Out>[]): Promise<void> {
    let results: readonly Out[];
    try {
      results = await options.runBatch(batch.map((waiting) => waiting.item));
      if (results.length !== batch.length) throw new Error(`batch of ${batch.length} answered ${results.length} results`);
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      // Nothing of the batch was written: each call alone, each with its own answer or error.
      await Promise.all(batch.map((waiting) => options.runOne(waiting.item).then(waiting.resolve, waiting.reject)));
      return;
    }
    batch.forEach((waiting, i) => waiting.resolve(results[i]!));
  }

  function pump(): void {
    while (inFlight < options.maxInFlight && queue.length > 0) {
      const { batch, owners } = take();
      // Everything waiting belongs to an outstanding batch: the next to come back sends it.
      if (batch.length === 0) return;
      inFlight++;
      for (const key of owners) owned.add(key);
      void send(batch).finally(() => {
        inFlight--;
        for (const key of owners) owned.delete(key);
        pump();
      });
    }
  }

  return {
    run(item) {
      return new Promise<Out>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        pump();
      });
    },
  };
}
