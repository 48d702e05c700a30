/**
 * Basic information registration (seed sections 2 and 5, `examinee-input-info`): name, grade
 * (1 to 12, or Other) and email, then a confirmation step, because basic information cannot be
 * changed after registration. Presentational and controlled: the session machine holds the
 * values, validates them and saves them; every edit goes to the connect's `change` with all three values.
 *
 * Field errors sit under their field, tied to it with aria-invalid and aria-describedby, and
 * the first field in error takes focus; a failed save is an alert.
 */
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useRef, type FormEvent } from 'react';
import { fieldMaxLength } from '../../../contract/session.ts';
import type { InputInfoApi } from '../../../machines/session/session.connect.ts';
import { FailureAlert } from '../../components/failure-alert/failure-alert.tsx';
import { Field, sharedTerminalTyping, useFocusFirstInvalid } from '../../components/field/field.tsx';
import { WarningIcon } from '../../components/icon/icons.tsx';
import { DetailRow, Details } from '../../components/details/details.tsx';
import { Page, PageHeading } from '../../components/page/page.tsx';
import { WaitingButton } from '../../components/waiting-button/waiting-button.tsx';
import { invalidEmailMessage, requiredFieldMessage, tooLongMessage } from '../../i18n/field-messages.ts';
import { gradeName } from '../../i18n/grades.ts';
import { useLanguage } from '../../i18n/language-context.tsx';
import styles from './examinee-input-info.module.css';

const labels = {
  examinee_name: msg`Name`,
  grade_id: msg`Grade`,
  email: msg`Email`,
};

export function ExamineeInputInfoScreen({ api }: { api: InputInfoApi }) {
  const { step, failure } = api;
  return (
    <Page align="center">
      <div className="card">
        {/* A new heading per step, so focus (and a screen reader) starts at the top of each. */}
        <PageHeading key={step === 'editing' ? 'editing' : 'confirming'}>
          {step === 'editing' ? <Trans>Your basic information</Trans> : <Trans>Check your details</Trans>}
        </PageHeading>
        {failure && <FailureAlert code={failure} />}
        {step === 'editing' ? <EditForm api={api} /> : <Confirmation api={api} />}
      </div>
    </Page>
  );
}

function EditForm({ api }: { api: InputInfoApi }) {
  const { values, errors, grades, change } = api;
  const { i18n } = useLingui();
  const { language } = useLanguage();
  const nameRef = useRef<HTMLInputElement>(null);
  const gradeRef = useRef<HTMLSelectElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const errorKey = [errors.examinee_name, errors.grade_id, errors.email].join('|');
  const refused = useFocusFirstInvalid(errorKey, () =>
    errors.examinee_name ? nameRef.current : errors.grade_id ? gradeRef.current : errors.email ? emailRef.current : null,
  );

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    refused();
    api.review();
  }

  const required = (field: keyof typeof labels) => i18n._(requiredFieldMessage(i18n._(labels[field])));

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <p className={styles.intro}>
        <Trans>Please fill in all three. You cannot change them after you register.</Trans>
      </p>
      <Field
        label={i18n._(labels.examinee_name)}
        error={errors.examinee_name && (errors.examinee_name === 'required' ? required('examinee_name') : i18n._(tooLongMessage))}
      >
        {(control) => (
          <input
            {...control}
            ref={nameRef}
            name="examinee_name"
            className="input"
            type="text"
            dir="auto"
            value={values.examinee_name}
            onChange={(event) => change({ ...values, examinee_name: event.target.value })}
            // Shared terminals: the browser must not remember one pupil's details for the next.
            autoComplete="off"
            maxLength={fieldMaxLength.examinee_name}
          />
        )}
      </Field>
      <Field label={i18n._(labels.grade_id)} error={errors.grade_id && required('grade_id')}>
        {(control) => (
          <select
            {...control}
            ref={gradeRef}
            name="grade_id"
            className="input"
            value={values.grade_id === null ? '' : String(values.grade_id)}
            onChange={(event) => change({ ...values, grade_id: event.target.value === '' ? null : Number(event.target.value) })}
          >
            <option value="">{i18n._(msg`Choose your grade`)}</option>
            {grades.map((grade) => (
              <option key={grade} value={grade}>
                {gradeName(i18n, grade, language)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field
        label={i18n._(labels.email)}
        error={errors.email && (errors.email === 'required' ? required('email') : i18n._(invalidEmailMessage))}
      >
        {(control) => (
          <input
            {...control}
            {...sharedTerminalTyping}
            ref={emailRef}
            name="email"
            className={`input ${styles.email}`}
            type="email"
            inputMode="email"
            value={values.email}
            onChange={(event) => change({ ...values, email: event.target.value })}
            maxLength={fieldMaxLength.email}
          />
        )}
      </Field>
      <button type="submit" className="button" data-variant="primary">
        <Trans>Next</Trans>
      </button>
    </form>
  );
}

function Confirmation({ api }: { api: InputInfoApi }) {
  const { step, values } = api;
  const { i18n } = useLingui();
  const { language } = useLanguage();
  const saving = step === 'saving';
  return (
    <>
      <Details>
        <DetailRow label={i18n._(labels.examinee_name)} dir="auto">{values.examinee_name}</DetailRow>
        <DetailRow label={i18n._(labels.grade_id)}>{values.grade_id === null ? '' : gradeName(i18n, values.grade_id, language)}</DetailRow>
        <DetailRow label={i18n._(labels.email)} className="ltr-isolate">{values.email}</DetailRow>
      </Details>
      <div className="alert" data-tone="warning">
        <WarningIcon />
        <p className={styles.ask}>
          <Trans>Register with these details? You cannot change them later.</Trans>
        </p>
      </div>
      <div className="button-row">
        <WaitingButton primary waiting={saving} busy={saving} onPress={api.confirm}>
          {saving ? <Trans>Registering…</Trans> : <Trans>Register</Trans>}
        </WaitingButton>
        <WaitingButton waiting={saving} onPress={api.edit}>
          <Trans>Change</Trans>
        </WaitingButton>
      </div>
    </>
  );
}
