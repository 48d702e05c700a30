/**
 * Staff accounts and their tokens. A proctor belongs to one organisation and acts only on its
 * schedules (server/domain/proctor.ts decides NOT_FOUND for everything else); an administrator
 * belongs to none and reaches every organisation (`withinReach`, the one place that scope is
 * written).
 *
 * Promises:
 * - Staff tokens live in `staff_tokens`, pupil tokens in `auth_tokens`: a pupil token never
 *   authenticates here, a staff token never authenticates a pupil call (tokens.ts). Same shape
 *   (256 random bits, base64url, only the SHA-256 stored), same lifetime as a pupil's.
 * - Login: a proctor with organisation code (in any case, as on a login page: lookups.ts
 *   `byCode`) + login id + password; an administrator with login id + password and no
 *   organisation code. Wrong ones are INCORRECT_ID_PASSWORD, whichever part was wrong, and take
 *   as long (a decoy hash when the account does not exist).
 *   Five wrong passwords in a row lock (ACCOUNT_LOCKED): the login throttle in front of
 *   POST /admin/login keeps that count, per client address and organisation + login id
 *   (server/security/throttle.ts), exactly as for pupils.
 * - A disabled staff member cannot log in and their tokens stop working; a proctor of a
 *   disabled organisation is refused DISABLED_ORGANIZATION after a right password.
 */
import { and, asc, eq, isNull, type Column, type SQL } from 'drizzle-orm';
import type { Staff } from '../../contract/admin.ts';
import type { Db, Tx } from '../db/client.ts';
import { namedParameters, prepare } from '../db/prepared.ts';
import { organizations, staff, staffTokens, type StaffRole } from '../db/schema.ts';
import { DomainError } from './errors.ts';
import { byCode } from './lookups.ts';
import { verifyPassword } from './passwords.ts';
import { hashToken, liveToken, newToken, revokeToken, TOKEN_PATTERN } from './tokens.ts';

/** Who is calling the admin API: established from a valid staff token. */
export type StaffPrincipal = {
  tokenId: number;
  staffId: number;
  /** The proctor's organisation; null for an administrator (the whole deployment). */
  organizationId: number | null;
  name: string;
  loginId: string;
  role: StaffRole;
  orgCode: string | null;
  orgName: string | null;
};

/**
 * The condition that keeps a query on `column` (an organisation id) within the staff member's
 * reach: a proctor's organisation; for an administrator no condition (undefined: every
 * organisation, as drizzle's `and` drops it).
 */
export function withinReach(principal: Pick<StaffPrincipal, 'organizationId'>, column: Column): SQL | undefined {
  return principal.organizationId === null ? undefined : eq(column, principal.organizationId);
}

const principalColumns = {
  staffId: staff.id,
  organizationId: staff.organizationId,
  name: staff.name,
  loginId: staff.loginId,
  role: staff.role,
  orgCode: organizations.code,
  orgName: organizations.name,
};

/** The contract's view of a staff member. */
export function staffView(principal: Omit<StaffPrincipal, 'tokenId'>): Staff {
  return {
    name: principal.name,
    login_id: principal.loginId,
    role: principal.role,
    org_code: principal.orgCode,
    org_name: principal.orgName,
  };
}

export type StaffLoginResult = { accessToken: string; staff: Staff };

export async function loginStaff(
  db: Db,
  input: { orgCode: string | undefined; loginId: string; password: string; now: Date; tokenTtlMs: number },
): Promise<StaffLoginResult> {
  const { now } = input;
  const accountQuery = (where: SQL | undefined) =>
    db
      .select({
        ...principalColumns,
        passwordHash: staff.passwordHash,
        disabled: staff.disabled,
        orgDisabled: organizations.disabled,
      })
      .from(staff)
      .leftJoin(organizations, eq(organizations.id, staff.organizationId))
      .where(and(where, eq(staff.loginId, input.loginId)))
      .orderBy(asc(organizations.id))
      .limit(1);
  const account =
    input.orgCode === undefined
      ? // An administrator: no organisation, the login id unique among administrators.
        (await accountQuery(isNull(staff.organizationId)))[0]
      : // The organisation's code as the proctor types it, in any case (lookups.ts `byCode`).
        await byCode(accountQuery, organizations.code, input.orgCode);
  if (!account || account.disabled) {
    await verifyPassword(input.password, null);
    throw wrongCredentials();
  }
  if (!(await verifyPassword(input.password, account.passwordHash))) throw wrongCredentials();
  if (account.orgDisabled === true) throw new DomainError('DISABLED_ORGANIZATION');

  const { token, tokenHash } = newToken();
  await db.insert(staffTokens).values({
    tokenHash,
    staffId: account.staffId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + input.tokenTtlMs),
  });
  return { accessToken: token, staff: staffView(account) };
}

/** authenticateStaff's statement's values, by name (server/db/prepared.ts). */
const AUTHENTICATE = namedParameters<{ tokenHash: string; now: Date }>({ tokenHash: 'text', now: 'timestamptz' });

/** The staff member of a live token (as `liveToken` and the query below), as one prepared statement. */
const AUTHENTICATE_STAFF = {
  name: 'authenticate_staff',
  text: `select t.id as "tokenId", s.id as "staffId", s.organization_id as "organizationId", s.name, s.login_id as "loginId",
      s.role, o.code as "orgCode", o.name as "orgName"
    from staff_tokens t
    join staff s on s.id = t.staff_id
    left join organizations o on o.id = s.organization_id
    where t.token_hash = ${AUTHENTICATE.sql.tokenHash} and t.revoked_at is null and t.expires_at > ${AUTHENTICATE.sql.now} and not s.disabled
    limit 1`,
};

/**
 * The staff member of a live token, or undefined when unknown, revoked, expired, or its account
 * disabled. Every staff call asks it first (requireStaff):
 * on the database handle one prepared statement, in a transaction the query builder.
 */
export async function authenticateStaff(tx: Tx, token: string, now: Date): Promise<StaffPrincipal | undefined> {
  if (!TOKEN_PATTERN.test(token)) return undefined;
  const statement = prepare<StaffPrincipal>(tx as Db, AUTHENTICATE_STAFF);
  if (statement) {
    const [found] = await statement.run(AUTHENTICATE.values({ tokenHash: hashToken(token), now }));
    return found;
  }
  const [row] = await tx
    .select({ tokenId: staffTokens.id, ...principalColumns })
    .from(staffTokens)
    .innerJoin(staff, eq(staff.id, staffTokens.staffId))
    .leftJoin(organizations, eq(organizations.id, staff.organizationId))
    .where(and(liveToken(staffTokens, token, now), eq(staff.disabled, false)))
    .limit(1);
  return row;
}

export async function logoutStaff(tx: Tx, tokenId: number, now: Date): Promise<void> {
  await revokeToken(tx, tokenId, now, staffTokens);
}

function wrongCredentials(): DomainError {
  return new DomainError('INCORRECT_ID_PASSWORD', 'Incorrect organisation, login ID or password.');
}
