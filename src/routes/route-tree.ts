/**
 * The code-based route tree: one route per URL of the journey, the proctor page, the terminal
 * check, plus the catch-all.
 */
import { rootRoute } from './__root.tsx';
import { catchAllRoute } from './catch-all.tsx';
import { examEndRoute } from './exam-end.tsx';
import { examStartRoute } from './exam-start.tsx';
import { examTutorialRoute } from './exam-tutorial.tsx';
import { indexRoute } from './index.tsx';
import { loginCodeRoute } from './login-code.tsx';
import { loginConfirmRoute } from './login-confirm.tsx';
import { notFoundRoute } from './not-found.tsx';
import { startRoute } from './start.tsx';
import { loginRoute } from './login.tsx';
import { oauthRoute } from './oauth.tsx';
import { oauthKaigenRoute } from './oauth-kaigen.tsx';
import { oauthKaigenPhilippineRoute } from './oauth-kaigen-philippine.tsx';
import { oauthKenyaRoute } from './oauth-kenya.tsx';
import { oauthEgyptRoute } from './oauth-egypt.tsx';
import { appEntryRoute } from './app-entry.tsx';
import { forbiddenRoute } from './forbidden.tsx';
import { examineeInputInfoRoute } from './examinee-input-info.tsx';
import { examineeInfoRoute } from './examinee-info.tsx';
import { testingMenuRoute } from './testing-menu.tsx';
import { examListRoute } from './exam.tsx';
import { examListStepModeRoute } from './exam-step-mode.tsx';
import { shortResultRoute } from './short-result.tsx';
import { payExamFeeRoute } from './pay-exam-fee.tsx';
import { payExamResultRoute } from './pay-exam-result.tsx';
import { purchasedResultRoute } from './purchased-result.tsx';
import { scoreReportRoute } from './score-report.tsx';
import { scoreReportEmbedRoute } from './score-report-embed.tsx';
import { loginSlipsRoute } from './login-slips.tsx';
import { proctorRoute } from './proctor.tsx';
import { checkingDomainConnectionRoute } from './checking-domain-connection.tsx';

export const routeTree = rootRoute.addChildren([
  indexRoute,
  loginCodeRoute,
  loginConfirmRoute,
  examTutorialRoute,
  examStartRoute,
  startRoute,
  examEndRoute,
  notFoundRoute,
  loginRoute,
  oauthRoute,
  oauthKaigenRoute,
  oauthKaigenPhilippineRoute,
  oauthKenyaRoute,
  oauthEgyptRoute,
  appEntryRoute,
  forbiddenRoute,
  examineeInputInfoRoute,
  examineeInfoRoute,
  testingMenuRoute,
  examListRoute,
  examListStepModeRoute,
  shortResultRoute,
  payExamFeeRoute,
  payExamResultRoute,
  purchasedResultRoute,
  scoreReportRoute,
  scoreReportEmbedRoute,
  loginSlipsRoute,
  proctorRoute,
  checkingDomainConnectionRoute,
  catchAllRoute,
]);
