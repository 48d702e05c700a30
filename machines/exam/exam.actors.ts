/**
 * The real side effects of the exam machine, built from the edge's ports: the ApiPort (each
 * call's response validated against the contract by src/api/client.ts) and the OutboxPort.
 * Loading and finishing's calls run inside the retry machine, which tries them again on
 * network failures and shows the retry dialog when that takes too long.
 */
import { fromPromise, type AnyActorLogic, type PromiseActorLogic } from 'xstate';
import { retryMachine, withinWindow } from '../retry/retry.machine.ts';
import type { RetryInput, RetryOutput } from '../retry/retry.types.ts';
import { createMemoryOutbox } from '../shared/memory-outbox.ts';
import { failureCodeOf, type ApiPort, type OutboxEntry, type OutboxPort } from '../shared/ports.ts';
import { finalSaveRefusals } from './exam.machine.ts';
import type { AnswerToSave, FlushResult, LoadedExam } from './exam.types.ts';

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
}

/**
 * The call inside the retry machine. The exam machine declares these actors by what they
 * output (RetryOutput) so tests can fake them as promises; the child is really the machine.
 */
function withRetry(call: AnyActorLogic, windowMs: number | undefined): PromiseActorLogic<RetryOutput, RetryInput> {
  const provided = retryMachine.provide({
    actors: { call },
    ...(windowMs === undefined ? {} : { guards: { isWithinWindow: ({ context }) => withinWindow(context, windowMs) } }),
  });
  return provided as unknown as PromiseActorLogic<RetryOutput, RetryInput>;
}

export function examImplementations(deps: ExamDeps) {
  const { api, outbox = createMemoryOutbox() } = deps;
  return {
    actors: {
      loadExamDetails: withRetry(
        fromPromise(({ input }: { input: unknown }) => api.examDetails((input as { scheduleHistoryId: number }).scheduleHistoryId)),
        deps.retryWindowMs,
      ),
      startExam: fromPromise(({ input }: { input: { scheduleHistoryId: number } }) =>
        api.startExam(input.scheduleHistoryId),
      ),
      loadQuestions: withRetry(
        fromPromise(async ({ input }: { input: unknown }): Promise<LoadedExam> => {
          const { scheduleHistoryId } = input as { scheduleHistoryId: number };
          const [loaded, unsent] = await Promise.all([
            api.examQuestions(scheduleHistoryId),
            // An outbox that cannot be read holds nothing this page can send.
            outbox.list(scheduleHistoryId).catch((): OutboxEntry[] => []),
          ]);
          return { ...loaded, unsent };
        }),
        deps.retryWindowMs,
      ),
      storeAnswer: fromPromise(async ({ input }: { input: OutboxEntry }) => {
        await outbox.put(input);
        return input.key;
      }),
      saveAnswer: fromPromise(async ({ input }: { input: AnswerToSave }) => {
        const response = await api.saveAnswer(toRequest(input));
        return { key: response.idempotency_key, serverTime: response.server_time };
      }),
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
    },
    actions: {
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
