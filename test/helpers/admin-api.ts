/**
 * Helpers for the staff (proctor) API tests: a proctor for a test organisation, staff login,
 * more pupils in the same test period (a class), and a pupil's terminal (its X-Device-Token)
 * logging in, pressing Start and sending heartbeats the way the exam client does.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { StaffLoginResponseSchema } from '../../contract/admin.ts';
import { StartExamResponseSchema } from '../../contract/exam.ts';
import { LoginResponseSchema } from '../../contract/session.ts';
import type { Db } from '../../server/db/client.ts';
import { examinees, scheduleHistories, staff } from '../../server/db/schema.ts';
import { hashPassword } from '../../server/domain/passwords.ts';
import type { ApiContext, ApiResponse } from './server-api.ts';
import { randomLoginCode, type TestSitting } from './server-fixtures.ts';

export const STAFF_PASSWORD = 'proctor-pass-1';

export type TestStaff = { staffId: number; orgCode: string; loginId: string; password: string; name: string };

/** A proctor of the sitting's organisation. */
export async function addStaff(db: Db, sitting: Pick<TestSitting, 'organizationId' | 'orgCode'>, options: { disabled?: boolean } = {}): Promise<TestStaff> {
  const tag = randomUUID().slice(0, 8);
  const loginId = `proctor.${tag}`;
  const name = `Proctor ${tag}`;
  const [row] = await db
    .insert(staff)
    .values({ organizationId: sitting.organizationId, loginId, name, passwordHash: await hashPassword(STAFF_PASSWORD), disabled: options.disabled ?? false })
    .returning({ id: staff.id });
  return { staffId: row!.id, orgCode: sitting.orgCode, loginId, password: STAFF_PASSWORD, name };
}

/** Logs a proctor in; fails the test unless it succeeds. */
export async function staffLogin(api: ApiContext, who: { orgCode: string; loginId: string; password: string }): Promise<string> {
  const response = await api.call('POST', '/api/admin/login', {
    body: { org_code: who.orgCode, login_id: who.loginId, password: who.password },
  });
  if (response.status !== 200) throw new Error(`staff login ${who.loginId}: ${response.status} ${JSON.stringify(response.body)}`);
  return v.parse(StaffLoginResponseSchema, response.body).access_token;
}

/** Another pupil in the same organisation and test period (a classmate). */
export async function addClassmate(db: Db, sitting: TestSitting, options: { status?: number } = {}): Promise<TestSitting> {
  const tag = randomUUID().slice(0, 8);
  const loginCode = randomLoginCode();
  const [examinee] = await db
    .insert(examinees)
    .values({ organizationId: sitting.organizationId, name: `Pupil ${tag}`, gradeId: 4, loginCode })
    .returning({ id: examinees.id });
  const [history] = await db
    .insert(scheduleHistories)
    .values({
      examineeId: examinee!.id,
      scheduleId: sitting.scheduleId,
      examId: sitting.examId,
      status: options.status ?? 0,
      userKey: randomUUID(),
      testKey: randomUUID(),
    })
    .returning({ id: scheduleHistories.id });
  return { ...sitting, loginCode, loginId: undefined, examineeId: examinee!.id, scheduleHistoryId: history!.id };
}

/** The examinee name of a test sitting. */
export async function examineeName(db: Db, sitting: TestSitting): Promise<string> {
  const [row] = await db.select({ name: examinees.name }).from(examinees).where(eq(examinees.id, sitting.examineeId));
  return row!.name;
}

/** A lab terminal: its device token on every call, as the exam client sends it. */
export function terminal(api: ApiContext, deviceToken: string = `terminal-${randomUUID()}`) {
  const headers = { 'X-Device-Token': deviceToken };
  const call = (method: string, path: string, token: string, body?: unknown): Promise<ApiResponse> =>
    api.call(method, path, { token, body, headers });
  return {
    deviceToken,
    call,
    async login(loginCode: string): Promise<{ token: string; scheduleHistoryId: number }> {
      const response = await api.call('POST', '/api/login', { body: { login_type: 0, login_code: loginCode }, headers });
      if (response.status !== 200) throw new Error(`login ${loginCode}: ${response.status} ${JSON.stringify(response.body)}`);
      const body = v.parse(LoginResponseSchema, response.body);
      return { token: body.access_token, scheduleHistoryId: body.examinee.schedule_history_id! };
    },
    start(token: string, scheduleHistoryId: number): Promise<ApiResponse> {
      return call('POST', '/api/exam/start', token, { schedule_history_id: scheduleHistoryId });
    },
    /** Logs in and presses Start; fails the test unless both succeed. */
    async sit(loginCode: string): Promise<{ token: string; scheduleHistoryId: number; deadlineAt: string }> {
      const login = await this.login(loginCode);
      const started = await this.start(login.token, login.scheduleHistoryId);
      if (started.status !== 200) throw new Error(`start ${loginCode}: ${started.status} ${JSON.stringify(started.body)}`);
      return { ...login, deadlineAt: v.parse(StartExamResponseSchema, started.body).deadline_at };
    },
    heartbeat(token: string, scheduleHistoryId: number, questionIndex = 0): Promise<ApiResponse> {
      return call('POST', '/api/exam/heartbeat', token, { schedule_history_id: scheduleHistoryId, question_index: questionIndex, visible: true });
    },
  };
}
