/**
 * What the number keypad types, as pure functions: a draft (what the display shows while the
 * pupil types, possibly unfinished: "-", "2.", "3/") and the contract's normalised value it
 * stands for (contract/exam.ts, QuestionTypeSchema: "-3", "2.5", "3/4"), or null while the
 * draft is not a number yet. Only a complete value ever leaves the keypad.
 */

import { asciiDigits, decimalSeparatorOf, localizeDigits } from '../../i18n/format.ts';
import type { LanguageKey } from '../../../contract/languages.ts';

export type KeypadKey = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | 'minus' | 'point' | 'slash' | 'backspace' | 'clear';

/** The keys a question allows besides the digits (AnswerInputSchema, kind "keypad"). */
export interface KeypadOptions {
  negative: boolean;
  decimal: boolean;
  fraction: boolean;
}

/** Long enough for any school answer, short enough for the display. */
export const MAX_DRAFT_LENGTH = 12;

const DIGITS = '0123456789';

export function isDigitKey(key: string): key is Exclude<KeypadKey, 'minus' | 'point' | 'slash' | 'backspace' | 'clear'> {
  return key.length === 1 && DIGITS.includes(key);
}

/** The draft after one key press; keys the question does not allow leave it unchanged. */
export function pressKey(draft: string, key: KeypadKey, options: KeypadOptions): string {
  if (key === 'clear') return '';
  if (key === 'backspace') return draft.slice(0, -1);
  if (key === 'minus') {
    if (!options.negative) return draft;
    return draft.startsWith('-') ? draft.slice(1) : `-${draft}`;
  }
  if (draft.length >= MAX_DRAFT_LENGTH) return draft;
  const body = draft.startsWith('-') ? draft.slice(1) : draft;
  const hasSeparator = body.includes('.') || body.includes('/');
  if (key === 'point') {
    if (!options.decimal || hasSeparator) return draft;
    return body === '' ? `${draft}0.` : `${draft}.`;
  }
  if (key === 'slash') {
    if (!options.fraction || hasSeparator || body === '') return draft;
    return `${draft}/`;
  }
  // A digit: a lone leading zero of the whole part or denominator is replaced, not extended ("07" is "7").
  const part = body.split(/[./]/).at(-1) ?? '';
  const inFraction = body.includes('.');
  if (part === '0' && !inFraction) return `${draft.slice(0, -1)}${key}`;
  return `${draft}${key}`;
}

const COMPLETE = /^(-?)(\d+)(?:\.(\d+)|\/(\d+))?$/;

/**
 * The normalised value of a draft, or null when it is not a number yet ("-", "2.", "3/") or
 * not allowed ("3/0": a fraction needs a non-zero denominator). "" (nothing typed) is "".
 */
export function valueOf(draft: string): string | null {
  if (draft === '') return '';
  const match = COMPLETE.exec(draft);
  if (!match) return null;
  const [, sign, whole, decimals, denominator] = match;
  if (denominator !== undefined && /^0+$/.test(denominator)) return null;
  const wholePart = whole!.replace(/^0+(?=\d)/, '');
  const rest = decimals !== undefined ? `.${decimals}` : denominator !== undefined ? `/${denominator.replace(/^0+(?=\d)/, '')}` : '';
  const isZero = /^0+$/.test(wholePart) && (decimals === undefined || /^0+$/.test(decimals)) && denominator === undefined;
  // "-0" is 0: no sign on zero.
  return `${isZero ? '' : sign}${wholePart}${rest}`;
}

/**
 * The key a physical keyboard's key stands for, if any. A digit of another script (an Arabic
 * keyboard types "٣") is that digit: the draft, and so the answer sent, is always ASCII.
 */
export function keyFromKeyboard(key: string): KeypadKey | null {
  const digit = asciiDigits(key);
  if (isDigitKey(digit)) return digit;
  switch (key) {
    case '-':
    case '−':
      return 'minus';
    case '.':
    case ',':
    case '٫':
      return 'point';
    case '/':
      return 'slash';
    case 'Backspace':
      return 'backspace';
    case 'Delete':
      return 'clear';
    default:
      return null;
  }
}

/** How the display shows a draft: a real minus sign, the digits and the decimal separator as the language writes them. */
export function displayOf(draft: string, language: LanguageKey = 'en'): string {
  return localizeDigits(draft.replace('-', '−'), language).replace('.', decimalSeparatorOf(language));
}
