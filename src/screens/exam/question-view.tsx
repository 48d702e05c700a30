/**
 * One question: its prompt as the heading (focused when the question changes, so a screen
 * reader reads it), the answer input of its type (question-types/answer-input.tsx, shared with the
 * tutorial's practice question)
 * and whether its answer is saved. A math question's prompt and choices are set with KaTeX.
 *
 * The same view shows one question after another: the heading, the section, the choice tiles and
 * the saved line stay and change their text; an answer input with a state of its own (a text box,
 * a keypad draft, an order of blocks) is new for each question. The heading takes the focus at once when the view first
 * shows a question; after a swap, once the new question is painted (focusing makes the browser
 * work out styles at once:he question swap), unless the pupil has moved the focus
 * meanwhile.
 *
 * - single_choice: a radio group of large tiles; the answer is the choice's id, at once.
 * - text: a text box "Your answer", with the on-screen alphabet keyboard when the question
 *   asks for it (shown or hidden, capitals or not: the exam machine's); the draft is handed over on blur, Enter, navigation and after a pause
 *   (exam.tsx).
 * - number: the on-screen keypad; a complete, changed number is handed over at once.
 * - ordering: Visual Programming blocks to arrange; each finished move is handed over.
 */
import { Trans } from '@lingui/react/macro';
import { memo, useId, useLayoutEffect, useRef, type RefObject } from 'react';
import { isAnswered } from '../../../machines/exam/exam.rules.ts';
import type { Question } from '../../../contract/exam.ts';
import type { AnswerView } from '../../../machines/exam/exam.connect.ts';
import { CheckIcon, CircleIcon, InfoIcon, SavingIcon, TerminalIcon, WarningIcon } from '../../components/icon/icons.tsx';
import { AnswerInput } from './question-types/answer-input.tsx';
import { questionText } from './question-types/question-text.tsx';
import styles from './exam.module.css';

export interface QuestionViewProps {
  question: Question;
  answer: AnswerView | undefined;
  /** What the text box shows (the draft while typing). */
  textValue: string;
  disabled: boolean;
  /** Hands over a finished answer value at once (a choice, a complete number, a new order). */
  onChoose(value: string): void;
  onType(value: string): void;
  onCommit(): void;
  /** The on-screen alphabet keyboard is shown (alphabets_keyboard_flag). */
  keyboardOpen: boolean;
  /** The alphabet keyboard types capitals (mode_upper_case_flag). */
  upperCase: boolean;
  onToggleKeyboard(): void;
  onToggleUpperCase(): void;
}

export function QuestionView(props: QuestionViewProps) {
  const { question, answer } = props;
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const value = answer?.value ?? '';
  useFocusOnQuestion(heading, question.id);

  return (
    <section className={styles.question} aria-labelledby={headingId}>
      {/* Content is in the subject's language, not the interface's: its own direction (dir="auto"). */}
      <h1 ref={heading} id={headingId} tabIndex={-1} className={styles.prompt} dir="auto">
        {questionText(question.prompt, question.math === true)}
      </h1>

      {/* The view's props are the input's (the question, the text draft, the keyboard, the handlers). */}
      <AnswerInput {...props} value={value} headingId={headingId} />

      <SavedIndicator answer={answer} />
    </section>
  );
}

/** Runs `focus` after the browser has painted what was just committed (the next frame, then a task). */
function afterPaint(focus: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(focus, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}

/**
 * The heading is where reading starts: focused when the view first shows a question, and on every
 * new question. A layout effect: it only asks for the frame (or focuses the first heading), and a
 * passive one would cost every swap a task of React's scheduler before the frame.
 */
function useFocusOnQuestion(heading: RefObject<HTMLHeadingElement | null>, questionId: number): void {
  const shown = useRef(false);
  useLayoutEffect(() => {
    const element = heading.current;
    if (!element) return;
    if (!shown.current) {
      shown.current = true;
      element.focus({ preventScroll: true });
      return;
    }
    const focusedBefore = document.activeElement;
    return afterPaint(() => {
      // The pupil went on (a field, a key) before the new question was painted: leave the focus there.
      const focused = document.activeElement;
      if (focused === focusedBefore || focused === document.body || focused === null) element.focus({ preventScroll: true });
    });
  }, [heading, questionId]);
}

/**
 * Where the answer is kept, in words with an icon (never colour alone): on the server, only on
 * this terminal (the network is down; it is sent later), being saved, not saved, or replaced:
 * another window of this exam gave a later answer, which the server keeps and which is the one
 * shown (this window's own is gone, and never shown as saved). Memoized: a swap between two
 * questions in the same state does not render it again.
 */
const SavedIndicator = memo(function SavedIndicator({ answer }: { answer: AnswerView | undefined }) {
  const state = !answer || !isAnswered(answer.value) ? 'empty' : answer.saved;
  return (
    <p className={styles.saved} data-state={state} role="status">
      {state === 'server' && (
        <>
          <CheckIcon />
          <Trans>Saved on the server</Trans>
        </>
      )}
      {state === 'terminal' && (
        <>
          <TerminalIcon />
          <Trans>Saved on this terminal</Trans>
        </>
      )}
      {state === 'saving' && (
        <>
          <SavingIcon />
          <Trans>Saving…</Trans>
        </>
      )}
      {state === 'none' && (
        <>
          <WarningIcon />
          <Trans>Not saved</Trans>
        </>
      )}
      {state === 'replaced' && (
        <>
          <InfoIcon />
          <span>
            <Trans>Replaced by an answer from another window.</Trans>{' '}
            <Trans>The answer shown is the one the server keeps.</Trans>
          </span>
        </>
      )}
      {state === 'empty' && (
        <>
          <CircleIcon />
          <Trans>Not answered yet</Trans>
        </>
      )}
    </p>
  );
});
