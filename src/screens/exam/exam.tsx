/**
 * The exam itself, at /start (seed section 2): the header with the question counter and the
 * timer, one question at a time, Previous/Next, a saved indicator per question, and "Finish
 * the test" on every question behind a confirmation dialog.
 *
 * Presentational: the exam machine owns the questions, the index, the answers and where each
 * is saved (on the server, or only on this terminal); this view only sends what the pupil did. A typed answer is
 * the `position` child's draft (machines/position): each keystroke goes to the connect's `type`, and
 * the machine gives the answer once typing pauses; this view commits it (`commitDraft`) when the
 * field loses focus, on Enter and before Previous/Next/Finish, the list and a jump from it.
 *
 * The question list overview (question_list_flag) lists every question as answered, not
 * answered or flagged, and jumps to any of them; "Flag for review" marks the question on screen.
 * The on-screen alphabet keyboard's visibility (alphabets_keyboard_flag) and its capital letters
 * (mode_upper_case_flag) are the machine's too: this view shows them and sends the toggles.
 * Both are plain buttons: the keyboard alone reaches everything, in reading order.
 *
 * Kiosk: text cannot be selected (except in the answer field), there is no context menu, copy
 * and cut are blocked; while answering, leaving the page asks first and every focus loss goes to
 * `focusLost` (src/platform/page-guards.ts; the exam machine counts and reports them, never
 * blocking). The finish dialog's count of questions not answered is the exam's rule
 * (`unansweredCount`).
 *
 * A question swap renders again only what changes with the question: the header's counter, the question, and the buttons whose state moved. The tools, the
 * navigation buttons and Finish are memoized parts whose handlers stay the same function from
 * render to render (each calls the newest props through a ref), so a button whose label and
 * state did not change is not rendered again; a language change still re-renders their text
 * (Lingui's context).
 */
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { memo, useCallback, useEffect, useLayoutEffect, useRef, type ClipboardEvent, type MouseEvent } from 'react';
import { isAnswered, unansweredCount } from '../../../machines/exam/exam.rules.ts';
import type { AnswerView, ExamScreenApi } from '../../../machines/exam/exam.connect.ts';
import { ExamHeader } from '../../components/exam-header/exam-header.tsx';
import { FailureAlert } from '../../components/failure-alert/failure-alert.tsx';
import { ArrowIcon } from '../../components/icon/icons.tsx';
import { ModalDialog } from '../../components/modal-dialog/modal-dialog.tsx';
import { QuestionList } from '../../components/question-list/question-list.tsx';
import { SkeletonBlock, SkeletonRegion } from '../../components/skeleton/skeleton.tsx';
import { useFocusLossReport, useLeaveGuard } from '../../platform/page-guards.ts';
import { QuestionView } from './question-view.tsx';
import styles from './exam.module.css';

/** Given, by the exam's rule (machines/exam/exam.rules.ts). */
function isGiven(answer: AnswerView | undefined): boolean {
  return isAnswered(answer?.value);
}

function preventContextMenu(event: MouseEvent) {
  event.preventDefault();
}

/** Copy and cut are blocked in the exam (the answer field's own text aside). */
function preventCopy(event: ClipboardEvent) {
  const target = event.target as HTMLElement | null;
  if (target?.closest?.('input[type="text"], textarea')) return;
  event.preventDefault();
}

/**
 * The same function on every render, calling the newest `handler` (set before the browser can
 * deliver another event: a layout effect), so a memoized part given it does not render again.
 */
function useStableHandler<A extends unknown[]>(handler: (...args: A) => void): (...args: A) => void {
  const latest = useRef(handler);
  useLayoutEffect(() => {
    latest.current = handler;
  });
  return useCallback((...args: A) => latest.current(...args), []);
}

interface ToolsProps {
  listOpen: boolean;
  flagged: boolean;
  finishing: boolean;
  onToggleList(): void;
  onFlag(): void;
}

