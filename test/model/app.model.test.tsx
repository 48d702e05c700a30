// @vitest-environment jsdom
/**
 * The UI level of the model-based tests (DESIGN.md): an abstract model of what the pupil
 * sees and does, where the server's answers and network failures are explicit events. Its
 * shortest paths (every transition, self-transitions included) drive the real app: the real
 * kiosk, session and exam machines, the real router and screens, over an API whose calls wait
 * for the path to say how they end. Every state of the model checks what is on screen and the
 * URL; while the paths run, the production machines' transitions are recorded and reported
 * as `model coverage <machine> (through the app)`.
 */
import type { createMemoryHistory } from '@tanstack/react-router';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMachine, type Actor, type AnyStateMachine } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { examMachine } from '../../machines/exam/exam.machine.ts';
import { retryMachine } from '../../machines/retry/retry.machine.ts';
import type { createKioskMachine } from '../../machines/kiosk/kiosk.actors.ts';
import { kioskMachine } from '../../machines/kiosk/kiosk.machine.ts';
import { examineeKeys } from '../../machines/shared/storage.ts';
import { createControlledApi, type ControlledApi } from '../helpers/controlled-api.ts';
import { demoQuestions } from '../helpers/fake-api.ts';
import { memoryStorage } from '../view/render.tsx';
import { CoverageRecorder, allTransitions, recordByMachine } from './harness.ts';
import { renderKioskApp, sendCode, serverAnswers } from '../helpers/render-app.tsx';

/** What the pupil sees and does; the server's answers are events too. */
const pupilModel = createMachine({
  id: 'pupil',
  initial: 'loginCode',
  states: {
    loginCode: {
      on: {
        'pupil.sendsEmptyCode': 'loginCodeRequired',
        'pupil.sendsMalformedCode': 'loginCodeInvalid',
        'pupil.sendsCode': 'loggingIn',
      },
    },
    loginCodeRequired: { on: { 'pupil.sendsCode': 'loggingIn' } },
    loginCodeInvalid: { on: { 'pupil.sendsCode': 'loggingIn' } },
    loggingIn: {
      on: {
        'server.refusesCode': 'loginRefused',
        'server.acceptsCode': 'loadingDetails',
      },
    },
    loginRefused: { on: { 'pupil.sendsCode': 'loggingIn' } },
    loadingDetails: {
      on: {
        'network.fails': 'detailsOffline',
        'server.sendsDetails': 'confirming',
      },
    },
    // The network is down while loading: the retry dialog asks to check the connection.
    detailsOffline: {
      on: {
        'pupil.pressesOk': 'detailsFailed',
        'browser.goesOnline': 'loadingDetails',
      },
    },
    detailsFailed: {
      on: {
        'pupil.triesAgain': 'loadingDetails',
        'pupil.saysNotMe': 'loggingOut',
      },
    },
    confirming: {
      on: {
        'pupil.confirms': 'tutorial',
        'pupil.saysNotMe': 'loggingOut',
      },
    },
    tutorial: {
      on: {
        'pupil.continues': 'ready',
        'pupil.pressesBack': 'confirming',
      },
    },
    ready: {
      on: {
        'pupil.pressesStart': 'starting',
        'pupil.pressesBack': 'tutorial',
      },
    },
    starting: {
      on: {
        'network.fails': 'startFailed',
        'server.startsExam': 'loadingQuestions',
      },
    },
    startFailed: { on: { 'pupil.pressesStart': 'starting' } },
    loadingQuestions: {
      on: {
        'network.fails': 'questionsOffline',
        'server.sendsQuestions': 'answering',
      },
    },
    questionsOffline: { on: { 'pupil.pressesOk': 'questionsFailed' } },
    questionsFailed: { on: { 'pupil.triesAgain': 'loadingQuestions' } },
    answering: {
      on: {
        'pupil.choosesAnswer': 'answering',
        'server.savesAnswer': 'answering',
        'pupil.goesToNextQuestion': 'answering',
        'pupil.pressesBack': 'answering',
        'pupil.asksToFinish': 'confirmingFinish',
        'pupil.answersWhileOffline': 'answerKeptOnTerminal',
      },
    },
    // The network is down: the answer is kept on this terminal and sent when it is back.
    answerKeptOnTerminal: { on: { 'browser.goesOnline': 'answerResent' } },
    answerResent: { on: { 'server.savesAnswer': 'answerReachedServer' } },
    answerReachedServer: { on: { 'pupil.asksToFinish': 'confirmingFinish' } },
    confirmingFinish: {
      on: {
        'pupil.keepsWorking': 'answering',
        'pupil.finishes': 'finishing',
      },
    },
    finishing: {
      on: {
        'network.fails': 'finishOffline',
        'server.fails': 'finishFailed',
        'server.finishesExam': 'ended',
      },
    },
    // Finishing while offline: the retry dialog, never a dead end.
    finishOffline: {
      on: {
        'pupil.retries': 'finishing',
        'browser.goesOnline': 'finishing',
      },
    },
    finishFailed: { on: { 'pupil.triesAgain': 'finishing' } },
    ended: { on: { 'pupil.logsOut': 'loggingOut' } },
    loggingOut: { on: { 'server.endsSession': 'loggedOut' } },
    loggedOut: {},
  },
});

