/**
 * The storage module (machines/shared/storage.ts) on a plain Map: the seed's key names (section 3:
 * other clients of the terminal read them), the session held encoded and read back only when it
 * is whole and its token is the stored one, what logout removes and what stays on a shared
 * terminal, the device token, and the tokens waiting for their revocation.
 */
import { describe, expect, it } from 'vitest';
import type { ExamineeSession } from '../../contract/session.ts';
import {
  clearExaminee,
  clearStaffToken,
  deviceToken,
  dropRevocation,
  holdRevocation,
  readLanguage,
  readPendingRevocations,
  readSchoolId,
  readSession,
  readStaffToken,
  readStoredErrorCode,
  readToken,
  storageKeys,
  updateSession,
  writeEntry,
  writeLanguage,
  writeSchoolId,
  writeSession,
  writeStaffToken,
} from '../../machines/shared/storage.ts';
import { demoExaminee } from '../helpers/fake-api.ts';
import { memoryStorage } from '../helpers/memory-storage.ts';

const session: ExamineeSession = {
  ...demoExaminee,
  // Outside Latin-1: the encoding must go through UTF-8, not btoa alone.
  examinee_name: 'Lucía 田中',
  enable_mode_step: true,
  login_type: 1,
  token: 'token-1',
  uuid: '1b4e28ba-2fa1-41d2-883f-0016d3cca427',
  question_index: 3,
  question_list_flag: false,
  alphabets_keyboard_flag: false,
  mode_upper_case_flag: false,
  is_completed: false,
  error_code: null,
};

/** base64 of UTF-8 JSON, as the seed's examinee_info is held. */
const encoded = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64');
const decoded = (text: string | undefined) => JSON.parse(Buffer.from(text ?? '', 'base64').toString('utf8')) as unknown;

describe('the stored session', () => {
  it('is written under the seed key names, the session info as base64 of its UTF-8 JSON', () => {
    const storage = memoryStorage();
    writeSession(storage, session);
    expect(Object.fromEntries(storage.items)).toEqual({
      'Examinee-Token': 'token-1',
      examinee_info: encoded(session),
      examinee_school_id: 'ORG1',
      login_type: '1',
      org_step_mode: '1',
    });
    expect(decoded(storage.items.get('examinee_info'))).toEqual(session);
    writeSession(storage, { ...session, enable_mode_step: false });
    expect(storage.items.get('org_step_mode')).toBe('0');
  });

  it('reads back what was written', () => {
    const storage = memoryStorage();
    writeSession(storage, session);
    expect(readSession(storage)).toEqual(session);
    expect(readToken(storage)).toBe('token-1');
    expect(readSchoolId(storage)).toBe('ORG1');
  });

  it('is no session when the info or the token is missing, or the token is another one', () => {
    const storage = memoryStorage();
    expect(readSession(storage)).toBeNull();
    writeSession(storage, session);
    storage.removeItem(storageKeys.token);
    expect(readSession(storage)).toBeNull();

    writeSession(storage, session);
    storage.removeItem(storageKeys.examineeInfo);
    expect(readSession(storage)).toBeNull();

    writeSession(storage, session);
    storage.setItem(storageKeys.token, 'token-2');
    expect(readSession(storage)).toBeNull();
  });

  it('is no session when the info is not base64, not JSON, or not a session', () => {
    const storage = memoryStorage();
    writeSession(storage, session);
    for (const raw of ['%%%', btoa('not json'), encoded({ ...session, question_index: 'three' }), encoded({ token: 'token-1' })]) {
      storage.setItem(storageKeys.examineeInfo, raw);
      expect(readSession(storage), raw).toBeNull();
    }
  });

  it('is updated in place while logged in, and not created by an update after logout', () => {
    const storage = memoryStorage();
    writeSession(storage, session);
    updateSession(storage, { question_index: 7, is_completed: true });
    expect(readSession(storage)).toEqual({ ...session, question_index: 7, is_completed: true });

    clearExaminee(storage);
    updateSession(storage, { question_index: 8 });
    expect(storage.items.size).toBe(0);
  });

  it('merges update after update, and reads the stored session again once someone else wrote it', () => {
    const storage = memoryStorage();
    writeSession(storage, session);
    updateSession(storage, { question_index: 1 });
    updateSession(storage, { question_list_flag: true });
    expect(readSession(storage)).toEqual({ ...session, question_index: 1, question_list_flag: true });
    // Another window of this login stored its own progress in between: the next change merges into that.
    writeSession(storage, { ...session, question_index: 5, alphabets_keyboard_flag: false });
    updateSession(storage, { mode_upper_case_flag: true });
    expect(readSession(storage)).toEqual({ ...session, question_index: 5, alphabets_keyboard_flag: false, mode_upper_case_flag: true });
    // The other keys still follow the session: one changed elsewhere is written back, as a full write does.
    storage.setItem(storageKeys.schoolId, 'changed-elsewhere');
    updateSession(storage, { question_index: 6 });
    expect(storage.getItem(storageKeys.schoolId)).toBe(session.org_code);
  });
});

describe('what a single sign-on entry and its error store', () => {
  it('the entry: token, school id, login type and step mode, without session info', () => {
    const storage = memoryStorage();
    writeEntry(storage, { token: 'sso-token', schoolId: 'GRADUS-OAUTH', loginType: 2, stepMode: false });
    expect(Object.fromEntries(storage.items)).toEqual({
      'Examinee-Token': 'sso-token',
      examinee_school_id: 'GRADUS-OAUTH',
      login_type: '2',
      org_step_mode: '0',
    });
    writeEntry(storage, { token: 'sso-token', schoolId: 'GRADUS-OAUTH', loginType: 2, stepMode: true });
    expect(storage.items.get('org_step_mode')).toBe('1');
    expect(readSession(storage)).toBeNull();
  });

  it('an error: the school id alone', () => {
    const storage = memoryStorage();
    writeSchoolId(storage, 'GRADUS-OAUTH');
    expect(Object.fromEntries(storage.items)).toEqual({ examinee_school_id: 'GRADUS-OAUTH' });
  });
});

