/**
 * Snapshot to view: which screen and path are current, read from the active child machine.
 */
import type { SnapshotFrom } from 'xstate';
import type { kioskMachine } from './kiosk.machine.ts';
import { pathOf, screenOf } from './routes.ts';

export type KioskSnapshot = SnapshotFrom<typeof kioskMachine>;

export type ScreenName =
  | 'booting'
  | 'login-code'
  | 'not-found'
  | 'login-confirm'
  | 'exam-tutorial'
  | 'exam-start'
  | 'exam'
  | 'exam-end';

/** The child machine that decides the current screen. */
export function selectActiveChild(snapshot: KioskSnapshot) {
  return snapshot.matches('examinee') ? snapshot.children.exam : snapshot.children.session;
}

/** The URL the machine shows, or undefined while it has none yet (restoring). */
export function selectPath(snapshot: KioskSnapshot): string | undefined {
  const child = selectActiveChild(snapshot);
  return child ? pathOf(child.getSnapshot()) : undefined;
}

export function selectScreen(snapshot: KioskSnapshot): ScreenName {
  const child = selectActiveChild(snapshot);
  return ((child && screenOf(child.getSnapshot())) ?? 'booting') as ScreenName;
}
