/**
 * The plain-React side of the question-swap bench (question-swap.bench.ts): the same markup as the
 * Gradus exam screen on a single-choice question (header with counter and timer, the tools, the
 * prompt, the choice tiles, the saved line, Previous/Next/Finish; the same CSS module classes and
 * icons), written the way a small React app would: the questions and the index in `useState`,
 * English strings, the timer ticking four times a second like the real one, one component per
 * question reused from question to question. No machine, no router, no i18n library, no
 * storage, no focus move.
 */
import { useEffect, useId, useState } from 'react';
import type { Question } from '../../contract/exam.ts';
import headerStyles from '../../src/components/exam-header/exam-header.module.css';
import { ArrowIcon, CircleIcon, ClockIcon } from '../../src/components/icon/icons.tsx';
import styles from '../../src/screens/exam/exam.module.css';
import { mounted, type SwapUnderTest } from './question-swap.mount.tsx';

const two = (n: number) => String(n).padStart(2, '0');
const clock = (seconds: number) => `${two(Math.floor(seconds / 60))}:${two(seconds % 60)}`;

function Header({ number, count, deadline }: { number: number; count: number; deadline: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(id);
  }, []);
  const left = Math.min(2400, Math.max(0, Math.ceil((deadline - now) / 1000)));
  return (
    <header className={headerStyles.header}>
      <div className={headerStyles.inner}>
        <span className={headerStyles.brand}>Gradus</span>
        <p className={headerStyles.counter}>
          Question {number} of {count}
        </p>
        <div className={headerStyles.time}>
          <ClockIcon />
          <span role="timer" aria-label="Time left" className={`${headerStyles.clock} ltr-isolate`}>
            {clock(left)}
          </span>
          <span className={`${headerStyles.limit} ltr-isolate`} aria-hidden="true">
            / {clock(2400)}
          </span>
        </div>
      </div>
      <p className="visually-hidden" aria-live="polite"></p>
    </header>
  );
}

function QuestionBlock({ question }: { question: Question }) {
  const headingId = useId();
  return (
    <section className={styles.question} aria-labelledby={headingId}>
      <h1 id={headingId} tabIndex={-1} className={styles.prompt} dir="auto">
        {question.prompt}
      </h1>
      <fieldset className={styles.choices} aria-labelledby={headingId}>
        {question.choices.map((choice) => (
          <label key={choice.id} className={styles.choice}>
            <input type="radio" name={`question-${question.id}`} value={choice.id} checked={false} onChange={() => {}} />
            <span className={styles.choiceLabel} dir="auto">
              {choice.label}
            </span>
          </label>
        ))}
      </fieldset>
      <p className={styles.saved} data-state="empty" role="status">
        <CircleIcon />
        Not answered yet
      </p>
    </section>
  );
}

export function PlainExam({ questions, deadline }: { questions: Question[]; deadline: number }) {
  const [index, setIndex] = useState(0);
  const question = questions[index]!;
  const isLast = index === questions.length - 1;
  return (
    <div className={styles.exam}>
      <div className={styles.page}>
        <Header number={index + 1} count={questions.length} deadline={deadline} />
        <main className={styles.main}>
          <div className={styles.tools}>
            <button type="button" className="button" aria-expanded={false} aria-controls="question-list">
              Question list
            </button>
            <button type="button" className="button" aria-pressed={false}>
              Flag for review
            </button>
          </div>
          <QuestionBlock question={question} />
          <div className={styles.actions}>
            <nav className={styles.nav} aria-label="Questions">
              <button type="button" className="button" disabled={index === 0} onClick={() => setIndex(index - 1)}>
                <ArrowIcon direction="back" />
                Previous
              </button>
              <button
                type="button"
                className="button"
                data-variant={isLast ? undefined : 'primary'}
                disabled={isLast}
                onClick={() => setIndex(index + 1)}
              >
                Next
                <ArrowIcon direction="forward" />
              </button>
            </nav>
            <button type="button" className={`button ${styles.finish}`}>
              Finish the test
            </button>
          </div>
        </main>
      </div>
    </div>
  );
}

export function plainSwap(questions: Question[]): Promise<SwapUnderTest> {
  return mounted(<PlainExam questions={questions} deadline={Date.now() + 2_400_000} />, () => {});
}
