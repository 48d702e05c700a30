/**
 * Administrators manage the deployment's staff: list, create, change (name, role, organisation,
 * disabled, a new password) and the deployment-wide audit trail. Shared by the console's API
 * (server/routes/staff.ts) and the command line (server/cli/create-staff.ts).
 *
 * Promises:
 * - Every change runs in one transaction with its audit_log row (action staff_create or
 *   staff_update, staff_id the administrator who acted or null for the command line, entity
 *   "staff:<login id>", before and after as the account looks to an administrator: never a
 *   password or its hash; a new password shows as detail.password_reset).
 * - A login id is unique where it is used to sign in: within its organisation for proctors,
 *   among administrators for administrators; a second one is ER_DUP_ENTRY and changes nothing.
 * - Disabling an account or giving it a new password revokes every live token of it at once.
 * - A proctor always has an organisation, an administrator never (the schema's check too).
 * - An administrator cannot disable or demote themselves, so a deployment never loses the
 *   account that is managing it.
 */
import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import { AUDIT_LIMIT, type DeploymentAuditEntry, type StaffMember, type StaffRole } from '../../contract/admin.ts';
import type { Db, Tx } from '../db/client.ts';
import { auditLog, organizations, staff, staffTokens } from '../db/schema.ts';
import { auditColumns, auditEntryOf } from './audit-entries.ts';
import { DomainError, invalidField, isUniqueViolation } from './errors.ts';
import { hashPassword } from './passwords.ts';
import { MAX_ID } from './sitting.ts';

/** Who makes a change: an administrator (their staff id), or the command line (null). */
export type StaffActor = { staffId: number | null; reason: string };

export type NewStaff = { loginId: string; name: string; role: StaffRole; orgCode: string | null; password: string };
export type StaffChanges = { name?: string; role?: StaffRole; orgCode?: string | null; disabled?: boolean; password?: string };

const memberColumns = {
  id: staff.id,
  loginId: staff.loginId,
  name: staff.name,
  role: staff.role,
  orgCode: organizations.code,
  disabled: staff.disabled,
  organizationId: staff.organizationId,
};

type MemberRow = { id: number; loginId: string; name: string; role: StaffRole; orgCode: string | null; disabled: boolean };

function memberView(row: MemberRow): StaffMember {
  return { id: row.id, login_id: row.loginId, name: row.name, role: row.role, org_code: row.orgCode, disabled: row.disabled };
}

/** The audit's picture of an account: what an administrator sees, no password. */
function auditPicture(row: MemberRow): Record<string, unknown> {
  return { login_id: row.loginId, name: row.name, role: row.role, org_code: row.orgCode, disabled: row.disabled };
}

function selectMembers(tx: Tx) {
  return tx.select(memberColumns).from(staff).leftJoin(organizations, eq(organizations.id, staff.organizationId));
}

/** Every staff account: administrators first, then by organisation code and login id. */
export async function listStaff(tx: Tx): Promise<StaffMember[]> {
  const rows = await selectMembers(tx).orderBy(
    sql`${staff.organizationId} is not null`,
    asc(organizations.code),
    asc(staff.loginId),
    asc(staff.id),
  );
  return rows.map(memberView);
}

/** The organisation of a code (exactly as stored, or in any case), or NOT_FOUND. */
async function organizationIdOf(tx: Tx, code: string): Promise<number> {
  const [row] = await tx
    .select({ id: organizations.id })
    .from(organizations)
    .where(sql`lower(${organizations.code}) = lower(${code})`)
    .orderBy(sql`${organizations.code} = ${code} desc`, asc(organizations.id))
    .limit(1);
  if (!row) throw new DomainError('NOT_FOUND', `No organisation with the code "${code}".`);
  return row.id;
}

/** ER_DUP_ENTRY when another account signs in with this login id in the same place. */
async function refuseDuplicate(tx: Tx, loginId: string, organizationId: number | null, exceptId?: number): Promise<void> {
  const [other] = await tx
    .select({ id: staff.id })
    .from(staff)
    .where(
      and(
        eq(staff.loginId, loginId),
        organizationId === null ? isNull(staff.organizationId) : eq(staff.organizationId, organizationId),
        exceptId === undefined ? undefined : sql`${staff.id} <> ${exceptId}`,
      ),
    )
    .limit(1);
  if (other) throw duplicate(loginId);
}

function duplicate(loginId: string): DomainError {
  return new DomainError('ER_DUP_ENTRY', `The login ID "${loginId}" is taken already.`);
}

/** A unique violation (two creations at once) is the same refusal as the check before it. */
async function mappingDuplicates<T>(loginId: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(loginId);
    throw error;
  }
}

