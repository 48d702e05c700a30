/**
 * Login with a login ID and password (seed section 2, `login`), on a school's or a schedule's
 * own page. Presentational: it shows what it is given and hands the typed values to `onSubmit`;
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
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { fieldMaxLength } from '../../../contract/session.ts';
import type { FailureCode } from '../../../machines/shared/ports.ts';
import { FailureAlert } from '../../components/failure-alert/failure-alert.tsx';
import { ErrorIcon, WarningIcon } from '../../components/icon/icons.tsx';
import { LanguagePicker } from '../../components/language-picker/language-picker.tsx';
import { LinkedText } from '../../components/linked-text/linked-text.tsx';
import { TerminalCheckLink } from '../../components/terminal-check-link/terminal-check-link.tsx';
import { Page, PageHeading } from '../../components/page/page.tsx';
import { SkeletonBlock, SkeletonRegion } from '../../components/skeleton/skeleton.tsx';
import { failureMessage } from '../../i18n/failure-messages.ts';
import { requiredFieldMessage, tooLongMessage } from '../../i18n/field-messages.ts';
import styles from './login.module.css';

export type LoginFieldRule = 'required' | 'invalid';

export type LoginError =
  | { kind: 'fields'; fields: { login_id?: LoginFieldRule; password?: LoginFieldRule } }
  | { kind: 'failure'; code: FailureCode };

/** Where the login page belongs: its school, and the schedule and venue when the URL names them. */
export interface LoginPlace {
  organizationName: string;
  scheduleName: string | null;
  venueName: string | null;
}

export interface LoginValues {
  login_id: string;
  password: string;
}

export interface LoginScreenProps {
  /** loading: the page's organization or schedule is on its way; invalid: the URL names none. */
  status: 'loading' | 'ready' | 'invalid' | 'error';
  place: LoginPlace | null;
  /**
   * id: a schedule's login ID (login type 1); examinee: an examinee account (login type 5);
   * sso: the school signs its pupils in with its own accounts (single sign-on).
   */
  kind: 'id' | 'examinee' | 'sso';
  /** For sso: where signing in with the school's account starts; null when not set up here. */
  ssoUrl: string | null;
  /** A login is on its way: the button waits. */
  busy: boolean;
  error: LoginError | null;
  onSubmit(values: LoginValues): void;
  /** "Try again" after the page's organization or schedule failed to load. */
  onRetry(): void;
  /** "Check this terminal": the terminal check (issue 11); the link shows when given. */
  onCheckTerminal?(): void;
}

const loginIdLabel = msg`Login ID`;
const passwordLabel = msg`Password`;

function Heading({ kind }: { kind: LoginScreenProps['kind'] }) {
  return (
    <PageHeading focusOnMount={false}>
      {kind === 'examinee' ? <Trans>Log in to your exams</Trans> : <Trans>Log in</Trans>}
    </PageHeading>
  );
}

function Place({ place }: { place: LoginPlace }) {
  return (
    <dl className={styles.place}>
      <div>
        <dt>
          <Trans>School</Trans>
        </dt>
        <dd dir="auto">
          <LinkedText text={place.organizationName} />
        </dd>
      </div>
      {place.scheduleName !== null && (
        <div>
          <dt>
            <Trans>Schedule</Trans>
          </dt>
          <dd dir="auto">
            <LinkedText text={place.scheduleName} />
          </dd>
        </div>
      )}
      {place.venueName !== null && (
        <div>
          <dt>
            <Trans>Venue</Trans>
          </dt>
          <dd dir="auto">
            <LinkedText text={place.venueName} />
          </dd>
        </div>
      )}
    </dl>
  );
}

export function LoginScreen({ status, place, kind, ssoUrl, busy, error, onSubmit, onRetry, onCheckTerminal }: LoginScreenProps) {
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
        <div className={styles.language}>
          <LanguagePicker />
          {onCheckTerminal && <TerminalCheckLink onOpen={onCheckTerminal} />}
        </div>
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
            <button type="button" className="button" data-variant="primary" onClick={onRetry}>
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
              <LoginForm busy={busy} fields={error?.kind === 'fields' ? error.fields : null} onSubmit={onSubmit} />
            )}
          </>
        )}
      </div>
      <div className={styles.language}>
        <LanguagePicker />
        {onCheckTerminal && <TerminalCheckLink onOpen={onCheckTerminal} />}
      </div>
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
  fields: { login_id?: LoginFieldRule; password?: LoginFieldRule } | null;
  onSubmit(values: LoginValues): void;
}) {
  const { i18n } = useLingui();
  // What is typed, and whether the password shows, are the pupil's own and never leave the form.
  const [loginId, setLoginId] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const loginIdRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const ids = { loginId: useId(), loginIdError: useId(), password: useId(), passwordError: useId() };

  // After a refused submit, the first field in error takes focus (only then, never while typing).
  const submitted = useRef(false);
  const errorKey = fields ? `${fields.login_id ?? ''}|${fields.password ?? ''}` : '';
  useEffect(() => {
    if (!submitted.current) return;
    submitted.current = false;
    if (fields?.login_id) loginIdRef.current?.focus();
    else if (fields?.password) passwordRef.current?.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- errorKey stands for fields
  }, [errorKey]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    submitted.current = true;
    onSubmit({ login_id: loginId, password });
  }

  function message(rule: LoginFieldRule, label: typeof loginIdLabel) {
    return rule === 'required' ? i18n._(requiredFieldMessage(i18n._(label))) : i18n._(tooLongMessage);
  }

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor={ids.loginId} className="field-label">
          {i18n._(loginIdLabel)}
        </label>
        <input
          ref={loginIdRef}
          id={ids.loginId}
          name="login_id"
          className={`input ${styles.text}`}
          type="text"
          value={loginId}
          onChange={(event) => setLoginId(event.target.value)}
          autoComplete="off"
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          enterKeyHint="next"
          maxLength={fieldMaxLength.login_id}
          // The first thing a pupil does here is type the login ID.
          autoFocus
          aria-invalid={fields?.login_id ? true : undefined}
          aria-describedby={fields?.login_id ? ids.loginIdError : undefined}
        />
        {fields?.login_id && (
          <p id={ids.loginIdError} className="field-error">
            <ErrorIcon />
            <span>{message(fields.login_id, loginIdLabel)}</span>
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor={ids.password} className="field-label">
          {i18n._(passwordLabel)}
        </label>
        <div className={styles.password}>
          <input
            ref={passwordRef}
            id={ids.password}
            name="password"
            className={`input ${styles.text}`}
            type={showPassword ? 'text' : 'password'}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            // Shared terminals: the browser must not offer to keep or fill in passwords.
            autoComplete="off"
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
            enterKeyHint="go"
            maxLength={fieldMaxLength.password}
            aria-invalid={fields?.password ? true : undefined}
            aria-describedby={fields?.password ? ids.passwordError : undefined}
          />
          <button
            type="button"
            className={`button ${styles.toggle}`}
            aria-controls={ids.password}
            onClick={() => setShowPassword((shown) => !shown)}
          >
            {showPassword ? <Trans>Hide password</Trans> : <Trans>Show password</Trans>}
          </button>
        </div>
        {fields?.password && (
          <p id={ids.passwordError} className="field-error">
            <ErrorIcon />
            <span>{message(fields.password, passwordLabel)}</span>
          </p>
        )}
      </div>
      <button type="submit" className="button" data-variant="primary" aria-busy={busy || undefined} aria-disabled={busy || undefined}>
        {busy ? <Trans>Logging in…</Trans> : <Trans>Log in</Trans>}
      </button>
    </form>
  );
}
