/**
 * The two facts of the exam that the shell reads before the exam itself has loaded (the kiosk's
 * connect, through exam.selectors.ts): the default time limit and the calls the retry dialog
 * names. Kept apart from exam.rules.ts so that the first screen's JavaScript does not carry the
 * exam's rules; exam.rules.ts exports them too.
 */

/** The exam's time limit when the exam does not say otherwise: 40 minutes (seed section 9). */
export const DEFAULT_TIME_LIMIT_SECONDS = 40 * 60;

/** Ids of the calls that run in the retry machine (the retry dialog reads them). */
export const retriedCalls = ['loadExamDetails', 'loadQuestions', 'flushAnswers', 'finishExam'] as const;
