/**
 * server/domain/scoring.ts: whether an answer is correct, for every question type, and the
 * format checks the answer endpoint shares with it.
 */
import { describe, expect, test } from 'vitest';
import { isCorrect, isPermutationOf, isWellFormedNumber, parseNumber } from '../../server/domain/scoring.ts';

describe('isCorrect', () => {
  test('single_choice: only the stored choice id', () => {
    const q = { type: 'single_choice', correctAnswer: 'b' } as const;
    expect(isCorrect(q, 'b')).toBe(true);
    expect(isCorrect(q, 'a')).toBe(false);
    expect(isCorrect(q, 'B')).toBe(false);
    expect(isCorrect(q, '')).toBe(false);
  });

  test('text: trimmed, inner spaces made one, case-insensitive by default', () => {
    const q = { type: 'text', correctAnswer: 'Tuesday' } as const;
    expect(isCorrect(q, 'Tuesday')).toBe(true);
    expect(isCorrect(q, '  tuesday ')).toBe(true);
    expect(isCorrect(q, 'TUESDAY')).toBe(true);
    expect(isCorrect(q, 'Tuesdays')).toBe(false);
    expect(isCorrect(q, 'Tues day')).toBe(false);
    expect(isCorrect(q, '')).toBe(false);
    expect(isCorrect({ type: 'text', correctAnswer: 'ice cream' }, 'ice   cream')).toBe(true);
  });

  test('text marked case-sensitive: the case must match', () => {
    const q = { type: 'text', correctAnswer: 'A', caseSensitive: true } as const;
    expect(isCorrect(q, 'A')).toBe(true);
    expect(isCorrect(q, ' A ')).toBe(true);
    expect(isCorrect(q, 'a')).toBe(false);
  });

  test('number: equal as rational numbers, whatever the notation', () => {
    const half = { type: 'number', correctAnswer: '1/2' } as const;
    for (const value of ['1/2', '0.5', '2/4', '0.50', '50/100']) expect(isCorrect(half, value), value).toBe(true);
    for (const value of ['1/3', '0.55', '-1/2', '', '½', '1 / 2', '.5']) expect(isCorrect(half, value), value).toBe(false);

    expect(isCorrect({ type: 'number', correctAnswer: '-5' }, '-5')).toBe(true);
    expect(isCorrect({ type: 'number', correctAnswer: '-5' }, '5')).toBe(false);
    expect(isCorrect({ type: 'number', correctAnswer: '-5' }, '-10/2')).toBe(true);
    expect(isCorrect({ type: 'number', correctAnswer: '4' }, '4.0')).toBe(true);
    expect(isCorrect({ type: 'number', correctAnswer: '4' }, '04')).toBe(true);
    expect(isCorrect({ type: 'number', correctAnswer: '0' }, '-0')).toBe(true);
    expect(isCorrect({ type: 'number', correctAnswer: '9/4' }, '2.25')).toBe(true);
    expect(isCorrect({ type: 'number', correctAnswer: '4.05' }, '4.5')).toBe(false);
    expect(isCorrect({ type: 'number', correctAnswer: '12' }, '1/0')).toBe(false);
  });

  test('number: large values compare exactly (no floating point)', () => {
    expect(isCorrect({ type: 'number', correctAnswer: '0.3' }, '0.30000000000000004')).toBe(false);
    expect(isCorrect({ type: 'number', correctAnswer: '9007199254740993' }, '9007199254740992')).toBe(false);
  });

  test('ordering: exactly the stored order', () => {
    const q = { type: 'ordering', correctAnswer: 'c,a,b' } as const;
    expect(isCorrect(q, 'c,a,b')).toBe(true);
    expect(isCorrect(q, 'a,b,c')).toBe(false);
    expect(isCorrect(q, 'c,a')).toBe(false);
    expect(isCorrect(q, '')).toBe(false);
  });
});

describe('number format', () => {
  test('accepts what the keypad writes, refuses anything else', () => {
    for (const value of ['0', '12', '-3', '2.5', '-0.75', '3/4', '-7/8', '10/5']) expect(isWellFormedNumber(value), value).toBe(true);
    for (const value of ['', '-', '1,5', '1.', '.5', '1/0', '1/-2', '--1', '+1', '1e3', '1.2.3', '1/2/3', '1.5/2', ' 1', 'NaN', '٣'])
      expect(isWellFormedNumber(value), value).toBe(false);
    expect(isWellFormedNumber('9'.repeat(41))).toBe(false);
  });

  test('parses to lowest terms with a positive denominator', () => {
    expect(parseNumber('6/8')).toEqual({ num: 3n, den: 4n });
    expect(parseNumber('-2.50')).toEqual({ num: -5n, den: 2n });
    expect(parseNumber('0/7')).toEqual({ num: 0n, den: 1n });
  });
});

describe('ordering format', () => {
  test('a permutation of the ids, each once', () => {
    expect(isPermutationOf('b,a,c', ['a', 'b', 'c'])).toBe(true);
    expect(isPermutationOf('a,b', ['a', 'b', 'c'])).toBe(false);
    expect(isPermutationOf('a,a,b', ['a', 'b', 'c'])).toBe(false);
    expect(isPermutationOf('a,b,d', ['a', 'b', 'c'])).toBe(false);
    expect(isPermutationOf('a,b,c,c', ['a', 'b', 'c'])).toBe(false);
    expect(isPermutationOf('a, b,c', ['a', 'b', 'c'])).toBe(false);
  });
});