interface AppUnderTest {
  control: ControlledApi;
  kiosk: Actor<ReturnType<typeof createKioskMachine>>;
  history: ReturnType<typeof createMemoryHistory>;
  storage: ReturnType<typeof memoryStorage>;
  user: ReturnType<typeof userEvent.setup>;
  /** The call that the next `network.fails` or server event concerns. */
  lastCall: Parameters<ControlledApi['answer']>[0] | null;
}

const recorders = new Map<string, CoverageRecorder>(
  (
    // The session's UI-level coverage is measured by its own model (app-session.model.test.tsx).
    [['kiosk', kioskMachine], ['exam', examMachine], ['retry', retryMachine]] as Array<[string, AnyStateMachine]>
  ).map(
    ([name, machine]) => [name, new CoverageRecorder(name, allTransitions(machine))],
  ),
);

const record = recordByMachine(recorders);

let stopSync: (() => void) | undefined;

async function renderApp(): Promise<AppUnderTest> {
  const storage = memoryStorage();
  const control = createControlledApi();
  const rendered = await renderKioskApp({
    // No backoff window: a network failure while finishing opens the retry dialog at once.
    deps: { api: control.api, storage, retryWindowMs: 0 },
    input: { storedSession: null },
    url: '/login-code',
    inspect: record,
  });
  stopSync = rendered.stopSync;
  await screen.findByRole('heading', { level: 1, name: 'Log in with your login code' });
  return { control, kiosk: rendered.kiosk, history: rendered.history, storage, user: userEvent.setup(), lastCall: null };
}

const heading = (name: string) => screen.findByRole('heading', { level: 1, name });

async function networkFails(app: AppUnderTest) {
  const method = app.control.waiting()[0];
  if (!method) throw new Error('network.fails: no call is waiting');
  await act(async () => app.control.fail(method, 'NETWORK_ERROR'));
}

const model = createTestModel(pupilModel, {
  // Always record the event, so self-transitions get paths of their own.
  serializeTransition: (_state, event, previous) =>
    event ? ` via ${event.type} from ${JSON.stringify(previous?.value ?? null)}` : '',
});

const paths = model.getShortestPaths();

beforeAll(() => {
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
});

afterEach(() => {
  stopSync?.();
  stopSync = undefined;
});

