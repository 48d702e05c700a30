/**
 * The response schemas of the calls the first screen never makes (the exam, the payments, the
 * results, the tutorial, the presence beat, the login slips): src/api/client.ts loads this module
 * on the first such call (src/main.tsx preloads it once the first screen is up), so the first
 * screen's chunk holds only the session's schemas.
 */
export {
  ExamDetailsSchema,
  ExamQuestionsSchema,
  FinishExamResponseSchema,
  FocusLossResponseSchema,
  SaveAnswerResponseSchema,
  StartExamResponseSchema,
} from '../../contract/exam.ts';
export { ExamPaymentSettingSchema, PaymentSessionSchema, PaymentStatusResponseSchema, ResultPaymentSettingSchema } from '../../contract/payments.ts';
export { ChoosePageStatusSchema, ScoreReportSchema, ShortResultSchema } from '../../contract/results.ts';
export { HeartbeatResponseSchema } from '../../contract/presence.ts';
export { TutorialSettingSchema } from '../../contract/tutorial.ts';
export { LoginSlipsResponseSchema } from '../../contract/exports.ts';
