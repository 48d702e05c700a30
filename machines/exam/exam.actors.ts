/**
 * The real side effects of the exam machine, built from the edge's ApiPort.
 * Each call's response is validated by the port (src/api/client.ts) against the contract.
 */
import { fromPromise } from 'xstate';
import type { ApiPort } from '../shared/ports.ts';
import type { AnswerToSave } from './exam.types.ts';

function toRequest(answer: AnswerToSave) {
  return {
    schedule_history_id: answer.scheduleHistoryId,
    question_id: answer.questionId,
    value: answer.value,
    idempotency_key: answer.key,
    answered_at: answer.answeredAt,
  };
}

export function examImplementations(deps: { api: ApiPort }) {
  return {
    actors: {
      loadExamDetails: fromPromise(({ input }: { input: { scheduleHistoryId: number } }) =>
        deps.api.examDetails(input.scheduleHistoryId),
      ),
      startExam: fromPromise(({ input }: { input: { scheduleHistoryId: number } }) =>
        deps.api.startExam(input.scheduleHistoryId),
      ),
      loadQuestions: fromPromise(({ input }: { input: { scheduleHistoryId: number } }) =>
        deps.api.examQuestions(input.scheduleHistoryId),
      ),
      saveAnswer: fromPromise(async ({ input }: { input: AnswerToSave }) => {
        const response = await deps.api.saveAnswer(toRequest(input));
        return { key: response.idempotency_key, serverTime: response.server_time };
      }),
      flushAnswers: fromPromise(async ({ input }: { input: AnswerToSave[] }) => {
        const keys: string[] = [];
        // One after another: the seed's calls run in order (section 7), never in parallel.
        for (const answer of input) {
          const response = await deps.api.saveAnswer(toRequest(answer));
          keys.push(response.idempotency_key);
        }
        return keys;
      }),
      finishExam: fromPromise(({ input }: { input: { scheduleHistoryId: number } }) =>
        deps.api.finishExam(input.scheduleHistoryId),
      ),
    },
  };
}
