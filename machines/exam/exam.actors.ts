/**
 * The real side effects of the exam machine, built from the edge's ports: the ApiPort (each
 * call's response validated against the contract by src/api/client.ts), the OutboxPort, the
 * ExamCachePort and the TerminalPort. Loading and finishing's calls run inside the retry
 * machine, which tries them again on network failures and shows the retry dialog when that
 * takes too long.
 *
 * Offline resume: when loading the details or the questions fails on the network
 * and this login cached the running exam, the cache stands in for the server: the same
 * questions, the deadline and the clock offset last known, the answers the server was known to
 * hold (the outbox adds the rest). Any other failure, or no cache, is the server's answer as before.
 */
import { fromCallback, fromPromise } from 'xstate';
import type { HeartbeatRequest } from '../../contract/presence.ts';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import { type ExamDetails, type ExamQuestions } from '../../contract/exam.ts';
import { withRetry } from '../retry/retry.actors.ts';
import { createMemoryExamCache } from './memory-exam-cache.ts';
import { tutorialImplementations } from '../tutorial/tutorial.actors.ts';
import { tutorialMachine } from '../tutorial/tutorial.machine.ts';
import { createMemoryOutbox } from '../shared/memory-outbox.ts';
import { failureCodeOf, isNetworkFailure, type ApiPort, type OutboxEntry, type OutboxPort } from '../shared/ports.ts';
import { cachedExamOf, finalSaveRefusals, savedElsewhereOf } from './exam.rules.ts';
import type {
  AnswerToSave,
  CachedExam,
  ExamCachePort,
  ExamContext,
  ExamEvent,
  FlushResult,
  LoadedExam,
  LoadInput,
  SaveAcknowledgement,
  TerminalPort,
  TerminalSignal,
  WatchedSitting,
} from './exam.types.ts';

function toRequest(answer: AnswerToSave) {
  return {
    schedule_history_id: answer.scheduleHistoryId,
    question_id: answer.questionId,
    value: answer.value,
    idempotency_key: answer.key,
    answered_at: answer.answeredAt,
  };
}

export interface ExamDeps {
  api: ApiPort;
  /** Where answers wait for the server; in memory when not given (tests). */
  outbox?: OutboxPort;
  /** Overrides the retry machine's backoff window (ms); the UI-level tests use 0. */
  retryWindowMs?: number;
  /** Kiosk: the browser's fullscreen request (called inside the Start press); absent in tests. */
  requestFullscreen?: () => void;
  /** What the running exam keeps to resume offline; in memory when not given (tests). */
  examCache?: ExamCachePort;
  /** The page's ticks and wake-up signals; none when not given (tests send the events). */
  terminal?: TerminalPort;
  /** This terminal's clock (epoch ms); Date.now when not given. */
  now?: () => number;
}

/**
 * Runs `call`; on a network failure, `fallback` (the cached exam) answers instead when it has
 * something, otherwise the network failure stands (and the retry machine decides).
 */
async function orFromCache<T>(call: () => Promise<T>, fallback: () => Promise<T | null>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!isNetworkFailure(failureCodeOf(error))) throw error;
    const cached = await fallback().catch(() => null);
    if (cached === null) throw error;
    return cached;
  }
}

/** The server's time as this terminal last knew it, as the server would write it. */
function serverTimeOf(cached: CachedExam, now: number): string {
  return new Date(now + cached.clockOffsetMs).toISOString();
}

/** The exam details a cached exam stands for: still running, with the deadline last known. */
export function detailsFromCache(cached: CachedExam, now: number): ExamDetails {
  return { ...cached.details, status: ScheduleHistoryStatus.DOING, deadline_at: cached.deadlineAt, server_time: serverTimeOf(cached, now) };
}

/** The questions and answers a cached exam stands for. */
export function questionsFromCache(cached: CachedExam, now: number): ExamQuestions {
  return { questions: cached.questions, answers: cached.answers, deadline_at: cached.deadlineAt, server_time: serverTimeOf(cached, now) };
}

/** At most this long after a report, the position is cached even on a page that is never idle. */
export const POSITION_CACHE_MAX_DELAY_MS = 1_000;