/** "Question list" and "Flag for review" above the question. */
const Tools = memo(function Tools({ listOpen, flagged, finishing, onToggleList, onFlag }: ToolsProps) {
  return (
    <div className={styles.tools}>
      <button type="button" className="button" aria-expanded={listOpen} aria-controls="question-list" onClick={onToggleList}>
        {listOpen ? <Trans>Hide question list</Trans> : <Trans>Question list</Trans>}
      </button>
      <button type="button" className="button" aria-pressed={flagged} disabled={finishing} onClick={onFlag}>
        {flagged ? <Trans>Remove flag</Trans> : <Trans>Flag for review</Trans>}
      </button>
    </div>
  );
});

// Previous and Next render on swaps: their labels are strings, not <Trans> elements.
const PreviousButton = memo(function PreviousButton({ disabled, onClick }: { disabled: boolean; onClick(): void }) {
  const { t } = useLingui();
  return (
    <button type="button" className="button" disabled={disabled} onClick={onClick}>
      <ArrowIcon direction="back" />
      {t`Previous`}
    </button>
  );
});

const NextButton = memo(function NextButton({ disabled, primary, onClick }: { disabled: boolean; primary: boolean; onClick(): void }) {
  const { t } = useLingui();
  return (
    <button type="button" className="button" data-variant={primary ? 'primary' : undefined} disabled={disabled} onClick={onClick}>
      {t`Next`}
      <ArrowIcon direction="forward" />
    </button>
  );
});

interface NavigationProps {
  previousDisabled: boolean;
  nextDisabled: boolean;
  /** Next is the primary action (not on the last question). */
  nextPrimary: boolean;
  onPrevious(): void;
  onNext(): void;
}

/** Previous and Next, labelled "Questions" for assistive technology. */
const Navigation = memo(function Navigation({ previousDisabled, nextDisabled, nextPrimary, onPrevious, onNext }: NavigationProps) {
  const { t } = useLingui();
  return (
    <nav className={styles.nav} aria-label={t`Questions`}>
      <PreviousButton disabled={previousDisabled} onClick={onPrevious} />
      <NextButton disabled={nextDisabled} primary={nextPrimary} onClick={onNext} />
    </nav>
  );
});

interface FinishButtonProps {
  finishing: boolean;
  primary: boolean;
  disabled: boolean;
  onClick(): void;
}

const FinishButton = memo(function FinishButton({ finishing, primary, disabled, onClick }: FinishButtonProps) {
  return (
    <button
      type="button"
      className={`button ${styles.finish}`}
      data-variant={primary ? 'primary' : undefined}
      disabled={disabled}
      aria-busy={finishing || undefined}
      aria-disabled={finishing || undefined}
      onClick={onClick}
    >
      {finishing ? <Trans>Sending your answers…</Trans> : <Trans>Finish the test</Trans>}
    </button>
  );
});

