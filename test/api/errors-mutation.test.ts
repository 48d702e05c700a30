/**
 * The domain's one error type and its unique-violation test (server/domain/errors.ts): what the
 * HTTP layer reads of a DomainError (code, message, fields at fault), and which database errors
 * count as PostgreSQL's unique violation (23505), also when Drizzle wraps them in `cause`. The
 * save of an answer relies on the latter to tell a resend (same idempotency key) from a failure.
 */
import { describe, expect, test } from 'vitest';
import { DomainError, invalidField, isUniqueViolation } from '../../server/domain/errors.ts';

describe('DomainError', () => {
  test('carries its code, its message (the code when none is given) and the fields at fault', () => {
    const plain = new DomainError('NOT_FOUND');
    expect(plain).toBeInstanceOf(Error);
    expect(plain).toMatchObject({ name: 'DomainError', code: 'NOT_FOUND', message: 'NOT_FOUND', issues: undefined });
    expect(new DomainError('EXPIRED', 'Too late.')).toMatchObject({ code: 'EXPIRED', message: 'Too late.' });
  });

  test('invalidField is a VALIDATION_ERROR naming one field as invalid', () => {
    expect(invalidField('value', 'Not one of the choices.')).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'Not one of the choices.',
      issues: [{ field: 'value', rule: 'invalid' }],
    });
  });
});

describe('isUniqueViolation', () => {
  const unique = { code: '23505' };
  const wrap = (error: unknown, times: number): unknown => (times === 0 ? error : wrap(new Error('wrapped', { cause: error }), times - 1));

  test('23505, bare or wrapped up to four times, is a unique violation', () => {
    for (const times of [0, 1, 4]) expect(isUniqueViolation(wrap(unique, times)), `${times}`).toBe(true);
  });

  test('another code, no code, nothing, or a violation buried five causes deep is not', () => {
    expect(isUniqueViolation({ code: '23503' })).toBe(false);
    expect(isUniqueViolation(wrap({ code: '40001' }, 2))).toBe(false);
    expect(isUniqueViolation(new Error('connection reset'))).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
    expect(isUniqueViolation(null)).toBe(false);
    expect(isUniqueViolation('23505')).toBe(false);
    expect(isUniqueViolation(wrap(unique, 5))).toBe(false);
  });
});