describe('the pupil through the app, every transition of the model', () => {
  for (const path of paths) {
    it(path.description, async () => {
      const app = await renderApp();
      await path.test({
        states: {
          loginCode: async () => {
            await heading('Log in with your login code');
            expect(app.history.location.pathname).toBe('/login-code');
          },
          loginCodeRequired: async () => {
            const message = await screen.findByText('Login code is a required field');
            const field = screen.getByRole('textbox', { name: 'Login code' });
            expect(field.getAttribute('aria-invalid')).toBe('true');
            expect(field.getAttribute('aria-describedby')).toContain(message.closest('[id]')?.id ?? 'missing');
          },
          loginCodeInvalid: async () => {
            await screen.findByText(/A login code is three groups of four letters and numbers/);
          },
          loggingIn: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('login'));
          },
          loginRefused: async () => {
            expect((await screen.findByRole('alert')).textContent).toContain('The login code is incorrect.');
            expect(examineeKeys.some((key) => app.storage.items.has(key))).toBe(false);
          },
          loadingDetails: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('examDetails'));
          },
          detailsFailed: async () => {
            await heading('Is this you?');
            expect((await screen.findByRole('alert')).textContent).toContain('Network error');
          },
          confirming: async () => {
            await heading('Is this you?');
            expect(screen.getByText('Aiko Tanaka')).toBeTruthy();
            expect(app.history.location.pathname).toBe('/login-confirm');
          },
          tutorial: async () => {
            await heading('How the test works');
            expect(app.history.location.pathname).toBe('/exam-tutorial');
          },
          ready: async () => {
            await heading('Ready to start');
            expect(screen.getByText(/cannot start the test over/)).toBeTruthy();
            expect(app.history.location.pathname).toBe('/exam-start');
          },
          starting: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('startExam'));
          },
          startFailed: async () => {
            await heading('Ready to start');
            expect((await screen.findByRole('alert')).textContent).toContain('Network error');
          },
          loadingQuestions: async () => {
            await waitFor(() => expect(app.history.location.pathname).toBe('/start'));
          },
          questionsFailed: async () => {
            expect((await screen.findByRole('alert')).textContent).toContain('Network error');
            expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
          },
          answering: async () => {
            await screen.findByText(/Question \d of 3/);
            expect(screen.getByRole('timer')).toBeTruthy();
            expect(app.history.location.pathname).toBe('/start');
          },
          confirmingFinish: async () => {
            expect(await screen.findByRole('dialog', { name: 'Finish the test?' })).toBeTruthy();
          },
          finishing: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('finishExam'));
          },
          answerKeptOnTerminal: async () => {
            expect((await screen.findByRole('status')).textContent).toBe('Saved on this terminal');
            expect(screen.queryByRole('alertdialog')).toBeNull();
          },
          answerResent: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('saveAnswer'), { timeout: 3_000 });
            expect(screen.getByRole('status').textContent).toBe('Saved on this terminal');
          },
          answerReachedServer: async () => {
            await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Saved on the server'));
            expect(app.control.server.saved.size).toBeGreaterThan(0);
          },
          detailsOffline: async () => {
            const dialog = await screen.findByRole('alertdialog', { name: 'Check your internet connection' });
            expect(within(dialog).getByRole('button', { name: 'OK' })).toBeTruthy();
            expect(within(dialog).queryByRole('button', { name: 'Retry' })).toBeNull();
          },
          questionsOffline: async () => {
            const dialog = await screen.findByRole('alertdialog', { name: 'Check your internet connection' });
            expect(within(dialog).getByRole('button', { name: 'OK' })).toBeTruthy();
            expect(app.history.location.pathname).toBe('/start');
          },
          finishOffline: async () => {
            const dialog = await screen.findByRole('alertdialog', { name: 'Check your internet connection' });
            expect(within(dialog).getByRole('button', { name: 'Retry' })).toBeTruthy();
            expect(app.history.location.pathname).toBe('/start');
          },
          finishFailed: async () => {
            expect((await screen.findByRole('alert')).textContent).toContain('An error has occurred.');
            expect(screen.queryByRole('alertdialog')).toBeNull();
          },
          ended: async () => {
            await heading('Test complete');
            expect(screen.getByText('Your answer data has been sent.')).toBeTruthy();
            expect(app.history.location.pathname).toBe('/exam-end');
          },
          loggingOut: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('logout'));
            // Storage is wiped before the server answers: nothing of the pupil is left.
            expect(examineeKeys.filter((key) => app.storage.items.has(key))).toEqual([]);
          },
          loggedOut: async () => {
            await heading('Log in with your login code');
            expect(app.history.location.pathname).toBe('/login-code');
          },
        },
        events: {
          'pupil.sendsEmptyCode': () => sendCode(app.user, ''),
          'pupil.sendsMalformedCode': () => sendCode(app.user, 'abc'),
          'pupil.sendsCode': () => sendCode(app.user, 'ac3e f4gh j6km'),
          'server.refusesCode': async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('login'));
            await act(async () => app.control.fail('login', 'LOGIN_CODE_INCORRECT', 401));
          },
          'server.acceptsCode': () => serverAnswers(app.control, 'login'),
          'server.sendsDetails': () => serverAnswers(app.control, 'examDetails'),
          'network.fails': () => networkFails(app),
          'server.fails': async () => {
            const method = app.control.waiting()[0];
            if (!method) throw new Error('server.fails: no call is waiting');
            await act(async () => app.control.fail(method, 'GENERIC_ERROR', 500));
          },
          'pupil.answersWhileOffline': async () => {
            await app.user.click(screen.queryAllByRole('radio')[0] ?? screen.getByRole('button', { name: /Next/ }));
            await waitFor(() => expect(app.control.waiting()).toContain('saveAnswer'));
            await act(async () => app.control.fail('saveAnswer', 'NETWORK_ERROR'));
          },
          'browser.goesOnline': async () => {
            await act(async () => app.kiosk.send({ type: 'connection.restored' }));
          },
          'pupil.pressesOk': () => app.user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'OK' })),
          'pupil.retries': () => app.user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Retry' })),
          'pupil.triesAgain': () => app.user.click(screen.getByRole('button', { name: 'Try again' })),
          'pupil.saysNotMe': () => app.user.click(screen.getByRole('button', { name: 'No, log out' })),
          'pupil.confirms': () => app.user.click(screen.getByRole('button', { name: 'Yes, continue' })),
          'pupil.continues': () => app.user.click(screen.getByRole('button', { name: 'Continue' })),
          'pupil.pressesBack': async () => {
            await act(async () => app.history.back());
          },
          'pupil.pressesStart': () => app.user.click(screen.getByRole('button', { name: 'Start the test' })),
          'server.startsExam': () => serverAnswers(app.control, 'startExam'),
          'server.sendsQuestions': () => serverAnswers(app.control, 'examQuestions'),
          'pupil.choosesAnswer': async () => {
            const radios = screen.queryAllByRole('radio');
            if (radios[0]) await app.user.click(radios[0]);
            else await app.user.type(screen.getByRole('textbox', { name: 'Your answer' }), 'cold{Enter}');
          },
          'server.savesAnswer': async () => {
            if (app.control.waiting().includes('saveAnswer')) await act(async () => app.control.answer('saveAnswer'));
          },
          'pupil.goesToNextQuestion': async () => {
            const next = screen.getByRole('button', { name: /Next/ }) as HTMLButtonElement;
            if (!next.disabled) await app.user.click(next);
          },
          'pupil.asksToFinish': () => app.user.click(screen.getByRole('button', { name: 'Finish the test' })),
          'pupil.keepsWorking': () => app.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Keep working' })),
          'pupil.finishes': () => app.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Finish' })),
          'server.finishesExam': async () => {
            await app.control.answerAll('saveAnswer');
            await serverAnswers(app.control, 'finishExam');
          },
          'pupil.logsOut': () => app.user.click(screen.getByRole('button', { name: 'Log out' })),
          'server.endsSession': () => serverAnswers(app.control, 'logout'),
        },
      });
    });
  }

  it('reports what the paths took of each production machine', () => {
    for (const recorder of recorders.values()) recorder.report('ui');
    for (const recorder of recorders.values()) {
      // The journey's core is walked through the app; the rest is covered at the logic level.
      expect(recorder.taken.size, recorder.name).toBeGreaterThan(recorder.all.size / 2);
    }
    expect(demoQuestions.length).toBe(3);
  });
});
