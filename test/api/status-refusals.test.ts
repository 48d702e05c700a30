/**
 * Which status refuses what, and with which code of seed section 8 (server/domain/
 * schedule-history.ts): login, Start, answers and Finish, written out status by status so a
 * status let through or a code swapped fails here. The API tests show each code on the wire for
 * a few statuses; this is every status against every rule.
 */
import { describe, expect, it } from 'vitest';
import { ScheduleHistoryStatus as S } from '../../contract/enums.ts';
import {
  answeringRefusal,
  finishRefusal,
  isFinished,
  loginRefusal,
  startRefusal,
  toStatus,
} from '../../server/domain/schedule-history.ts';

type Name = keyof typeof S;
const names = Object.keys(S) as Name[];

const COMPLETED = 'ER_SCHEDULE_HISTORY_COMPLETED';
const CANCELLED = 'ER_SCHEDULE_HISTORY_CANCELLED';

/** Per status: login, login back for results, Start, an answer, Finish (undefined: allowed). */
const rules: Record<Name, [string?, string?, string?, string?, string?]> = {
  PENDING: [undefined, undefined, undefined, 'EXAM_NOT_STARTED', 'EXAM_NOT_STARTED'],
  DOING: [undefined, undefined, undefined, undefined, undefined],
  COMPLETED: [COMPLETED, undefined, COMPLETED, COMPLETED, undefined],
  SCORING_COMPLETED: [COMPLETED, undefined, COMPLETED, COMPLETED, undefined],
  STATISTIC_COMPLETED: [COMPLETED, undefined, COMPLETED, COMPLETED, undefined],
  RESULT_PUBLIC: [COMPLETED, undefined, COMPLETED, COMPLETED, undefined],
  CANCELED_PENDING: [CANCELLED, CANCELLED, CANCELLED, CANCELLED, CANCELLED],
  CANCELED_COMPLETED: [CANCELLED, CANCELLED, CANCELLED, CANCELLED, CANCELLED],
  EXPIRED: ['EXPIRED', 'EXPIRED', 'EXPIRED', 'EXPIRED', 'EXPIRED'],
};

describe('what each status refuses', () => {
  for (const name of names) {
    it(name, () => {
      const status = S[name];
      const [login, forResults, start, answer, finish] = rules[name];
      expect(loginRefusal(status), 'login').toBe(login);
      expect(loginRefusal(status, { forResults: false }), 'login, not for results').toBe(login);
      expect(loginRefusal(status, { forResults: true }), 'login for results').toBe(forResults);
      expect(startRefusal(status), 'start').toBe(start);
      expect(answeringRefusal(status), 'answer').toBe(answer);
      expect(finishRefusal(status), 'finish').toBe(finish);
      expect(isFinished(status), 'finished').toBe(['COMPLETED', 'SCORING_COMPLETED', 'STATISTIC_COMPLETED', 'RESULT_PUBLIC'].includes(name));
    });
  }

  it('a number that is no status is refused with the generic error', () => {
    for (const refusal of [loginRefusal, startRefusal, answeringRefusal, finishRefusal]) {
      expect(refusal(9)).toBe('GENERIC_ERROR');
    }
  });
});

describe('toStatus', () => {
  it('takes the nine statuses as they are', () => {
    for (const name of names) expect(toStatus(S[name])).toBe(S[name]);
  });

  it('refuses anything else, naming it', () => {
    for (const bad of [-1, 9, 1.5, Number.NaN]) {
      expect(() => toStatus(bad), String(bad)).toThrow(`Not a schedule history status: ${bad}`);
    }
  });
});
