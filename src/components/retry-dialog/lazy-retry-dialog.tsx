/**
 * The retry dialog, loaded apart from the first screen. It only ever shows over the exam's calls (machines/kiosk/kiosk.connect.ts), and the
 * exam's machine is itself loaded lazily: src/app/preload.ts loads this with it, once the first
 * screen is idle, so the dialog is there before the exam can need it (and the service worker
 * precaches it for a terminal that reloads offline). Should it still be loading when a call
 * fails, the frame shows it the moment it arrives.
 */
import { lazy } from 'react';

export const loadRetryDialog = () => import('./retry-dialog.tsx');

export const LazyRetryDialog = lazy(() => loadRetryDialog().then((module) => ({ default: module.RetryDialog })));
