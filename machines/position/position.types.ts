/**
 * Types of the position machine: where the pupil is in the exam (the question on screen) and
 * what the pupil arranged around it (the list, the flags, the keyboard and its capitals), while
 * the exam is answered. machines/position/position.machine.ts says why it is a machine of its own.
 */

/** What the pupil arranged besides the question on screen, kept in the stored session. */
export interface PositionView {
  /** The question list overview is open; persisted as question_list_flag. */
  listOpen: boolean;
  /** Question ids flagged for review, in the order flagged; persisted as flagged_question_ids. */
  flagged: number[];
  /**
   * The on-screen alphabet keyboard is shown on questions that offer it (otherwise the device's
   * own keyboard); persisted as alphabets_keyboard_flag. Shown again at Start.
   */
  keyboardOpen: boolean;
  /** The alphabet keyboard types capital letters (its "ABC" key); persisted as mode_upper_case_flag. */
  upperCase: boolean;
}

/** The question on screen and the view around it: what the exam reports to the kiosk. */
export interface Position {
  /** 0-based index of the question on screen; persisted as question_index. */
  questionIndex: number;
  view: PositionView;
}

export interface PositionContext extends Position {
  /** The exam's question ids, in order: where a move may go, and which a flag may mark. */
  questionIds: readonly number[];
  /**
   * A move or a toggle came after the pause under way began: when the pause ends, it begins
   * again instead of reporting (so a burst of moves is reported once, after its last move).
   */
  movedAgain: boolean;
  /**
   * The text answer being typed and not handed to the exam yet (null when none is): given once
   * typing pauses for TEXT_COMMIT_DELAY_MS, or at once when the screen commits it (the field left,
   * Enter, a move, Finish).
   */
  draft: Draft | null;
}

/** A text answer as typed, beside the answer the exam held when it was last typed. */
export interface Draft {
  questionId: number;
  value: string;
  /** The exam's answer to that question as the pupil typed (empty when none): a draft equal to it is not given again. */
  held: string;
}

export interface PositionInput extends Position {
  questionIds: readonly number[];
}

export type PositionEvent =
  | { type: 'question.next' }
  | { type: 'question.previous' }
  | { type: 'question.selected'; index: number }
  /** Opens or closes the question list overview. */
  | { type: 'questionList.toggled' }
  /** Flags a question for review, or removes its flag: reported at once. */
  | { type: 'question.flagged'; questionId: number }
  /** Shows or hides the on-screen alphabet keyboard (alphabets_keyboard_flag). */
  | { type: 'keyboard.toggled' }
  /** Switches the alphabet keyboard between capital and small letters (mode_upper_case_flag). */
  | { type: 'upperCase.toggled' }
  /** A keystroke in a text answer: the draft so far, and the answer the exam holds for that question. */
  | { type: 'answer.typed'; questionId: number; value: string; held: string }
  /** The draft is handed over now (the field left, Enter, a move or Finish on the screen). */
  | { type: 'draft.committed' }
  /** Typing paused for TEXT_COMMIT_DELAY_MS (raised by this machine after each keystroke). */
  | { type: 'draft.paused' }
  /**
   * The exam took the position itself (the page hidden or going away: it reads this machine's
   * snapshot and reports at once): nothing waits for the pause any more.
   */
  | { type: 'position.taken' };

/** What the position machine tells the exam (its parent): the position, and a typed answer once it is given. */
export type PositionParentEvent =
  | { type: 'position.reported'; position: Position }
  | { type: 'answer.given'; questionId: number; value: string };
