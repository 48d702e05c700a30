// @vitest-environment jsdom
/**
 * exam-tutorial: what the pupil is told before starting, and Continue; then the practice,
 * rendered through the real tutorial machine and its real actor (tutorial.actors.ts) on a
 * stand-in edge, bound as the app binds it (BoundExamTutorial): loading, failed (Try again, and
 * Continue still works), empty, and one practice question of each type answered with the exam's
 * own components (the radio tiles, the on-screen alphabet keyboard, the number keypad, the
 * blocks), checked right and wrong, the summary and "Practise again". Access: one h1 with the
 * focus, the practice under an h2 and each question's prompt an h3 that takes the focus when the
 * pupil moves to it; after a check the verdict has the focus (never the page); every control
 * named; in Arabic the page is right-to-left and the practice content keeps its own direction.
 */
import { act, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import type { TutorialSetting } from '../../contract/tutorial.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';
import { tutorialImplementations } from '../../machines/tutorial/tutorial.actors.ts';
import { tutorialMachine } from '../../machines/tutorial/tutorial.machine.ts';
import type { TutorialPort } from '../../machines/tutorial/tutorial.types.ts';
import { featuresOf, practiceOf } from '../../server/domain/tutorial.ts';
import { BoundExamTutorial } from '../../src/app/connect/exam-tutorial.tsx';
import { ExamTutorialScreen } from '../../src/screens/exam-tutorial/exam-tutorial.tsx';
import { renderView } from '../helpers/render-view.tsx';

describe('exam-tutorial', () => {
  it('explains the number of questions, the time, the timer, moving and saving', async () => {
    await renderView(<ExamTutorialScreen api={{ questionCount: 12, timeLimitMinutes: 40, complete: vi.fn() }} />);
    expect(screen.getByRole('heading', { level: 1, name: 'How the test works' })).toBeTruthy();
    const text = document.body.textContent ?? '';
    expect(text).toContain('The test has 12 questions.');
    expect(text).toContain('You have 40 minutes.');
    expect(text).toContain('The timer at the top of the screen');
    expect(text).toContain('Previous and Next');
    expect(text).toContain('You can change them until you finish the test.');
    expect(text).toContain('Your answers are saved as you go.');
  });

  it('uses the singular for one question', async () => {
    await renderView(<ExamTutorialScreen api={{ questionCount: 1, timeLimitMinutes: 40, complete: vi.fn() }} />);
    expect(document.body.textContent).toContain('The test has 1 question.');
  });

  it('continues', async () => {
    const onContinue = vi.fn();
    const { user } = await renderView(<ExamTutorialScreen api={{ questionCount: 3, timeLimitMinutes: 40, complete: onContinue }} />);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(onContinue).toHaveBeenCalledOnce();
  });
});

// ---------------------------------------------------------------------------------------------
// The practice, through the machine
// ---------------------------------------------------------------------------------------------

/** An exam with every type: single choice, text on the alphabet keyboard, keypad with the fraction bar, blocks. */
const everyType = practiceOf(
  1,
  featuresOf([
    { type: 'single_choice', math: false, input: null },
    { type: 'text', math: false, input: { kind: 'alphabet', upper_case: false } },
    { type: 'number', math: false, input: { kind: 'keypad', negative: false, decimal: false, fraction: true } },
    { type: 'ordering', math: false, input: null },
  ]),
);

function settingWith(practice = everyType): TutorialSetting {
  return {
    schedule_history_id: 7,
    question_count: 16,
    question_types: practice.map((p) => p.question.type),
    time: { limit_seconds: 1800, starts: 'at_start', at_end: 'finishes_itself', answers_saved: 'as_you_go', answers_changeable: 'until_finished' },
    practice,
    server_time: '2026-11-22T09:00:00.000Z',
  };
}

/** The stand-in edge: answers with the setting, a failure, or not yet (`hold`). */
function edge(answer: () => Promise<TutorialSetting>) {
  const tutorialSetting = vi.fn(answer);
  return { api: { tutorialSetting } satisfies TutorialPort, tutorialSetting };
}

async function renderTutorial(api: TutorialPort, language: Parameters<typeof renderView>[1] = {}) {
  const completed = vi.fn();
  const machine = tutorialMachine.provide({ ...tutorialImplementations({ api }), actions: { reportCompleted: completed } });
  const actor = createActor(machine, { input: { scheduleHistoryId: 7, questionCount: 20, timeLimitSeconds: 2400 } }).start();
  const view = await renderView(<BoundExamTutorial actor={actor} />, language);
  // The load settles.
  await act(async () => {});
  return { ...view, actor, completed };
}

const practiceSection = () => screen.getByRole('region', { name: 'Try each kind of question' });
const prompt = (name: string | RegExp) => screen.getByRole('heading', { level: 3, name });

describe('the practice', () => {
  it('loading: the points from the exam details at once, a skeleton for the practice, and Continue', async () => {
    const { api } = edge(() => new Promise(() => {}));
    const { user, completed } = await renderTutorial(api);
    const h1 = screen.getByRole('heading', { level: 1, name: 'How the test works' });
    expect(document.activeElement).toBe(h1);
    expect(document.body.textContent).toContain('The test has 20 questions.');
    expect(document.body.textContent).toContain('You have 40 minutes.');
    expect(within(practiceSection()).getByRole('status').textContent).toBe('Loading…');
    expect(practiceSection().getAttribute('aria-busy')).toBe('true');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(completed).toHaveBeenCalledOnce();
  });

  it('failed: the reason, "Try again" loads again, and Continue still goes on to the test', async () => {
    let fail = true;
    const { api, tutorialSetting } = edge(async () => {
      if (fail) throw new ApiFailure('NETWORK_ERROR');
      return settingWith();
    });
    const { user, completed } = await renderTutorial(api);
    const alert = within(practiceSection()).getByRole('alert');
    expect(alert.textContent).toContain('The practice questions could not be loaded.');
    expect(alert.getAttribute('data-code')).toBe('NETWORK_ERROR');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(tutorialSetting).toHaveBeenCalledTimes(2);
    expect(prompt('Which one is a fruit?')).toBeTruthy();
    // The setting's rules replace the details' once loaded.
    expect(document.body.textContent).toContain('The test has 16 questions.');
    expect(document.body.textContent).toContain('You have 30 minutes.');
    expect(practiceSection().textContent).toContain('This test has 4 kinds of questions.');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(completed).toHaveBeenCalledOnce();
  });

  it('empty: an exam with no questions has nothing to practise', async () => {
    const { api } = edge(async () => ({ ...settingWith([]), question_count: 0, question_types: [] }));
    await renderTutorial(api);
    expect(practiceSection().textContent).toContain('There is nothing to practise for this test.');
    expect(screen.queryByRole('button', { name: 'Check my answer' })).toBeNull();
  });

  it('each type with the exam\'s own components: checked wrong and right, then the summary and "Practise again"', async () => {
    const { api } = edge(async () => settingWith());
    const { user, actor } = await renderTutorial(api);
    const check = () => screen.getByRole('button', { name: 'Check my answer' });
    const verdict = () => document.activeElement as HTMLElement;

    // 1. Single choice: the radio tiles.
    expect(screen.getByText(/Practice question 1 of 4/).textContent).toContain('Choose one answer');
    expect((check() as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByRole('radio', { name: 'a shoe' }));
    await user.click(check());
    expect(verdict().textContent).toContain('Not quite. The right answer is:');
    expect(verdict().textContent).toContain('an apple');
    expect(verdict().textContent).toContain('In the test itself you will not be told whether an answer is right.');
    expect((check() as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByRole('radio', { name: 'an apple' }));
    expect(screen.queryByText('Not quite. The right answer is:')).toBeNull();
    await user.click(check());
    expect(verdict().textContent).toContain('Right! Well done.');

    // 2. Text on the on-screen alphabet keyboard; the prompt takes the focus.
    await user.click(screen.getByRole('button', { name: 'Next practice question' }));
    expect(document.activeElement).toBe(prompt("Type the word 'sun'."));
    const keyboard = screen.getByRole('group', { name: 'Alphabet keyboard' });
    for (const letter of 'sun') await user.click(within(keyboard).getByRole('button', { name: letter }));
    expect((screen.getByRole('textbox', { name: 'Your answer' }) as HTMLInputElement).value).toBe('sun');
    await user.click(check());
    expect(verdict().textContent).toContain('Right! Well done.');
    // The keyboard can be hidden, as in the exam (the device's keyboard then).
    await user.click(screen.getByRole('button', { name: 'Hide alphabet keyboard' }));
    expect(screen.queryByRole('group', { name: 'Alphabet keyboard' })).toBeNull();
    expect(actor.getSnapshot().context.keyboardOpen).toBe(false);

    // 3. Number on the keypad with the fraction bar: a wrong fraction, then the right one.
    await user.click(screen.getByRole('button', { name: 'Next practice question' }));
    expect(document.activeElement).toBe(prompt('1/6 + 4/6 = ?'));
    const keypad = screen.getByRole('group', { name: 'Number keypad' });
    const press = async (keys: string[]) => {
      for (const key of keys) await user.click(within(keypad).getByRole('button', { name: key }));
    };
    await press(['5', 'Fraction bar', '7']);
    await user.click(check());
    expect(verdict().textContent).toContain('Not quite. The right answer is:');
    expect(verdict().textContent).toContain('5/6');
    await press(['Backspace', '6']);
    await user.click(check());
    expect(verdict().textContent).toContain('Right! Well done.');

    // 4. The blocks, moved with the Move up buttons into the right order.
    await user.click(screen.getByRole('button', { name: 'Next practice question' }));
    expect(prompt(/Arrange the blocks/)).toBe(document.activeElement);
    await user.click(screen.getByRole('button', { name: 'Move up: when green flag clicked' }));
    await user.click(screen.getByRole('button', { name: 'Move up: say Hi' }));
    await user.click(check());
    expect(verdict().textContent).toContain('Right! Well done.');

    // Back to the first: as the pupil left it (checked right).
    await user.click(screen.getByRole('button', { name: 'Previous practice question' }));
    await user.click(screen.getByRole('button', { name: 'Previous practice question' }));
    await user.click(screen.getByRole('button', { name: 'Previous practice question' }));
    expect(document.activeElement).toBe(prompt('Which one is a fruit?'));
    expect(screen.getByText('Right! Well done.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Previous practice question' })).toBeNull();

    // The summary: how each went, in words with an icon.
    for (let i = 0; i < 3; i++) await user.click(screen.getByRole('button', { name: 'Next practice question' }));
    await user.click(screen.getByRole('button', { name: 'See how the practice went' }));
    const summary = screen.getByRole('heading', { level: 3, name: 'You have tried every kind of question' });
    expect(document.activeElement).toBe(summary);
    expect(within(practiceSection()).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Choose one answer: right',
      'Type a word: right',
      'Number keypad: right',
      'Put the blocks in order: right',
    ]);

    // Practise again: every answer forgotten, back at the first question.
    await user.click(screen.getByRole('button', { name: 'Practise again' }));
    expect(document.activeElement).toBe(prompt('Which one is a fruit?'));
    expect((screen.getByRole('radio', { name: 'an apple' }) as HTMLInputElement).checked).toBe(false);
  });

  it('a question left unchecked shows as not checked in the summary', async () => {
    const { api } = edge(async () => settingWith(everyType.slice(0, 1)));
    const { user } = await renderTutorial(api);
    await user.click(screen.getByRole('radio', { name: 'a chair' }));
    await user.click(screen.getByRole('button', { name: 'See how the practice went' }));
    expect(within(practiceSection()).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Choose one answer: not checked']);
  });

  it('accessible: one h1, the practice under an h2, the prompt an h3; every control named; one id each', async () => {
    const { api } = edge(async () => settingWith());
    await renderTutorial(api);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(['Try each kind of question']);
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Which one is a fruit?']);
    expect(screen.getAllByRole('main')).toHaveLength(1);
    for (const control of [...screen.getAllByRole('button'), ...screen.getAllByRole('radio')]) {
      expect(control.textContent?.trim() || control.getAttribute('aria-label') || control.closest('label')?.textContent, control.outerHTML).toBeTruthy();
    }
    const ids = [...document.querySelectorAll('[id]')].map((element) => element.id);
    expect(new Set(ids).size).toBe(ids.length);
    // The radio group is named by the prompt.
    expect(screen.getByRole('group', { name: 'Which one is a fruit?' })).toBeTruthy();
  });

  it('in Arabic: the page right-to-left, the practice content in its own direction, the keypad left-to-right', async () => {
    const { api } = edge(async () => settingWith(everyType.slice(2, 3)));
    await renderTutorial(api, { language: 'ar' });
    expect(document.documentElement.dir).toBe('rtl');
    expect(screen.getByRole('heading', { level: 1 }).textContent).not.toBe('How the test works');
    expect(screen.getByRole('heading', { level: 3 }).getAttribute('dir')).toBe('auto');
    expect(screen.getByRole('group', { name: /.+/, hidden: false }).getAttribute('dir')).toBe('ltr');
  });
});
