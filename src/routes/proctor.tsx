/**
 * /proctor: the staff page of exam day (sign-in, schedules, the live roster, actions, the audit
 * log). The kiosk machine decides that it is shown; the proctor machine decides what it shows.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const proctorRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/proctor',
  component: lazyRouteComponent(() => import('../app/connect/proctor.tsx'), 'ConnectedProctor'),
});
