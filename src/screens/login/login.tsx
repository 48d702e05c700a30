/**
 * Login with a login ID and password (seed section 2, `login`), on a school's or a schedule's
 * own page. Presentational: it shows what it is given and hands the typed values to the connect's `submit`;
 * the session machine loads the page's organization or schedule, validates, logs in and answers
 * with `status`, `error` and `busy`.
 *
 * It shows which school (and schedule and venue) the page belongs to, so a pupil at the wrong
 * page notices. An unknown schedule or organization code shows the seed's "venue, organization
 * or schedule URL invalid" page and no form. Field errors sit under their field, tied to it
 * with aria-invalid and aria-describedby; a refused login is an alert above the form. Nothing
 * is remembered by the browser: these are shared terminals (autocomplete off).
 */
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { fieldMaxLength } from '../../../contract/session.ts';
import type { KioskApi } from '../../../machines/kiosk/kiosk.connect.ts';
import type { LoginApi } from '../../../machines/session/session.connect.ts';
import { FailureAlert } from '../../components/failure-alert/failure-alert.tsx';
import { Field, sharedTerminalTyping, useFocusFirstInvalid } from '../../components/field/field.tsx';
import { WarningIcon } from '../../components/icon/icons.tsx';
import { LinkedText } from '../../components/linked-text/linked-text.tsx';
import { LoginButton, LoginFoot } from '../../components/login-parts/login-parts.tsx';
import { Page, PageHeading } from '../../components/page/page.tsx';
import { SkeletonBlock, SkeletonRegion } from '../../components/skeleton/skeleton.tsx';
import { failureMessage } from '../../i18n/failure-messages.ts';
import { requiredFieldMessage, tooLongMessage } from '../../i18n/field-messages.ts';
import styles from './login.module.css';

const loginIdLabel = msg`Login ID`;
const passwordLabel = msg`Password`;

function Heading({ kind }: { kind: LoginApi['kind'] }) {
  return (
    <PageHeading focusOnMount={false}>
      {kind === 'examinee' ? <Trans>Log in to your exams</Trans> : <Trans>Log in</Trans>}
    </PageHeading>
  );
}

function Place({ place }: { place: NonNullable<LoginApi['place']> }) {
  const rows: { key: string; term: ReactNode; value: string | null }[] = [
    { key: 'school', term: <Trans>School</Trans>, value: place.organizationName },
    { key: 'schedule', term: <Trans>Schedule</Trans>, value: place.scheduleName },
    { key: 'venue', term: <Trans>Venue</Trans>, value: place.venueName },
  ];
  return (
    <dl className={styles.place}>
      {rows.map(
        ({ key, term, value }) =>
          value !== null && (
            <div key={key}>
              <dt>{term}</dt>
              <dd dir="auto">
                <LinkedText text={value} />
              </dd>
            </div>
          ),
      )}
    </dl>
  );
}

/**
 * `kiosk` is the kiosk's connect, for "Check this terminal" (the terminal check is the kiosk's, not
 * the session's); the link shows when it is given.
 */
export function LoginScreen({ api, kiosk }: { api: LoginApi; kiosk?: Pick<KioskApi, 'checkTerminal'> }) {
  const { status, place, kind, ssoUrl, busy, error } = api;
  const onCheckTerminal = kiosk?.checkTerminal;
  const { i18n } = useLingui();

  if (status === 'invalid') {
    return (
      <Page align="center">
        <div className="card">
          <div className={styles.mark}>
            <WarningIcon />
          </div>
          <PageHeading>{i18n._(failureMessage('INVALID_SCHEDULE'))}</PageHeading>
          <p>
            <Trans>Please check the address of this page, or ask your teacher for the right one.</Trans>
          </p>
        </div>
        <LoginFoot onCheckTerminal={onCheckTerminal} />
      </Page>
    );
  }

  return (
    <Page align="center">
      <div className="card">
        <Heading kind={kind} />
        {status === 'loading' && (
          <SkeletonRegion>
            <SkeletonBlock inlineSize="60%" />
            <SkeletonBlock shape="box" blockSize="3rem" />
            <SkeletonBlock shape="box" blockSize="3rem" />
            <SkeletonBlock shape="button" />
          </SkeletonRegion>
        )}
        {status === 'error' && (
          <>
            <FailureAlert code={error?.kind === 'failure' ? error.code : 'GENERIC_ERROR'} />
            <button type="button" className="button" data-variant="primary" onClick={api.retry}>
              <Trans>Try again</Trans>
            </button>
          </>
        )}
        {status === 'ready' && (
          <>
            {place && <Place place={place} />}
            {error?.kind === 'failure' && <FailureAlert code={error.code} />}
            {kind === 'sso' ? (
              <SchoolSignIn ssoUrl={ssoUrl} />
            ) : (
              <LoginForm busy={busy} fields={error?.kind === 'fields' ? error.fields : null} onSubmit={api.submit} />
            )}
          </>
        )}
      </div>
      <LoginFoot onCheckTerminal={onCheckTerminal} />
    </Page>
  );
}

