/**
 * Maps sittings to the contract's shapes (src/shared/contract.ts). Database values that the
 * contract narrows (subject ids, statuses, login methods) are checked here, so a bad row fails
 * loudly on the server instead of sending the client something it would reject.
 */
import type { ExamDetails, ExamineeInfo } from '../../src/shared/contract.ts';
import { toStatus } from './schedule-history.ts';
import type { Sitting } from './sitting.ts';

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

export function examDetails(sitting: Sitting, questionCount: number, now: Date): ExamDetails {
  const { history } = sitting;
  return {
    schedule_history_id: history.id,
    examinee_name: sitting.examinee.name,
    subject: { id: toSubjectId(sitting.subject.id), name: sitting.subject.name },
    level: { id: sitting.level.id, name: sitting.level.name },
    exam: {
      id: sitting.exam.id,
      title: sitting.exam.title,
      question_count: questionCount,
      time_limit_seconds: sitting.exam.timeLimitSeconds,
    },
    status: toStatus(history.status),
    started_at: iso(history.startedAt),
    deadline_at: iso(history.deadlineAt),
    server_time: now.toISOString(),
  };
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
