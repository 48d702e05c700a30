/**
 * The states every staff list has, the same way in each section of the console and on the
 * proctor page (the schedules, a schedule's audit trail): a skeleton while it loads (three 3rem
 * boxes unless the list says otherwise), the failure's message with "Try again", and an empty
 * state in the caller's words. Renders `children` only when the list is ready and has something in
 * it. `RefreshButton` is the "Refresh" beside a shown list's heading, which loads it again.
 */
import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import type { FailureCode } from '../../../machines/shared/ports.ts';
import { InfoIcon } from '../../components/icon/icons.tsx';
import { SkeletonBlock, SkeletonRegion } from '../../components/skeleton/skeleton.tsx';
import { staffFailureMessage } from '../../i18n/proctor-messages.ts';
import { StaffFailure } from '../proctor/staff-failure.tsx';

/** A staff list's part of its connect: where its loading stands, why it failed, and loading it again. */
export interface ListPart {
  status: 'loading' | 'ready' | 'failed';
  failure: FailureCode | null;
  retry(): void;
}

export function ListState({
  list: { status, failure, retry },
  empty,
  emptyText,
  skeleton = { boxes: 3, blockSize: '3rem' },
  children,
}: {
  list: ListPart;
  empty: boolean;
  emptyText: ReactNode;
  /** The boxes shown while the list loads, about the height of its rows. */
  skeleton?: { boxes: number; blockSize: string };
  children: ReactNode;
}) {
  if (status === 'loading') {
    return (
      <SkeletonRegion>
        {Array.from({ length: skeleton.boxes }, (_, box) => (
          <SkeletonBlock key={box} shape="box" blockSize={skeleton.blockSize} />
        ))}
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

/** "Refresh" once the list is shown: loads it again. */
export function RefreshButton({ list }: { list: ListPart }) {
  if (list.status !== 'ready') return null;
  return (
    <button type="button" className="button" onClick={list.retry}>
      <Trans>Refresh</Trans>
    </button>
  );
}
