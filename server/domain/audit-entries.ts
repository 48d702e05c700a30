/**
 * What every audit list reads of an entry and answers about it: the entry's id, time, action,
 * detail and reason, and who made it (a staff member by name, or the system when nobody did).
 * The schedule's trail (proctor.ts) and the deployment's (staff-admin.ts) add their own columns
 * beside these.
 */
import { auditLog, staff } from '../db/schema.ts';

/** The columns to select, with the audit log left-joined to its staff member. */
export const auditColumns = {
  id: auditLog.id,
  at: auditLog.at,
  staffName: staff.name,
  action: auditLog.action,
  detail: auditLog.detail,
  reason: auditLog.reason,
};

type Stored = typeof auditLog.$inferSelect;
type AuditRow = Pick<Stored, 'id' | 'at' | 'action' | 'detail' | 'reason'> & { staffName: string | null };

/** The wire fields every audit entry has. */
export function auditEntryOf(row: AuditRow) {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: row.staffName === null ? ('system' as const) : ('staff' as const),
    staff_name: row.staffName,
    action: row.action,
    detail: row.detail,
    reason: row.reason,
  };
}