export function ExamScreen({ api }: { api: ExamScreenApi }) {
  const { status, questions, index, answers, deadlineAt, clockOffsetMs, confirmingFinish, error, timeLimitSeconds } = api;
  const { flagged, listOpen, keyboardOpen, upperCase, answer, draft } = api;
  const question = status === 'loading' ? undefined : questions[index];
  const isFirst = index <= 0;
  const isLast = index >= questions.length - 1;
  const finishing = status === 'finishing';
  const answering = status === 'answering';

  // Kiosk: leaving the page asks first while answering; every focus loss is reported (src/platform).
  useLeaveGuard(answering);
  useFocusLossReport(answering, api.focusLost);

  // The draft, given now (the machine gives it by itself once typing pauses).
  const commit = useStableHandler(() => {
    if (api.draft) api.commitDraft();
  });

  // Hand over what was typed if the screen goes away (time up, another screen).
  useEffect(() => commit, [commit]);

  // The buttons' handlers: the same functions from render to render (see useStableHandler).
  const toggleList = useStableHandler(() => {
    commit();
    api.toggleList();
  });
  const flagQuestion = useStableHandler(() => {
    if (question) api.flag(question.id);
  });
  const previous = useStableHandler(() => {
    commit();
    api.previous();
  });
  const next = useStableHandler(() => {
    commit();
    api.next();
  });
  const requestFinish = useStableHandler(() => {
    if (finishing) return;
    commit();
    api.requestFinish();
  });

  // Counted for the finish dialog only (not on every question swap).
  const unanswered = confirmingFinish ? unansweredCount(questions, answers, draft) : 0;

  const textValue = question ? (draft?.questionId === question.id ? draft.value : (answers[question.id]?.value ?? '')) : '';

  return (
    <div className={styles.exam} onContextMenu={preventContextMenu} onCopy={preventCopy} onCut={preventCopy}>
      <div className={styles.page} inert={confirmingFinish}>
        <ExamHeader
          questionNumber={question ? index + 1 : null}
          questionCount={questions.length > 0 ? questions.length : null}
          // No deadline known yet (0) shows "--:--" rather than a timer at zero.
          deadlineAt={deadlineAt > 0 ? deadlineAt : null}
          clockOffsetMs={clockOffsetMs}
          timeLimitSeconds={timeLimitSeconds}
        />
        <main className={styles.main}>
          {error && (
            <FailureAlert code={error}>
              <button type="button" className="button" onClick={api.retry}>
                <Trans>Try again</Trans>
              </button>
            </FailureAlert>
          )}
          {question && (
            <Tools
              listOpen={listOpen}
              flagged={flagged.includes(question.id)}
              finishing={finishing}
              onToggleList={toggleList}
              onFlag={flagQuestion}
            />
          )}
          {question && listOpen && (
            <QuestionList
              items={questions.map((q) => ({
                id: q.id,
                answered: (draft?.questionId === q.id && isAnswered(draft.value)) || isGiven(answers[q.id]),
                flagged: flagged.includes(q.id),
              }))}
              current={index}
              disabled={finishing}
              onSelect={(i) => {
                commit();
                api.select(i);
              }}
            />
          )}
          {question ? (
            <QuestionView
              question={question}
              answer={answers[question.id]}
              textValue={textValue}
              disabled={finishing}
              onChoose={(value) => answer(question.id, value)}
              onType={(value) => api.type(question.id, value)}
              onCommit={commit}
              keyboardOpen={keyboardOpen}
              upperCase={upperCase}
              onToggleKeyboard={api.toggleKeyboard}
              onToggleUpperCase={api.toggleUpperCase}
            />
          ) : (
            <SkeletonRegion>
              <SkeletonBlock inlineSize="70%" blockSize="2.25rem" />
              <SkeletonBlock shape="box" blockSize="4rem" />
              <SkeletonBlock shape="box" blockSize="4rem" />
              <SkeletonBlock shape="box" blockSize="4rem" />
            </SkeletonRegion>
          )}
          <div className={styles.actions}>
            <Navigation
              previousDisabled={!question || isFirst || finishing}
              nextDisabled={!question || isLast || finishing}
              nextPrimary={!isLast}
              onPrevious={previous}
              onNext={next}
            />
            <FinishButton finishing={finishing} primary={!!question && isLast} disabled={!question} onClick={requestFinish} />
          </div>
        </main>
      </div>
      {confirmingFinish && (
        <ModalDialog title={<Trans>Finish the test?</Trans>} onCancel={() => !finishing && api.cancelFinish()}>
          <p className={styles.unanswered}>
            {unanswered === 0 ? (
              <Trans>You have answered every question.</Trans>
            ) : (
              <Plural value={unanswered} one="# question is not answered yet." other="# questions are not answered yet." />
            )}
          </p>
          <p>
            <Trans>After you finish, you cannot change your answers.</Trans>
          </p>
          <div className="button-row">
            <button type="button" className="button" data-autofocus disabled={finishing} onClick={api.cancelFinish}>
              <Trans>Keep working</Trans>
            </button>
            <button
              type="button"
              className="button"
              data-variant="primary"
              aria-busy={finishing || undefined}
              aria-disabled={finishing || undefined}
              onClick={() => {
                if (!finishing) api.confirmFinish();
              }}
            >
              {finishing ? <Trans>Sending your answers…</Trans> : <Trans>Finish</Trans>}
            </button>
          </div>
        </ModalDialog>
      )}
    </div>
  );
}
