/**
 * A prompt or a choice as written, or set with KaTeX when the question is a math question
 * (MathText loads KaTeX on first use, so only exams with math fetch it).
 */
import { MathText } from '../../../components/math/math-text.tsx';

export function QuestionText({ text, math }: { text: string; math: boolean }) {
  return math ? <MathText text={text} /> : <>{text}</>;
}
