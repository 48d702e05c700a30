/**
 * The states every list of the console has, the same way in each section: a skeleton while it
 * loads, the failure's message with "Try again", and an empty state in the caller's words.
 * Renders `children` only when the list is ready and has something in it.
 */
import type { ReactNode } from 'react';
import type { FailureCode } from '../../../machines/shared/ports.ts';
import { InfoIcon } from '../../components/icon/icons.tsx';
import { SkeletonBlock, SkeletonRegion } from '../../components/skeleton/skeleton.tsx';
import { staffFailureMessage } from '../../i18n/proctor-messages.ts';
import { StaffFailure } from '../proctor/staff-failure.tsx';

export function ListState({
  status,
  failure,
  retry,
  empty,
  emptyText,
  children,
}: {
  status: 'loading' | 'ready' | 'failed';
  failure: FailureCode | null;
  retry(): void;
  empty: boolean;
  emptyText: ReactNode;
  children: ReactNode;
}) {
  if (status === 'loading') {
    return (
      <SkeletonRegion>
        <SkeletonBlock shape="box" blockSize="3rem" />
        <SkeletonBlock shape="box" blockSize="3rem" />
        <SkeletonBlock shape="box" blockSize="3rem" />
      </SkeletonRegion>
    );
  }
  if (status === 'failed') return <StaffFailure code={failure} message={staffFailureMessage(failure ?? 'GENERIC_ERROR')} onRetry={retry} />;
  if (empty) {
    return (
      <div className="alert" data-tone="info" role="status">
        <InfoIcon />
        <p>{emptyText}</p>
      </div>
    );
  }
  return <>{children}</>;
}
