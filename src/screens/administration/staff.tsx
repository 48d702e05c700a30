/**
 * Staff: every account (login ID, name, role, organisation, disabled), "Add a staff member", and
 * per member "Edit" (name, role, organisation, disabled) and "Set a new password" (at least 12
 * characters; it signs the member out everywhere). The form's field errors sit under their field
 * and the first takes focus after a refused submit; the server's refusal sits above the form.
 */
import { useLingui } from '@lingui/react';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { STAFF_PASSWORD_MIN_LENGTH, staffRoles, type StaffRole } from '../../../contract/admin.ts';
import type { AdministrationApi } from '../../../machines/administration/administration.connect.ts';
import type { StaffField, StaffFormValues } from '../../../machines/administration/administration.types.ts';
import { Field } from '../../components/field/field.tsx';
import { CheckIcon, ErrorIcon } from '../../components/icon/icons.tsx';
import { roleLabels } from '../../i18n/administration-messages.ts';
import { requiredFieldMessage } from '../../i18n/field-messages.ts';
import { staffFailureMessage } from '../../i18n/proctor-messages.ts';
import { ListState } from './list-state.tsx';
import { AdminTable } from './admin-table.tsx';
import { AdminSection } from './admin-section.tsx';
import styles from './administration.module.css';

type StaffApi = AdministrationApi['staff'];
type Editor = NonNullable<StaffApi['editor']>;

const labels: Record<StaffField, MessageDescriptor> = {
  login_id: msg`Login ID`,
  name: msg`Name`,
  role: msg`Role`,
  org_code: msg`Organisation code`,
  password: msg`Password`,
};

const invalidMessages: Record<StaffField, MessageDescriptor> = {
  login_id: msg`A login ID has only letters, numbers and . _ @ - (at most 64).`,
  name: msg`This is too long. Please make it shorter.`,
  role: msg`Choose a role.`,
  org_code: msg`An organisation code has only letters, numbers, hyphens and underscores.`,
  password: msg`A password has at least ${STAFF_PASSWORD_MIN_LENGTH} characters.`,
};

const fieldOrder: readonly StaffField[] = ['login_id', 'name', 'role', 'org_code', 'password'];

function StaffForm({ editor }: { editor: Editor }) {
  const { i18n } = useLingui();
  const member = editor.member;
  const [values, setValues] = useState<Required<StaffFormValues>>({
    login_id: '',
    name: member?.name ?? '',
    role: member?.role ?? 'proctor',
    org_code: member?.org_code ?? '',
    password: '',
    disabled: member?.disabled ?? false,
  });
  const titleId = useId();
  const refs = useRef<Partial<Record<StaffField, HTMLInputElement | HTMLSelectElement | null>>>({});
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const errorKey = fieldOrder.map((f) => editor.errors[f] ?? '').join('|');
  useEffect(() => {
    const first = fieldOrder.find((f) => editor.errors[f]);
    if (first) refs.current[first]?.focus();
  }, [errorKey]); // eslint-disable-line react-hooks/exhaustive-deps -- errorKey stands for the errors

  const shown: StaffField[] =
    editor.mode === 'password' ? ['password'] : editor.mode === 'add' ? ['login_id', 'name', 'role', 'org_code', 'password'] : ['name', 'role', 'org_code'];
  const set = (field: keyof StaffFormValues, value: string | boolean) => setValues((current) => ({ ...current, [field]: value }));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (editor.saving) return;
    const { login_id, name, role, org_code, password, disabled } = values;
    const sent: StaffFormValues =
      editor.mode === 'password'
        ? { password }
        : editor.mode === 'add'
          ? { login_id, name, role, org_code, password }
          : { name, role, org_code, disabled };
    editor.submit(sent);
  }

  function field(name: StaffField) {
    if (name === 'org_code' && values.role === 'admin') return null;
    const rule = editor.errors[name];
    const error = rule && (rule === 'required' ? i18n._(requiredFieldMessage(i18n._(labels[name]))) : i18n._(invalidMessages[name]));
    return (
      <Field key={name} label={i18n._(labels[name])} error={error}>
        {(control) =>
          name === 'role' ? (
            <select {...control} ref={(el) => { refs.current.role = el; }} className="input" value={values.role} onChange={(e) => set('role', e.target.value)}>
              {staffRoles.map((role: StaffRole) => <option key={role} value={role}>{i18n._(roleLabels[role])}</option>)}
            </select>
          ) : (
            <input
              {...control}
              ref={(el) => { refs.current[name] = el; }}
              className="input"
              type={name === 'password' ? 'password' : 'text'}
              autoComplete={name === 'password' ? 'new-password' : 'off'}
              value={String(values[name])}
              onChange={(e) => set(name, e.target.value)}
            />
          )
        }
      </Field>
    );
  }

  const who = member?.name ?? '';
  return (
    <form className={`${styles.dialog} ${styles.stack}`} onSubmit={submit} noValidate aria-labelledby={titleId}>
      <h2 id={titleId} ref={heading} tabIndex={-1}>
        {editor.mode === 'add' ? <Trans>Add a staff member</Trans> : editor.mode === 'password' ? <Trans>Set a new password for <span dir="auto">{who}</span></Trans> : <Trans>Edit <span dir="auto">{who}</span></Trans>}
      </h2>
      {editor.failure && (
        <div className="alert" role="alert" data-code={editor.failure}>
          <ErrorIcon />
          <p>{i18n._(staffFailureMessage(editor.failure))}</p>
        </div>
      )}
      {editor.mode === 'password' && <p><Trans>The member is signed out everywhere and signs in again with the new password.</Trans></p>}
      {shown.map(field)}
      {editor.mode === 'edit' && (
        <div className="field">
          <label>
            <input type="checkbox" checked={values.disabled} disabled={member?.self} onChange={(e) => set('disabled', e.target.checked)} />{' '}
            <Trans>Disabled (cannot sign in)</Trans>
          </label>
        </div>
      )}
      <div className="button-row">
        <button type="submit" className="button" data-variant="primary" aria-busy={editor.saving || undefined} aria-disabled={editor.saving || undefined}>
          {editor.saving ? <Trans>Saving…</Trans> : <Trans>Save</Trans>}
        </button>
        <button type="button" className="button" onClick={editor.cancel} disabled={editor.saving}>
          <Trans>Cancel</Trans>
        </button>
      </div>
    </form>
  );
}

