/**
 * The tutorial screen's binding, in the chakra-ui/zag style: `connect(snapshot, send)` turns a
 * snapshot of the tutorial machine into exactly what the screen renders and the events it may
 * send, and nothing else. Pure: no React, no DOM. Strings are the screen's (Lingui); this gives
 * it facts and codes.
 */
import type { FailureCode } from '../shared/ports.ts';
import {
  selectPractice,
  selectResults,
  selectRules,
  selectStatus,
  type PracticeResult,
  type PracticeView,
  type TutorialRules,
  type TutorialSnapshot,
  type TutorialStatus,
} from './tutorial.selectors.ts';
import type { TutorialEvent } from './tutorial.types.ts';

export type { PracticeResult, PracticeView, TutorialRules, TutorialSnapshot, TutorialStatus } from './tutorial.selectors.ts';

export interface TutorialApi {
  status: TutorialStatus;
  /** Why the settings could not be loaded (status failed). */
  error: FailureCode | null;
  rules: TutorialRules;
  /** The practice question on screen (status practising), else null. */
  practice: PracticeView | null;
  /** How each practice question went (the summary, status practised). */
  results: PracticeResult[];
  /** The practice's on-screen alphabet keyboard is shown, and types capitals. */
  keyboardOpen: boolean;
  upperCase: boolean;
  /** "Check my answer" is offered: an answer is given and not checked yet. */
  canCheck: boolean;
  canGoBack: boolean;
  /** Hands over the answer to the practice question on screen. */
  answer(value: string): void;
  check(): void;
  next(): void;
  previous(): void;
  retry(): void;
  restart(): void;
  toggleKeyboard(): void;
  toggleUpperCase(): void;
  /** "Continue": on to the start screen. */
  finish(): void;
}

export function connect(snapshot: TutorialSnapshot, send: (event: TutorialEvent) => void): TutorialApi {
  const practice = selectPractice(snapshot);
  return {
    status: selectStatus(snapshot),
    error: snapshot.matches('failed') ? snapshot.context.error : null,
    rules: selectRules(snapshot.context),
    practice,
    results: snapshot.matches('practised') ? selectResults(snapshot.context) : [],
    keyboardOpen: snapshot.context.keyboardOpen,
    upperCase: snapshot.context.upperCase,
    canCheck: snapshot.can({ type: 'answer.checked' }),
    canGoBack: snapshot.can({ type: 'practice.previous' }),
    answer: (value) => {
      if (practice) send({ type: 'answer.given', questionId: practice.question.id, value });
    },
    check: () => send({ type: 'answer.checked' }),
    next: () => send({ type: 'practice.next' }),
    previous: () => send({ type: 'practice.previous' }),
    retry: () => send({ type: 'retry.requested' }),
    restart: () => send({ type: 'practice.restarted' }),
    toggleKeyboard: () => send({ type: 'keyboard.toggled' }),
    toggleUpperCase: () => send({ type: 'upperCase.toggled' }),
    finish: () => send({ type: 'tutorial.finished' }),
  };
}
