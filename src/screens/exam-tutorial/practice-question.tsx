/**
 * One practice question of the tutorial: its prompt, the exam's own answer component for its
 * type (the radio tiles, the text box with the on-screen alphabet keyboard, the number keypad,
 * the Visual Programming blocks: src/screens/exam/question-types/answer-input.tsx, the exam's own
 * switch, not a copy), "Check my answer", and the verdict in words with an icon: right, or not quite with the right
 * answer. A `<section>` like the exam's question, so the keypad's physical keys work within it.
 *
 * The prompt takes the focus when the pupil moves to this question (not when the screen opens:
 * the screen's h1 has it then); after a check, the verdict does (the Check button is disabled
 * once the answer is checked, and focus must never fall to the page).
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef } from 'react';
import type { PracticeView } from '../../../machines/tutorial/tutorial.connect.ts';
import { ArrowIcon, CheckIcon, InfoIcon } from '../../components/icon/icons.tsx';
import { formatNumber, localizeDigits } from '../../i18n/format.ts';
import { useLanguage } from '../../i18n/language-context.tsx';
import { AnswerInput } from '../exam/question-types/answer-input.tsx';
import { QuestionText } from '../exam/question-types/question-text.tsx';
import { QuestionTypeName } from './question-type-name.tsx';
import styles from './exam-tutorial.module.css';

export interface PracticeQuestionProps {
  practice: PracticeView;
  keyboardOpen: boolean;
  upperCase: boolean;
  canCheck: boolean;
  canGoBack: boolean;
  /** True once when the pupil moved here (Next, Previous, Practise again): the prompt takes the focus. */
  claimFocus(): boolean;
  onAnswer(value: string): void;
  onCheck(): void;
  onNext(): void;
  onPrevious(): void;
  onToggleKeyboard(): void;
  onToggleUpperCase(): void;
}

/** A practice answer is checked, never handed over: a finished text draft needs nothing more. */
const noCommit = () => {};

function Instructions({ practice }: { practice: PracticeView }) {
  const { question } = practice;
  switch (question.type) {
    case 'single_choice':
      return <Trans>Choose the answer you think is right. To change it, choose another one.</Trans>;
    case 'text':
      return question.input?.kind === 'alphabet' ? (
        <Trans>Type your answer with the letter keys on the screen, or with the keyboard.</Trans>
      ) : (
        <Trans>Type your answer in the box.</Trans>
      );
    case 'number':
      return <Trans>Type your answer with the number keys on the screen. The ⌫ key takes back the last key.</Trans>;
    case 'ordering':
      return null;
  }
}

export function PracticeQuestion(props: PracticeQuestionProps) {
  const { practice, canCheck, canGoBack, claimFocus, onAnswer, onCheck, onNext, onPrevious } = props;
  const { question, verdict } = practice;
  const { t } = useLingui();
  const { language } = useLanguage();
  const promptId = useId();
  const prompt = useRef<HTMLHeadingElement>(null);
  const feedback = useRef<HTMLDivElement>(null);
  const math = question.math === true;

  useEffect(() => {
    // Mounted once per question (keyed by id).
    if (claimFocus()) prompt.current?.focus();
  }, [claimFocus]);

  // A check just made here (not a checked question come back to): the verdict takes the focus.
  const shownVerdict = useRef(verdict);
  useEffect(() => {
    if (verdict !== null && shownVerdict.current === null) feedback.current?.focus();
    shownVerdict.current = verdict;
  }, [verdict]);

  const position = formatNumber(practice.position, language);
  const total = formatNumber(practice.total, language);
  const rightAnswer =
    question.type === 'number' ? practice.rightAnswer.map((value) => localizeDigits(value, language)) : practice.rightAnswer;

  return (
    <section className={styles.question} aria-labelledby={promptId}>
      <p className={styles.counter}>
        <Trans>
          Practice question {position} of {total}
        </Trans>
        {' · '}
        <QuestionTypeName type={question.type} />
      </p>
      {/* Content is in the subject's language, not the interface's: its own direction. */}
      <h3 ref={prompt} id={promptId} tabIndex={-1} className={styles.prompt} dir="auto">
        <QuestionText text={question.prompt} math={math} />
      </h3>
      {/* The blocks say how to move them themselves (ProgramBlocks). */}
      {question.type !== 'ordering' && (
        <p className={styles.instructions}>
          <Instructions practice={practice} />
        </p>
      )}

      <AnswerInput
        question={question}
        value={practice.value}
        textValue={practice.value}
        headingId={promptId}
        disabled={false}
        keyboardOpen={props.keyboardOpen}
        upperCase={props.upperCase}
        onChoose={onAnswer}
        onType={onAnswer}
        onCommit={noCommit}
        onToggleKeyboard={props.onToggleKeyboard}
        onToggleUpperCase={props.onToggleUpperCase}
      />

      <div className="button-row">
        <button type="button" className="button" disabled={!canCheck} onClick={onCheck}>
          <Trans>Check my answer</Trans>
        </button>
      </div>

      {verdict !== null && (
        <div ref={feedback} tabIndex={-1} className={styles.verdict} data-verdict={verdict}>
          {verdict === 'right' ? <CheckIcon /> : <InfoIcon />}
          <div>
            {verdict === 'right' ? (
              <p className={styles.verdictHeadline}>
                <Trans>Right! Well done.</Trans>
              </p>
            ) : (
              <>
                <p className={styles.verdictHeadline}>
                  <Trans>Not quite. The right answer is:</Trans>
                </p>
                {question.type === 'ordering' ? (
                  <ol className={styles.rightBlocks} aria-label={t`The blocks in the right order`}>
                    {rightAnswer.map((label) => (
                      <li key={label} dir="auto">
                        {label}
                      </li>
                    ))}
                  </ol>
                ) : (
                  <p className={styles.rightAnswer} dir="auto">
                    <QuestionText text={rightAnswer.join(' ')} math={math && question.type === 'single_choice'} />
                  </p>
                )}
                <p>
                  <Trans>You can change your answer and check it again.</Trans>
                </p>
              </>
            )}
            <p className="note">
              <Trans>In the test itself you will not be told whether an answer is right.</Trans>
            </p>
          </div>
        </div>
      )}

      <div className={`button-row ${styles.navigation}`}>
        {canGoBack && (
          <button type="button" className="button" onClick={onPrevious}>
            <ArrowIcon direction="back" />
            <Trans>Previous practice question</Trans>
          </button>
        )}
        <button type="button" className="button" onClick={onNext}>
          {practice.isLast ? <Trans>See how the practice went</Trans> : <Trans>Next practice question</Trans>}
          <ArrowIcon direction="forward" />
        </button>
      </div>
    </section>
  );
}
