/**
 * Maps sittings to the contract's shapes (contract/). Database values that the
 * contract narrows (subject ids, statuses, login methods) are checked here, so a bad row fails
 * loudly on the server instead of sending the client something it would reject.
 */
import { titleIn, type CallerLanguages } from './exam-titles.ts';
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import { type ExamDetails, type Question } from '../../contract/exam.ts';
import { type ExamineeInfo, type ExamListItem } from '../../contract/session.ts';
import { questions } from '../db/schema.ts';
import { isReleased } from './presence.ts';
import { toStatus } from './schedule-history.ts';
import { isStepLocked, type Sitting } from './sitting.ts';

type SubjectId = ExamineeInfo['subject_id'];
type LoginType = ExamineeInfo['login_type'];
type OrgLoginMethod = ExamineeInfo['org_login_method'];

export function examineeInfo(sitting: Sitting, loginType: LoginType): ExamineeInfo {
  const { history, organization, examinee } = sitting;
  return {
    user_key: history.userKey,
    test_key: history.testKey,
    login_type: loginType,
    examinee_name: examinee.name,
    level_id: sitting.level.id,
    subject_id: toSubjectId(sitting.subject.id),
    schedule_code: sitting.schedule.code,
    org_code: organization.code,
    org_login_method: toOrgLoginMethod(organization.loginMethod),
    enable_mode_step: organization.enableModeStep,
    org_category: organization.category,
    is_my_page_login: examinee.isMyPageLogin,
    foreign_payment_method: organization.foreignPaymentMethod,
    venue_id: sitting.schedule.venueId,
    grade_id: examinee.gradeId,
    email: examinee.email,
    schedule_history_id: history.id,
    flag_retake: history.flagRetake,
  };
}

/**
 * The session info of a login that covers all the examinee's sittings (examinee login, type 5;
 * single sign-on): no exam is chosen yet, so schedule_history_id is null and user_key/test_key
 * are empty; subject, level, schedule and venue are those of the first exam of the list
 * (`first`, after sortForList) until the pupil picks one.
 */
export function examineeWideInfo(first: Sitting, loginType: LoginType): ExamineeInfo {
  return { ...examineeInfo(first, loginType), user_key: '', test_key: '', schedule_history_id: null, flag_retake: false };
}

/** The exam list's order: by subject, then level, then booking. */
export function sortForList(sittings: readonly Sitting[]): Sitting[] {
  return [...sittings].sort(
    (a, b) => a.subject.id - b.subject.id || a.level.position - b.level.position || a.history.id - b.history.id,
  );
}

const S = ScheduleHistoryStatus;

/** One row of GET /exams; `all` are the examinee's sittings (for step mode). Scores come with the results issue. */
export function examListItem(sitting: Sitting, all: readonly Sitting[], wanted: CallerLanguages): ExamListItem {
  const status = toStatus(sitting.history.status);
  const scored = status === S.SCORING_COMPLETED || status === S.STATISTIC_COMPLETED || status === S.RESULT_PUBLIC;
  return {
    schedule_history_id: sitting.history.id,
    subject: { id: toSubjectId(sitting.subject.id), name: sitting.subject.name },
    level: { id: sitting.level.id, name: sitting.level.name, order: sitting.level.position },
    exam: { id: sitting.exam.id, title: titleIn(sitting.exam, wanted) },
    status,
    score: null,
    scoring: scored ? 'scored' : status === S.COMPLETED ? 'scoring' : 'not_taken',
    locked: status === S.PENDING && isStepLocked(sitting, all),
  };
}

export function examDetails(sitting: Sitting, questionCount: number, now: Date, wanted: CallerLanguages): ExamDetails {
  const { history } = sitting;
  return {
    schedule_history_id: history.id,
    examinee_name: sitting.examinee.name,
    subject: { id: toSubjectId(sitting.subject.id), name: sitting.subject.name },
    level: { id: sitting.level.id, name: sitting.level.name, order: sitting.level.position },
    exam: {
      id: sitting.exam.id,
      title: titleIn(sitting.exam, wanted),
      question_count: questionCount,
      time_limit_seconds: sitting.exam.timeLimitSeconds,
    },
    status: toStatus(history.status),
    started_at: iso(history.startedAt),
    deadline_at: iso(history.deadlineAt),
    resume_question_index: isReleased(history) ? history.questionIndex : null,
    server_time: now.toISOString(),
  };
}

/**
 * The columns of a question the browser may see: everything but `correct_answer` (and
 * `case_sensitive`, which belongs to scoring). Select with these, never the whole row.
 */
export const questionViewColumns = {
  id: questions.id,
  number: questions.number,
  type: questions.type,
  prompt: questions.prompt,
  choices: questions.choices,
  unit: questions.unit,
  math: questions.math,
  input: questions.input,
  blocks: questions.blocks,
};

export type QuestionViewRow = {
  id: number;
  number: number;
  type: Question['type'];
  prompt: string;
  choices: readonly { id: string; label: string }[];
  unit: string;
  math: boolean;
  input: Question['input'];
  blocks: readonly { id: string; label: string; category: NonNullable<Question['blocks']>[number]['category'] }[];
};

/**
 * A question as GET /exam/questions sends it. Built field by field, so nothing stored beside
 * a choice or a block (and never the correct answer) reaches the browser. `input` is null for
 * the device keyboard; `blocks` is empty but for ordering questions.
 */
export function questionView(row: QuestionViewRow): Question {
  return {
    id: row.id,
    number: row.number,
    type: row.type,
    prompt: row.prompt,
    choices: row.choices.map((c) => ({ id: c.id, label: c.label })),
    unit: row.unit,
    math: row.math,
    input: toInput(row.input),
    blocks: row.blocks.map((b) => ({ id: b.id, label: b.label, category: b.category })),
  };
}

function toInput(input: Question['input']): Question['input'] {
  if (!input) return null;
  switch (input.kind) {
    case 'keyboard':
      return { kind: 'keyboard' };
    case 'alphabet':
      return { kind: 'alphabet', upper_case: input.upper_case };
    case 'keypad':
      return { kind: 'keypad', negative: input.negative, decimal: input.decimal, fraction: input.fraction };
  }
}

export function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}

function toSubjectId(id: number): SubjectId {
  if (id === 1 || id === 2 || id === 3 || id === 6) return id;
  throw new Error(`Not a subject id: ${id}`);
}

function toOrgLoginMethod(method: number): OrgLoginMethod {
  if (method === 1 || method === 2 || method === 3) return method;
  throw new Error(`Not an organisation login method: ${method}`);
}
