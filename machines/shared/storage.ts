/**
 * The one storage module: everything that must survive a reload is written here by the
 * machines, read back and validated with valibot at boot, and wiped at logout.
 *
 * Keys follow the seed (section 3): the auth token as `Examinee-Token`, the examinee session
 * info encoded, the school id, login type, org step mode, the terminal's device token and the
 * language preference. Logout clears everything of the examinee; the device token (the
 * terminal's identity) and the language preference (the terminal's setting) stay, and so does
 * a token whose logout could not reach the server (offline), under its own key, only until the
 * revocation is sent (machines/session/session.revocation.ts).
 */
import * as v from 'valibot';
import { ErrorCodeSchema, type ErrorCode } from '../../contract/errors.ts';
import { ExamineeSessionSchema, type ExamineeSession } from '../../contract/session.ts';
import type { StoragePort } from './ports.ts';

export const storageKeys = {
  token: 'Examinee-Token',
  examineeInfo: 'examinee_info',
  schoolId: 'examinee_school_id',
  loginType: 'login_type',
  orgStepMode: 'org_step_mode',
  deviceToken: 'device_token',
  language: 'language',
  pendingRevocations: 'pending_revocations',
  /** The proctor page's staff token: its own key, never the pupil's, untouched by a pupil's logout. */
  staffToken: 'Staff-Token',
} as const;

/** Keys that belong to the examinee and are removed at logout. */
export const examineeKeys = [
  storageKeys.token,
  storageKeys.examineeInfo,
  storageKeys.schoolId,
  storageKeys.loginType,
  storageKeys.orgStepMode,
] as const;

/** Keys that may remain on a shared terminal after logout: nothing of the pupil. */
export const terminalKeys = [storageKeys.deviceToken, storageKeys.language] as const;

/**
 * The one key of a pupil's that may outlive their logout: tokens whose logout has not reached
 * the server yet (offline), kept only until it does. Bare token strings, never a session: a
 * token here is never read back as anyone's login (readSession/readToken do not look at it).
 */
export const revocationKeys = [storageKeys.pendingRevocations] as const;

/** Encodes the session info as base64 of its UTF-8 JSON ("held encoded", seed section 3). */
function encode(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function decode(text: string): unknown {
  const binary = atob(text);
  const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes));
}

/** The stored session, or null when absent, undecodable or not matching the schema. */
export function readSession(storage: StoragePort): ExamineeSession | null {
  const raw = storage.getItem(storageKeys.examineeInfo);
  const token = storage.getItem(storageKeys.token);
  if (!raw || !token) return null;
  try {
    const parsed = v.safeParse(ExamineeSessionSchema, decode(raw));
    if (!parsed.success || parsed.output.token !== token) return null;
    return parsed.output;
  } catch {
    return null;
  }
}

export function writeSession(storage: StoragePort, session: ExamineeSession): void {
  storage.setItem(storageKeys.token, session.token);
  storage.setItem(storageKeys.examineeInfo, encode(session));
  storage.setItem(storageKeys.schoolId, session.org_code);
  storage.setItem(storageKeys.loginType, String(session.login_type));
  storage.setItem(storageKeys.orgStepMode, session.enable_mode_step ? '1' : '0');
}

/**
 * The session each storage was last given by `updateSession`, as it was written: the exam reports
 * its progress on every question swap, and the next change merges into this one without decoding
 * and validating the stored text again, as long as the stored text and token are still exactly
 * what was written. Anything else is read back as before.
 */
const lastUpdated = new WeakMap<StoragePort, { raw: string; session: ExamineeSession }>();

/** Applies a change to the stored session (exam progress fields); no-op when logged out. */
export function updateSession(storage: StoragePort, change: Partial<ExamineeSession>): void {
  const last = lastUpdated.get(storage);
  const unchanged =
    last !== undefined &&
    storage.getItem(storageKeys.examineeInfo) === last.raw &&
    storage.getItem(storageKeys.token) === last.session.token;
  const current = unchanged ? last.session : readSession(storage);
  if (!current) return;
  const session = { ...current, ...change };
  const raw = encode(session);
  // Progress changes the session info alone: the other keys are written only if they differ.
  storage.setItem(storageKeys.examineeInfo, raw);
  const others: Array<[string, string]> = [
    [storageKeys.token, session.token],
    [storageKeys.schoolId, session.org_code],
    [storageKeys.loginType, String(session.login_type)],
    [storageKeys.orgStepMode, session.enable_mode_step ? '1' : '0'],
  ];
  for (const [key, value] of others) if (storage.getItem(key) !== value) storage.setItem(key, value);
  lastUpdated.set(storage, { raw, session });
}

