/**
 * A login ID typed in full width is the pupil's ID (server/security/login-id.ts). A keyboard
 * left in an East Asian input mode types `ｐｕｐｉｌ．…` for `pupil.…`: with the right password the
 * pupil logs in, never refused as INCORRECT_ID_PASSWORD. The
 * lock after 5 wrong passwords counts both forms as one account, so switching the width is no
 * way around it. The password is never changed: a full-width password is another password.
 */
import { describe, expect, test } from 'vitest';
import { type ErrorCode } from '../../contract/errors.ts';
import { normalizeLoginCode } from '../../contract/session.ts';
import { MAX_FAILED_LOGINS } from '../../server/domain/credentials.ts';
import { typedLoginId } from '../../server/security/login-id.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, useApi, type ApiResponse } from '../helpers/server-api.ts';
import { addSitting } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
const PASSWORD = 'correct horse 42';

/** What a full-width keyboard types for ASCII text. */
const fullWidth = (text: string) =>
  text.replace(/[!-~]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 0xfee0)).replace(/ /g, '\u3000');

describe('typedLoginId', () => {
  test('maps full-width ASCII and the ideographic space to ASCII, and trims', () => {
    expect(typedLoginId('ｒａｖｉ．ｐａｔｅｌ')).toBe('ravi.patel');
    expect(typedLoginId('\u3000ＡＢＣ－１２３\u3000')).toBe('ABC-123');
    expect(typedLoginId(fullWidth('hana_kim@school!~'))).toBe('hana_kim@school!~');
  });

  test('changes nothing else: no case folding, other scripts as typed', () => {
    expect(typedLoginId('Ravi.Patel')).toBe('Ravi.Patel');
    expect(typedLoginId('たなか')).toBe('たなか');
    expect(typedLoginId('ｶﾀｶﾅ')).toBe('ｶﾀｶﾅ');
  });
});

describe('normalizeLoginCode', () => {
  test('takes a code typed in full width, with any dash a keyboard gives between the groups', () => {
    expect(normalizeLoginCode('ＧＭ４７－ＷＣＷＪ－ＣＲＫＴ')).toBe('GM47-WCWJ-CRKT');
    expect(normalizeLoginCode('ｇｍ４７\u3000ｗｃｗｊ\u3000ｃｒｋｔ')).toBe('GM47-WCWJ-CRKT');
    expect(normalizeLoginCode('GM47ーWCWJーCRKT')).toBe('GM47-WCWJ-CRKT');
    expect(normalizeLoginCode('gm47\u2010wcwj\u2212crkt')).toBe('GM47-WCWJ-CRKT');
  });

  test('still refuses what cannot be a code, in either width', () => {
    expect(normalizeLoginCode('ＧＭ４７－ＷＣＷＪ－ＣＲＫ')).toBeUndefined();
    expect(normalizeLoginCode('ＧＭ４７－ＷＣＷＪ－ＣＲＫＯ')).toBeUndefined();
    expect(normalizeLoginCode('GM47.WCWJ.CRKT')).toBeUndefined();
  });
});

describe.each(kinds)('a login code typed in full width on %s', (kind) => {
  const api = useApi(kind);

  test('logs the pupil in, as the ASCII form does', async () => {
    const pupil = await addSitting(api.db);
    const response = await api.call('POST', '/api/login', { body: { login_type: 0, login_code: fullWidth(pupil.loginCode) } });
    expect(response.status).toBe(200);
  });
});

describe.each(kinds)('a login ID typed in full width on %s', (kind) => {
  const api = useApi(kind);
  const login = (loginId: string, password: string, orgCode: string) =>
    api.call('POST', '/api/login', { body: { login_type: 1, login_id: loginId, password, org_code: orgCode } });
  const expectError = (response: ApiResponse, status: number, code: ErrorCode) => {
    expect(response.status).toBe(status);
    expect(errorOf(response).code).toBe(code);
  };

  test('logs the pupil in, as the ASCII form does', async () => {
    const pupil = await addSitting(api.db, { password: PASSWORD });
    const response = await login(fullWidth(pupil.loginId!), PASSWORD, pupil.orgCode);
    expect(response.status).toBe(200);
  });

  test('logs an examinee account in on its organisation page (login type 5)', async () => {
    const pupil = await addSitting(api.db, { password: PASSWORD, organization: { loginMethod: 3 } });
    const response = await api.call('POST', '/api/login-examinee', {
      body: { login_id: fullWidth(pupil.loginId!), password: PASSWORD, org_code: pupil.orgCode },
    });
    expect(response.status).toBe(200);
  });

  test('a full-width password is another password', async () => {
    const pupil = await addSitting(api.db, { password: PASSWORD });
    expectError(await login(pupil.loginId!, fullWidth(PASSWORD), pupil.orgCode), 401, 'INCORRECT_ID_PASSWORD');
  });

  test('wrong passwords in either width count toward one lock', async () => {
    const pupil = await addSitting(api.db, { password: PASSWORD });
    const forms = [pupil.loginId!, fullWidth(pupil.loginId!)];
    for (let i = 1; i < MAX_FAILED_LOGINS; i++) {
      expectError(await login(forms[i % 2]!, `wrong ${i}`, pupil.orgCode), 401, 'INCORRECT_ID_PASSWORD');
    }
    expectError(await login(forms[MAX_FAILED_LOGINS % 2]!, 'wrong again', pupil.orgCode), 403, 'ACCOUNT_LOCKED');
    // Locked in both widths, even with the right password.
    expectError(await login(forms[0]!, PASSWORD, pupil.orgCode), 403, 'ACCOUNT_LOCKED');
    expectError(await login(forms[1]!, PASSWORD, pupil.orgCode), 403, 'ACCOUNT_LOCKED');
  });
});
