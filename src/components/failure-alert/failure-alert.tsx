/**
 * A failed call, told to the pupil: the translated message of its FailureCode in an alert
 * box with an icon, announced by screen readers when it appears.
 */
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import type { FailureCode } from '../../../machines/shared/ports.ts';
import { failureMessage } from '../../i18n/failure-messages.ts';
import { ErrorIcon } from '../icon/icons.tsx';

export function FailureAlert({ code, children }: { code: FailureCode; children?: ReactNode }) {
  const { i18n } = useLingui();
  return (
    <div className="alert" role="alert" data-code={code}>
      <ErrorIcon />
      <div>
        <p>{i18n._(failureMessage(code))}</p>
        {children}
      </div>
    </div>
  );
}

/**
 * A screen's data that failed to load: the failure and "Try again" (the machine loads again).
 * Any other way on (log out, back) comes after it, as `children`.
 */
export function LoadFailed({ code, onRetry, children }: { code: FailureCode | null; onRetry(): void; children?: ReactNode }) {
  return (
    <>
      <FailureAlert code={code ?? 'GENERIC_ERROR'} />
      <div className="button-row">
        <button type="button" className="button" data-variant="primary" onClick={onRetry}>
          <Trans>Try again</Trans>
        </button>
        {children}
      </div>
    </>
  );
}
