/**
 * The one error type of the domain: a contract error code, an optional English message and,
 * for VALIDATION_ERROR, the fields at fault. Domain functions throw it; the HTTP layer maps
 * the code to a status (server/http/errors.ts). No HTTP here.
 */
import type { ErrorCode } from '../../contract/errors.ts';

export type FieldIssue = { field: string; rule: 'required' | 'invalid' };

export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly issues: FieldIssue[] | undefined;

  constructor(code: ErrorCode, message?: string, issues?: FieldIssue[]) {
    super(message ?? code);
    this.name = 'DomainError';
    this.code = code;
    this.issues = issues;
  }
}

/** A VALIDATION_ERROR about one field the schema could not judge alone (it needs the database). */
export function invalidField(field: string, message: string): DomainError {
  return new DomainError('VALIDATION_ERROR', message, [{ field, rule: 'invalid' }]);
}

/** True when a database error (possibly wrapped by Drizzle) is a unique-constraint violation. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    if (typeof e === 'object' && 'code' in e && (e as { code: unknown }).code === '23505') return true;
    e = typeof e === 'object' && 'cause' in e ? (e as { cause: unknown }).cause : undefined;
  }
  return false;
}
