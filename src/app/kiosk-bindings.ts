/**
 * The seam between the kiosk machine and the view: which props each screen gets, and what the
 * shell needs. Screens are presentational; connected components (src/app/connect/) read their
 * props here and nothing else. Props are selected from the active child machine's snapshot;
 * callbacks only `send` events to the kiosk, which forwards them to the machine that owns them.
 */
import { createContext, createElement, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { Actor, SnapshotFrom } from 'xstate';
import type { ExamContext } from '../../machines/exam/exam.types.ts';
import type { examMachine } from '../../machines/exam/exam.machine.ts';
import type { kioskMachine } from '../../machines/kiosk/kiosk.machine.ts';
import { selectScreen } from '../../machines/kiosk/kiosk.selectors.ts';
import type { KioskEvent } from '../../machines/kiosk/kiosk.types.ts';
import { watchKiosk } from '../../machines/kiosk/kiosk.watch.ts';
import type { sessionMachine } from '../../machines/session/session.machine.ts';
import type { BootingScreenProps } from '../screens/booting/booting.tsx';
import type { ExamEndScreenProps } from '../screens/exam-end/exam-end.tsx';
import type { ExamStartScreenProps } from '../screens/exam-start/exam-start.tsx';
import type { ExamTutorialScreenProps } from '../screens/exam-tutorial/exam-tutorial.tsx';
import type { ExamScreenProps } from '../screens/exam/exam.tsx';
import type { LoginCodeScreenProps } from '../screens/login-code/login-code.tsx';
import type { LoginConfirmScreenProps } from '../screens/login-confirm/login-confirm.tsx';
import type { NotFoundScreenProps } from '../screens/not-found/not-found.tsx';

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
}

/** What the shell around every screen needs. */
export interface ShellState {
  /** A call is under way: shows the progress bar. */
  busy: boolean;
  /** The screen the machine shows now. */
  screen: ScreenName;
}

export type KioskActor = Actor<typeof kioskMachine>;
type KioskSnapshot = SnapshotFrom<typeof kioskMachine>;
type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;
type ExamSnapshot = SnapshotFrom<typeof examMachine>;

const KioskContext = createContext<KioskActor | null>(null);

export function KioskProvider({ kiosk, children }: { kiosk: KioskActor; children: ReactNode }) {
  return createElement(KioskContext.Provider, { value: kiosk }, children);
}

function useKiosk(): KioskActor {
  const kiosk = useContext(KioskContext);
  if (!kiosk) throw new Error('useKiosk: no KioskProvider above this component');
  return kiosk;
}

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
  return Boolean(sessionOf(snapshot)?.hasTag('busy') || examOf(snapshot)?.hasTag('busy'));
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
  clockOffsetMs: 0,
  error: null,
  receipt: null,
  outcome: null,
};

function selectProps<K extends ScreenName>(name: K, snapshot: KioskSnapshot, send: (event: KioskEvent) => void): ScreenProps[K] {
  const session = sessionOf(snapshot);
  const exam = examOf(snapshot);
  const c = exam?.context ?? noExam;
  const timeLimitMinutes = Math.round((c.details?.exam.time_limit_seconds ?? 2400) / 60);
  const props: { [N in ScreenName]: () => ScreenProps[N] } = {
    booting: () => ({}),
    'login-code': () => ({
      busy: session?.hasTag('busy') ?? false,
      error: session?.context.loginError ?? null,
      onSubmit: (code) => send({ type: 'loginCode.submitted', code }),
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
        Object.entries(c.answers).map(([id, entry]) => [id, { value: entry.value, saved: entry.status === 'saved' }]),
      ),
      deadlineAt: c.deadlineAt ?? 0,
      clockOffsetMs: c.clockOffsetMs,
      confirmingFinish: exam?.matches({ answering: { view: 'confirmingFinish' } }) ?? false,
      error: exam?.matches('questionsFailed') || exam?.matches('finishFailed') ? c.error : null,
      onRetry: () => send({ type: 'retry.requested' }),
      onAnswer: (questionId, value) => send({ type: 'answer.given', questionId, value }),
      onNext: () => send({ type: 'question.next' }),
      onPrevious: () => send({ type: 'question.previous' }),
      onFinishRequest: () => send({ type: 'finish.requested' }),
      onFinishConfirm: () => send({ type: 'finish.confirmed' }),
      onFinishCancel: () => send({ type: 'finish.cancelled' }),
    }),
    'exam-end': () => ({
      outcome: c.outcome ?? 'sent',
      receipt: c.receipt ? { answer_count: c.receipt.answer_count, digest: c.receipt.digest } : null,
      onLogout: () => send({ type: 'logout.requested' }),
    }),
    'not-found': () => ({
      onGoToLogin: () => send({ type: 'login.requested' }),
    }),
  };
  return props[name]();
}

/** The props of screen `name`, from the kiosk machine's snapshot. */
export function useScreen<K extends ScreenName>(name: K): ScreenProps[K] {
  const kiosk = useKiosk();
  useKioskVersion(kiosk);
  return selectProps(name, kiosk.getSnapshot(), (event) => kiosk.send(event));
}

/** The shell's state, from the kiosk machine's snapshot. */
export function useShell(): ShellState {
  const kiosk = useKiosk();
  useKioskVersion(kiosk);
  const snapshot = kiosk.getSnapshot();
  return { busy: isBusy(snapshot), screen: selectScreen(snapshot) };
}
