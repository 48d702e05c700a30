/**
 * The seam between the kiosk machine and the view: which props each screen gets, and what the
 * shell needs. Screens are presentational; connected components (src/app/connect/) read their
 * props here and nothing else. Props are selected from the active child machine's snapshot;
 * callbacks only `send` events to the kiosk, which forwards them to the machine that owns them.
 */
import { useSyncExternalStore } from 'react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import { useKioskActor, type KioskActor } from './actors.ts';
import type { proctorMachine } from '../../machines/proctor/proctor.machine.ts';
import type { connectivityMachine } from '../../machines/connectivity/connectivity.machine.ts';
import { selectDocumentView, type DocumentView } from '../../machines/document/document.selectors.ts';
import type { documentMachine } from '../../machines/document/document.machine.ts';
import type { ExamContext } from '../../machines/exam/exam.types.ts';
import type { examMachine } from '../../machines/exam/exam.machine.ts';
import { selectExamRetryDialog, selectSaveState, selectTimeLimitSeconds } from '../../machines/exam/exam.selectors.ts';
import type { kioskMachine } from '../../machines/kiosk/kiosk.machine.ts';
import { selectScreen } from '../../machines/kiosk/kiosk.selectors.ts';
import type { KioskEvent } from '../../machines/kiosk/kiosk.types.ts';
import { watchKiosk } from '../../machines/kiosk/kiosk.watch.ts';
import type { sessionMachine } from '../../machines/session/session.machine.ts';
import type { RetryDialogProps } from '../components/retry-dialog/retry-dialog.tsx';
import type { BootingScreenProps } from '../screens/booting/booting.tsx';
import type { ExamEndScreenProps } from '../screens/exam-end/exam-end.tsx';
import type { ExamStartScreenProps } from '../screens/exam-start/exam-start.tsx';
import type { ExamTutorialScreenProps } from '../screens/exam-tutorial/exam-tutorial.tsx';
import type { ExamScreenProps } from '../screens/exam/exam.tsx';
import type { LoginCodeScreenProps } from '../screens/login-code/login-code.tsx';
import type { LoginConfirmScreenProps } from '../screens/login-confirm/login-confirm.tsx';
import type { NotFoundScreenProps } from '../screens/not-found/not-found.tsx';
import type { LoginScreenProps } from '../screens/login/login.tsx';
import type { EntryScreenProps } from '../screens/entry/entry.tsx';
import type { ForbiddenScreenProps } from '../screens/forbidden/forbidden.tsx';
import type { ExamineeInputInfoScreenProps } from '../screens/examinee-input-info/examinee-input-info.tsx';
import type { ExamineeInfoScreenProps } from '../screens/examinee-info/examinee-info.tsx';
import type { TestingMenuScreenProps } from '../screens/testing-menu/testing-menu.tsx';
import type { ShortResultScreenProps } from '../screens/short-result/short-result.tsx';
import type { PaymentScreenProps } from '../screens/payment/payment.tsx';
import type { PurchasedResultScreenProps } from '../screens/purchased-result/purchased-result.tsx';
import type { ScoreReportScreenProps } from '../screens/score-report/score-report.tsx';
import type { paymentMachine } from '../../machines/payment/payment.machine.ts';
import { viewOf as paymentViewOf } from '../../machines/payment/payment.selectors.ts';
import type { ExamListScreenProps } from '../screens/exam-list/exam-list.tsx';

/** Every screen the view can show, named like its folder in src/screens/. */
export const screenNames = [
  'booting',
  'login-code',
  'login-confirm',
  'exam-tutorial',
  'exam-start',
  'exam',
  'exam-end',
  'not-found',
  'login',
  'entry',
  'forbidden',
  'examinee-input-info',
  'examinee-info',
  'testing-menu',
  'exam-list',
  'score-report-embed',
  'short-result',
  'pay-exam-fee',
  'pay-exam-result',
  'purchased-result',
  'score-report',
] as const;
export type ScreenName = (typeof screenNames)[number];

