/**
 * The login slips fixture lives in test/helpers/login-slips-fixture.ts; this module passes it
 * on to test/model/document.model.test.ts, which imports it from here, until it imports the
 * helper itself. Nothing else imports this file.
 */
export { loginSlipsFixture } from '../helpers/login-slips-fixture.ts';
