/**
 * The session's screens' binding, in the chakra-ui/zag style: `connect(snapshot, send)` turns a
 * snapshot of the session machine into exactly what its screens render (booting aside: it shows
 * nothing of the session) and the events they may send, and nothing else. Pure: no React, no DOM,
 * no clock of its own (the menu is read at the server's time its status carries). Strings are
 * the screens' (Lingui); this gives them facts and codes.
 *
 * One part per screen: login-code, login, entry, forbidden and not-found (`goToLogin`),
 * examinee-input-info, examinee-info, testing-menu, exam-list.
 */
import { OTHER_GRADE, gradeIds } from '../../contract/session.ts';
import type { FailureCode } from '../shared/ports.ts';
import { examRowsOf, menuViewOf, type ExamRow, type MenuView, type SessionSnapshot } from './session.selectors.ts';
import type { BasicInfoErrors, BasicInfoValues, EntryError, LoginError, PasswordLoginError, SessionEvent } from './session.types.ts';

export type { ExamRow, ExamRowAction, MenuAction, MenuView, SessionSnapshot } from './session.selectors.ts';

/** A screen that loads: loading, then ready or failed (its error says why). */
export type LoadStatus = 'loading' | 'ready' | 'error';

export interface SessionApi {
  /** /403, /404, a failed entry: "Go to the login page" (the machine decides which one). */
  goToLogin(): void;
  loginCode: LoginCodeApi;
  login: LoginApi;
  entry: EntryApi;
  inputInfo: InputInfoApi;
  info: InfoApi;
  menu: MenuApi;
  examList: ExamListApi;
}

export interface LoginCodeApi {
  /** The login is on its way: the button waits. */
  busy: boolean;
  error: LoginError | null;
  /** The code as typed; the machine normalises and validates it. */
  submit(code: string): void;
}

export interface LoginApi {
  /** loading: the page's organization or schedule is on its way; invalid: the URL names none. */
  status: 'loading' | 'ready' | 'invalid' | 'error';
  /** Where the page belongs; null until loaded. */
  place: { organizationName: string; scheduleName: string | null; venueName: string | null } | null;
  /** Which login the page offers (id until the place says otherwise). */
  kind: 'id' | 'examinee' | 'sso';
  /** For sso: where single sign-on starts; null when this server has none configured. */
  ssoUrl: string | null;
  /** The login is on its way: the button waits. */
  busy: boolean;
  /** A field rule or a refused login; while the place failed to load, why it failed. */
  error: PasswordLoginError | null;
  submit(values: { login_id: string; password: string }): void;
  /** Loads the page's place again after it failed. */
  retry(): void;
}

export interface EntryApi {
  /** working: the entry route is signing the pupil in; failed: it could not. */
  status: 'working' | 'failed';
  error: EntryError | null;
}

export interface InputInfoApi {
  /** editing: the form; confirming: the values and "Register?"; saving: the same, waiting. */
  step: 'editing' | 'confirming' | 'saving';
  values: BasicInfoValues;
  errors: BasicInfoErrors;
  failure: FailureCode | null;
  /** The grades the form offers, in order (the contract's: 1 to 12, then Other). */
  grades: readonly number[];
  change(values: BasicInfoValues): void;
  /** "Next": the machine validates and moves to confirming. */
  review(): void;
  /** "Change": back to the form. */
  edit(): void;
  /** "Register". */
  confirm(): void;
}

export interface InfoApi {
  /** The registered details; a grade the server does not know reads as Other (seed section 9). */
  info: { examinee_name: string; grade_id: number; email: string };
  /** "Continue": on to the testing menu. */
  acknowledge(): void;
}

export interface MenuApi {
  status: LoadStatus;
  /** The menu's states at the server's time; null until loaded. */
  menu: MenuView | null;
  error: FailureCode | null;
  takeTest(): void;
  payFee(): void;
  viewResults(): void;
  retry(): void;
  logout(): void;
}

