/**
 * The results' rules as pure functions over the machine's facts (seed section 3, payment
 * items), shared by its guards and by results.connect.ts, and the snapshot's current screen.
 */
import type { SnapshotFrom } from 'xstate';
import type { FailureCode } from '../shared/ports.ts';
import type { resultsMachine } from './results.machine.ts';
import type { OwnedItems, ResultsContext } from './results.types.ts';

export type ResultsSnapshot = SnapshotFrom<typeof resultsMachine>;

/** What the rules read: what is owned (null before it is known), and whether the exam was passed. */
export interface OwnedFacts {
  owned: OwnedItems | null;
  passed: boolean;
}

/** The machine's facts: the exam was passed as the short result (or else the score report) says. */
export function ownedFactsOf(context: Pick<ResultsContext, 'short' | 'owned' | 'report'>): OwnedFacts {
  return { owned: context.owned, passed: Boolean(context.short?.passed ?? context.report?.result.passed) };
}

/** The score report opens only with the result sheet owned. */
export function ownsResultSheet({ owned }: Pick<OwnedFacts, 'owned'>): boolean {
  return Boolean(owned?.result_sheet);
}

/** A certificate is issued only for a passed exam, and downloaded only once it is owned. */
export function canDownloadCertificate({ owned, passed }: OwnedFacts): boolean {
  return Boolean(owned?.certificate && passed);
}

/** Something is still for sale: the result sheet always, the certificate only for a passed exam. */
export function hasItemsToBuy({ owned, passed }: OwnedFacts): boolean {
  if (!owned) return false;
  return !owned.result_sheet || (passed && !owned.certificate);
}

/** Refusals that say when a result can be seen (seed section 9): trying again now cannot change them. */
const whenViewableCodes: ReadonlySet<FailureCode> = new Set(['RESULT_NOT_RELEASED', 'RESULT_VIEW_EXPIRED']);

/** The short result and purchased result offer "Try again" for every failure but those that say when a result can be seen. */
export function isRetryableLoad(code: FailureCode | null): boolean {
  return !whenViewableCodes.has(code ?? 'GENERIC_ERROR');
}

/** The results screen the snapshot shows, or null once the results are over. */
export type ResultsScreen = 'short-result' | 'pay-exam-result' | 'purchased-result' | 'score-report';

export function selectResultsScreen(snapshot: ResultsSnapshot): ResultsScreen | null {
  if (snapshot.matches('shortResult')) return 'short-result';
  if (snapshot.matches('payExamResult')) return 'pay-exam-result';
  if (snapshot.matches('purchasedResult')) return 'purchased-result';
  if (snapshot.matches('scoreReport')) return 'score-report';
  return null;
}

/** Loading, failed or ready, for one of the screens with a load of their own. */
export function selectLoad(
  snapshot: ResultsSnapshot,
  screen: 'shortResult' | 'purchasedResult' | 'scoreReport',
): 'loading' | 'ready' | 'error' {
  if (snapshot.matches({ [screen]: 'ready' } as never)) return 'ready';
  if (snapshot.matches({ [screen]: 'failed' } as never)) return 'error';
  return 'loading';
}