/**
 * A school that signs its pupils in itself: one way in, its own sign-in page. A link, not app
 * navigation: the API's single sign-on entry leaves the kiosk and comes back through /oauth.
 */
function SchoolSignIn({ ssoUrl }: { ssoUrl: string | null }) {
  if (!ssoUrl) {
    return (
      <p role="alert" className="alert">
        <Trans>Signing in with your school account is not set up here yet. Please ask your teacher.</Trans>
      </p>
    );
  }
  return (
    <>
      <p>
        <Trans>Your school signs you in with your school account.</Trans>
      </p>
      <a className="button" data-variant="primary" href={ssoUrl}>
        <Trans>Sign in with your school account</Trans>
      </a>
    </>
  );
}

function LoginForm({ busy, fields, onSubmit }: {
  busy: boolean;
  fields: Extract<LoginApi['error'], { kind: 'fields' }>['fields'] | null;
  onSubmit: LoginApi['submit'];
}) {
  const { i18n } = useLingui();
  // What is typed, and whether the password shows, are the pupil's own and never leave the form.
  const [loginId, setLoginId] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const loginIdRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const errorKey = fields ? `${fields.login_id ?? ''}|${fields.password ?? ''}` : '';
  const refused = useFocusFirstInvalid(errorKey, () => (fields?.login_id ? loginIdRef.current : fields?.password ? passwordRef.current : null));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    refused();
    onSubmit({ login_id: loginId, password });
  }

  function message(rule: 'required' | 'invalid', label: typeof loginIdLabel) {
    return rule === 'required' ? i18n._(requiredFieldMessage(i18n._(label))) : i18n._(tooLongMessage);
  }

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <Field label={i18n._(loginIdLabel)} error={fields?.login_id && message(fields.login_id, loginIdLabel)}>
        {(control) => (
          <input
            {...control}
            {...sharedTerminalTyping}
            ref={loginIdRef}
            name="login_id"
            className={`input ${styles.text}`}
            type="text"
            value={loginId}
            onChange={(event) => setLoginId(event.target.value)}
            enterKeyHint="next"
            maxLength={fieldMaxLength.login_id}
            // The first thing a pupil does here is type the login ID.
            autoFocus
          />
        )}
      </Field>
      <Field label={i18n._(passwordLabel)} error={fields?.password && message(fields.password, passwordLabel)}>
        {(control) => (
          <div className={styles.password}>
            <input
              {...control}
              // Shared terminals: the browser must not offer to keep or fill in passwords.
              {...sharedTerminalTyping}
              ref={passwordRef}
              name="password"
              className={`input ${styles.text}`}
              type={showPassword ? 'text' : 'password'}
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              enterKeyHint="go"
              maxLength={fieldMaxLength.password}
            />
            <button
              type="button"
              className={`button ${styles.toggle}`}
              aria-controls={control.id}
              onClick={() => setShowPassword((shown) => !shown)}
            >
              {showPassword ? <Trans>Hide password</Trans> : <Trans>Show password</Trans>}
            </button>
          </div>
        )}
      </Field>
      <LoginButton busy={busy} />
    </form>
  );
}