async function audit(
  tx: Tx,
  actor: StaffActor,
  now: Date,
  entry: { action: 'staff_create' | 'staff_update'; loginId: string; before: MemberRow | null; after: MemberRow; detail?: Record<string, unknown> },
): Promise<void> {
  await tx.insert(auditLog).values({
    at: now,
    staffId: actor.staffId,
    action: entry.action,
    scheduleId: null,
    entity: `staff:${entry.loginId}`,
    before: entry.before === null ? null : auditPicture(entry.before),
    after: auditPicture(entry.after),
    detail: entry.detail ?? {},
    reason: actor.reason,
  });
}

async function memberById(tx: Tx, id: number): Promise<MemberRow & { organizationId: number | null }> {
  if (id > MAX_ID) throw new DomainError('NOT_FOUND', 'No such staff member.');
  const [row] = await selectMembers(tx).where(eq(staff.id, id)).limit(1);
  if (!row) throw new DomainError('NOT_FOUND', 'No such staff member.');
  return row;
}

/** Creates a staff account (its password hashed here), audited as staff_create. */
export async function createStaff(db: Db, actor: StaffActor, input: NewStaff, now: Date): Promise<StaffMember> {
  if ((input.role === 'admin') !== (input.orgCode === null)) {
    throw invalidField('org_code', input.role === 'admin' ? 'An administrator belongs to no organisation.' : 'A proctor needs an organisation.');
  }
  const passwordHash = await hashPassword(input.password);
  return mappingDuplicates(input.loginId, () =>
    db.transaction(async (tx) => {
      const organizationId = input.orgCode === null ? null : await organizationIdOf(tx, input.orgCode);
      await refuseDuplicate(tx, input.loginId, organizationId);
      const [created] = await tx
        .insert(staff)
        .values({ organizationId, loginId: input.loginId, name: input.name, role: input.role, passwordHash, createdAt: now })
        .returning({ id: staff.id });
      const after = await memberById(tx, created!.id);
      await audit(tx, actor, now, { action: 'staff_create', loginId: input.loginId, before: null, after });
      return memberView(after);
    }),
  );
}

/** Changes the fields given, audited as staff_update; disabling or a new password revokes the member's tokens. */
export async function updateStaff(db: Db, actor: StaffActor, id: number, changes: StaffChanges, now: Date): Promise<StaffMember> {
  const passwordHash = changes.password === undefined ? undefined : await hashPassword(changes.password);
  return db.transaction(async (tx) => {
    const before = await memberById(tx, id);
    if (actor.staffId === id && changes.disabled === true) throw invalidField('disabled', 'You cannot disable your own account.');
    if (actor.staffId === id && changes.role === 'proctor') throw invalidField('role', 'You cannot take away your own administrator role.');

    const role = changes.role ?? before.role;
    let organizationId: number | null;
    if (role === 'admin') {
      if (typeof changes.orgCode === 'string') throw invalidField('org_code', 'An administrator belongs to no organisation.');
      organizationId = null;
    } else if (typeof changes.orgCode === 'string') {
      organizationId = await organizationIdOf(tx, changes.orgCode);
    } else if (changes.orgCode === null || before.organizationId === null) {
      throw new DomainError('VALIDATION_ERROR', 'A proctor needs an organisation.', [{ field: 'org_code', rule: 'required' }]);
    } else {
      organizationId = before.organizationId;
    }
    if (organizationId !== before.organizationId) await refuseDuplicate(tx, before.loginId, organizationId, id);

    await mappingDuplicates(before.loginId, () =>
      tx
        .update(staff)
        .set({
          name: changes.name ?? before.name,
          role,
          organizationId,
          disabled: changes.disabled ?? before.disabled,
          ...(passwordHash === undefined ? {} : { passwordHash }),
        })
        .where(eq(staff.id, id)),
    );
    const revoke = passwordHash !== undefined || (changes.disabled === true && !before.disabled);
    const revoked = revoke
      ? await tx
          .update(staffTokens)
          .set({ revokedAt: now })
          .where(and(eq(staffTokens.staffId, id), isNull(staffTokens.revokedAt)))
          .returning({ id: staffTokens.id })
      : [];
    const after = await memberById(tx, id);
    await audit(tx, actor, now, {
      action: 'staff_update',
      loginId: before.loginId,
      before,
      after,
      detail: { ...(passwordHash === undefined ? {} : { password_reset: true }), ...(revoke ? { revoked_tokens: revoked.length } : {}) },
    });
    return memberView(after);
  });
}

/** The newest deployment-wide audit entries (no test period), newest first, at most AUDIT_LIMIT. */
export async function listDeploymentAudit(tx: Tx): Promise<DeploymentAuditEntry[]> {
  const rows = await tx
    .select({ ...auditColumns, staffLoginId: staff.loginId, entity: auditLog.entity, before: auditLog.before, after: auditLog.after })
    .from(auditLog)
    .leftJoin(staff, eq(staff.id, auditLog.staffId))
    .where(isNull(auditLog.scheduleId))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(AUDIT_LIMIT);
  return rows.map((r) => ({ ...auditEntryOf(r), staff_login_id: r.staffLoginId, entity: r.entity, before: r.before, after: r.after }));
}