type IdleScheduler = {
  requestIdleCallback?: (task: () => void, options: { timeout: number }) => number;
  cancelIdleCallback?: (id: number) => void;
};

/**
 * Runs `task` when the page is next idle (requestIdleCallback, at most POSITION_CACHE_MAX_DELAY_MS
 * later), or after the current task where there is no such thing (Node); returns its cancel.
 */
function whenIdle(task: () => void): () => void {
  const { requestIdleCallback, cancelIdleCallback } = globalThis as IdleScheduler;
  if (requestIdleCallback && cancelIdleCallback) {
    const id = requestIdleCallback(task, { timeout: POSITION_CACHE_MAX_DELAY_MS });
    return () => cancelIdleCallback(id);
  }
  const timer = setTimeout(task, 0);
  return () => clearTimeout(timer);
}

export function examImplementations(deps: ExamDeps) {
  const { api, outbox = createMemoryOutbox(), examCache = createMemoryExamCache(), now = () => Date.now() } = deps;
  const cachedFor = (input: LoadInput) => examCache.get(input.scheduleHistoryId, input.owner);
  /** A move's cache write waiting for the page to be idle (its cancel), or null. */
  let positionWaiting: (() => void) | null = null;
  /** The exam as the last move left it: what the waiting write caches (one write per burst). */
  let latestPosition: ExamContext | null = null;
  const forgetPosition = () => {
    positionWaiting?.();
    positionWaiting = null;
    latestPosition = null;
  };
  // Fire and forget: a write that fails leaves the last one (resuming offline is best effort).
  const cacheNow = (context: ExamContext) => {
    forgetPosition(); // this write carries the question on screen too
    const exam = cachedExamOf(context);
    if (exam) void examCache.put(exam).catch(() => undefined);
  };
  return {
    actors: {
      loadExamDetails: withRetry(
        fromPromise(({ input }: { input: unknown }) => {
          const load = input as LoadInput;
          return orFromCache(
            () => api.examDetails(load.scheduleHistoryId),
            async () => {
              const cached = await cachedFor(load);
              return cached && detailsFromCache(cached, now());
            },
          );
        }),
        deps.retryWindowMs,
      ),
      startExam: fromPromise(({ input }: { input: { scheduleHistoryId: number } }) =>
        api.startExam(input.scheduleHistoryId),
      ),
      loadQuestions: withRetry(
        fromPromise(async ({ input }: { input: unknown }): Promise<LoadedExam> => {
          const load = input as LoadInput;
          const [loaded, unsent] = await Promise.all([
            orFromCache<ExamQuestions & { keptClockOffsetMs?: number }>(
              () => api.examQuestions(load.scheduleHistoryId),
              async () => {
                const cached = await cachedFor(load);
                return cached && { ...questionsFromCache(cached, now()), keptClockOffsetMs: cached.clockOffsetMs };
              },
            ),
            // An outbox that cannot be read holds nothing this page can send.
            outbox.list(load.scheduleHistoryId).catch((): OutboxEntry[] => []),
          ]);
          return { ...loaded, unsent };
        }),
        deps.retryWindowMs,
      ),
      // An outbox that cannot be read holds nothing this page can send.
      loadUnsentAnswers: fromPromise(({ input }: { input: { scheduleHistoryId: number } }) =>
        outbox.list(input.scheduleHistoryId).catch((): OutboxEntry[] => []),
      ),
      storeAnswer: fromPromise(async ({ input }: { input: OutboxEntry }) => {
        await outbox.put(input);
        return input.key;
      }),
      saveAnswer: fromPromise(async ({ input }: { input: AnswerToSave }): Promise<SaveAcknowledgement> => {
        const response = await api.saveAnswer(toRequest(input));
        return {
          key: response.idempotency_key,
          serverTime: response.server_time,
          outcome: response.outcome,
          deadlineAt: response.deadline_at,
          ...(response.current_value === undefined ? {} : { currentValue: response.current_value }),
        };
      }),
      sendHeartbeat: fromPromise(({ input }: { input: HeartbeatRequest }) => api.heartbeat(input)),
      loadServerAnswers: fromPromise(({ input }: { input: { scheduleHistoryId: number } }) => api.examQuestions(input.scheduleHistoryId)),
      // Where the edge cannot tell (no terminal, or one without the question), nothing to wait for.
      watchOfflineShell: fromCallback<ExamEvent>(({ sendBack }) => {
        const shellReady = deps.terminal?.shellReady;
        if (!shellReady) return void sendBack({ type: 'shell.installed' });
        const waiting = new AbortController();
        // A wait that fails (its module could not load) leaves it to the time-out.
        shellReady.call(deps.terminal, waiting.signal).then(
          () => waiting.signal.aborted || sendBack({ type: 'shell.installed' }),
          () => undefined,
        );
        return () => waiting.abort();
      }),
      watchTerminal: fromCallback<TerminalSignal, WatchedSitting>(({ sendBack, input }) =>
        deps.terminal?.watch((signal) => sendBack(signal), input),
      ),
      flushAnswers: withRetry(
        fromPromise(async ({ input }: { input: unknown }): Promise<FlushResult> => {
          const result: FlushResult = { saved: [], refused: [] };
          // One after another: the seed's calls run in order (section 7), never in parallel.
          for (const answer of input as AnswerToSave[]) {
            try {
              const response = await api.saveAnswer(toRequest(answer));
              result.saved.push(response.idempotency_key);
            } catch (error) {
              // An answer refused for good (given after the deadline) must not block Finish;
              // anything else (the network) fails the flush, and the retry machine decides.
              if (!finalSaveRefusals.has(failureCodeOf(error))) throw error;
              result.refused.push(answer.key);
            }
          }
          return result;
        }),
        deps.retryWindowMs,
      ),
      finishExam: withRetry(
        fromPromise(({ input }: { input: unknown }) => api.finishExam((input as { scheduleHistoryId: number }).scheduleHistoryId)),
        deps.retryWindowMs,
      ),
      tutorial: tutorialMachine.provide(tutorialImplementations({ api })),
    },
    actions: {
      cacheExam: ({ context }: { context: ExamContext }) => cacheNow(context),
      // The position as reported (after the pupil's pause, with a flag, as answering ends), written
      // when the page is idle (the IndexedDB work is off any frame): the first report asks for the
      // idle time once, later ones before it comes only leave their position for it.
      cachePosition: ({ context }: { context: ExamContext }) => {
        latestPosition = context;
        positionWaiting ??= whenIdle(() => {
          const latest = latestPosition;
          positionWaiting = null;
          latestPosition = null;
          if (latest) cacheNow(latest);
        });
      },
      // Fire and forget: a window not told learns the server's answers when it is shown again.
      announceSaved: ({ context }: { context: ExamContext }, params: { key: string }) => {
        const answer = savedElsewhereOf(context, params.key);
        if (answer) deps.terminal?.announce?.(answer);
      },
      // Fire and forget: a window not told keeps its own measurement.
      shareClock: ({ context }: { context: ExamContext }) => {
        deps.terminal?.shareClock?.({ scheduleHistoryId: context.scheduleHistoryId, owner: context.answerSeed, clockOffsetMs: context.clockOffsetMs });
      },
      clearExamCache: () => {
        forgetPosition();
        void examCache.clear().catch(() => undefined);
      },
      // Fire and forget: an entry left behind is only sent again, and the server knows its key.
      removeFromOutbox: (_: unknown, params: { keys: readonly string[] }) => {
        for (const key of params.keys) void outbox.remove(key).catch(() => undefined);
      },
      // Kiosk: a refused or unsupported fullscreen is ignored.
      requestFullscreen: () => {
        try {
          deps.requestFullscreen?.();
        } catch {
          // ignored: the exam works without fullscreen
        }
      },
      // Fire and forget: focus-loss reports never block or fail the exam.
      reportFocusLoss: (_: unknown, params: { scheduleHistoryId: number; count: number; at: string }) => {
        void api
          .focusLoss?.({ schedule_history_id: params.scheduleHistoryId, count: params.count, at: params.at })
          .catch(() => undefined);
      },
    },
  };
}