export function readToken(storage: StoragePort): string | null {
  return storage.getItem(storageKeys.token);
}

/**
 * What a single sign-on entry stores before anyone knows who the token belongs to (seed
 * section 2, rule 1): token, school id, login type and step mode.
 */
export function writeEntry(
  storage: StoragePort,
  entry: { token: string; schoolId: string; loginType: number; stepMode: boolean },
): void {
  storage.setItem(storageKeys.token, entry.token);
  storage.setItem(storageKeys.schoolId, entry.schoolId);
  storage.setItem(storageKeys.loginType, String(entry.loginType));
  storage.setItem(storageKeys.orgStepMode, entry.stepMode ? '1' : '0');
}

/** Rule 1: an SSO error still stores the school id, so the login page knows the school. */
export function writeSchoolId(storage: StoragePort, schoolId: string): void {
  storage.setItem(storageKeys.schoolId, schoolId);
}

export function readSchoolId(storage: StoragePort): string | null {
  return storage.getItem(storageKeys.schoolId);
}

/**
 * The error code the stored examinee info ends with, even when the token is gone (rule 5:
 * /exam-end stays for INCORRECT_DEVICE and ER_SCHEDULE_HISTORY_RETAKE).
 */
export function readStoredErrorCode(storage: StoragePort): ErrorCode | null {
  const raw = storage.getItem(storageKeys.examineeInfo);
  if (!raw) return null;
  try {
    const parsed = v.safeParse(v.object({ error_code: v.nullable(ErrorCodeSchema) }), decode(raw));
    return parsed.success ? parsed.output.error_code : null;
  } catch {
    return null;
  }
}

/** Removes everything of the examinee (seed section 4, logout). */
export function clearExaminee(storage: StoragePort): void {
  for (const key of examineeKeys) storage.removeItem(key);
}

/** The terminal's device token, created once and kept across pupils. */
export function deviceToken(storage: StoragePort, generate: () => string): string {
  const existing = storage.getItem(storageKeys.deviceToken);
  if (existing && /^[0-9a-f-]{36}$/.test(existing)) return existing;
  const created = generate();
  storage.setItem(storageKeys.deviceToken, created);
  return created;
}

export function readLanguage(storage: StoragePort): string | null {
  return storage.getItem(storageKeys.language);
}

export function writeLanguage(storage: StoragePort, language: string): void {
  storage.setItem(storageKeys.language, language);
}

/** At most this many tokens wait for revocation (a terminal offline for a whole day of pupils). */
const MAX_PENDING_REVOCATIONS = 50;
const PendingRevocationsSchema = v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(512)));

/** Tokens waiting for their logout to reach the server, oldest first; unreadable: none. */
export function readPendingRevocations(storage: StoragePort): string[] {
  const raw = storage.getItem(storageKeys.pendingRevocations);
  if (!raw) return [];
  try {
    const parsed = v.safeParse(PendingRevocationsSchema, JSON.parse(raw));
    return parsed.success ? parsed.output : [];
  } catch {
    return [];
  }
}

function writePendingRevocations(storage: StoragePort, tokens: string[]): void {
  if (tokens.length === 0) storage.removeItem(storageKeys.pendingRevocations);
  else storage.setItem(storageKeys.pendingRevocations, JSON.stringify(tokens.slice(-MAX_PENDING_REVOCATIONS)));
}

/** Notes a token to revoke on the server (before its logout is sent, so a closed page still revokes it). */
export function holdRevocation(storage: StoragePort, token: string): void {
  const tokens = readPendingRevocations(storage).filter((held) => held !== token);
  writePendingRevocations(storage, [...tokens, token]);
}

/** Forgets a token once the server ended it (or answered that it was already gone). */
export function dropRevocation(storage: StoragePort, token: string): void {
  writePendingRevocations(storage, readPendingRevocations(storage).filter((held) => held !== token));
}

/** The proctor page's staff token, or null (machines/proctor). */
export function readStaffToken(storage: StoragePort): string | null {
  return storage.getItem(storageKeys.staffToken);
}

export function writeStaffToken(storage: StoragePort, token: string): void {
  storage.setItem(storageKeys.staffToken, token);
}

/** Forgets the staff token only: the pupil's keys are not the proctor page's to touch. */
export function clearStaffToken(storage: StoragePort): void {
  storage.removeItem(storageKeys.staffToken);
}
