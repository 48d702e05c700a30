/**
 * machines/exam/exam.actors.ts over a scripted ApiPort, the memory outbox and the memory exam
 * cache: what each call sends and hands back, the loading calls standing in from this login's
 * cache only on a network failure, the outbox read with the questions, the finish's flush (one
 * answer after another; a final refusal does not block Finish, the network does), the cache
 * writes (a burst of moves is one write) and the fire-and-forget actions that never fail the exam.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, toPromise, type AnyActorLogic } from 'xstate';
import type { ExamDetails, ExamQuestions, Question, SaveAnswerRequest } from '../../contract/exam.ts';
import { detailsFromCache, examImplementations, POSITION_CACHE_MAX_DELAY_MS, questionsFromCache } from '../../machines/exam/exam.actors.ts';
import type { CachedExam, ExamContext, TerminalSignal } from '../../machines/exam/exam.types.ts';
import { createMemoryExamCache } from '../../machines/exam/memory-exam-cache.ts';
import { createMemoryOutbox } from '../../machines/shared/memory-outbox.ts';
import { ApiFailure, type ApiPort, type OutboxEntry } from '../../machines/shared/ports.ts';

const serverTime = '2026-11-22T09:00:00.000Z';
const deadline = '2026-11-22T09:40:00.000Z';
const question = (id: number): Question => ({ id, number: id - 100, type: 'single_choice', prompt: `Q${id}`, choices: [] });
const details = {
  schedule_history_id: 7, examinee_name: 'Aiko Tanaka', subject: { id: 1, name: 'English' }, level: { id: 1, name: 'Level 1' },
  exam: { id: 1, title: 'English 1', question_count: 2, time_limit_seconds: 2_400 }, status: 0, started_at: null,
  deadline_at: null, server_time: serverTime,
} as unknown as ExamDetails;
const questions: ExamQuestions = { questions: [question(101), question(102)], answers: [], deadline_at: deadline, server_time: serverTime };
const owner = 'owner-uuid';
const cached: CachedExam = {
  scheduleHistoryId: 7, owner, details, questions: questions.questions,
  answers: [{ question_id: 101, value: 'a', answered_at: serverTime }], deadlineAt: deadline, clockOffsetMs: 2_000, questionIndex: 1,
};
const now = Date.parse('2026-11-22T09:10:00.000Z');

/** An ApiPort whose calls are given by the test; anything else throws. */
function apiWith(calls: Partial<ApiPort>): ApiPort {
  return new Proxy(calls as ApiPort, {
    get: (target, name: string) => (target as unknown as Record<string, unknown>)[name] ?? (() => Promise.reject(new Error(`unexpected ${name}`))),
  });
}

function run<T>(logic: unknown, input: unknown): Promise<T> {
  return toPromise(createActor(logic as AnyActorLogic, { input }).start()) as Promise<T>;
}

