/**
 * HTTP load for the benches: autocannon (devDependency, exact version in package.json) posting
 * answer saves over keep-alive connections, each request a new answer revision of one of the
 * pupils (round robin, so concurrent requests are of different pupils as on exam day; per
 * pupil the questions in turn, each with a valid value and a later answered_at than the last).
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';

export type LoadPupil = { token: string; device: string; scheduleHistoryId: number; answers: { questionId: number; value: string }[] };

export type LoadResult = {
  /** 2xx answers per second. */
  savesPerSecond: number;
  /** Latency percentiles in milliseconds. */
  p50: number;
  p99: number;
  /** Requests that failed: non-2xx answers (by status), socket errors and time-outs. */
  failures: Record<string, number>;
};

type AutocannonRequest = { method: string; path: string; headers?: Record<string, string>; body?: string };
type AutocannonResult = {
  duration: number;
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
  latency: { p50: number; p99: number };
  statusCodeStats: Record<string, { count: number }>;
};
type Autocannon = (
  options: {
    url: string;
    connections: number;
    duration: number;
    requests: { method: string; path: string; setupRequest: (request: AutocannonRequest) => AutocannonRequest }[];
  },
  done: (error: Error | null, result: AutocannonResult) => void,
) => unknown;

// autocannon ships no types; this is the part of its programmatic API used here.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** Posts answer saves to `${url}/api/exam/answers` for `seconds` over `connections` connections. */
export function postAnswers(url: string, pupils: readonly LoadPupil[], options: { connections: number; seconds: number }): Promise<LoadResult> {
  if (pupils.length === 0) throw new Error('postAnswers: no pupils');
  let turn = 0;
  const cursor = pupils.map(() => ({ question: 0, lastAt: 0 }));
  const setupRequest = (request: AutocannonRequest): AutocannonRequest => {
    const index = turn++ % pupils.length;
    const pupil = pupils[index]!;
    const state = cursor[index]!;
    const answer = pupil.answers[state.question++ % pupil.answers.length]!;
    state.lastAt = Math.max(Date.now(), state.lastAt + 1);
    return {
      ...request,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        authorization: `Bearer ${pupil.token}`,
        'x-device-token': pupil.device,
      },
      body: JSON.stringify({
        schedule_history_id: pupil.scheduleHistoryId,
        question_id: answer.questionId,
        value: answer.value,
        idempotency_key: randomUUID(),
        answered_at: new Date(state.lastAt).toISOString(),
      }),
    };
  };
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections: options.connections,
        duration: options.seconds,
        requests: [{ method: 'POST', path: '/api/exam/answers', setupRequest }],
      },
      (error, result) => {
        if (error) return reject(error);
        const failures: Record<string, number> = {};
        for (const [status, { count }] of Object.entries(result.statusCodeStats)) {
          if (!status.startsWith('2')) failures[`HTTP ${status}`] = Number(count);
        }
        if (result.errors > 0) failures.errors = result.errors;
        if (result.timeouts > 0) failures.timeouts = result.timeouts;
        resolve({
          savesPerSecond: result['2xx'] / result.duration,
          p50: result.latency.p50,
          p99: result.latency.p99,
          failures,
        });
      },
    );
  });
}
