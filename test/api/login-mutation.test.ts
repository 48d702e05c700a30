/**
 * What a refused login says on the wire (server/domain/login.ts): the code of seed section 8 with
 * its status, and the English message the server gives with it. A code nobody has is "Login code
 * incorrect."; a pupil with nothing booked is told so in words of their own way in ("No test is
 * booked for this login code." or "... for this account."), not with the page-address message
 * INVALID_SCHEDULE otherwise carries. Written for the mutation run (README.md, "Mutation
 * testing"): a message emptied or swapped fails here.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { scheduleHistories } from '../../server/db/schema.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, useApi, type ApiResponse } from '../helpers/server-api.ts';
import { addSitting, randomLoginCode } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
const PASSWORD = 'gradus-test';

describe.each(kinds)('what a refused login says on %s', (kind) => {
  const api = useApi(kind);
  const expectRefusal = (response: ApiResponse, status: number, code: string, message: string) => {
    expect(response.status).toBe(status);
    expect(errorOf(response)).toMatchObject({ code, message });
  };
  /** A pupil whose only sitting was taken away. */
  const unbooked = async (loginMethod?: number) => {
    const pupil = await addSitting(api.db, { password: PASSWORD, ...(loginMethod === undefined ? {} : { organization: { loginMethod } }) });
    await api.db.delete(scheduleHistories).where(eq(scheduleHistories.id, pupil.scheduleHistoryId));
    return pupil;
  };

  test('a login code nobody has: 401 LOGIN_CODE_INCORRECT, "Login code incorrect."', async () => {
    const response = await api.call('POST', '/api/login', { body: { login_type: 0, login_code: randomLoginCode() } });
    expectRefusal(response, 401, 'LOGIN_CODE_INCORRECT', 'Login code incorrect.');
  });

  test('a login code with nothing booked: 404 INVALID_SCHEDULE, "No test is booked for this login code."', async () => {
    const pupil = await unbooked();
    const response = await api.call('POST', '/api/login', { body: { login_type: 0, login_code: pupil.loginCode } });
    expectRefusal(response, 404, 'INVALID_SCHEDULE', 'No test is booked for this login code.');
  });

  test('a login ID with nothing booked: 404 INVALID_SCHEDULE, "No test is booked for this account."', async () => {
    const pupil = await unbooked();
    const response = await api.call('POST', '/api/login', { body: { login_type: 1, login_id: pupil.loginId, password: PASSWORD } });
    expectRefusal(response, 404, 'INVALID_SCHEDULE', 'No test is booked for this account.');
  });

  test('an examinee login with nothing booked: 404 INVALID_SCHEDULE, "No test is booked for this account."', async () => {
    const pupil = await unbooked(3);
    const response = await api.call('POST', '/api/login-examinee', {
      body: { login_id: pupil.loginId, password: PASSWORD, org_code: pupil.orgCode },
    });
    expectRefusal(response, 404, 'INVALID_SCHEDULE', 'No test is booked for this account.');
  });
});
