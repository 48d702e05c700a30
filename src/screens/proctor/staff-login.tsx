/**
 * The staff sign-in form of the proctor page: organisation code (left empty by an administrator,
 * who belongs to no organisation), login ID and password. It shows
 * what it is given (ProctorApi['login']) and hands the typed values to `submit`; the proctor
 * machine validates them with the contract's schema, signs in and answers with the field rules
 * or the server's refusal (wrong password, locked account). Each field is a `Field`
 * (src/components/field): its error sits under it, tied to it with aria-invalid and
 * aria-describedby, and the first field in error takes focus after a refused submit; a refusal
 * or a notice (the staff session ended, signed out) sits above the form. Nothing is remembered by
 * the browser (autocomplete off).
 */
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useRef, useState, type FormEvent } from 'react';
import type { ProctorApi } from '../../../machines/proctor/proctor.connect.ts';
import type { StaffLoginField, StaffLoginValues } from '../../../machines/proctor/proctor.types.ts';
import { Field, sharedTerminalTyping, useFocusFirstInvalid, type FieldControlProps } from '../../components/field/field.tsx';
import { ErrorIcon, InfoIcon, WarningIcon } from '../../components/icon/icons.tsx';
import { PageHeading } from '../../components/page/page.tsx';
import { requiredFieldMessage, tooLongMessage } from '../../i18n/field-messages.ts';
import { staffFailureMessage } from '../../i18n/proctor-messages.ts';
import styles from './proctor.module.css';

const labels: Record<StaffLoginField, MessageDescriptor> = {
  org_code: msg`Organisation code (optional)`,
  login_id: msg`Login ID`,
  password: msg`Password`,
};

const orgCodeHint = msg`Leave empty if you are an administrator.`;

const invalidOrgCode = msg`An organisation code has only letters, numbers, hyphens and underscores.`;

const fieldOrder: readonly StaffLoginField[] = ['org_code', 'login_id', 'password'];

export function StaffLogin({ login }: { login: ProctorApi['login'] }) {
  const { i18n } = useLingui();
  const [values, setValues] = useState<StaffLoginValues>({ org_code: '', login_id: '', password: '' });
  const [showPassword, setShowPassword] = useState(false);
  const refs = { org_code: useRef<HTMLInputElement>(null), login_id: useRef<HTMLInputElement>(null), password: useRef<HTMLInputElement>(null) };
  const fields = login.error?.kind === 'fields' ? login.error.fields : {};
  const errorKey = fieldOrder.map((f) => fields[f] ?? '').join('|');
  const refused = useFocusFirstInvalid(errorKey, () => {
    const first = fieldOrder.find((f) => fields[f]);
    return first ? refs[first].current : null;
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (login.busy) return;
    refused();
    login.submit(values);
  }

  function error(field: StaffLoginField): string | undefined {
    const rule = fields[field];
    if (!rule) return undefined;
    if (rule === 'required') return i18n._(requiredFieldMessage(i18n._(labels[field])));
    return i18n._(field === 'org_code' ? invalidOrgCode : tooLongMessage);
  }

  function input(field: StaffLoginField, control: FieldControlProps, extra: { type?: string; maxLength: number; autoFocus?: boolean }) {
    return (
      <input
        {...control}
        {...sharedTerminalTyping}
        ref={refs[field]}
        name={field}
        className={`input ${styles.text}`}
        type={extra.type ?? 'text'}
        value={values[field]}
        onChange={(event) => setValues((current) => ({ ...current, [field]: event.target.value }))}
        maxLength={extra.maxLength}
        autoFocus={extra.autoFocus}
      />
    );
  }

  return (
    <div className="card">
      <PageHeading focusOnMount={false}>
        <Trans>Staff sign-in</Trans>
      </PageHeading>
      <p>
        <Trans>For staff: proctors on exam day, and administrators. Pupils log in on the login page.</Trans>
      </p>
      {login.notice === 'sessionEnded' && (
        <div className="alert" data-tone="warning" role="alert">
          <WarningIcon />
          <p>{i18n._(staffFailureMessage('NOT_LOGGED_IN'))}</p>
        </div>
      )}
      {login.notice === 'signedOut' && (
        <div className="alert" data-tone="info" role="status">
          <InfoIcon />
          <p>
            <Trans>You have signed out.</Trans>
          </p>
        </div>
      )}
      {login.error?.kind === 'failure' && (
        <div className="alert" role="alert" data-code={login.error.code}>
          <ErrorIcon />
          <p>{i18n._(staffFailureMessage(login.error.code))}</p>
        </div>
      )}
      <form className={styles.form} onSubmit={submit} noValidate>
        <Field label={i18n._(labels.org_code)} hint={i18n._(orgCodeHint)} error={error('org_code')}>
          {(control) => input('org_code', control, { maxLength: 64, autoFocus: true })}
        </Field>
        <Field label={i18n._(labels.login_id)} error={error('login_id')}>
          {(control) => input('login_id', control, { maxLength: 64 })}
        </Field>
        <Field label={i18n._(labels.password)} error={error('password')}>
          {(control) => (
            <div className={styles.passwordRow}>
              {input('password', control, { type: showPassword ? 'text' : 'password', maxLength: 128 })}
              <button type="button" className={`button ${styles.toggle}`} aria-controls={control.id} onClick={() => setShowPassword((shown) => !shown)}>
                {showPassword ? <Trans>Hide password</Trans> : <Trans>Show password</Trans>}
              </button>
            </div>
          )}
        </Field>
        <button type="submit" className="button" data-variant="primary" aria-busy={login.busy || undefined} aria-disabled={login.busy || undefined}>
          {login.busy ? <Trans>Signing in…</Trans> : <Trans>Sign in</Trans>}
        </button>
      </form>
    </div>
  );
}