export interface ExamListApi {
  status: LoadStatus;
  /** The rows in the order shown, each with what the pupil can do. */
  rows: ExamRow[];
  /** /exam-step-mode: the levels in order, as steps. */
  stepMode: boolean;
  error: FailureCode | null;
  choose(scheduleHistoryId: number): void;
  retry(): void;
  logout(): void;
}

type Load = 'loading' | 'ready' | 'failed';

export function connect(snapshot: SessionSnapshot, send: (event: SessionEvent) => void): SessionApi {
  const { context } = snapshot;
  const busy = snapshot.hasTag('busy');
  const inLogin = (state: 'loadingPlace' | 'invalid' | 'placeFailed' | 'ready' | 'submitting') =>
    snapshot.matches({ signedOut: { login: state } });
  const inInputInfo = (state: 'editing' | 'confirming' | 'saving') => snapshot.matches({ signedIn: { inputInfo: state } });
  const inMenu = (state: Load) => snapshot.matches({ signedIn: { testingMenu: state } });
  const inExamList = (state: Load) => snapshot.matches({ signedIn: { examList: { list: state } } });
  const loadStatus = (is: (state: Load) => boolean): LoadStatus => (is('ready') ? 'ready' : is('failed') ? 'error' : 'loading');
  const retry = () => send({ type: 'retry.requested' });
  const logout = () => send({ type: 'logout.requested' });
  const stepMode = snapshot.matches({ signedIn: { examList: { page: 'stepMode' } } });

  return {
    goToLogin: () => send({ type: 'login.requested' }),
    loginCode: {
      busy,
      error: context.loginError,
      submit: (code) => send({ type: 'loginCode.submitted', code }),
    },
    login: {
      status: inLogin('invalid') ? 'invalid' : inLogin('placeFailed') ? 'error' : inLogin('loadingPlace') ? 'loading' : 'ready',
      place: context.place
        ? { organizationName: context.place.organizationName, scheduleName: context.place.scheduleName, venueName: context.place.venueName }
        : null,
      kind: context.place?.kind ?? 'id',
      ssoUrl: context.place?.ssoUrl ?? null,
      busy: inLogin('submitting'),
      error: inLogin('placeFailed') ? { kind: 'failure', code: context.placeError ?? 'GENERIC_ERROR' } : context.passwordError,
      submit: (values) => send({ type: 'login.submitted', login_id: values.login_id, password: values.password }),
      retry,
    },
    entry: {
      status: busy ? 'working' : 'failed',
      error: busy ? null : context.entryError,
    },
    inputInfo: {
      step: inInputInfo('saving') ? 'saving' : inInputInfo('confirming') ? 'confirming' : 'editing',
      values: context.basicInfo.values,
      errors: context.basicInfo.errors,
      failure: context.basicInfo.failure,
      grades: gradeIds,
      change: (values) => send({ type: 'basicInfo.changed', values }),
      review: () => send({ type: 'basicInfo.reviewed' }),
      edit: () => send({ type: 'basicInfo.edited' }),
      confirm: () => send({ type: 'basicInfo.confirmed' }),
    },
    info: {
      info: {
        examinee_name: context.session?.examinee_name ?? '',
        grade_id: context.session?.grade_id ?? OTHER_GRADE,
        email: context.session?.email ?? '',
      },
      acknowledge: () => send({ type: 'basicInfo.acknowledged' }),
    },
    menu: {
      status: loadStatus(inMenu),
      // The release date is judged at the server's time the status was sent with.
      menu: context.menu && menuViewOf(context.menu, new Date(context.menu.server_time)),
      error: context.failure,
      takeTest: () => send({ type: 'test.chosen' }),
      payFee: () => send({ type: 'fee.payRequested' }),
      viewResults: () => send({ type: 'results.viewRequested' }),
      retry,
      logout,
    },
    examList: {
      status: loadStatus(inExamList),
      rows: examRowsOf(context.exams, stepMode),
      stepMode,
      error: context.failure,
      choose: (scheduleHistoryId) => send({ type: 'exam.chosen', scheduleHistoryId }),
      retry,
      logout,
    },
  };
}
