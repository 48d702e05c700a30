/**
 * A prompt or a choice as written, or set with KaTeX when the question is a math question
 * (MathText loads KaTeX on first use, so only exams with math fetch it).
 *
 * `questionText` gives the same as a value to place in the markup: the plain text itself, no
 * component of its own (a question swap renders a prompt and four choices).
 */
import type { ReactNode } from 'react';
import { MathText } from '../../../components/math/math-text.tsx';

export function questionText(text: string, math: boolean): ReactNode {
  return math ? <MathText text={text} /> : text;
}

export function QuestionText({ text, math }: { text: string; math: boolean }) {
  return questionText(text, math);
}
