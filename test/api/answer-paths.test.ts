/**
 * One table of cases through the three ways to the save's rules (server/domain/answers/rules.ts),
 * on PGlite and on PostgreSQL: `saveAnswer` (server/domain/answers/save.ts) told to try the one
 * statement, the batch, or the careful way first. Each way must give every case the same
 * outcome (saved, superseded with the value held, duplicate, late) or the same refusal, leave
 * the same answers held, and write nothing on a refusal; and a statement must take every save
 * it may (a saved or superseded answer is taken by the way tried, never handed to the careful
 * way), while a resend is acknowledged by the careful way.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, ne } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { ScheduleHistoryStatus as S } from '../../contract/enums.ts';
import { defaultSettings } from '../../server/config.ts';
import { answerArchive, answers, examinees, questions, scheduleHistories } from '../../server/db/schema.ts';
import type { SaveAnswerInput, SavePath } from '../../server/domain/answers/rules.ts';
import { saveAnswer, type SaveAnswerCaller } from '../../server/domain/answers/save.ts';
import { DomainError } from '../../server/domain/errors.ts';
import { revokeAllOfExaminee } from '../../server/domain/tokens.ts';
import { addStaff, staffLogin, terminal } from '../helpers/admin-api.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { useApi, type ApiContext } from '../helpers/server-api.ts';
import { addSitting, answerKey, historyRow, snapshotTables } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
const paths: SavePath[] = ['statement', 'batch', 'careful'];
const WINDOW_MS = defaultSettings.uploadWindowMs;
const MINUTE = 60_000;

/** A pupil who pressed Start on a terminal of their own, with the paper's questions. */
async function sitting(api: ApiContext, examCode = 'EN-1') {
  const pupil = await addSitting(api.db, { organization: {}, examCode });
  const lab = terminal(api);
  const sat = await lab.sit(pupil.loginCode);
  const history = await historyRow(api.db, sat.scheduleHistoryId);
  const questionsOf = await answerKey(api.db, pupil.examId);
  return {
    pupil,
    lab,
    token: sat.token,
    id: sat.scheduleHistoryId,
    questions: questionsOf,
    startedAt: history.startedAt!,
    deadlineAt: history.deadlineAt!,
  };
}
type Sitting = Awaited<ReturnType<typeof sitting>>;

/** A value each question takes: its right answer. */
const right = (q: { correctAnswer: unknown }) => String(q.correctAnswer);

function input(s: Sitting, questionIndex: number, value: string, answeredAt: Date, key: string = randomUUID()): SaveAnswerInput {
  return { scheduleHistoryId: s.id, questionId: s.questions[questionIndex]!.id, value, idempotencyKey: key, answeredAt };
}

/** Saved beforehand, the usual way (the API), so each way meets the same held answers. */
async function savedBefore(s: Sitting, given: SaveAnswerInput, token = s.token) {
  const response = await s.lab.call('POST', '/api/exam/answers', token, {
    schedule_history_id: given.scheduleHistoryId,
    question_id: given.questionId,
    value: given.value,
    idempotency_key: given.idempotencyKey,
    answered_at: given.answeredAt.toISOString(),
  });
  expect(response.status).toBe(201);
}

/** A proctor moves the pupil to another terminal (the sitting's terminal is then the one moved away from). */
async function moved(api: ApiContext, s: Sitting) {
  const proctor = await staffLogin(api, await addStaff(api.db, s.pupil));
  const response = await api.call('POST', `/api/admin/sittings/${s.id}/move-terminal`, { token: proctor, body: { reason: 'The terminal broke' } });
  expect(response.status).toBe(200);
}

/** One save to make: who sends it, what, when it arrives (the test clock's now unless said) and the upload window (the default's unless said). */
type Save = { caller: SaveAnswerCaller; input: SaveAnswerInput; now?: Date; uploadWindowMs?: number };
/**
 * What every way must give: an outcome (a superseded one with the value held; `by: 'careful'`
 * when only the careful way acknowledges it), or a refusal.
 */
