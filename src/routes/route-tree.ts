/**
 * The code-based route tree: one route per URL of the journey, plus the catch-all.
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

export const routeTree = rootRoute.addChildren([
  indexRoute,
  loginCodeRoute,
  loginConfirmRoute,
  examTutorialRoute,
  examStartRoute,
  startRoute,
  examEndRoute,
  notFoundRoute,
  catchAllRoute,
]);
