/**
 * The administration machine's pure rules: what a file is sent as, when an import may be applied,
 * the order its rows are shown in, and the staff form checked with the contract's schemas (the
 * same ones the server parses with), so the console never sends what the server would refuse.
 */
import * as v from 'valibot';
import { CreateStaffRequestSchema, StaffPasswordSchema, UpdateStaffRequestSchema, type StaffMember } from '../../contract/admin.ts';
import type { FieldRule } from '../proctor/proctor.types.ts';
import { ApiFailure, failureCodeOf } from '../shared/ports.ts';
import type {
  ChosenFile,
  ImportKind,
  ImportPlan,
  ImportRow,
  StaffEditor,
  StaffField,
  StaffFieldErrors,
  StaffFormValues,
  StaffRequest,
} from './administration.types.ts';

/** The Content-Type an import file is sent with: CSV for rosters; JSON or an IMS QTI zip for an exam. */
export function contentTypeOf(kind: ImportKind, file: Pick<ChosenFile, 'name' | 'type'>): string {
  if (kind !== 'exam') return 'text/csv';
  const zip = /\.zip$/i.test(file.name) || file.type === 'application/zip' || file.type === 'application/x-zip-compressed';
  return zip ? 'application/zip' : 'application/json';
}

/** The files the picker offers for a kind. */
export function acceptOf(kind: ImportKind): string {
  return kind === 'exam' ? '.json,.zip,application/json,application/zip' : '.csv,text/csv';
}

/** An import is applied only when its dry run refused nothing (all or nothing on the server too). */
export function canApply(plan: ImportPlan | null): boolean {
  return plan !== null && !plan.applied && plan.summary.refuse === 0 && plan.rows.every((r) => r.outcome !== 'refuse');
}

/** Refusals first (whole-file ones before rows), then the file's order. */
export function rowsRefusalsFirst(rows: readonly ImportRow[]): ImportRow[] {
  const order = (r: ImportRow) => (r.outcome === 'refuse' ? 0 : 1);
  return [...rows].sort((a, b) => order(a) - order(b) || (a.row ?? 0) - (b.row ?? 0));
}

/** A staff session the server no longer knows (revoked, expired): the console ends. */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiFailure ? error.status === 401 && error.code !== 'DURING_MAINTENANCE' : failureCodeOf(error) === 'NOT_LOGGED_IN';
}

function ruleOf(message: string): FieldRule {
  return message === 'required' ? 'required' : 'invalid';
}

function fieldsOf(issues: readonly v.BaseIssue<unknown>[]): StaffFieldErrors {
  const fields: StaffFieldErrors = {};
  for (const issue of issues) {
    const key = issue.path?.[0]?.key;
    if (typeof key === 'string' && !(key in fields)) fields[key as StaffField] = ruleOf(issue.message);
  }
  return fields;
}

const trimmed = (value: string | undefined) => (value ?? '').trim();

/**
 * The staff form as the server would take it: adding needs a login id, a name, a role, an
 * organisation for a proctor (none for an administrator) and a password of at least 12
 * characters; editing sends the name, role, organisation and disabled flag; a new password alone.
 */
export function checkStaffForm(
  editor: StaffEditor,
  values: StaffFormValues,
  member: StaffMember | undefined,
): { ok: true; request: StaffRequest } | { ok: false; fields: StaffFieldErrors } {
  if (editor.mode === 'password') {
    const parsed = v.safeParse(v.object({ password: StaffPasswordSchema }), { password: values.password ?? '' });
    return parsed.success ? { ok: true, request: { mode: 'password', id: editor.id, body: parsed.output } } : { ok: false, fields: fieldsOf(parsed.issues) };
  }
  const role = values.role === '' ? undefined : values.role;
  const orgCode = role === 'admin' ? undefined : trimmed(values.org_code);
  if (editor.mode === 'add') {
    const body = { login_id: values.login_id ?? '', name: values.name ?? '', role: role ?? '', password: values.password ?? '', ...(orgCode ? { org_code: orgCode } : {}) };
    const parsed = v.safeParse(CreateStaffRequestSchema, body);
    if (!parsed.success) return { ok: false, fields: withRequiredOrg(fieldsOf(parsed.issues), role, orgCode) };
    const { org_code, ...rest } = parsed.output;
    return { ok: true, request: { mode: 'add', body: { ...rest, ...(org_code ? { org_code } : {}) } } };
  }
  const body = {
    name: values.name ?? member?.name ?? '',
    role: role ?? member?.role,
    org_code: role === 'admin' ? null : orgCode || undefined,
    disabled: values.disabled ?? member?.disabled ?? false,
  };
  const parsed = v.safeParse(UpdateStaffRequestSchema, body);
  if (!parsed.success) return { ok: false, fields: fieldsOf(parsed.issues) };
  if (parsed.output.role === 'proctor' && !parsed.output.org_code && !member?.org_code) return { ok: false, fields: { org_code: 'required' } };
  const { org_code, ...rest } = parsed.output;
  // An administrator has no organisation: the server drops it when the role says so.
  return { ok: true, request: { mode: 'edit', id: editor.id, body: { ...rest, ...(org_code ? { org_code } : {}) } } };
}

/** A proctor without an organisation reads as "required", not as the schema's "invalid". */
function withRequiredOrg(fields: StaffFieldErrors, role: string | undefined, orgCode: string | undefined): StaffFieldErrors {
  if (role === 'proctor' && !orgCode) return { ...fields, org_code: 'required' };
  return fields;
}