type Expected =
  | { outcome: 'saved' | 'superseded' | 'duplicate'; late?: boolean; by?: 'careful' }
  | { code: string; field?: string };

type Case = {
  name: string;
  /** Sets the case up on a fresh sitting and says which save to make. */
  arrange(api: ApiContext, s: Sitting): Promise<Save>;
  expected: Expected;
  /** The values the sitting holds afterwards, by question index. */
  held: (s: Sitting) => Record<number, string>;
};

const own = (s: Sitting): SaveAnswerCaller => ({ token: s.token, deviceToken: s.lab.deviceToken });

const cases: Case[] = [
  {
    name: 'a first answer is saved',
    arrange: async (api, s) => ({ caller: own(s), input: input(s, 0, right(s.questions[0]!), api.clock.now()) }),
    expected: { outcome: 'saved', late: false },
    held: (s) => ({ 0: right(s.questions[0]!) }),
  },
  {
    name: 'a later answer replaces the one held',
    async arrange(api, s) {
      await savedBefore(s, input(s, 0, '', api.clock.now()));
      return { caller: own(s), input: input(s, 0, right(s.questions[0]!), new Date(api.clock.now().getTime() + 1000)) };
    },
    expected: { outcome: 'saved', late: false },
    held: (s) => ({ 0: right(s.questions[0]!) }),
  },
  {
    name: 'an earlier answer arriving later is superseded by the newer one held (newest wins)',
    async arrange(api, s) {
      await savedBefore(s, input(s, 0, right(s.questions[0]!), api.clock.now()));
      return { caller: own(s), input: input(s, 0, '', new Date(api.clock.now().getTime() - 1000)) };
    },
    expected: { outcome: 'superseded', late: false },
    held: (s) => ({ 0: right(s.questions[0]!) }),
  },
  {
    name: 'a resend of the same key and answer is a duplicate',
    async arrange(api, s) {
      const given = input(s, 0, right(s.questions[0]!), api.clock.now());
      await savedBefore(s, given);
      return { caller: own(s), input: { ...given } };
    },
    expected: { outcome: 'duplicate', late: false, by: 'careful' },
    held: (s) => ({ 0: right(s.questions[0]!) }),
  },
  {
    name: 'the same key for a different answer is refused',
    async arrange(api, s) {
      const given = input(s, 0, right(s.questions[0]!), api.clock.now());
      await savedBefore(s, given);
      return { caller: own(s), input: input(s, 1, '', api.clock.now(), given.idempotencyKey) };
    },
    expected: { code: 'ER_DUP_ENTRY' },
    held: (s) => ({ 0: right(s.questions[0]!) }),
  },
  {
    name: 'given before the deadline, arriving after it inside the upload window: saved, late',
    arrange: async (_api, s) => ({ caller: own(s), input: input(s, 0, '', s.deadlineAt), now: new Date(s.deadlineAt.getTime() + MINUTE) }),
    expected: { outcome: 'saved', late: true },
    held: () => ({ 0: '' }),
  },
  {
    name: 'given after the deadline: time over',
    arrange: async (_api, s) => ({
      caller: own(s),
      input: input(s, 0, '', new Date(s.deadlineAt.getTime() + 1)),
      now: new Date(s.deadlineAt.getTime() + 1),
    }),
    expected: { code: 'TIME_END' },
    held: () => ({}),
  },
  {
    name: 'arriving after the upload window: time over',
    // A window of a minute: the token outlives it (after the default's, it has expired too).
    arrange: async (_api, s) => ({
      caller: own(s),
      input: input(s, 0, '', s.deadlineAt),
      now: new Date(s.deadlineAt.getTime() + MINUTE + 1),
      uploadWindowMs: MINUTE,
    }),
    expected: { code: 'TIME_END' },
    held: () => ({}),
  },
  {
    name: 'given before the start, beyond the clock tolerance',
    arrange: async (_api, s) => ({ caller: own(s), input: input(s, 0, '', new Date(s.startedAt.getTime() - 2 * 60_000 - 1)) }),
    expected: { code: 'VALIDATION_ERROR', field: 'answered_at' },
    held: () => ({}),
  },
  {
    name: 'another pupil’s sitting',
    async arrange(api, s) {
      const other = await sitting(api);
      return { caller: own(s), input: input(other, 0, '', api.clock.now()) };
    },
    expected: { code: 'NOT_FOUND' },
    held: () => ({}),
  },
  {
    name: 'a completed sitting',
    async arrange(api, s) {
      await api.db.update(scheduleHistories).set({ status: S.COMPLETED }).where(eq(scheduleHistories.id, s.id));
      return { caller: own(s), input: input(s, 0, '', api.clock.now()) };
    },
    expected: { code: 'ER_SCHEDULE_HISTORY_COMPLETED' },
    held: () => ({}),
  },
  {
    name: 'a key archived by a reset of this sitting',
    async arrange(api, s) {
      const at = api.clock.now();
      const key = randomUUID();
      await api.db.insert(answerArchive).values({
        scheduleHistoryId: s.id,
        questionId: s.questions[0]!.id,
        value: '',
        answeredAt: at,
        receivedAt: at,
        late: false,
        supersededAt: at,
        resetNumber: 1,
        idempotencyKey: key,
      });
      await api.db.update(scheduleHistories).set({ flagRetake: true }).where(eq(scheduleHistories.id, s.id));
      return { caller: own(s), input: input(s, 0, '', at, key) };
    },
    expected: { code: 'ARCHIVE_KEY' },
    held: () => ({}),
  },
  {
    name: 'a question of another exam',
    async arrange(api, s) {
      const [foreign] = await api.db
        .select({ id: questions.id })
        .from(questions)
        .where(ne(questions.examId, s.pupil.examId))
        .limit(1);
      return { caller: own(s), input: { ...input(s, 0, '', api.clock.now()), questionId: foreign!.id } };
    },
    expected: { code: 'VALIDATION_ERROR', field: 'question_id' },
    held: () => ({}),
  },
  {
    name: 'a value its question type does not take',
    async arrange(api, s) {
      const [choice] = await api.db
        .select({ number: questions.number })
        .from(questions)
        .where(and(eq(questions.examId, s.pupil.examId), eq(questions.type, 'single_choice')))
        .orderBy(questions.number)
        .limit(1);
      const index = s.questions.findIndex((q) => q.number === choice!.number);
      return { caller: own(s), input: input(s, index, 'not-a-choice', api.clock.now()) };
    },
    expected: { code: 'VALIDATION_ERROR', field: 'value' },
    held: () => ({}),
  },
  {
    name: 'from a terminal other than the one that pressed Start',
    arrange: async (api, s) => ({ caller: { token: s.token, deviceToken: `terminal-${randomUUID()}` }, input: input(s, 0, '', api.clock.now()) }),
    expected: { code: 'INCORRECT_DEVICE' },
    held: () => ({}),
  },
  {
    name: 'without a token',
    arrange: async (api, s) => ({ caller: { token: undefined, deviceToken: s.lab.deviceToken }, input: input(s, 0, '', api.clock.now()) }),
    expected: { code: 'NOT_LOGGED_IN' },
    held: () => ({}),
  },
  {
    name: 'with a token nobody was given',
    arrange: async (api, s) => ({ caller: { token: 'A'.repeat(43), deviceToken: s.lab.deviceToken }, input: input(s, 0, '', api.clock.now()) }),
    expected: { code: 'NOT_LOGGED_IN' },
    held: () => ({}),
  },
  {
    name: 'a pupil whose account was disabled',
    async arrange(api, s) {
      await api.db.update(examinees).set({ disabled: true }).where(eq(examinees.id, s.pupil.examineeId));
      return { caller: own(s), input: input(s, 0, '', api.clock.now()) };
    },
    expected: { code: 'NOT_LOGGED_IN' },
    held: () => ({}),
  },
  {
    name: 'a token revoked by a reset for a retake',
    async arrange(api, s) {
      await revokeAllOfExaminee(api.db, s.pupil.examineeId, api.clock.now(), 'retake');
      return { caller: own(s), input: input(s, 0, '', api.clock.now()) };
    },
    expected: { code: 'ER_SCHEDULE_HISTORY_RETAKE' },
    held: () => ({}),
  },
  {
    name: 'moved away: an answer given before the move is taken',
    async arrange(api, s) {
      const before = api.clock.now();
      api.clock.advance(MINUTE);
      await moved(api, s);
      api.clock.advance(MINUTE);
      return { caller: own(s), input: input(s, 0, right(s.questions[0]!), before) };
    },
    expected: { outcome: 'saved', late: false },
    held: (s) => ({ 0: right(s.questions[0]!) }),
  },
  {
    name: 'moved away: an answer given before the move, older than the one held, is superseded',
    async arrange(api, s) {
      const before = api.clock.now();
      await savedBefore(s, input(s, 0, right(s.questions[0]!), new Date(before.getTime() + 1000)));
      api.clock.advance(MINUTE);
      await moved(api, s);
      api.clock.advance(MINUTE);
      return { caller: own(s), input: input(s, 0, '', before) };
    },
    expected: { outcome: 'superseded', late: false },
    held: (s) => ({ 0: right(s.questions[0]!) }),
  },
  {
    name: 'moved away: an answer given at the move is refused',
    async arrange(api, s) {
      api.clock.advance(MINUTE);
      await moved(api, s);
      return { caller: own(s), input: input(s, 0, '', api.clock.now()) };
    },
    expected: { code: 'INCORRECT_DEVICE' },
    held: () => ({}),
  },
  {
    name: 'moved away: the token from another terminal is refused, even for an answer given before the move',
    async arrange(api, s) {
      const before = api.clock.now();
      api.clock.advance(MINUTE);
      await moved(api, s);
      return { caller: { token: s.token, deviceToken: `terminal-${randomUUID()}` }, input: input(s, 0, '', before) };
    },
    expected: { code: 'INCORRECT_DEVICE' },
    held: () => ({}),
  },
];

