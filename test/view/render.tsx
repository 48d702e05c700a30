/**
 * The view tests' renderer lives in test/helpers/render-view.tsx; this module passes on its
 * memory storage to the model tests (test/model/) that import it from here, until they import
 * the helper itself. Nothing else imports this file.
 */
export { memoryStorage } from '../helpers/render-view.tsx';
