/**
 * Signing a pupil in on someone else's word: an identity provider (generic OpenID Connect) or a
 * partner (Kenya, Egypt, Philippines, Mumbai) vouches for a user of a school; this decides
 * whether that makes an examinee of ours and, if so, issues our access token (tokens.ts).
 *
 * Refusals are the seed's single sign-on codes (section 8), checked in this order:
 * - school_notfound: no organisation with that code, or not the school the sign-in began for;
 * - disabled_org: the organisation is disabled;
 * - invalid_login_method: the organisation does not use login method 2 (OAuth, seed section 3);
 * - user_notfound: no enabled examinee of that organisation has that login ID;
 * - disabled_class: every exam still to sit is booked in a disabled classroom (seed section 6).
 * The token is examinee-wide (no schedule history): the pupil lands on the exam list.
 */
import { and, eq } from 'drizzle-orm';
import type { SsoErrorCode } from '../../contract/session.ts';
import type { Tx } from '../db/client.ts';
import { examinees, organizations } from '../db/schema.ts';
import { loginRefusal } from '../domain/schedule-history.ts';
import { loadSittingsOfExaminee } from '../domain/sitting.ts';
import { issueToken } from '../domain/tokens.ts';

/** Org login method 2: OAuth login (seed section 3), the one single sign-on is for. */
export const OAUTH_LOGIN_METHOD = 2;

export type SsoOrganization = { id: number; code: string; enableModeStep: boolean };

export type OrganizationCheck = { ok: true; organization: SsoOrganization } | { ok: false; error: SsoErrorCode };

/** Whether a school may sign pupils in by single sign-on at all. */
export async function checkSsoOrganization(tx: Tx, orgCode: string): Promise<OrganizationCheck> {
  const [org] = await tx
    .select({
      id: organizations.id,
      code: organizations.code,
      enableModeStep: organizations.enableModeStep,
      disabled: organizations.disabled,
      loginMethod: organizations.loginMethod,
    })
    .from(organizations)
    .where(eq(organizations.code, orgCode))
    .limit(1);
  if (!org) return { ok: false, error: 'school_notfound' };
  if (org.disabled) return { ok: false, error: 'disabled_org' };
  if (org.loginMethod !== OAUTH_LOGIN_METHOD) return { ok: false, error: 'invalid_login_method' };
  return { ok: true, organization: { id: org.id, code: org.code, enableModeStep: org.enableModeStep } };
}

export type SsoSignInInput = {
  /** The school the provider says the user belongs to. */
  orgCode: string;
  /** The school the sign-in was started for, when it was started on our side. */
  expectedOrgCode?: string;
  /** The user's login ID with us. */
  userId: string;
  loginType: number;
  now: Date;
  ttlMs: number;
};

export type SsoSignIn =
  | { ok: true; accessToken: string; organization: SsoOrganization }
  | { ok: false; error: SsoErrorCode };

export async function signInExternalUser(tx: Tx, input: SsoSignInInput): Promise<SsoSignIn> {
  if (input.expectedOrgCode !== undefined && input.expectedOrgCode !== input.orgCode) {
    return { ok: false, error: 'school_notfound' };
  }
  const check = await checkSsoOrganization(tx, input.orgCode);
  if (!check.ok) return check;
  const { organization } = check;

  const [examinee] = await tx
    .select({ id: examinees.id, disabled: examinees.disabled })
    .from(examinees)
    .where(and(eq(examinees.loginId, input.userId), eq(examinees.organizationId, organization.id)))
    .limit(1);
  if (!examinee || examinee.disabled) return { ok: false, error: 'user_notfound' };

  const toSit = (await loadSittingsOfExaminee(tx, examinee.id)).filter((s) => loginRefusal(s.history.status) === undefined);
  if (toSit.length > 0 && toSit.every((s) => s.venueDisabled === true)) return { ok: false, error: 'disabled_class' };

  const accessToken = await issueToken(tx, {
    examineeId: examinee.id,
    scheduleHistoryId: null,
    now: input.now,
    ttlMs: input.ttlMs,
    loginType: input.loginType,
  });
  return { ok: true, accessToken, organization };
}