const answer = (questionId: number, key: string): OutboxEntry => ({
  scheduleHistoryId: 7, questionId, value: `v${questionId}`, key, answeredAt: serverTime,
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the cached exam stands in for the server', () => {
  it('as details: still running, the deadline last known, the server time as this terminal knows it', () => {
    expect(detailsFromCache(cached, now)).toEqual({ ...details, status: 6, deadline_at: deadline, server_time: '2026-11-22T09:10:02.000Z' });
    expect(questionsFromCache(cached, now)).toEqual({
      questions: questions.questions, answers: cached.answers, deadline_at: deadline, server_time: '2026-11-22T09:10:02.000Z',
    });
  });

  it('loading the details: the server\'s answer; on a network failure this login\'s cache; else the failure stands', async () => {
    const examCache = createMemoryExamCache();
    await examCache.put(cached);
    const offline = apiWith({ examDetails: async () => Promise.reject(new ApiFailure('NETWORK_ERROR')) });
    const online = apiWith({ examDetails: async (id) => ({ ...details, schedule_history_id: id }) });
    const refused = apiWith({ examDetails: async () => Promise.reject(new ApiFailure('NOT_LOGGED_IN', 401)) });
    const load = (api: ApiPort, who = owner) =>
      run(examImplementations({ api, examCache, now: () => now, retryWindowMs: 0 }).actors.loadExamDetails, {
        variant: 'checkConnection', input: { scheduleHistoryId: 7, owner: who },
      });
    expect(await load(online)).toEqual({ ok: true, value: { ...details, schedule_history_id: 7 } });
    expect(await load(offline)).toEqual({ ok: true, value: detailsFromCache(cached, now) });
    expect(await load(refused)).toEqual({ ok: false, error: 'NOT_LOGGED_IN' });
    // Another login's cache never stands in: the network failure goes to the retry dialog.
    const actor = createActor(examImplementations({ api: offline, examCache, retryWindowMs: 0 }).actors.loadExamDetails as AnyActorLogic, {
      input: { variant: 'checkConnection', input: { scheduleHistoryId: 7, owner: 'someone else' } },
    }).start();
    await vi.waitFor(() => expect((actor.getSnapshot() as { value: unknown }).value).toBe('offline'));
  });

  it('a cache that cannot be read is no cache', async () => {
    const examCache = { ...createMemoryExamCache(), get: () => Promise.reject(new Error('IndexedDB gone')) };
    const api = apiWith({ examDetails: async () => Promise.reject(new ApiFailure('TIMEOUT')) });
    const actor = createActor(examImplementations({ api, examCache, retryWindowMs: 0 }).actors.loadExamDetails as AnyActorLogic, {
      input: { variant: 'checkConnection', input: { scheduleHistoryId: 7, owner } },
    }).start();
    await vi.waitFor(() => expect((actor.getSnapshot() as { value: unknown }).value).toBe('offline'));
    expect((actor.getSnapshot() as { context: { error: unknown } }).context.error).toBe('TIMEOUT');
  });

  it('loading the questions: with the outbox\'s unsent answers; offline from the cache with the offset it kept', async () => {
    const outbox = createMemoryOutbox();
    await outbox.put(answer(102, 'k2'));
    await outbox.put({ ...answer(101, 'other'), scheduleHistoryId: 8 });
    const examCache = createMemoryExamCache();
    await examCache.put(cached);
    const input = { variant: 'checkConnection', input: { scheduleHistoryId: 7, owner } };
    const online = examImplementations({ api: apiWith({ examQuestions: async () => questions }), outbox, examCache, now: () => now });
    expect(await run(online.actors.loadQuestions, input)).toEqual({ ok: true, value: { ...questions, unsent: [answer(102, 'k2')] } });
    const offline = examImplementations({
      api: apiWith({ examQuestions: async () => Promise.reject(new ApiFailure('NETWORK_ERROR')) }), outbox, examCache, now: () => now,
    });
    expect(await run(offline.actors.loadQuestions, input)).toEqual({
      ok: true, value: { ...questionsFromCache(cached, now), keptClockOffsetMs: 2_000, unsent: [answer(102, 'k2')] },
    });
    const unreadable = { ...outbox, list: () => Promise.reject(new Error('blocked')) };
    const noOutbox = examImplementations({ api: apiWith({ examQuestions: async () => questions }), outbox: unreadable });
    expect(await run(noOutbox.actors.loadQuestions, input)).toEqual({ ok: true, value: { ...questions, unsent: [] } });
  });
});

