/**
 * Snapshot to view: which screen and path are current, read from the active child machine.
 */
import type { SnapshotFrom } from 'xstate';
import type { kioskMachine } from './kiosk.machine.ts';
import { pathOf, screenActorOf, screenOf } from './routes.ts';

export type KioskSnapshot = SnapshotFrom<typeof kioskMachine>;

export type ScreenName =
  | 'short-result'
  | 'pay-exam-fee'
  | 'pay-exam-result'
  | 'purchased-result'
  | 'score-report'
  | 'booting'
  | 'login-code'
  | 'not-found'
  | 'login-confirm'
  | 'exam-tutorial'
  | 'exam-start'
  | 'exam'
  | 'exam-end'
  | 'login'
  | 'entry'
  | 'forbidden'
  | 'examinee-input-info'
  | 'examinee-info'
  | 'testing-menu'
  | 'exam-list'
  | 'score-report-embed'
  | 'login-slips'
  | 'proctor'
  | 'connectivity';

/** The child machine that decides the current screen. */
export function selectActiveChild(snapshot: KioskSnapshot) {
  if (snapshot.matches('document')) return snapshot.children.document;
  if (snapshot.matches('proctor')) return snapshot.children.proctor;
  if (snapshot.matches('connectivity')) return snapshot.children.connectivity;
  return snapshot.matches('examinee') ? snapshot.children.exam : snapshot.children.session;
}

/**
 * The URL the machine shows, or undefined while it has none yet (restoring, or on an entry
 * route). Login pages show their query too (logout=1, org_code, school, error_code...).
 */
export function selectPath(snapshot: KioskSnapshot): string | undefined {
  const child = selectActiveChild(snapshot);
  if (!child) return undefined;
  const childSnapshot = screenActorOf(child).getSnapshot();
  const pattern = pathOf(childSnapshot);
  // A path with a parameter shows the id the machine holds (the score report's schedule history).
  const path = pattern?.replace('$id', String((childSnapshot.context as { id?: number | null }).id ?? ''));
  if (!path || !showsSearch(childSnapshot)) return path;
  const search = new URLSearchParams((childSnapshot.context as { search?: Record<string, string> }).search ?? {}).toString();
  return search ? `${path}?${search}` : path;
}

function showsSearch(snapshot: { getMeta(): Record<string, unknown> }): boolean {
  return Object.values(snapshot.getMeta()).some((meta) => (meta as { withSearch?: boolean } | undefined)?.withSearch);
}

export function selectScreen(snapshot: KioskSnapshot): ScreenName {
  const child = selectActiveChild(snapshot);
  return ((child && screenOf(screenActorOf(child).getSnapshot())) ?? 'booting') as ScreenName;
}
