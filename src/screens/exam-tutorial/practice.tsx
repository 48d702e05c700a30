/**
 * The tutorial's practice: one unscored question of each type the exam uses, tried with the
 * exam's own components, in the states the tutorial machine gives (tutorial.connect.ts):
 * loading (a skeleton), failed (the reason, "Try again", and that Continue still works), empty
 * (nothing to practise), practising (one question at a time) and practised (how each went,
 * "Practise again"). Renders what it is given and sends what the pupil did; decides nothing.
 */
import { Plural, Trans } from '@lingui/react/macro';
import { useCallback, useEffect, useId, useRef } from 'react';
import type { TutorialApi } from '../../../machines/tutorial/tutorial.connect.ts';
import { FailureAlert } from '../../components/failure-alert/failure-alert.tsx';
import { CheckIcon, CircleIcon, InfoIcon } from '../../components/icon/icons.tsx';
import { SkeletonBlock, SkeletonRegion } from '../../components/skeleton/skeleton.tsx';
import { PracticeQuestion } from './practice-question.tsx';
import { QuestionTypeName } from './question-type-name.tsx';
import styles from './exam-tutorial.module.css';

function Summary({ tutorial, claimFocus, onRestart }: { tutorial: TutorialApi; claimFocus(): boolean; onRestart(): void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (claimFocus()) heading.current?.focus();
  }, [claimFocus]);
  return (
    <div className={styles.summary}>
      <h3 ref={heading} tabIndex={-1} className={styles.summaryHeading}>
        <Trans>You have tried every kind of question</Trans>
      </h3>
      <ul className={styles.results}>
        {tutorial.results.map((result) => (
          <li key={result.questionId} data-outcome={result.outcome}>
            {result.outcome === 'right' ? <CheckIcon /> : result.outcome === 'wrong' ? <InfoIcon /> : <CircleIcon />}
            <span>
              <QuestionTypeName type={result.type} />
              {': '}
              {result.outcome === 'right' && <Trans>right</Trans>}
              {result.outcome === 'wrong' && <Trans>not quite right</Trans>}
              {result.outcome === 'unchecked' && <Trans>not checked</Trans>}
            </span>
          </li>
        ))}
      </ul>
      <p>
        <Trans>When you are ready, press Continue. You can also practise again.</Trans>
      </p>
      <div className="button-row">
        <button type="button" className="button" onClick={onRestart}>
          <Trans>Practise again</Trans>
        </button>
      </div>
    </div>
  );
}

export function Practice({ tutorial }: { tutorial: TutorialApi }) {
  const headingId = useId();
  // The pupil moved to another question or the summary: its heading takes the focus once.
  const moved = useRef(false);
  /** Whether the view just shown was moved to by the pupil (asked once, by its effect). */
  const claimFocus = useCallback(() => {
    const wasMoved = moved.current;
    moved.current = false;
    return wasMoved;
  }, []);
  const movedThen = (action: () => void) => () => {
    moved.current = true;
    action();
  };
  const kinds = tutorial.rules.questionTypes?.length ?? 0;

  return (
    <section className={styles.practice} aria-labelledby={headingId} aria-busy={tutorial.status === 'loading' || undefined}>
      <h2 id={headingId} className={styles.practiceHeading}>
        <Trans>Try each kind of question</Trans>
      </h2>
      <p>
        {tutorial.rules.questionTypes !== null && kinds > 0 && (
          <>
            <Plural value={kinds} one="This test has # kind of question." other="This test has # kinds of questions." />{' '}
          </>
        )}
        <Trans>These practice questions do not count: your practice answers are not sent and not scored.</Trans>
      </p>

      {tutorial.status === 'loading' && (
        <SkeletonRegion>
          <div className={styles.skeleton}>
            <SkeletonBlock inlineSize="12rem" />
            <SkeletonBlock inlineSize="80%" blockSize="2rem" />
            <SkeletonBlock shape="box" blockSize="8rem" />
            <SkeletonBlock shape="button" inlineSize="12rem" />
          </div>
        </SkeletonRegion>
      )}

      {tutorial.status === 'failed' && (
        <FailureAlert code={tutorial.error ?? 'GENERIC_ERROR'}>
          <p>
            <Trans>The practice questions could not be loaded. You can try again, or press Continue to go on to the test.</Trans>
          </p>
          <div className="button-row">
            <button type="button" className="button" onClick={tutorial.retry}>
              <Trans>Try again</Trans>
            </button>
          </div>
        </FailureAlert>
      )}

      {tutorial.status === 'empty' && (
        <p className="note">
          <InfoIcon />
          <Trans>There is nothing to practise for this test.</Trans>
        </p>
      )}

      {tutorial.practice && (
        <PracticeQuestion
          key={tutorial.practice.question.id}
          practice={tutorial.practice}
          keyboardOpen={tutorial.keyboardOpen}
          upperCase={tutorial.upperCase}
          canCheck={tutorial.canCheck}
          canGoBack={tutorial.canGoBack}
          claimFocus={claimFocus}
          onAnswer={tutorial.answer}
          onCheck={tutorial.check}
          onNext={movedThen(tutorial.next)}
          onPrevious={movedThen(tutorial.previous)}
          onToggleKeyboard={tutorial.toggleKeyboard}
          onToggleUpperCase={tutorial.toggleUpperCase}
        />
      )}

      {tutorial.status === 'practised' && <Summary tutorial={tutorial} claimFocus={claimFocus} onRestart={movedThen(tutorial.restart)} />}
    </section>
  );
}