describe('saving', () => {
  it('stores an answer in the outbox and hands back its key', async () => {
    const outbox = createMemoryOutbox();
    const { actors } = examImplementations({ api: apiWith({}), outbox });
    expect(await run(actors.storeAnswer, answer(101, 'k1'))).toBe('k1');
    expect([...outbox.entries.values()]).toEqual([answer(101, 'k1')]);
  });

  it('sends an answer with its key and time; the acknowledgement carries the server\'s value only when it has one', async () => {
    const sent: SaveAnswerRequest[] = [];
    const api = apiWith({
      saveAnswer: async (body) => {
        sent.push(body);
        return body.question_id === 101
          ? { question_id: 101, idempotency_key: body.idempotency_key, outcome: 'saved', deadline_at: deadline, server_time: serverTime }
          : { question_id: 102, idempotency_key: body.idempotency_key, outcome: 'superseded', current_value: 'b', deadline_at: deadline, server_time: serverTime };
      },
    });
    const { actors } = examImplementations({ api });
    expect(await run(actors.saveAnswer, answer(101, 'k1'))).toStrictEqual({ key: 'k1', serverTime, outcome: 'saved', deadlineAt: deadline });
    expect(await run(actors.saveAnswer, answer(102, 'k2'))).toStrictEqual({
      key: 'k2', serverTime, outcome: 'superseded', deadlineAt: deadline, currentValue: 'b',
    });
    expect(sent[0]).toEqual({ schedule_history_id: 7, question_id: 101, value: 'v101', idempotency_key: 'k1', answered_at: serverTime });
  });

  it('the finish\'s flush sends one answer after another; a final refusal is noted, the network fails it', async () => {
    const order: string[] = [];
    const api = apiWith({
      saveAnswer: async (body) => {
        order.push(body.idempotency_key);
        if (body.idempotency_key === 'late') throw new ApiFailure('TIME_END', 403);
        if (body.idempotency_key === 'down') throw new ApiFailure('NETWORK_ERROR');
        return { question_id: body.question_id, idempotency_key: `ack-${body.idempotency_key}`, outcome: 'saved', deadline_at: deadline, server_time: serverTime };
      },
    });
    const { actors } = examImplementations({ api, retryWindowMs: 0 });
    const flush = (answers: OutboxEntry[]) => run(actors.flushAnswers, { variant: 'autoConnect', input: answers });
    expect(await flush([answer(101, 'k1'), answer(102, 'late'), answer(103, 'k3')])).toEqual({
      ok: true, value: { saved: ['ack-k1', 'ack-k3'], refused: ['late'] },
    });
    expect(order).toEqual(['k1', 'late', 'k3']);
    const actor = createActor(actors.flushAnswers as AnyActorLogic, { input: { variant: 'autoConnect', input: [answer(101, 'down')] } }).start();
    await vi.waitFor(() => expect((actor.getSnapshot() as { value: unknown }).value).toBe('offline'));
  });
});

describe('the other calls', () => {
  it('start, finish, heartbeat and the server\'s answers: each with the sitting', async () => {
    const asked: unknown[] = [];
    const api = apiWith({
      startExam: async (id) => (asked.push(['start', id]), { status: 6 }) as never,
      finishExam: async (id) => (asked.push(['finish', id]), { answer_count: 2 }) as never,
      heartbeat: async (body) => (asked.push(['heartbeat', body]), { ok: true }) as never,
      examQuestions: async (id) => (asked.push(['questions', id]), questions),
    });
    const { actors } = examImplementations({ api });
    expect(await run(actors.startExam, { scheduleHistoryId: 7 })).toEqual({ status: 6 });
    expect(await run(actors.finishExam, { variant: 'autoConnect', input: { scheduleHistoryId: 7 } })).toEqual({ ok: true, value: { answer_count: 2 } });
    expect(await run(actors.sendHeartbeat, { schedule_history_id: 7 })).toEqual({ ok: true });
    expect(await run(actors.loadServerAnswers, { scheduleHistoryId: 7 })).toEqual(questions);
    expect(asked).toEqual([['start', 7], ['finish', 7], ['heartbeat', { schedule_history_id: 7 }], ['questions', 7]]);
  });

  it('passes the page\'s signals on, and stops watching when stopped; without a terminal, nothing', () => {
    let emit: ((signal: TerminalSignal) => void) | null = null;
    let stopped = 0;
    const terminal = { watch: (callback: (signal: TerminalSignal) => void) => ((emit = callback), () => void (stopped += 1)) };
    const received: unknown[] = [];
    const parentOf = (logic: unknown) =>
      createActor(createMachine({ invoke: { src: logic as AnyActorLogic }, on: { '*': { actions: ({ event }) => void received.push(event) } } })).start();
    const parent = parentOf(examImplementations({ api: apiWith({}), terminal }).actors.watchTerminal);
    emit!({ type: 'clock.ticked', now: 5 });
    expect(received).toEqual([{ type: 'clock.ticked', now: 5 }]);
    parent.stop();
    expect(stopped).toBe(1);
    // No terminal (tests send the events themselves): watching starts and stops without a word.
    parentOf(examImplementations({ api: apiWith({}) }).actors.watchTerminal).stop();
    expect(received).toHaveLength(1);
  });
});

