/**
 * What a pupil reads when a single sign-on ends with an error: one message descriptor per SSO
 * error code of the seed (section 8), picked by code. The technical failures of the sign-in
 * itself (state, nonce, token) all read "try again"; the ones about the account send the pupil
 * to the teacher. Adding a code to the contract without a message is a type error here.
 */
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { SsoErrorCode } from '../../contract/session.ts';

const signInFailed = msg`Sign-in did not work. Please try again.`;

export const ssoErrorMessages: Record<SsoErrorCode, MessageDescriptor> = {
  unknown: signInFailed,
  invalid_state: signInFailed,
  invalid_nonce: signInFailed,
  id_token_notfound: signInFailed,
  invalid_role: msg`This account cannot sit tests. Please ask your teacher.`,
  school_notfound: msg`Your school could not be found. Please ask your teacher.`,
  user_notfound: msg`Your account could not be found. Please ask your teacher.`,
  disabled_org: msg`The organization is disabled.`,
  disabled_class: msg`This classroom is not valid.`,
  // The same words as the server's INCORRECT_LOGIN_METHOD (src/i18n/failure-messages.ts).
  invalid_login_method: msg`This account cannot log in this way. Please ask your teacher how to log in.`,
};

/** The message for an SSO error; a code this build does not know reads as "try again". */
export function ssoErrorMessage(code: SsoErrorCode | string): MessageDescriptor {
  return Object.hasOwn(ssoErrorMessages, code) ? ssoErrorMessages[code as SsoErrorCode] : signInFailed;
}
