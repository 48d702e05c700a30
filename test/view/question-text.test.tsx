// @vitest-environment jsdom
/**
 * A text question with the on-screen alphabet keyboard: large letter keys, Space, Backspace
 * and the capital-letters toggle, each a named button, reachable with one Tab and the arrow
 * keys; upper-case mode starts in capitals and stays there. The typed text is handed over like
 * any typed answer (on Next here), through a live position machine. Whether the keyboard is shown and types capitals is the exam
 * machine's (alphabets_keyboard_flag, mode_upper_case_flag): the screen shows the props and
 * sends the toggles; a stand-in owner below keeps them the way the machine does.
 */
import { fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { ExamScreenApi } from '../../machines/exam/exam.connect.ts';
import type { Question } from '../../contract/exam.ts';
import { examScreenApi } from '../helpers/exam-fixtures.ts';
import { TypingExamScreen } from '../helpers/exam-typing.tsx';
import { renderView } from '../helpers/render-view.tsx';

function textQuestion(input: Question['input']): Question {
  return { id: 301, number: 1, type: 'text', prompt: 'Write the animal that says "meow".', choices: [], input };
}
const other: Question = { id: 302, number: 2, type: 'single_choice', prompt: 'Pick one.', choices: [{ id: 'a', label: 'A' }] };

function props(question: Question, overrides: Partial<ExamScreenApi> = {}): ExamScreenApi {
  return examScreenApi({ questions: [question, other], ...overrides });
}

const box = () => screen.getByRole('textbox', { name: 'Your answer' }) as HTMLInputElement;

/** The exam screen with the two flags kept the way the exam machine keeps them (toggled by the sends). */
function WithFlags({ api, initialKeyboardOpen = true, initialUpperCase = false }: { api: ExamScreenApi; initialKeyboardOpen?: boolean; initialUpperCase?: boolean }) {
  const [keyboardOpen, setKeyboardOpen] = useState(initialKeyboardOpen);
  const [upperCase, setUpperCase] = useState(initialUpperCase);
  return (
    <TypingExamScreen
      api={{
        ...api,
        keyboardOpen,
        upperCase,
        toggleKeyboard: () => {
          api.toggleKeyboard();
          setKeyboardOpen((open) => !open);
        },
        toggleUpperCase: () => {
          api.toggleUpperCase();
          setUpperCase((on) => !on);
        },
      }}
    />
  );
}

describe('a text question without the on-screen keyboard', () => {
  it('has only the text box', async () => {
    await renderView(<TypingExamScreen api={props(textQuestion(null))} />);
    expect(box()).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Alphabet keyboard' })).toBeNull();
    expect(screen.queryByRole('button', { name: /alphabet keyboard/ })).toBeNull();
  });
});

describe('the alphabet keyboard', () => {
  it('has a named button for every letter, Space, Backspace and capital letters', async () => {
    await renderView(<TypingExamScreen api={props(textQuestion({ kind: 'alphabet', upper_case: false }))} />);
    const keyboard = screen.getByRole('group', { name: 'Alphabet keyboard' });
    for (const letter of 'abcdefghijklmnopqrstuvwxyz') expect(within(keyboard).getByRole('button', { name: letter })).toBeTruthy();
    expect(within(keyboard).getByRole('button', { name: 'Space' })).toBeTruthy();
    expect(within(keyboard).getByRole('button', { name: 'Backspace' })).toBeTruthy();
    expect(within(keyboard).getByRole('button', { name: 'Capital letters', pressed: false })).toBeTruthy();
    // The tablet's own keyboard stays away.
    expect(box().getAttribute('inputmode')).toBe('none');
  });

  it('types letters, capitals after the toggle, a space and Backspace, and hands the text over', async () => {
    const onAnswer = vi.fn();
    const onToggleUpperCase = vi.fn();
    const { user } = await renderView(
      <WithFlags api={props(textQuestion({ kind: 'alphabet', upper_case: false }), { answer: onAnswer, toggleUpperCase: onToggleUpperCase })} />,
    );
    await user.click(screen.getByRole('button', { name: 'Capital letters' }));
    expect(screen.getByRole('button', { name: 'Capital letters', pressed: true })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'C' }));
    await user.click(screen.getByRole('button', { name: 'Capital letters' }));
    for (const letter of 'atx') await user.click(screen.getByRole('button', { name: letter }));
    await user.click(screen.getByRole('button', { name: 'Backspace' }));
    await user.click(screen.getByRole('button', { name: 'Space' }));
    expect(box().value).toBe('Cat ');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(onAnswer.mock.calls).toEqual([[301, 'Cat ']]);
    // The capitals key only asks the machine (mode_upper_case_flag): once on, once off.
    expect(onToggleUpperCase).toHaveBeenCalledTimes(2);
  });

  it('shows what the machine says: capitals when upper-case mode is on', async () => {
    await renderView(<TypingExamScreen api={props(textQuestion({ kind: 'alphabet', upper_case: false }), { upperCase: true })} />);
    expect(screen.getByRole('button', { name: 'Capital letters', pressed: true }).getAttribute('aria-disabled')).toBeNull();
    expect(screen.getByRole('button', { name: 'Q' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'q' })).toBeNull();
  });

  it('is hidden and shown with one button, giving the text box back to the device keyboard', async () => {
    const onToggleKeyboard = vi.fn();
    const { user } = await renderView(
      <WithFlags api={props(textQuestion({ kind: 'alphabet', upper_case: false }), { toggleKeyboard: onToggleKeyboard })} />,
    );
    const hide = screen.getByRole('button', { name: 'Hide alphabet keyboard' });
    const keyboard = screen.getByRole('group', { name: 'Alphabet keyboard' });
    expect(hide.getAttribute('aria-expanded')).toBe('true');
    expect(hide.getAttribute('aria-controls')).toBe(keyboard.id);
    await user.click(hide);
    expect(screen.queryByRole('group', { name: 'Alphabet keyboard' })).toBeNull();
    expect(box().getAttribute('inputmode')).toBeNull();
    const show = screen.getByRole('button', { name: 'Show alphabet keyboard' });
    expect(show.getAttribute('aria-expanded')).toBe('false');
    await user.click(show);
    expect(screen.getByRole('group', { name: 'Alphabet keyboard' })).toBeTruthy();
    expect(box().getAttribute('inputmode')).toBe('none');
    expect(onToggleKeyboard).toHaveBeenCalledTimes(2);
  });

  it('stays hidden when the machine says so (after a reload)', async () => {
    await renderView(<TypingExamScreen api={props(textQuestion({ kind: 'alphabet', upper_case: false }), { keyboardOpen: false })} />);
    expect(screen.queryByRole('group', { name: 'Alphabet keyboard' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Show alphabet keyboard' })).toBeTruthy();
  });

  it('is one Tab stop, moved through with the arrow keys and pressed with Enter', async () => {
    const { user } = await renderView(<TypingExamScreen api={props(textQuestion({ kind: 'alphabet', upper_case: false }))} />);
    box().focus();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'q' }));
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'e' }));
    await user.keyboard('{Enter}{ArrowDown}{Enter}');
    expect(box().value).toBe('ed');
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'l' }));
    // The next Tab leaves the keyboard.
    await user.tab();
    expect(screen.getByRole('group', { name: 'Alphabet keyboard' }).contains(document.activeElement)).toBe(false);
  });

  it('in upper-case mode, starts in capitals and stays there', async () => {
    const onToggleUpperCase = vi.fn();
    const { user } = await renderView(
      <WithFlags api={props(textQuestion({ kind: 'alphabet', upper_case: true }), { toggleUpperCase: onToggleUpperCase })} />,
    );
    const toggle = screen.getByRole('button', { name: 'Capital letters', pressed: true });
    expect(toggle.getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByText('This answer is written in capital letters.')).toBeTruthy();
    await user.click(toggle);
    await user.click(screen.getByRole('button', { name: 'D' }));
    expect(screen.queryByRole('button', { name: 'd' })).toBeNull();
    // Letters typed on a physical keyboard become capitals too.
    await user.type(box(), 'og');
    expect(box().value).toBe('DOG');
    // The locked key asks nothing of the machine.
    expect(onToggleUpperCase).not.toHaveBeenCalled();
  });

  it('takes no key while the answers are being sent', async () => {
    await renderView(<TypingExamScreen api={props(textQuestion({ kind: 'alphabet', upper_case: false }), { status: 'finishing' })} />);
    expect((screen.getByRole('button', { name: 'a' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