/** The props of each screen, as its connected component passes them. */
export interface ScreenProps {
  booting: BootingScreenProps;
  'login-code': LoginCodeScreenProps;
  'login-confirm': LoginConfirmScreenProps;
  'exam-tutorial': ExamTutorialScreenProps;
  'exam-start': ExamStartScreenProps;
  exam: ExamScreenProps;
  'exam-end': ExamEndScreenProps;
  'not-found': NotFoundScreenProps;
  login: LoginScreenProps;
  entry: EntryScreenProps;
  forbidden: ForbiddenScreenProps;
  'examinee-input-info': ExamineeInputInfoScreenProps;
  'examinee-info': ExamineeInfoScreenProps;
  'testing-menu': TestingMenuScreenProps;
  'exam-list': ExamListScreenProps;
  /** The print route (score-report-embed/{id}): the document machine's view. */
  'score-report-embed': DocumentView & { onRetry(): void };
  'short-result': ShortResultScreenProps;
  'pay-exam-fee': Omit<PaymentScreenProps, 'view'> & { view: PaymentScreenProps['view'] | null };
  'pay-exam-result': Omit<PaymentScreenProps, 'view'> & { view: PaymentScreenProps['view'] | null };
  'purchased-result': PurchasedResultScreenProps;
  'score-report': ScoreReportScreenProps;
}

/** What the shell around every screen needs. */
export interface ShellState {
  /** A call is under way: shows the progress bar. */
  busy: boolean;
  /**
   * The screen the machine shows now (the proctor page and the terminal check bind to their own
   * actors: useProctorActor, useConnectivityActor).
   */
  screen: ScreenName | 'proctor' | 'connectivity';
  /** The retry dialog over the screen (a call waits for the network), or null. */
  retryDialog: RetryDialogProps | null;
}

type KioskSnapshot = SnapshotFrom<typeof kioskMachine>;
type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;
type ExamSnapshot = SnapshotFrom<typeof examMachine>;
type DocumentSnapshot = SnapshotFrom<typeof documentMachine>;

export { KioskProvider, type KioskActor } from './actors.ts';
const useKiosk = useKioskActor;

/**
 * The kiosk's snapshot, re-read whenever anything in its actor system moves (a child's change
 * does not change the root's snapshot object, so a version number drives React).
 */
function useKioskVersion(kiosk: KioskActor): number {
  return useSyncExternalStore(
    (onChange) => watchKiosk(kiosk, onChange),
    () => versionOf(kiosk),
  );
}

const versions = new WeakMap<KioskActor, { version: number; stop: () => void }>();
function versionOf(kiosk: KioskActor): number {
  let entry = versions.get(kiosk);
  if (!entry) {
    const created = { version: 0, stop: () => {} };
    created.stop = watchKiosk(kiosk, () => {
      created.version += 1;
    });
    versions.set(kiosk, created);
    entry = created;
  }
  return entry.version;
}

function sessionOf(snapshot: KioskSnapshot): SessionSnapshot | undefined {
  return snapshot.children.session?.getSnapshot() as SessionSnapshot | undefined;
}

function examOf(snapshot: KioskSnapshot): ExamSnapshot | undefined {
  return snapshot.children.exam?.getSnapshot() as ExamSnapshot | undefined;
}

function isBusy(snapshot: KioskSnapshot): boolean {
  return Boolean(
    sessionOf(snapshot)?.hasTag('busy') ||
      examOf(snapshot)?.hasTag('busy') ||
      snapshot.children.proctor?.getSnapshot().hasTag('busy') ||
      snapshot.children.connectivity?.getSnapshot().hasTag('busy'),
  );
}

const noExam: ExamContext = {
  scheduleHistoryId: 0,
  answerSeed: '',
  revision: 0,
  questionIndex: 0,
  details: null,
  questions: [],
  answers: {},
  deadlineAt: null,
  startedAt: null,
  visible: true,
  saveAttempts: 0,
  clockOffsetMs: 0,
  error: null,
  receipt: null,
  outcome: null,
  questionListOpen: false,
  flagged: [],
  keyboardOpen: true,
  upperCase: false,
  focusLosses: 0,
};

