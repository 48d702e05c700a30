/**
 * Example data for view tests: exam details and questions as the contract shapes them, and the
 * apis of the exam connect's screens around them.
 */
import { vi } from 'vitest';
import type { ExamDetails, Question } from '../../contract/exam.ts';
import { DEFAULT_TIME_LIMIT_SECONDS } from '../../machines/exam/exam.constants.ts';
import type { ExamEndApi, ExamScreenApi, ExamStartApi, LoginConfirmApi } from '../../machines/exam/exam.connect.ts';

export const examDetails: ExamDetails = {
  schedule_history_id: 42,
  examinee_name: 'Aiko Tanaka',
  subject: { id: 1, name: 'English' },
  level: { id: 3, name: 'Level 3' },
  exam: { id: 7, title: 'English level 3', question_count: 3, time_limit_seconds: 2400 },
  status: 0,
  started_at: null,
  deadline_at: null,
  server_time: '2026-11-22T09:00:00.000Z',
};

export const questions: Question[] = [
  {
    id: 101,
    number: 1,
    type: 'single_choice',
    prompt: 'Which word means "big"?',
    choices: [
      { id: 'a', label: 'large' },
      { id: 'b', label: 'small' },
      { id: 'c', label: 'quiet' },
    ],
  },
  { id: 102, number: 2, type: 'text', prompt: 'Write the opposite of "hot".', choices: [] },
  {
    id: 103,
    number: 3,
    type: 'single_choice',
    prompt: 'Choose the colour of the sky on a clear day.',
    choices: [
      { id: 'a', label: 'green' },
      { id: 'b', label: 'blue' },
    ],
  },
];

/**
 * The exam screen's api (the exam connect's `exam` part) as a view test gives it: answering the
 * example questions from the first, nothing answered, 40 minutes left; every event a `vi.fn()`.
 */
export function examScreenApi(overrides: Partial<ExamScreenApi> = {}): ExamScreenApi {
  return {
    status: 'answering',
    questions,
    index: 0,
    answers: {},
    deadlineAt: Date.now() + 40 * 60_000,
    clockOffsetMs: 0,
    timeLimitSeconds: DEFAULT_TIME_LIMIT_SECONDS,
    confirmingFinish: false,
    error: null,
    flagged: [],
    listOpen: false,
    keyboardOpen: true,
    upperCase: false,
    draft: null,
    retry: vi.fn(),
    answer: vi.fn(),
    type: vi.fn(),
    commitDraft: vi.fn(),
    next: vi.fn(),
    previous: vi.fn(),
    select: vi.fn(),
    flag: vi.fn(),
    toggleList: vi.fn(),
    toggleKeyboard: vi.fn(),
    toggleUpperCase: vi.fn(),
    requestFinish: vi.fn(),
    confirmFinish: vi.fn(),
    cancelFinish: vi.fn(),
    focusLost: vi.fn(),
    ...overrides,
  };
}

/** "Is this you?" (the exam connect's `loginConfirm`) with the example details. */
export function loginConfirmApi(overrides: Partial<LoginConfirmApi> = {}): LoginConfirmApi {
  return { status: 'ready', details: examDetails, error: null, confirm: vi.fn(), reject: vi.fn(), retry: vi.fn(), ...overrides };
}

/** "Ready to start" (the exam connect's `examStart`): 40 minutes, not pressed yet. */
export function examStartApi(overrides: Partial<ExamStartApi> = {}): ExamStartApi {
  return { busy: false, offline: null, error: null, timeLimitMinutes: 40, start: vi.fn(), startAnyway: vi.fn(), ...overrides };
}

/** The end of the test (the exam connect's `examEnd`): sent, no receipt, Log out offered. */
export function examEndApi(overrides: Partial<ExamEndApi> = {}): ExamEndApi {
  return { outcome: 'sent', receipt: null, errorCode: null, movedAway: null, canLogout: true, logout: vi.fn(), ...overrides };
}