describe('the actions', () => {
  const context = (questionIndex: number) =>
    ({
      scheduleHistoryId: 7, answerSeed: owner, details, questions: questions.questions, answers: {},
      deadlineAt: Date.parse(deadline), clockOffsetMs: 2_000, questionIndex,
    }) as unknown as ExamContext;
  const call = (action: unknown, args: unknown, params?: unknown) => (action as (a: unknown, p: unknown) => void)(args, params);
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('caches the running exam at once; nothing before it is loaded; a failed write is ignored', async () => {
    const examCache = createMemoryExamCache();
    let puts = 0;
    const { actions } = examImplementations({ api: apiWith({}), examCache: { ...examCache, put: async (exam) => (puts += 1, examCache.put(exam)) } });
    call(actions.cacheExam, { context: { ...context(0), details: null } });
    await settle();
    expect(puts).toBe(0);
    expect(examCache.records.size).toBe(0);
    call(actions.cacheExam, { context: context(1) });
    await settle();
    expect(examCache.records.get(7)).toMatchObject({ owner, questionIndex: 1, deadlineAt: deadline, clockOffsetMs: 2_000 });
    const failing = examImplementations({ api: apiWith({}), examCache: { ...examCache, put: () => Promise.reject(new Error('full')) } });
    call(failing.actions.cacheExam, { context: context(0) });
    await settle();
  });

  it('a burst of moves is one write, when the page is idle; a write or a clear in between drops it', async () => {
    const examCache = createMemoryExamCache();
    const puts: number[] = [];
    const watched = { ...examCache, put: async (exam: CachedExam) => (puts.push(exam.questionIndex), examCache.put(exam)) };
    const { actions } = examImplementations({ api: apiWith({}), examCache: watched });
    call(actions.cachePosition, { context: context(1) });
    call(actions.cachePosition, { context: context(2) });
    expect(puts).toEqual([]);
    await settle();
    expect(puts).toEqual([2]);
    call(actions.cachePosition, { context: context(3) });
    call(actions.cacheExam, { context: context(4) });
    await settle();
    expect(puts).toEqual([2, 4]);
    call(actions.cachePosition, { context: context(5) });
    call(actions.clearExamCache, {});
    await settle();
    expect(puts).toEqual([2, 4]);
    expect(examCache.records.size).toBe(0);
  });

  it('where the page has requestIdleCallback, asks for it once per burst, at most POSITION_CACHE_MAX_DELAY_MS, and writes the latest move', async () => {
    const requested: Array<{ task: () => void; timeout: number }> = [];
    const cancelled: number[] = [];
    vi.stubGlobal('requestIdleCallback', (task: () => void, options: { timeout: number }) => requested.push({ task, timeout: options.timeout }));
    vi.stubGlobal('cancelIdleCallback', (id: number) => void cancelled.push(id));
    try {
      const examCache = createMemoryExamCache();
      const { actions } = examImplementations({ api: apiWith({}), examCache });
      call(actions.cachePosition, { context: context(1) });
      call(actions.cachePosition, { context: context(2) });
      call(actions.cachePosition, { context: context(3) });
      // One idle request for the burst; the later moves neither cancel it nor ask again.
      expect(requested.map((r) => r.timeout)).toEqual([POSITION_CACHE_MAX_DELAY_MS]);
      expect(POSITION_CACHE_MAX_DELAY_MS).toBe(1_000);
      expect(cancelled).toEqual([]);
      requested[0]!.task();
      await settle();
      expect(examCache.records.get(7)?.questionIndex).toBe(3);
      // The next move starts a new burst: a new request; a clear cancels it and nothing is written.
      call(actions.cachePosition, { context: context(4) });
      expect(requested).toHaveLength(2);
      call(actions.clearExamCache, {});
      expect(cancelled).toEqual([2]);
      requested[1]!.task();
      await settle();
      expect(examCache.records.size).toBe(0);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('a page with requestIdleCallback but no way to cancel it waits the Node way', async () => {
    let asked = 0;
    vi.stubGlobal('requestIdleCallback', () => (asked += 1));
    try {
      const examCache = createMemoryExamCache();
      call(examImplementations({ api: apiWith({}), examCache }).actions.cachePosition, { context: context(3) });
      await settle();
      expect(asked).toBe(0);
      expect(examCache.records.get(7)?.questionIndex).toBe(3);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('the tutorial child loads its setting through the same edge', async () => {
    const asked: number[] = [];
    const api = apiWith({ tutorialSetting: async (id) => (asked.push(id), Promise.reject(new ApiFailure('NETWORK_ERROR'))) });
    const tutorial = createActor(examImplementations({ api }).actors.tutorial, { input: { scheduleHistoryId: 7, questionCount: 3, timeLimitSeconds: 60 } }).start();
    await vi.waitFor(() => expect(tutorial.getSnapshot().value).toBe('failed'));
    expect(asked).toEqual([7]);
  });

  it('clears the cache, a failure ignored; removes acknowledged keys from the outbox', async () => {
    const outbox = createMemoryOutbox();
    await outbox.put(answer(101, 'k1'));
    await outbox.put(answer(102, 'k2'));
    await outbox.put(answer(103, 'k3'));
    const examCache = createMemoryExamCache();
    await examCache.put(cached);
    const { actions } = examImplementations({ api: apiWith({}), outbox, examCache });
    call(actions.removeFromOutbox, {}, { keys: ['k1', 'k3'] });
    call(actions.clearExamCache, {});
    await settle();
    expect([...outbox.entries.keys()]).toEqual(['k2']);
    expect(examCache.records.size).toBe(0);
    const failing = examImplementations({
      api: apiWith({}),
      outbox: { ...outbox, remove: () => Promise.reject(new Error('x')) },
      examCache: { ...examCache, clear: () => Promise.reject(new Error('x')) },
    });
    call(failing.actions.removeFromOutbox, {}, { keys: ['k2'] });
    call(failing.actions.clearExamCache, {});
    await settle();
    expect([...outbox.entries.keys()]).toEqual(['k2']);
  });

  it('asks for fullscreen, a refusal ignored; reports focus losses, a failure ignored', async () => {
    let asked = 0;
    const reports: unknown[] = [];
    const api = apiWith({ focusLoss: async (body) => void reports.push(body) });
    call(examImplementations({ api, requestFullscreen: () => void (asked += 1) }).actions.requestFullscreen, {});
    expect(asked).toBe(1);
    expect(() =>
      call(examImplementations({ api, requestFullscreen: () => { throw new Error('denied'); } }).actions.requestFullscreen, {}),
    ).not.toThrow();
    call(examImplementations({ api }).actions.requestFullscreen, {});
    call(examImplementations({ api }).actions.reportFocusLoss, {}, { scheduleHistoryId: 7, count: 2, at: serverTime });
    expect(reports).toEqual([{ schedule_history_id: 7, count: 2, at: serverTime }]);
    const refusing = apiWith({ focusLoss: () => Promise.reject(new ApiFailure('NETWORK_ERROR')) });
    call(examImplementations({ api: refusing }).actions.reportFocusLoss, {}, { scheduleHistoryId: 7, count: 1, at: serverTime });
    const without = { ...apiWith({}), focusLoss: undefined } as unknown as ApiPort;
    expect(() => call(examImplementations({ api: without }).actions.reportFocusLoss, {}, { scheduleHistoryId: 7, count: 1, at: serverTime })).not.toThrow();
    await settle();
  });
});

describe('the memory exam cache', () => {
  it('keeps one owner at a time, and gives a record only to its owner', async () => {
    const examCache = createMemoryExamCache();
    await examCache.put(cached);
    await examCache.put({ ...cached, scheduleHistoryId: 8 });
    expect(await examCache.get(7, owner)).toEqual(cached);
    expect(await examCache.get(7, 'someone else')).toBeNull();
    expect(await examCache.get(9, owner)).toBeNull();
    await examCache.put({ ...cached, owner: 'next', scheduleHistoryId: 9 });
    expect([...examCache.records.keys()]).toEqual([9]);
    // A copy: changing what was given or got does not change what is kept.
    const got = (await examCache.get(9, 'next'))!;
    got.questionIndex = 99;
    expect((await examCache.get(9, 'next'))!.questionIndex).toBe(1);
  });
});
