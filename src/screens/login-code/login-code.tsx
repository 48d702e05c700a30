/**
 * Login with a login code (seed section 2, `login-code`). Presentational: it shows what it is
 * given and hands the typed code to the connect's `submit`; the session machine validates it and answers
 * with `error` (a field rule or a failed call) and `busy`.
 *
 * The field: a large, letter-spaced monospace box with the format hint under it; a field error
 * appears below it and is tied to it with aria-invalid and aria-describedby; a failed call is
 * an alert above the form. The language picker sits at the foot of the screen.
 */
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import type { KioskApi } from '../../../machines/kiosk/kiosk.connect.ts';
import type { LoginCodeApi } from '../../../machines/session/session.connect.ts';
import { FailureAlert } from '../../components/failure-alert/failure-alert.tsx';
import { Field, sharedTerminalTyping } from '../../components/field/field.tsx';
import { LoginButton, LoginFoot } from '../../components/login-parts/login-parts.tsx';
import { Page, PageHeading } from '../../components/page/page.tsx';
import { invalidLoginCodeMessage, requiredFieldMessage } from '../../i18n/field-messages.ts';
import styles from './login-code.module.css';

const codeLabel = msg`Login code`;

/**
 * `kiosk` is the kiosk's connect, for "Check this terminal" (the terminal check is the kiosk's, not
 * the session's); the link shows when it is given.
 */
export function LoginCodeScreen({ api, kiosk }: { api: LoginCodeApi; kiosk?: Pick<KioskApi, 'checkTerminal'> }) {
  const { busy, error } = api;
  const { i18n } = useLingui();
  const [code, setCode] = useState('');
  const fieldError = error?.kind === 'field' ? error : null;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!busy) api.submit(code);
  }

  return (
    <Page align="center">
      <div className="card">
        <PageHeading focusOnMount={false}>
          <Trans>Log in with your login code</Trans>
        </PageHeading>
        {error?.kind === 'failure' && <FailureAlert code={error.code} />}
        <form className={styles.form} onSubmit={submit} noValidate>
          <Field
            label={i18n._(codeLabel)}
            hint={<Trans>Three groups of four letters and numbers, like AC3E-F4GH-J6KM. Small letters are fine.</Trans>}
            error={
              fieldError &&
              (fieldError.rule === 'required' ? i18n._(requiredFieldMessage(i18n._(codeLabel))) : i18n._(invalidLoginCodeMessage))
            }
          >
            {(control) => (
              <input
                {...control}
                {...sharedTerminalTyping}
                name="login_code"
                className={`input ${styles.code}`}
                type="text"
                value={code}
                onChange={(event) => setCode(event.target.value)}
                // Codes are capitals; a pupil's small letters are fine too.
                autoCapitalize="characters"
                inputMode="text"
                enterKeyHint="go"
                maxLength={20}
                // The first thing a pupil does here is type the code.
                autoFocus
              />
            )}
          </Field>
          <LoginButton busy={busy} />
        </form>
      </div>
      <LoginFoot onCheckTerminal={kiosk?.checkTerminal} />
    </Page>
  );
}