describe('the error code the stored info ends with', () => {
  it('is read even without a token', () => {
    const storage = memoryStorage();
    writeSession(storage, { ...session, error_code: 'INCORRECT_DEVICE' });
    storage.removeItem(storageKeys.token);
    expect(readStoredErrorCode(storage)).toBe('INCORRECT_DEVICE');
  });

  it('is null without info, with no code, with an unknown code or unreadable info', () => {
    const storage = memoryStorage();
    expect(readStoredErrorCode(storage)).toBeNull();
    writeSession(storage, session);
    expect(readStoredErrorCode(storage)).toBeNull();
    for (const raw of [encoded({ error_code: 'NO_SUCH_CODE' }), encoded({}), '%%%']) {
      storage.setItem(storageKeys.examineeInfo, raw);
      expect(readStoredErrorCode(storage), raw).toBeNull();
    }
  });
});

describe('logout on a shared terminal', () => {
  it('removes everything of the pupil and keeps the terminal, the staff token and the pending revocations', () => {
    const storage = memoryStorage();
    writeSession(storage, session);
    writeLanguage(storage, 'ja');
    deviceToken(storage, () => '0f0e0d0c-0b0a-4909-8807-060504030201');
    holdRevocation(storage, 'old-token');
    writeStaffToken(storage, 'staff-token');

    clearExaminee(storage);
    expect(Object.fromEntries(storage.items)).toEqual({
      language: 'ja',
      device_token: '0f0e0d0c-0b0a-4909-8807-060504030201',
      pending_revocations: JSON.stringify(['old-token']),
      'Staff-Token': 'staff-token',
    });
    expect(readLanguage(storage)).toBe('ja');
  });
});

describe('the device token', () => {
  it('is made once and kept', () => {
    const storage = memoryStorage();
    const made: string[] = [];
    const generate = () => {
      made.push(`00000000-0000-4000-8000-00000000000${made.length}`);
      return made.at(-1)!;
    };
    expect(deviceToken(storage, generate)).toBe('00000000-0000-4000-8000-000000000000');
    expect(deviceToken(storage, generate)).toBe('00000000-0000-4000-8000-000000000000');
    expect(made).toHaveLength(1);
    expect(storage.items.get('device_token')).toBe('00000000-0000-4000-8000-000000000000');
  });

  it('a stored value that is not one of ours is replaced', () => {
    for (const bad of ['', 'not-a-token', 'x00000000-0000-4000-8000-000000000000', '00000000-0000-4000-8000-000000000000x']) {
      const storage = memoryStorage();
      storage.setItem(storageKeys.deviceToken, bad);
      expect(deviceToken(storage, () => 'aaaaaaaa-0000-4000-8000-000000000000'), bad).toBe('aaaaaaaa-0000-4000-8000-000000000000');
      expect(storage.items.get('device_token')).toBe('aaaaaaaa-0000-4000-8000-000000000000');
    }
  });
});

describe('tokens waiting for their revocation', () => {
  it('are kept oldest first, each once, and the key goes when the last one is dropped', () => {
    const storage = memoryStorage();
    expect(readPendingRevocations(storage)).toEqual([]);
    holdRevocation(storage, 'a');
    holdRevocation(storage, 'b');
    holdRevocation(storage, 'a');
    expect(readPendingRevocations(storage)).toEqual(['b', 'a']);
    expect(storage.items.get('pending_revocations')).toBe('["b","a"]');

    dropRevocation(storage, 'b');
    expect(readPendingRevocations(storage)).toEqual(['a']);
    dropRevocation(storage, 'unknown');
    expect(readPendingRevocations(storage)).toEqual(['a']);
    dropRevocation(storage, 'a');
    expect(storage.items.has('pending_revocations')).toBe(false);
  });

  it('at most the 50 newest are kept', () => {
    const storage = memoryStorage();
    for (let i = 0; i < 52; i += 1) holdRevocation(storage, `t${i}`);
    const kept = readPendingRevocations(storage);
    expect(kept).toHaveLength(50);
    expect(kept[0]).toBe('t2');
    expect(kept.at(-1)).toBe('t51');
  });

  it('unreadable or malformed: none', () => {
    const storage = memoryStorage();
    for (const raw of ['not json', '{"a":1}', '[1,2]', '[""]', JSON.stringify(['x'.repeat(513)])]) {
      storage.setItem(storageKeys.pendingRevocations, raw);
      expect(readPendingRevocations(storage), raw).toEqual([]);
    }
    storage.setItem(storageKeys.pendingRevocations, JSON.stringify(['x'.repeat(512)]));
    expect(readPendingRevocations(storage)).toEqual(['x'.repeat(512)]);
  });
});

describe('the staff token', () => {
  it('has its own key; clearing it leaves the pupil alone', () => {
    const storage = memoryStorage();
    writeSession(storage, session);
    expect(readStaffToken(storage)).toBeNull();
    writeStaffToken(storage, 'staff-token');
    expect(storage.items.get('Staff-Token')).toBe('staff-token');
    expect(readStaffToken(storage)).toBe('staff-token');
    clearStaffToken(storage);
    expect(readStaffToken(storage)).toBeNull();
    expect(readSession(storage)).toEqual(session);
  });
});