function selectProps<K extends ScreenName>(name: K, snapshot: KioskSnapshot, send: (event: KioskEvent) => void): ScreenProps[K] {
  const session = sessionOf(snapshot);
  const exam = examOf(snapshot);
  const c = exam?.context ?? noExam;
  const sc = session?.context;
  const timeLimitMinutes = Math.round((c.details?.exam.time_limit_seconds ?? 2400) / 60);
  const props: { [N in ScreenName]: () => ScreenProps[N] } = {
    booting: () => ({}),
    'login-code': () => ({
      busy: session?.hasTag('busy') ?? false,
      error: session?.context.loginError ?? null,
      onSubmit: (code) => send({ type: 'loginCode.submitted', code }),
      onCheckTerminal: () => send({ type: 'connectivity.requested' }),
    }),
    'login-confirm': () => ({
      status: exam?.matches('detailsFailed') ? 'error' : exam?.matches('confirming') ? 'ready' : 'loading',
      details: c.details,
      error: c.error,
      onConfirm: () => send({ type: 'identity.confirmed' }),
      onReject: () => send({ type: 'identity.rejected' }),
      onRetry: () => send({ type: 'retry.requested' }),
    }),
    'exam-tutorial': () => ({
      questionCount: c.details?.exam.question_count ?? 0,
      timeLimitMinutes,
      onContinue: () => send({ type: 'tutorial.completed' }),
    }),
    'exam-start': () => ({
      busy: exam?.matches('starting') ?? false,
      error: c.error,
      timeLimitMinutes,
      onStart: () => send({ type: 'start.confirmed' }),
    }),
    exam: () => ({
      status: exam?.matches('answering')
        ? 'answering'
        : exam?.matches('finishing') || exam?.matches('finishFailed')
          ? 'finishing'
          : 'loading',
      questions: c.questions,
      index: c.questionIndex,
      answers: Object.fromEntries(
        Object.entries(c.answers).map(([id, entry]) => [id, { value: entry.value, saved: selectSaveState(entry) }]),
      ),
      deadlineAt: c.deadlineAt ?? 0,
      clockOffsetMs: c.clockOffsetMs,
      timeLimitSeconds: selectTimeLimitSeconds(c),
      confirmingFinish: exam?.matches({ answering: { view: 'confirmingFinish' } }) ?? false,
      error: exam?.matches('questionsFailed') || exam?.matches('finishFailed') ? c.error : null,
      onRetry: () => send({ type: 'retry.requested' }),
      onAnswer: (questionId, value) => send({ type: 'answer.given', questionId, value }),
      onNext: () => send({ type: 'question.next' }),
      onPrevious: () => send({ type: 'question.previous' }),
      onFinishRequest: () => send({ type: 'finish.requested' }),
      onFinishConfirm: () => send({ type: 'finish.confirmed' }),
      onFinishCancel: () => send({ type: 'finish.cancelled' }),
      flagged: c.flagged,
      listOpen: c.questionListOpen,
      onToggleList: () => send({ type: 'questionList.toggled' }),
      onFlag: (questionId) => send({ type: 'question.flagged', questionId }),
      onSelect: (index) => send({ type: 'question.selected', index }),
      onFocusLost: () => send({ type: 'focus.lost' }),
      keyboardOpen: c.keyboardOpen,
      upperCase: c.upperCase,
      onToggleKeyboard: () => send({ type: 'keyboard.toggled' }),
      onToggleUpperCase: () => send({ type: 'upperCase.toggled' }),
    }),
    'exam-end': () =>
      exam
        ? {
            outcome: c.outcome ?? 'sent',
            receipt: c.receipt ? { answer_count: c.receipt.answer_count, digest: c.receipt.digest } : null,
            errorCode: c.outcome === 'cancelled' ? c.error : null,
            onLogout: () => send({ type: 'logout.requested' }),
          }
        : // Rule 5's exception: the end screen kept without a login (INCORRECT_DEVICE, RETAKE).
          // The session keeps the end screen only for those codes, so its stored code says why.
          { outcome: 'cancelled', receipt: null, errorCode: sc?.storedErrorCode ?? null, onLogout: () => send({ type: 'login.requested' }) },
    'not-found': () => ({
      onGoToLogin: () => send({ type: 'login.requested' }),
    }),
    login: () => ({
      status: session?.matches({ signedOut: { login: 'invalid' } })
        ? 'invalid'
        : session?.matches({ signedOut: { login: 'placeFailed' } })
          ? 'error'
          : session?.matches({ signedOut: { login: 'loadingPlace' } })
            ? 'loading'
            : 'ready',
      place: sc?.place ?? null,
      kind: sc?.place?.kind ?? 'id',
      ssoUrl: sc?.place?.ssoUrl ?? null,
      busy: session?.matches({ signedOut: { login: 'submitting' } }) ?? false,
      error: session?.matches({ signedOut: { login: 'placeFailed' } })
        ? { kind: 'failure', code: sc?.placeError ?? 'GENERIC_ERROR' }
        : (sc?.passwordError ?? null),
      onSubmit: (values) => send({ type: 'login.submitted', login_id: values.login_id, password: values.password }),
      onRetry: () => send({ type: 'retry.requested' }),
      onCheckTerminal: () => send({ type: 'connectivity.requested' }),
    }),
    entry: () => ({
      status: session?.hasTag('busy') ? 'working' : 'failed',
      error: session?.hasTag('busy') ? null : (sc?.entryError ?? null),
      onGoToLogin: () => send({ type: 'login.requested' }),
    }),
    forbidden: () => ({ onGoToLogin: () => send({ type: 'login.requested' }) }),
    'examinee-input-info': () => ({
      step: session?.matches({ signedIn: { inputInfo: 'saving' } })
        ? 'saving'
        : session?.matches({ signedIn: { inputInfo: 'confirming' } })
          ? 'confirming'
          : 'editing',
      values: sc?.basicInfo.values ?? { examinee_name: '', grade_id: null, email: '' },
      errors: (sc?.basicInfo.errors ?? {}) as ExamineeInputInfoScreenProps['errors'],
      failure: sc?.basicInfo.failure ?? null,
      onChange: (values) => send({ type: 'basicInfo.changed', values }),
      onReview: () => send({ type: 'basicInfo.reviewed' }),
      onBack: () => send({ type: 'basicInfo.edited' }),
      onConfirm: () => send({ type: 'basicInfo.confirmed' }),
    }),
    'examinee-info': () => ({
      info: {
        examinee_name: sc?.session?.examinee_name ?? '',
        grade_id: sc?.session?.grade_id ?? 99,
        email: sc?.session?.email ?? '',
      },
      onContinue: () => send({ type: 'basicInfo.acknowledged' }),
    }),
    'testing-menu': () => ({
      status: session?.matches({ signedIn: { testingMenu: 'ready' } })
        ? 'ready'
        : session?.matches({ signedIn: { testingMenu: 'failed' } })
          ? 'error'
          : 'loading',
      menu: sc?.menu ?? null,
      error: sc?.failure ?? null,
      onTakeTest: () => send({ type: 'test.chosen' }),
      onPayFee: () => send({ type: 'fee.payRequested' }),
      onViewResults: () => send({ type: 'results.viewRequested' }),
      onRetry: () => send({ type: 'retry.requested' }),
      onLogout: () => send({ type: 'logout.requested' }),
    }),
    'short-result': () => ({
      status: session?.matches({ signedIn: { shortResult: 'ready' } })
        ? 'ready'
        : session?.matches({ signedIn: { shortResult: 'failed' } })
          ? 'error'
          : 'loading',
      result: sc?.results.short ?? null,
      owned: sc?.results.owned ?? { result_sheet: false, certificate: false },
      error: sc?.results.failure ?? null,
      onBuy: () => send({ type: 'resultItems.buyRequested' }),
      onOpenReport: () => send({ type: 'report.openRequested' }),
      onBack: () => send({ type: 'menu.requested' }),
      onRetry: () => send({ type: 'retry.requested' }),
    }),
    'pay-exam-fee': () => paymentProps(session, send),
    'pay-exam-result': () => paymentProps(session, send),
    'purchased-result': () => ({
      status: session?.matches({ signedIn: { purchasedResult: 'ready' } })
        ? 'ready'
        : session?.matches({ signedIn: { purchasedResult: 'failed' } })
          ? 'error'
          : 'loading',
      purchases: sc?.results.owned
        ? { ...sc.results.owned, passed: sc.results.short?.passed ?? false }
        : null,
      error: session?.matches({ signedIn: { purchasedResult: 'failed' } }) ? (sc?.results.failure ?? null) : null,
      download: {
        status: sc?.results.downloading === 'certificate' ? 'downloading' : sc?.results.failure ? 'failed' : 'idle',
        error: sc?.results.failure ?? null,
      },
      onOpenReport: () => send({ type: 'report.openRequested' }),
      onDownloadCertificate: () => send({ type: 'certificate.downloadRequested' }),
      onBuy: () => send({ type: 'menu.requested' }),
      onBack: () => send({ type: 'menu.requested' }),
      onRetry: () => send({ type: 'retry.requested' }),
    }),
    'score-report': () => {
      const ready = session?.matches({ signedIn: { scoreReport: 'ready' } }) ?? false;
      const failedDownload = ready && sc?.results.failure ? 'failed' : 'idle';
      return {
        status: ready ? 'ready' : session?.matches({ signedIn: { scoreReport: 'failed' } }) ? 'error' : 'loading',
        report: sc?.results.report ?? null,
        error: sc?.results.failure ?? null,
        variant: 'screen',
        download: {
          report: sc?.results.downloading === 'report' ? 'working' : failedDownload,
          certificate: sc?.results.downloading === 'certificate' ? 'working' : failedDownload,
        },
        onPrint: () => send({ type: 'report.printRequested' }),
        onBack: () => send({ type: 'menu.requested' }),
        onDownloadPdf: () => send({ type: 'report.pdfRequested' }),
        onDownloadCertificate: () => send({ type: 'certificate.downloadRequested' }),
        onRetry: () => send({ type: 'retry.requested' }),
      };
    },
    'exam-list': () => ({
      status: session?.matches({ signedIn: { examList: { list: 'ready' } } })
        ? 'ready'
        : session?.matches({ signedIn: { examList: { list: 'failed' } } })
          ? 'error'
          : 'loading',
      exams: sc?.exams ?? [],
      stepMode: session?.matches({ signedIn: { examList: { page: 'stepMode' } } }) ?? false,
      error: sc?.failure ?? null,
      onChoose: (scheduleHistoryId) => send({ type: 'exam.chosen', scheduleHistoryId }),
      onRetry: () => send({ type: 'retry.requested' }),
      onLogout: () => send({ type: 'logout.requested' }),
    }),
    'score-report-embed': () => {
      const document = snapshot.children.document?.getSnapshot() as DocumentSnapshot | undefined;
      const view: DocumentView = document
        ? selectDocumentView(document)
        : { status: 'loading', document: 'report', report: null, error: null };
      return { ...view, onRetry: () => send({ type: 'retry.requested' }) };
    },
  };
  return props[name]();
}

