/**
 * A failed call, told to the pupil: the translated message of its FailureCode in an alert
 * box with an icon, announced by screen readers when it appears.
 */
import { useLingui } from '@lingui/react';
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
