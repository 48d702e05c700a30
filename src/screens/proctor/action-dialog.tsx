/**
 * The confirm step of a proctor's action, as a modal dialog (src/components/modal-dialog: focus
 * moves in, stays in, Escape cancels, focus returns): what will happen in plain words, a required
 * reason (kept in the audit log) and, for an extension, the minutes. The proctor machine checks
 * both and answers with field rules; while the action is sent the confirm button waits; a refusal
 * or no answer is told by code, with "Try again" and "Close". Renders ProctorApi['dialog'].
 */
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react';
import { Plural, Trans } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import type { ActionDialogApi } from '../../../machines/proctor/proctor.connect.ts';
import type { FieldRule } from '../../../machines/proctor/proctor.types.ts';
import { Field } from '../../components/field/field.tsx';
import { ModalDialog } from '../../components/modal-dialog/modal-dialog.tsx';
import { actionFailureMessage } from '../../i18n/proctor-messages.ts';
import { useLanguage } from '../../i18n/language-context.tsx';
import { formatNumber } from '../../i18n/format.ts';
import { StaffFailure } from './staff-failure.tsx';
import styles from './proctor.module.css';

const reasonMessages: Record<FieldRule, MessageDescriptor> = {
  required: msg`Please give a reason. It is kept in the audit log.`,
  invalid: msg`The reason can be at most 500 characters.`,
};
const minutesMessages: Record<FieldRule, MessageDescriptor> = {
  required: msg`Please enter the minutes to add.`,
  invalid: msg`Enter whole minutes from 1 to 60.`,
};

function Title({ dialog }: { dialog: ActionDialogApi }) {
  const name = dialog.examineeName ?? '';
  const room = dialog.venueName ?? '';
  switch (dialog.kind) {
    case 'move_terminal':
      return <Trans>Move {name} to another terminal?</Trans>;
    case 'retake':
      return <Trans>Reset {name} for a retake?</Trans>;
    case 'extend':
      return <Trans>Extend the time for {name}?</Trans>;
    case 'extend_room':
      return dialog.venueName === null ? <Trans>Extend the time for everyone?</Trans> : <Trans>Extend the time for everyone in {room}?</Trans>;
  }
}

/**
 * A move's warning that the pupil's terminal may still hold answers the server has not: those it
 * said it had at its last heartbeat, or, not heard from lately, those given since. It sends them
 * once its network is back, so it stays on.
 */
function TerminalHolds({ dialog }: { dialog: ActionDialogApi }) {
  const { language } = useLanguage();
  if (dialog.waitingAnswers > 0) {
    const count = formatNumber(dialog.waitingAnswers, language);
    return (
      <p role="note" data-warning="waiting-answers">
        <Trans>Answers waiting on this terminal, not yet on the server: {count}. Leave it switched on: they are sent once its network is back.</Trans>
      </p>
    );
  }
  if (!dialog.terminalOffline) return null;
  return (
    <p role="note" data-warning="terminal-offline">
      <Trans>
        This terminal has not been heard from for a while: answers given there since then may still be on it. Leave it switched on: they are
        sent once its network is back.
      </Trans>
    </p>
  );
}

