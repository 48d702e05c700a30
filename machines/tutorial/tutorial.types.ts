/**
 * Types of the tutorial machine (seed section 2 `exam-tutorial`, section 7 `GET /tutorial-setting`):
 * how the test works, and one unscored practice question of each type the exam uses, answered
 * with the exam's own components and checked on this terminal. Nothing of it is sent as an
 * answer or counted.
 */
import type { PracticeQuestion, TutorialSetting } from '../../contract/tutorial.ts';
import type { ApiPort, FailureCode } from '../shared/ports.ts';

export interface TutorialInput {
  /** The sitting whose tutorial this is (schedule_history_id). */
  scheduleHistoryId: number;
  /** The exam's number of questions as its details say: shown until the setting arrives (or if it never does). */
  questionCount: number;
  /** The exam's time limit as its details say, in seconds: likewise. */
  timeLimitSeconds: number;
}

/** Whether a checked practice answer was right. */
export type Verdict = 'right' | 'wrong';

/** The pupil's answer to one practice question. */
export interface PracticeAnswer {
  /** In the contract's answer encoding, as the exam's components hand it over. */
  value: string;
  /** Set when the pupil pressed "Check" on this value; cleared when the value changes. */
  verdict: Verdict | null;
}

export interface TutorialContext {
  scheduleHistoryId: number;
  /** The exam details' number of questions (the setting's, once loaded, wins). */
  questionCount: number;
  /** The exam details' time limit in seconds (the setting's, once loaded, wins). */
  timeLimitSeconds: number;
  /** The tutorial's settings from the server; null until loaded. */
  setting: TutorialSetting | null;
  /** Why loading the setting failed, while it did. */
  error: FailureCode | null;
  /** 0-based index of the practice question on screen. */
  index: number;
  /** The pupil's practice answers, by practice question id (negative). */
  answers: Record<number, PracticeAnswer>;
  /** The on-screen alphabet keyboard is shown (as a new exam starts: shown). */
  keyboardOpen: boolean;
  /** The alphabet keyboard types capitals. */
  upperCase: boolean;
}

export type TutorialEvent =
  /** "Try again" after the setting failed to load. */
  | { type: 'retry.requested' }
  /** The pupil answered the practice question on screen (a choice, a keypad number, typed text, an order). */
  | { type: 'answer.given'; questionId: number; value: string }
  /** "Check my answer". */
  | { type: 'answer.checked' }
  /** "Next": the next practice question, or after the last one, the summary. */
  | { type: 'practice.next' }
  | { type: 'practice.previous' }
  /** "Practise again" from the summary: every answer forgotten, back to the first question. */
  | { type: 'practice.restarted' }
  | { type: 'keyboard.toggled' }
  | { type: 'upperCase.toggled' }
  /** "Continue": the tutorial is over (always possible: the practice is optional and never blocks the exam). */
  | { type: 'tutorial.finished' };

/** What the tutorial tells its parent (the exam machine). */
export type TutorialParentEvent =
  | { type: 'tutorial.completed' }
  /** Loading failed in a way that ends the exam flow, as the exam's own calls do (401, a reset, maintenance, another terminal). */
  | { type: 'UNAUTHORIZED' }
  | { type: 'UPDATE_FLAG_RETAKE' }
  | { type: 'DURING_MAINTENANCE' }
  | { type: 'FINISH_WITH_ERROR'; code: FailureCode };

/** The edge's call: GET /tutorial-setting, its response validated with TutorialSettingSchema (src/api/client.ts). */
export type TutorialPort = Pick<ApiPort, 'tutorialSetting'>;

export type { PracticeQuestion, TutorialSetting };