/** The outcome or refusal of one save, as the table states it. */
async function attempt(api: ApiContext, path: SavePath, save: Save) {
  try {
    const result = await saveAnswer(api.db, save.caller, save.input, {
      now: save.now ?? api.clock.now(),
      uploadWindowMs: save.uploadWindowMs ?? WINDOW_MS,
      path,
    });
    return { ...result.outcome, deadlineAt: result.outcome.deadlineAt.toISOString(), by: result.path };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { code: error.code, ...(error.issues ? { field: error.issues[0]?.field } : {}) };
  }
}

describe.each(kinds)('one table of save cases through every way, on %s', (kind) => {
  const api = useApi(kind);

  describe.each(paths)('tried first: %s', (path) => {
    test.each(cases)('$name', async (c) => {
      const s = await sitting(api);
      const save = await c.arrange(api, s);
      const before = 'code' in c.expected ? await snapshotTables(api.db) : undefined;

      const got = await attempt(api, path, save);

      const { expected } = c;
      if ('code' in expected) {
        expect(got).toEqual({ code: expected.code, ...(expected.field ? { field: expected.field } : {}) });
        expect(await snapshotTables(api.db)).toEqual(before);
      } else {
        const held = c.held(s)[s.questions.findIndex((q) => q.id === save.input.questionId)];
        expect(got).toEqual({
          outcome: expected.outcome,
          late: expected.late ?? false,
          deadlineAt: s.deadlineAt.toISOString(),
          ...(expected.outcome === 'superseded' ? { currentValue: held } : {}),
          by: expected.by ?? path,
        });
      }
      const rows = await api.db.select().from(answers).where(eq(answers.scheduleHistoryId, s.id));
      const heldNow = Object.fromEntries(rows.map((row) => [s.questions.findIndex((q) => q.id === row.questionId), row.value]));
      expect(heldNow).toEqual(c.held(s));
    });
  });
});