/** What the action will do, in plain words. */
function Explanation({ dialog }: { dialog: ActionDialogApi }) {
  const name = dialog.examineeName ?? '';
  const answers = dialog.answersSaved;
  const pupils = dialog.pupilsInExam;
  switch (dialog.kind) {
    case 'move_terminal':
      return (
        <>
          <p>
            <Trans>The terminal {name} is using now stops working for this exam.</Trans>
          </p>
          <p>
            <Trans>
              {name} then logs in on another terminal with the same login code and presses Start: every saved answer and the time left
              are kept. This is not a retake.
            </Trans>
          </p>
          <TerminalHolds dialog={dialog} />
        </>
      );
    case 'retake':
      return (
        <>
          <p>
            <Plural
              value={answers}
              one={`The # answer ${name} has saved is archived and the exam starts again from the first question, with the full time.`}
              other={`The # answers ${name} has saved are archived and the exam starts again from the first question, with the full time.`}
            />
          </p>
          <p>
            <Trans>The terminal {name} is using now is logged out.</Trans>
          </p>
        </>
      );
    case 'extend':
      return (
        <p>
          <Trans>{name} gets the minutes below added to the time left. Their terminal shows the new time within a few seconds.</Trans>
        </p>
      );
    case 'extend_room':
      return (
        <p>
          <Plural
            value={pupils}
            one="The # pupil now in the exam gets the minutes below added to the time left. Pupils who have not started or have finished are not affected."
            other="Each of the # pupils now in the exam gets the minutes below added to the time left. Pupils who have not started or have finished are not affected."
          />
        </p>
      );
  }
}

function ConfirmLabel({ kind }: { kind: ActionDialogApi['kind'] }) {
  switch (kind) {
    case 'move_terminal':
      return <Trans>Move to another terminal</Trans>;
    case 'retake':
      return <Trans>Reset for a retake</Trans>;
    case 'extend':
    case 'extend_room':
      return <Trans>Extend time</Trans>;
  }
}

export function ActionDialog({ dialog }: { dialog: ActionDialogApi }) {
  const { i18n } = useLingui();
  // What is typed stays in the form until it is confirmed; the machine checks it.
  const [reason, setReason] = useState('');
  const [minutes, setMinutes] = useState('');
  const sending = dialog.status === 'sending';

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    dialog.confirm(dialog.asksMinutes ? { reason, minutes } : { reason });
  }

  return (
    <ModalDialog title={<Title dialog={dialog} />} onCancel={dialog.cancel}>
      <div className={styles.explanation}>
        <Explanation dialog={dialog} />
      </div>
      {dialog.status === 'failed' ? (
        <StaffFailure
          code={dialog.failure}
          message={actionFailureMessage(dialog.failure ?? 'GENERIC_ERROR')}
          {...(dialog.retryable ? { onRetry: dialog.retry } : {})}
          other={{ label: <Trans>Close</Trans>, onClick: dialog.cancel }}
        />
      ) : (
        <form className={styles.form} onSubmit={submit} noValidate>
          {dialog.asksMinutes && (
            <Field
              label={<Trans>Minutes to add</Trans>}
              hint={<Trans>Whole minutes, from 1 to 60.</Trans>}
              error={dialog.fieldErrors.minutes && i18n._(minutesMessages[dialog.fieldErrors.minutes])}
            >
              {(control) => (
                <input
                  {...control}
                  className={`input ${styles.minutes}`}
                  type="text"
                  inputMode="numeric"
                  autoComplete="off"
                  maxLength={2}
                  value={minutes}
                  onChange={(event) => setMinutes(event.target.value)}
                  data-autofocus
                />
              )}
            </Field>
          )}
          <Field
            label={<Trans>Reason</Trans>}
            hint={<Trans>Required. Kept in the audit log with your name and the time.</Trans>}
            error={dialog.fieldErrors.reason && i18n._(reasonMessages[dialog.fieldErrors.reason])}
          >
            {(control) => (
              <textarea
                {...control}
                className={`input ${styles.reason}`}
                rows={3}
                maxLength={500}
                value={reason}
                onChange={(event) => setReason(event.target.value)}
                {...(dialog.asksMinutes ? {} : { 'data-autofocus': true })}
              />
            )}
          </Field>
          <div className="button-row">
            <button type="submit" className="button" data-variant="primary" aria-busy={sending || undefined} aria-disabled={sending || undefined}>
              {sending ? <Trans>Working…</Trans> : <ConfirmLabel kind={dialog.kind} />}
            </button>
            <button type="button" className="button" onClick={dialog.cancel} disabled={sending}>
              <Trans>Cancel</Trans>
            </button>
          </div>
        </form>
      )}
    </ModalDialog>
  );
}