export function Staff({ api }: { api: StaffApi }) {
  const { i18n } = useLingui();
  const outcomeName = api.outcome?.name ?? '';
  return (
    <AdminSection
      id="admin-staff"
      title={<Trans>Staff</Trans>}
      actions={api.status === 'ready' && (
        <button type="button" className="button" data-variant="primary" onClick={api.add} disabled={!api.canChange}>
          <Trans>Add a staff member</Trans>
        </button>
      )}
    >
      {api.outcome && (
        <div className="alert" data-tone="success" role="status">
          <CheckIcon />
          <p>
            {api.outcome.mode === 'add' ? <Trans>{outcomeName} was added.</Trans> : api.outcome.mode === 'password' ? <Trans>The password of {outcomeName} was changed.</Trans> : <Trans>{outcomeName} was saved.</Trans>}
          </p>
        </div>
      )}
      {api.editor && <StaffForm key={`${api.editor.mode}-${api.editor.member?.id ?? 'new'}`} editor={api.editor} />}
      <ListState list={api} empty={api.items.length === 0} emptyText={<Trans>No staff accounts yet.</Trans>}>
        <AdminTable
          labelledBy="admin-staff"
          columns={[
            <Trans>Login ID</Trans>,
            <Trans>Name</Trans>,
            <Trans>Role</Trans>,
            <Trans>Organisation code</Trans>,
            <Trans>Status</Trans>,
            <span className="visually-hidden"><Trans>Actions</Trans></span>,
          ]}
        >
          {api.items.map((member) => (
            <tr key={member.id}>
              <th scope="row"><span className="ltr-isolate">{member.login_id}</span>{member.self && <> (<Trans>you</Trans>)</>}</th>
              <td dir="auto">{member.name}</td>
              <td>{i18n._(roleLabels[member.role])}</td>
              <td><span className="ltr-isolate">{member.org_code ?? '—'}</span></td>
              <td>{member.disabled ? <Trans>Disabled</Trans> : <Trans>Active</Trans>}</td>
              <td>
                <div className="button-row">
                  <button type="button" className="button" onClick={() => api.edit(member.id)} disabled={!api.canChange}>
                    <Trans>Edit</Trans>
                  </button>
                  <button type="button" className="button" onClick={() => api.setPassword(member.id)} disabled={!api.canChange}>
                    <Trans>Set a new password</Trans>
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </AdminTable>
      </ListState>
    </AdminSection>
  );
}
