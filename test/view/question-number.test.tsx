// @vitest-environment jsdom
/**
 * A number question: the on-screen keypad types a draft and hands over only the contract's
 * normalised value ("-3", "2.5", "3/4"), once it is complete and changed; the keys shown are
 * the ones the question allows; the physical keyboard types too.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { pressKey, valueOf, type KeypadKey, type KeypadOptions } from '../../src/components/keypad/keypad-value.ts';
import type { ExamScreenApi } from '../../machines/exam/exam.connect.ts';
import { ExamScreen } from '../../src/screens/exam/exam.tsx';
import type { Question } from '../../contract/exam.ts';
import { examScreenApi } from '../helpers/exam-fixtures.ts';
import { renderView } from '../helpers/render-view.tsx';

const every: KeypadOptions = { negative: true, decimal: true, fraction: true };

function typeKeys(keys: KeypadKey[], options: KeypadOptions = every): string {
  return keys.reduce((draft, key) => pressKey(draft, key, options), '');
}

function numberQuestion(input: Question['input']): Question {
  return { id: 201, number: 1, type: 'number', prompt: 'What is 7 − 10?', choices: [], input };
}

function props(question: Question, overrides: Partial<ExamScreenApi> = {}): ExamScreenApi {
  return examScreenApi({ questions: [question], ...overrides });
}

describe('the keypad draft and its value', () => {
  it.each([
    [['3'], '3', '3'],
    [['minus', '3'], '-3', '-3'],
    [['3', 'minus'], '-3', '-3'],
    [['minus', 'minus', '3'], '3', '3'],
    [['2', 'point', '5'], '2.5', '2.5'],
    [['point', '5'], '0.5', '0.5'],
    [['3', 'slash', '4'], '3/4', '3/4'],
    [['minus', '3', 'slash', '4'], '-3/4', '-3/4'],
    [['0', '0', '7'], '7', '7'],
    [['minus', '0'], '-0', '0'],
    [['1', '2', 'backspace'], '1', '1'],
    [['1', '2', 'clear'], '', ''],
  ] as [KeypadKey[], string, string][])('%j types %j, worth %j', (keys, draft, value) => {
    expect(typeKeys(keys)).toBe(draft);
    expect(valueOf(typeKeys(keys))).toBe(value);
  });

  it.each([
    [['3', 'slash']],
    [['2', 'point']],
    [['minus']],
    [['3', 'slash', '0']],
    [['3', 'slash', '0', '0']],
  ] as [KeypadKey[]][])('keeps %j to itself: not a number (yet)', (keys) => {
    expect(valueOf(typeKeys(keys))).toBeNull();
  });

  it('allows one separator, and a fraction bar only after a digit', () => {
    expect(typeKeys(['slash', '3'])).toBe('3');
    expect(typeKeys(['2', 'point', '5', 'point', 'slash', '1'])).toBe('2.51');
    expect(typeKeys(['3', 'slash', '4', 'point', 'slash'])).toBe('3/4');
  });

  it('ignores the keys a question does not allow', () => {
    const digitsOnly = { negative: false, decimal: false, fraction: false };
    expect(typeKeys(['minus', '2', 'point', '5', 'slash', '4'], digitsOnly)).toBe('254');
  });
});

describe('a number question on the keypad', () => {
  it('shows the digits and only the keys the question allows', async () => {
    await renderView(<ExamScreen api={props(numberQuestion({ kind: 'keypad', negative: true, decimal: false, fraction: false }))} />);
    const keypad = screen.getByRole('group', { name: 'Number keypad' });
    for (const digit of '0123456789') expect(within(keypad).getByRole('button', { name: digit })).toBeTruthy();
    expect(within(keypad).getByRole('button', { name: 'Minus' })).toBeTruthy();
    expect(within(keypad).queryByRole('button', { name: 'Decimal point' })).toBeNull();
    expect(within(keypad).queryByRole('button', { name: 'Fraction bar' })).toBeNull();
    expect(within(keypad).getByRole('button', { name: 'Backspace' })).toBeTruthy();
    expect(within(keypad).getByRole('button', { name: 'Clear' })).toBeTruthy();
    const display = screen.getByRole('textbox', { name: 'Your answer' }) as HTMLInputElement;
    expect(display.readOnly).toBe(true);
  });

  it('hands over a negative number, shown with a minus sign', async () => {
    const onAnswer = vi.fn();
    const { user } = await renderView(
      <ExamScreen api={props(numberQuestion({ kind: 'keypad', negative: true, decimal: false, fraction: false }), { answer: onAnswer })} />,
    );
    await user.click(screen.getByRole('button', { name: 'Minus' }));
    expect(onAnswer).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: '3' }));
    expect((screen.getByRole('textbox', { name: 'Your answer' }) as HTMLInputElement).value).toBe('−3');
    expect(onAnswer.mock.calls).toEqual([[201, '-3']]);
  });

  it('keeps "3/" and "3/0" local and hands over "3/4"', async () => {
    const onAnswer = vi.fn();
    const { user } = await renderView(
      <ExamScreen api={props(numberQuestion({ kind: 'keypad', negative: false, decimal: false, fraction: true }), { answer: onAnswer })} />,
    );
    await user.click(screen.getByRole('button', { name: '3' }));
    await user.click(screen.getByRole('button', { name: 'Fraction bar' }));
    expect(screen.getByText('Finish the number: it is not saved yet.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '0' }));
    await user.click(screen.getByRole('button', { name: 'Backspace' }));
    await user.click(screen.getByRole('button', { name: '4' }));
    expect(onAnswer.mock.calls).toEqual([
      [201, '3'],
      [201, '3/4'],
    ]);
    expect(screen.queryByText('Finish the number: it is not saved yet.')).toBeNull();
  });

  it('types with the physical keyboard, decimals too, and hands over no repeat', async () => {
    const onAnswer = vi.fn();
    const { user } = await renderView(
      <ExamScreen api={props(numberQuestion({ kind: 'keypad', negative: true, decimal: true, fraction: false }), { answer: onAnswer })} />,
    );
    // The heading has the focus when the question opens.
    await user.keyboard('2.5');
    await user.keyboard('{Backspace}5');
    expect((screen.getByRole('textbox', { name: 'Your answer' }) as HTMLInputElement).value).toBe('2.5');
    expect(onAnswer.mock.calls).toEqual([
      [201, '2'],
      [201, '2.5'],
    ]);
  });

  it('starts from the saved answer and clears it', async () => {
    const onAnswer = vi.fn();
    const { user } = await renderView(
      <ExamScreen
        api={props(numberQuestion({ kind: 'keypad', negative: true, decimal: true, fraction: true }), {
          answer: onAnswer,
          answers: { 201: { value: '-3', saved: 'server' } },
        })}
      />,
    );
    expect((screen.getByRole('textbox', { name: 'Your answer' }) as HTMLInputElement).value).toBe('−3');
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(onAnswer.mock.calls).toEqual([[201, '']]);
  });

  it('keeps the keypad and the number left to right in Arabic', async () => {
    await renderView(<ExamScreen api={props(numberQuestion({ kind: 'keypad', negative: true, decimal: false, fraction: false }))} />, {
      language: 'ar',
    });
    expect(document.documentElement.dir).toBe('rtl');
    const keypad = document.querySelector('[role="group"][dir="ltr"]');
    expect(keypad?.querySelectorAll('button').length).toBe(13);
    expect(document.querySelector('input[readonly]')?.getAttribute('dir')).toBe('ltr');
  });

  it('takes no key while the answers are being sent', async () => {
    const onAnswer = vi.fn();
    const { user } = await renderView(
      <ExamScreen api={props(numberQuestion({ kind: 'keypad', negative: true, decimal: true, fraction: true }), { answer: onAnswer, status: 'finishing' })} />,
    );
    expect((screen.getByRole('button', { name: '5' }) as HTMLButtonElement).disabled).toBe(true);
    await user.keyboard('5');
    expect(onAnswer).not.toHaveBeenCalled();
  });
});
