/**
 * A staff call that failed, the same way wherever it happens on the proctor page (the restored
 * session, the schedules, the audit log, an action): the message for its code in an alert, then
 * "Try again" as the primary button when trying again can help, and the one other way on when
 * there is one ("Sign in again", "Close"). Strings are the caller's (Lingui descriptors by code,
 * src/i18n/proctor-messages.ts).
 */
import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import type { FailureCode } from '../../../machines/shared/ports.ts';
import { ErrorIcon } from '../../components/icon/icons.tsx';

export function StaffFailure({
  code,
  message,
  onRetry,
  other,
}: {
  code: FailureCode | null;
  message: MessageDescriptor;
  /** Absent: trying again cannot help (the server refused for a reason that stays). */
  onRetry?: () => void;
  other?: { label: ReactNode; onClick(): void };
}) {
  const { i18n } = useLingui();
  return (
    <>
      <div className="alert" role="alert" data-code={code ?? undefined}>
        <ErrorIcon />
        <p>{i18n._(message)}</p>
      </div>
      <div className="button-row">
        {onRetry && (
          <button type="button" className="button" data-variant="primary" onClick={onRetry}>
            <Trans>Try again</Trans>
          </button>
        )}
        {other && (
          <button type="button" className="button" data-variant={onRetry ? undefined : 'primary'} onClick={other.onClick}>
            {other.label}
          </button>
        )}
      </div>
    </>
  );
}
