/**
 * /proctor: the staff page of exam day (sign-in, schedules, the live roster, actions, the audit
 * log). The kiosk machine decides that it is shown; the proctor machine decides what it shows.
 */
import { createRoute } from '@tanstack/react-router';
import { ConnectedProctor } from '../app/connect/proctor.tsx';
import { rootRoute } from './__root.tsx';

export const proctorRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/proctor',
  component: ConnectedProctor,
});
