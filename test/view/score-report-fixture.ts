/**
 * The score report fixture lives in test/helpers/score-report-fixture.ts; this module passes it
 * on to test/model/document.model.test.ts, which imports it from here, until it imports the
 * helper itself. Nothing else imports this file.
 */
export { scoreReportFixture } from '../helpers/score-report-fixture.ts';
