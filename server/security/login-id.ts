/**
 * A login ID as the pupil meant it. A Japanese, Chinese or Korean keyboard left in full-width
 * mode types `ｒａｖｉ．ｐａｔｅｌ` for `ravi.patel`: the same keys, other code points, which
 * matched as typed would tell the pupil "The test ID or password is incorrect" with the right ID
 * and password. Full-width ASCII (U+FF01 to U+FF5E) and the ideographic
 * space become their ASCII forms, then the ends are trimmed; nothing else changes (no case
 * folding, no other compatibility mapping: a login ID is matched as it is stored).
 *
 * The login throttle (login-guard.ts) names an attempt by the same form, so typing an ID in
 * full width is the same account for the lock too, never a way around it.
 */
import { halfWidth } from '../../contract/session.ts';

export function typedLoginId(raw: string): string {
  return halfWidth(raw).trim();
}
