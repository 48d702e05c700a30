/**
 * Snapshot of the tutorial machine to what the tutorial screen shows, without callbacks (those
 * are tutorial.connect.ts's): which part of the practice is on screen, the exam's rules, the
 * practice question with the pupil's answer and its verdict, and how each practice went. Pure.
 */
import type { SnapshotFrom } from 'xstate';
import type { Question, QuestionType } from '../../contract/exam.ts';
import type { PracticeQuestion } from '../../contract/tutorial.ts';
import { currentPractice, type tutorialMachine } from './tutorial.machine.ts';
import type { TutorialContext, Verdict } from './tutorial.types.ts';

export type TutorialSnapshot = SnapshotFrom<typeof tutorialMachine>;

/**
 * loading: the settings are on their way; failed: they could not be loaded (Try again);
 * empty: the exam has nothing to practise; practising: a practice question is on screen;
 * practised: every one was shown (the summary); done: the pupil continued.
 */
export type TutorialStatus = 'loading' | 'failed' | 'empty' | 'practising' | 'practised' | 'done';

/** The statuses that are the machine's top states by name; any other state is loading. */
const stateStatuses = ['failed', 'empty', 'practising', 'practised', 'done'] as const satisfies readonly TutorialStatus[];

export function selectStatus(snapshot: TutorialSnapshot): TutorialStatus {
  return stateStatuses.find((status) => snapshot.matches(status)) ?? 'loading';
}

/** The exam's rules the tutorial's points state: the setting's once loaded, the exam details' before. */
export interface TutorialRules {
  questionCount: number;
  /** Whole minutes, as the points say them. */
  timeLimitMinutes: number;
  /** The question types the exam uses; null until the setting is loaded. */
  questionTypes: QuestionType[] | null;
}

export function selectRules(context: TutorialContext): TutorialRules {
  const { setting } = context;
  return {
    questionCount: setting?.question_count ?? context.questionCount,
    timeLimitMinutes: Math.round((setting?.time.limit_seconds ?? context.timeLimitSeconds) / 60),
    questionTypes: setting ? [...setting.question_types] : null,
  };
}

/**
 * The right answer in words the pupil can read: the chosen choice's label, the text, the number,
 * or the blocks' labels in the right order.
 */
export function rightAnswerOf(practice: PracticeQuestion): string[] {
  const { question, answer } = practice;
  switch (question.type) {
    case 'single_choice':
      return question.choices.filter((choice) => choice.id === answer).map((choice) => choice.label);
    case 'ordering': {
      const labels = new Map((question.blocks ?? []).map((block) => [block.id, block.label]));
      return answer.split(',').map((id) => labels.get(id) ?? id);
    }
    case 'text':
    case 'number':
      return [answer];
  }
}

export interface PracticeView {
  /** 1-based position among the practice questions, and how many there are. */
  position: number;
  total: number;
  /** The practice question, shaped as an exam question (the exam's components render it). */
  question: Question;
  /** The pupil's answer as the components take it ('' when none). */
  value: string;
  /** The verdict of the last check of this value; null while unchecked. */
  verdict: Verdict | null;
  /** The right answer, to show after a wrong check. */
  rightAnswer: string[];
  isFirst: boolean;
  isLast: boolean;
}

export function selectPractice(snapshot: TutorialSnapshot): PracticeView | null {
  if (!snapshot.matches('practising')) return null;
  const { context } = snapshot;
  const practice = currentPractice(context);
  if (!practice || !context.setting) return null;
  const answer = context.answers[practice.question.id];
  const total = context.setting.practice.length;
  return {
    position: context.index + 1,
    total,
    question: practice.question,
    value: answer?.value ?? '',
    verdict: answer?.verdict ?? null,
    rightAnswer: rightAnswerOf(practice),
    isFirst: context.index === 0,
    isLast: context.index === total - 1,
  };
}

/** How one practice question went: checked right, checked wrong, or never checked. */
export interface PracticeResult {
  questionId: number;
  type: QuestionType;
  outcome: Verdict | 'unchecked';
}

export function selectResults(context: TutorialContext): PracticeResult[] {
  return (context.setting?.practice ?? []).map(({ question }) => ({
    questionId: question.id,
    type: question.type,
    outcome: context.answers[question.id]?.verdict ?? 'unchecked',
  }));
}
