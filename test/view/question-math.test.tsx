// @vitest-environment jsdom
/**
 * A math question: TeX between \( and \) in the prompt and the choices is set with KaTeX,
 * with MathML for screen readers; text outside stays text; a question without the math flag
 * is never touched (nor is KaTeX loaded for it).
 */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { splitMath } from '../../src/components/math/math-text.tsx';
import type { ExamScreenApi } from '../../machines/exam/exam.connect.ts';
import { ExamScreen } from '../../src/screens/exam/exam.tsx';
import type { Question } from '../../contract/exam.ts';
import { examScreenApi } from '../helpers/exam-fixtures.ts';
import { renderView } from '../helpers/render-view.tsx';

const mathQuestion: Question = {
  id: 401,
  number: 1,
  type: 'single_choice',
  math: true,
  prompt: 'What is \\(\\frac{1}{2} + \\frac{1}{4}\\)?',
  choices: [
    { id: 'a', label: '\\(\\frac{3}{4}\\)' },
    { id: 'b', label: '\\(\\frac{2}{6}\\)' },
  ],
};

function props(question: Question, overrides: Partial<ExamScreenApi> = {}): ExamScreenApi {
  return examScreenApi({ questions: [question], ...overrides });
}

describe('splitting text and TeX', () => {
  it('finds each \\( … \\) and keeps the text around it', () => {
    expect(splitMath('Add \\(x^2\\) and \\(3\\).')).toEqual([
      { kind: 'text', text: 'Add ' },
      { kind: 'tex', tex: 'x^2' },
      { kind: 'text', text: ' and ' },
      { kind: 'tex', tex: '3' },
      { kind: 'text', text: '.' },
    ]);
    expect(splitMath('No maths here')).toEqual([{ kind: 'text', text: 'No maths here' }]);
  });
});

describe('a math question', () => {
  it('sets the prompt with KaTeX: MathML for screen readers, the text around it as text', async () => {
    await renderView(<ExamScreen api={props(mathQuestion)} />);
    const heading = screen.getByRole('heading', { level: 1 });
    await waitFor(() => expect(heading.querySelector('math')).not.toBeNull());
    const annotation = heading.querySelector('math annotation[encoding="application/x-tex"]');
    expect(annotation?.textContent).toBe('\\frac{1}{2} + \\frac{1}{4}');
    expect(heading.querySelector('mfrac')).not.toBeNull();
    // The visual HTML is hidden from screen readers; the source TeX is not shown as text.
    expect(heading.querySelector('.katex-html')?.getAttribute('aria-hidden')).toBe('true');
    expect(heading.textContent).toMatch(/^What is /);
    expect(heading.textContent).toMatch(/\?$/);
  });

  it('sets the choices with KaTeX and answers with the choice id', async () => {
    const onAnswer = vi.fn();
    const { user } = await renderView(<ExamScreen api={props(mathQuestion, { answer: onAnswer })} />);
    const radios = screen.getAllByRole('radio');
    await waitFor(() => expect(radios[0]!.closest('label')?.querySelector('math mfrac')).not.toBeNull());
    await user.click(radios[1]!);
    expect(onAnswer).toHaveBeenCalledWith(401, 'b');
  });

  it('never throws on bad TeX: KaTeX shows the source instead', async () => {
    await renderView(<ExamScreen api={props({ ...mathQuestion, prompt: 'Broken \\(\\frac{1}\\)' })} />);
    const heading = screen.getByRole('heading', { level: 1 });
    await waitFor(() => expect(heading.querySelector('.katex-error, math')).not.toBeNull());
    expect(heading.textContent).toContain('Broken');
  });

  it('leaves a question without the math flag as written', async () => {
    await renderView(<ExamScreen api={props({ ...mathQuestion, math: false })} />);
    const heading = screen.getByRole('heading', { level: 1 });
    expect(heading.textContent).toBe('What is \\(\\frac{1}{2} + \\frac{1}{4}\\)?');
    expect(heading.querySelector('math')).toBeNull();
  });
});
