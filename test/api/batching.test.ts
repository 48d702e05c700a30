/**
 * Natural batching (server/db/batching.ts), with a database stand-in whose batches the test
 * answers by hand: no timer anywhere; calls go alone while batches are free, together while
 * they are all out; two calls that share a conflict key never share a batch; calls of one
 * owner share a batch but are never in two batches at once; a batch that fails is run again
 * call by call, each with its own answer or error.
 */
import { describe, expect, test } from 'vitest';
import { createBatcher } from '../../server/db/batching.ts';

type Call = { id: string; keys?: string[]; owners?: string[] };

/** A batcher over a stand-in database: each batch waits until the test settles it. */
function harness(options: { maxInFlight?: number; maxBatch?: number } = {}) {
  const batches: { items: Call[]; settle: (results: string[] | Error) => void }[] = [];
  const alone: string[] = [];
  const batcher = createBatcher<Call, string>({
    maxInFlight: options.maxInFlight ?? 2,
    maxBatch: options.maxBatch ?? 3,
    conflictKeys: (call) => call.keys ?? [],
    ownerKeys: (call) => call.owners ?? [],
    runBatch: (items) =>
      new Promise((resolve, reject) => {
        batches.push({ items: [...items], settle: (results) => (results instanceof Error ? reject(results) : resolve(results)) });
      }),
    runOne: async (call) => {
      alone.push(call.id);
      if (call.id.startsWith('bad')) throw new Error(`${call.id} refused`);
      return `${call.id} alone`;
    },
  });
  const ids = () => batches.map((batch) => batch.items.map((call) => call.id));
  const answer = (index: number) => batches[index]!.settle(batches[index]!.items.map((call) => `${call.id} done`));
  return { batcher, batches, alone, ids, answer };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('natural batching', () => {
  test('while batches are free a call goes at once, alone; the calls that arrive while all are out go together, oldest first', async () => {
    const { batcher, ids, answer } = harness({ maxInFlight: 2, maxBatch: 3 });
    const results = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((id) => batcher.run({ id }));
    expect(ids()).toEqual([['a'], ['b']]);
    answer(0);
    await turn();
    // One came back: the oldest waiting calls, as many as a batch holds.
    expect(ids()).toEqual([['a'], ['b'], ['c', 'd', 'e']]);
    answer(1);
    await turn();
    expect(ids()).toEqual([['a'], ['b'], ['c', 'd', 'e'], ['f', 'g']]);
    answer(2);
    answer(3);
    expect(await Promise.all(results)).toEqual(['a done', 'b done', 'c done', 'd done', 'e done', 'f done', 'g done']);
  });

  test('two calls with a conflict key in common never share a batch; the later one waits for the next, in order', async () => {
    const { batcher, ids, answer } = harness({ maxInFlight: 1, maxBatch: 10 });
    const first = batcher.run({ id: 'first' });
    const results = [
      batcher.run({ id: 'q1', keys: ['question 1', 'key A'] }),
      batcher.run({ id: 'q1 again', keys: ['question 1', 'key B'] }),
      batcher.run({ id: 'q2', keys: ['question 2', 'key C'] }),
      batcher.run({ id: 'key A again', keys: ['question 3', 'key A'] }),
      batcher.run({ id: 'q4', keys: ['question 4', 'key D'] }),
    ];
    answer(0);
    await turn();
    expect(ids()[1]).toEqual(['q1', 'q2', 'q4']);
    answer(1);
    await turn();
    expect(ids()[2]).toEqual(['q1 again', 'key A again']);
    answer(2);
    expect(await first).toBe('first done');
    expect(await Promise.all(results)).toEqual(['q1 done', 'q1 again done', 'q2 done', 'key A again done', 'q4 done']);
  });

  test('calls of one owner may share a batch, but wait while another outstanding batch holds that owner', async () => {
    const { batcher, ids, answer } = harness({ maxInFlight: 3, maxBatch: 10 });
    const results = [
      batcher.run({ id: 'pupil 1, q1', owners: ['pupil 1'] }),
      batcher.run({ id: 'pupil 1, q2', owners: ['pupil 1'] }),
      batcher.run({ id: 'pupil 2, q1', owners: ['pupil 2'] }),
    ];
    // A free batch for each, but pupil 1's second save waits for the first's batch to come back.
    expect(ids()).toEqual([['pupil 1, q1'], ['pupil 2, q1']]);
    results.push(batcher.run({ id: 'pupil 1, q3', owners: ['pupil 1'] }), batcher.run({ id: 'pupil 3, q1', owners: ['pupil 3'] }));
    expect(ids()).toEqual([['pupil 1, q1'], ['pupil 2, q1'], ['pupil 3, q1']]);
    answer(0);
    await turn();
    // Pupil 1's waiting saves go together, in order.
    expect(ids()[3]).toEqual(['pupil 1, q2', 'pupil 1, q3']);
    answer(1);
    answer(2);
    answer(3);
    expect(await Promise.all(results)).toEqual(['pupil 1, q1 done', 'pupil 1, q2 done', 'pupil 2, q1 done', 'pupil 1, q3 done', 'pupil 3, q1 done']);
  });

  test('a batch that fails as a whole is run again call by call: each gets its own answer or its own error', async () => {
    const { batcher, batches, alone } = harness({ maxInFlight: 1, maxBatch: 5 });
    const first = batcher.run({ id: 'first' });
    const waiting = [batcher.run({ id: 'x' }), batcher.run({ id: 'bad y' }), batcher.run({ id: 'z' })].map((p) =>
      p.then(
        (value) => ({ value }),
        (error: Error) => ({ error: error.message }),
      ),
    );
    batches[0]!.settle(['first done']);
    await turn();
    batches[1]!.settle(new Error('deadlock detected'));
    expect(await Promise.all(waiting)).toEqual([{ value: 'x alone' }, { error: 'bad y refused' }, { value: 'z alone' }]);
    expect(alone).toEqual(['x', 'bad y', 'z']);
    expect(await first).toBe('first done');
  });

  test("a batch of one that fails gives that call the batch's error; an answer of the wrong length counts as a failure", async () => {
    const { batcher, batches, alone } = harness({ maxInFlight: 1, maxBatch: 5 });
    const lone = batcher.run({ id: 'lone' }).catch((error: Error) => error.message);
    batches[0]!.settle(new Error('connection lost'));
    expect(await lone).toBe('connection lost');
    expect(alone).toEqual([]);
    const empty = batcher.run({ id: 'unanswered' }).catch((error: Error) => error.message);
    await turn();
    batches[1]!.settle([]);
    expect(await empty).toBe('batch of 1 answered 0 results');

    const first = batcher.run({ id: 'first' });
    const pair = [batcher.run({ id: 'p' }), batcher.run({ id: 'q' })];
    batches[2]!.settle(['first done']);
    await turn();
    batches[3]!.settle(['only one']);
    expect(await Promise.all(pair)).toEqual(['p alone', 'q alone']);
    expect(await first).toBe('first done');
  });

  test('after a failed batch the next calls are batched again', async () => {
    const { batcher, batches, ids } = harness({ maxInFlight: 1, maxBatch: 5 });
    const first = batcher.run({ id: 'first' }).catch((error: Error) => error.message);
    const second = batcher.run({ id: 'second' });
    batches[0]!.settle(new Error('gone'));
    await turn();
    expect(ids()).toEqual([['first'], ['second']]);
    const third = batcher.run({ id: 'third' });
    const fourth = batcher.run({ id: 'fourth' });
    batches[1]!.settle(['second done']);
    await turn();
    expect(ids()[2]).toEqual(['third', 'fourth']);
    batches[2]!.settle(['third done', 'fourth done']);
    expect([await first, await second, await third, await fourth]).toEqual(['gone', 'second done', 'third done', 'fourth done']);
  });
});
