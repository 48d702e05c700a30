// @vitest-environment jsdom
/**
 * An answer another window replaced, on the exam screen: the server's value is the
 * one chosen, and the indicator says it was replaced, in words and with an icon, never that this
 * window's answer is saved.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ExamScreen } from '../../src/screens/exam/exam.tsx';
import { examScreenApi, questions } from '../helpers/exam-fixtures.ts';
import { renderView } from '../helpers/render-view.tsx';

const props = examScreenApi;

describe('an answer replaced by another window', () => {
  it("shows the server's choice, said to be replaced, not saved", async () => {
    const server = questions[0]!.choices[1]!;
    await renderView(<ExamScreen api={props({ answers: { [questions[0]!.id]: { value: server.id, saved: 'replaced' } } })} />);
    expect((screen.getByRole('radio', { name: server.label }) as HTMLInputElement).checked).toBe(true);
    const status = screen.getByRole('status');
    expect(status.textContent).toBe('Replaced by an answer from another window. The answer shown is the one the server keeps.');
    expect(status.textContent).not.toContain('Saved');
    expect(status.getAttribute('data-state')).toBe('replaced');
    expect(status.querySelector('svg')).not.toBeNull();
  });

  it("shows the server's text in the answer box of a typed question", async () => {
    const typed = questions.find((q) => q.type === 'text')!;
    await renderView(
      <ExamScreen api={props({ index: questions.indexOf(typed), answers: { [typed.id]: { value: 'from the other window', saved: 'replaced' } } })} />,
    );
    expect((screen.getByRole('textbox', { name: 'Your answer' }) as HTMLInputElement).value).toBe('from the other window');
    expect(screen.getByRole('status').textContent).toContain('Replaced by an answer from another window.');
  });
});
