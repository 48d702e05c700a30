// @vitest-environment jsdom
/**
 * Languages and access: every number a pupil reads in the language's digits (the
 * Arabic numerals variant on the start screen's time limit, the tutorial's "00:00", the keypad's
 * keys and its display, while the keypad still hands over ASCII); the level named in the
 * pupil's language on login-confirm and the short result, as the score report does; Kazakh
 * dates day, month name, year; and, for the languages Chromium has no data for, country names
 * (pa, km) and numbers (km, my) from the formatjs polyfills. Node's Intl has every language, so
 * the tests that stand for Chromium replace Intl's constructors with ones that lack those
 * languages, as Debian's Chromium does.
 */
import { screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { displayOf, keyFromKeyboard } from '../../src/components/keypad/keypad-value.ts';
import { Keypad } from '../../src/components/keypad/keypad.tsx';
import { asciiDigits, formatDate, formatNumber, formatRegion, formatUsd, localizeDigits } from '../../src/i18n/format.ts';
import { loadIntlPolyfills } from '../../src/i18n/intl-polyfills.ts';
import { ExamStartScreen } from '../../src/screens/exam-start/exam-start.tsx';
import { ExamTutorialScreen } from '../../src/screens/exam-tutorial/exam-tutorial.tsx';
import { LoginConfirmScreen } from '../../src/screens/login-confirm/login-confirm.tsx';
import { ShortResultScreen } from '../../src/screens/short-result/short-result.tsx';
import type { ShortResult } from '../../contract/results.ts';
import { examDetails, examStartApi, loginConfirmApi } from '../helpers/exam-fixtures.ts';
import { renderView } from '../helpers/render-view.tsx';

const arabicIndic = /[\u0660-\u0669]/;

describe('the Arabic numerals variant (ar-nu-arab) reaches every number', () => {
  it('on the start screen: the time limit "٤٠"', async () => {
    await renderView(<ExamStartScreen api={examStartApi({ busy: false, error: null, timeLimitMinutes: 40, start: vi.fn() })} />, { language: 'ar-nu-arab' });
    const warning = screen.getByText(/٤٠/);
    expect(warning.textContent).not.toMatch(/40/);
  });

  it('in the tutorial: the timer\'s end "٠٠:٠٠"', async () => {
    await renderView(<ExamTutorialScreen api={{ questionCount: 20, timeLimitMinutes: 40, complete: vi.fn() }} />, { language: 'ar-nu-arab' });
    expect(screen.getByText(/٠٠:٠٠/)).toBeTruthy();
    expect(document.body.textContent).not.toContain('00:00');
  });

  it('in English the tutorial still says 00:00', async () => {
    await renderView(<ExamTutorialScreen api={{ questionCount: 20, timeLimitMinutes: 40, complete: vi.fn() }} />);
    expect(screen.getByText(/When it reaches 00:00, the test ends by itself\./)).toBeTruthy();
  });

  it('on the keypad: keys and display in Arabic-Indic digits, the value handed over in ASCII', async () => {
    const onValue = vi.fn();
    const { user } = await renderView(
      <Keypad options={{ negative: true, decimal: true, fraction: false }} value="" disabled={false} onValue={onValue} />,
      { language: 'ar-nu-arab' },
    );
    const keys = within(screen.getByRole('group'));
    for (const digit of '٠١٢٣٤٥٦٧٨٩') expect(keys.getByRole('button', { name: digit })).toBeTruthy();
    expect(keys.queryByRole('button', { name: '7' })).toBeNull();
    await user.click(keys.getByRole('button', { name: '٤' }));
    await user.click(keys.getByRole('button', { name: '٢' }));
    expect(onValue).toHaveBeenLastCalledWith('42');
    const display = screen.getByRole('textbox') as HTMLInputElement;
    expect(display.value).toBe('٤٢');
    expect(display.value).toMatch(arabicIndic);
  });

  it('on the keypad: the decimal key and the display use the language\'s separator, the value "."', async () => {
    const onValue = vi.fn();
    const { user } = await renderView(
      <Keypad options={{ negative: false, decimal: true, fraction: false }} value="" disabled={false} onValue={onValue} />,
      { language: 'ar-nu-arab' },
    );
    const separator = new Intl.NumberFormat('ar-u-nu-arab').formatToParts(1.5).find((p) => p.type === 'decimal')!.value;
    expect(separator).toBe('٫');
    const point = within(screen.getByRole('group')).getByRole('button', { name: 'الفاصلة العشرية' });
    expect(point.textContent).toBe(separator);
    expect(point.textContent).not.toContain('.');
    const keys = within(screen.getByRole('group'));
    await user.click(keys.getByRole('button', { name: '٢' }));
    await user.click(point);
    await user.click(keys.getByRole('button', { name: '٥' }));
    expect(onValue).toHaveBeenLastCalledWith('2.5');
    expect((screen.getByRole('textbox') as HTMLInputElement).value).toBe(formatNumber(2.5, 'ar-nu-arab'));
    expect(keyFromKeyboard('٫')).toBe('point');
    expect(displayOf('2.5', 'en')).toBe('2.5');
  });

  it('an Arabic keyboard\'s digits type the same ASCII digits', () => {
    expect(keyFromKeyboard('٣')).toBe('3');
    expect(keyFromKeyboard('۷')).toBe('7');
    expect(keyFromKeyboard('3')).toBe('3');
    expect(keyFromKeyboard('x')).toBeNull();
    expect(displayOf('-12', 'ar-nu-arab')).toBe('−١٢');
    expect(asciiDigits('٤٢ and ၄၂ and 42')).toBe('42 and 42 and 42');
    expect(localizeDigits('3/4', 'ar-nu-arab')).toBe('٣/٤');
    expect(localizeDigits('3/4', 'en')).toBe('3/4');
  });
});

describe('the level in the pupil\'s language, as the score report says it', () => {
  it('on login-confirm: from the level\'s place, not the server\'s English name', async () => {
    const details = { ...examDetails, level: { id: 9, name: 'Level 3 (server)', order: 3 } };
    await renderView(<LoginConfirmScreen api={loginConfirmApi({ status: 'ready', details, error: null, confirm: vi.fn(), reject: vi.fn(), retry: vi.fn() })} />);
    expect(screen.getAllByRole('definition')[2]!.textContent).toBe('Level 3');
  });

  it('with the language\'s digits', async () => {
    const details = { ...examDetails, level: { id: 9, name: 'Level 3', order: 3 } };
    await renderView(
      <LoginConfirmScreen api={loginConfirmApi({ status: 'ready', details, error: null, confirm: vi.fn(), reject: vi.fn(), retry: vi.fn() })} />,
      { language: 'ar-nu-arab' },
    );
    expect(screen.getAllByRole('definition')[2]!.textContent).toMatch(/٣/);
  });

  it('keeps the server\'s name when the level\'s place is not known', async () => {
    const details = { ...examDetails, level: { id: 9, name: 'Pre-A1' } };
    await renderView(<LoginConfirmScreen api={loginConfirmApi({ status: 'ready', details, error: null, confirm: vi.fn(), reject: vi.fn(), retry: vi.fn() })} />);
    expect(screen.getAllByRole('definition')[2]!.textContent).toBe('Pre-A1');
  });

  it('on the short result', async () => {
    const result: ShortResult = {
      schedule_history_id: 7,
      subject: { id: 1, name: 'English (vocabulary)' },
      level: { id: 9, name: 'Level 2 (server)', order: 2 },
      exam_date: '2026-11-12T01:30:00.000Z',
      score: 17,
      max_score: 20,
      passed: true,
      correct_count: 17,
      question_count: 20,
      correct_rate: 85,
      viewable_until: '2028-11-12T01:30:00.000Z',
      server_time: '2026-11-22T09:00:00.000Z',
    };
    await renderView(
      <ShortResultScreen api={{ status: 'ready', result, error: null, canRetry: true, canOpenReport: false, canBuy: true, onBuy: vi.fn(), onOpenReport: vi.fn(), onBack: vi.fn(), onRetry: vi.fn() }} />,
      { language: 'ar-nu-arab' },
    );
    expect(document.body.textContent).not.toContain('(server)');
    expect(document.body.textContent).toMatch(/٢/);
  });
});

describe('Kazakh dates: day, month name, year (seed section 9)', () => {
  beforeAll(() => loadIntlPolyfills('kk'));

  it('not year first', () => {
    const date = formatDate('2026-03-15T09:00:00.000Z', 'kk', 'UTC');
    expect(date).toMatch(/^15 \S+ 2026/);
    expect(date).toContain('наурыз');
  });
});

/** Intl as Debian's Chromium has it: no data for these languages (answers as English). */
function chromiumIntl(missing: readonly string[]) {
  const lacks = (locales: unknown) => missing.includes(String(Array.isArray(locales) ? locales[0] : locales).split('-')[0]!);
  const NativeDisplayNames = Intl.DisplayNames;
  const NativeNumberFormat = Intl.NumberFormat;
  class DisplayNames extends NativeDisplayNames {
    constructor(locales: string | string[] | undefined, options: Intl.DisplayNamesOptions) {
      super(lacks(locales) ? ['en'] : locales, options);
    }
  }
  function NumberFormat(locales?: string | string[], options?: Intl.NumberFormatOptions) {
    return new NativeNumberFormat(lacks(locales) ? 'en-US' : locales, options);
  }
  const intl = Object.create(Intl) as typeof Intl;
  Object.defineProperty(intl, 'DisplayNames', { value: DisplayNames });
  Object.defineProperty(intl, 'NumberFormat', { value: NumberFormat });
  vi.stubGlobal('Intl', intl);
}

describe('languages Chromium has no data for', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('country names: Punjabi and Khmer name Japan in their own words, not "JP" or English', async () => {
    await Promise.all([loadIntlPolyfills('pa'), loadIntlPolyfills('km')]);
    chromiumIntl(['pa', 'km', 'my', 'kk', 'uz']);
    expect(new Intl.DisplayNames(['pa'], { type: 'region' }).of('JP')).toBe('Japan');
    expect(formatRegion('JP', 'pa')).toBe('ਜਪਾਨ');
    expect(formatRegion('JP', 'km')).toBe('ជប៉ុន');
    // A language the browser has keeps the browser's own names.
    expect(formatRegion('JP', 'de')).toBe('Japan');
    expect(formatRegion('EG', 'ja')).toBe('エジプト');
  });

  it('numbers: Burmese digits for my, Khmer\'s currency pattern for km', async () => {
    await Promise.all([loadIntlPolyfills('my'), loadIntlPolyfills('km')]);
    chromiumIntl(['pa', 'km', 'my', 'kk', 'uz']);
    expect(new Intl.NumberFormat('my').format(42)).toBe('42');
    expect(formatNumber(42, 'my')).toBe('၄၂');
    expect(formatUsd(1500, 'km')).toBe('15.00$');
    expect(formatUsd(1500, 'en')).toBe('$15.00');
  });
});