type PaymentSnapshot = SnapshotFrom<typeof paymentMachine>;

/** The payment screens: the session's payment child (machines/payment) decides what they show. */
function paymentProps(session: SessionSnapshot | undefined, send: (event: KioskEvent) => void): ScreenProps['pay-exam-fee'] {
  const payment = session?.children.payment?.getSnapshot() as PaymentSnapshot | undefined;
  return {
    view: payment ? paymentViewOf(payment) : null,
    send: (event) => send(event),
    onBack: () => send({ type: 'menu.requested' }),
    onContinue: () => send({ type: 'payment.continued' }),
  };
}

/**
 * The proctor page's actor (the kiosk's child `proctor`, machines/proctor), or undefined while
 * the kiosk does not show /proctor. Re-read whenever the kiosk's system changes; the screen
 * subscribes to the actor itself (useSelector) for what it shows.
 */
export function useProctorActor(): ActorRefFrom<typeof proctorMachine> | undefined {
  const kiosk = useKiosk();
  useKioskVersion(kiosk);
  return kiosk.getSnapshot().children.proctor;
}

/**
 * The terminal check's actor (the kiosk's child `connectivity`, machines/connectivity), or
 * undefined while the kiosk does not show /checking-domain-connection. Like useProctorActor.
 */
export function useConnectivityActor(): ActorRefFrom<typeof connectivityMachine> | undefined {
  const kiosk = useKiosk();
  useKioskVersion(kiosk);
  return kiosk.getSnapshot().children.connectivity;
}

/** The props of screen `name`, from the kiosk machine's snapshot. */
export function useScreen<K extends ScreenName>(name: K): ScreenProps[K] {
  const kiosk = useKiosk();
  useKioskVersion(kiosk);
  return selectProps(name, kiosk.getSnapshot(), (event) => kiosk.send(event));
}

/**
 * The retry dialog's props while a call runs in the retry machine and the pupil should know
 * (connecting again, or check the connection); null otherwise.
 */
function selectRetryDialogProps(snapshot: KioskSnapshot, send: (event: KioskEvent) => void): RetryDialogProps | null {
  const view = selectExamRetryDialog(examOf(snapshot));
  if (!view) return null;
  return {
    view,
    onRetry: () => send({ type: 'retry.requested' }),
    onClose: () => send({ type: 'dialog.closed' }),
  };
}

/** The shell's state, from the kiosk machine's snapshot. */
export function useShell(): ShellState {
  const kiosk = useKiosk();
  useKioskVersion(kiosk);
  const snapshot = kiosk.getSnapshot();
  return {
    busy: isBusy(snapshot),
    screen: selectScreen(snapshot),
    retryDialog: selectRetryDialogProps(snapshot, (event) => kiosk.send(event)),
  };
}
