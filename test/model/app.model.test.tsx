// @vitest-environment jsdom
/**
 * The UI level of the model-based tests (ARCHITECTURE.md) for everything before the exam: abstract
 * models of what the pupil and a visitor see and do, where the server's answers and failures are
 * explicit events. Their shortest paths (every transition, self-transitions included) drive the
 * real app: the real kiosk, session, exam and child machines, the real router and screens, over an
 * API whose calls wait for the path to say how they end. Every state of a model checks what is on
 * screen and the URL. While the paths run, the kiosk's, the session's, the payment's and the
 * results machine's transitions are recorded and reported as `model coverage kiosk (through the
 * app)`, `model coverage session (through the app)`, `model coverage payment (through the app)` and
 * `model coverage results (through the app)`, and must be all of them (`sessionUnreachable` is
 * empty: a transition the screens offer no way to is a missing button, to be fixed there). The
 * exam and retry machines are measured through the app by their own model (app-exam.model.test.tsx).
 *
 * Three models:
 * - The pupil's: the login code, the exam details, tutorial and start, answering, finishing and
 *   logging out, with the network failing at each call.
 * - What the kiosk forwards while the pupil is a visitor: the login pages, basic information, the
 *   testing menu, the exam fee and result payments, the results and score report (print, PDF and
 *   certificate through the edge's `print` and `saveFile`), the exam list, the print route
 *   /score-report-embed/{id}?token=&locale=&document= (the document machine), and the terminal check
 *   /checking-domain-connection (the connectivity machine: by the login screen's link or its URL,
 *   left by "Back" or another URL, and over a signed-in pupil's menu, whose session it leaves
 *   untouched). The pupil's steps and the server's answers that follow them are one event each.
 * - The session's: a visitor on a shared terminal (typed URLs, the login pages, the entry routes,
 *   where each examinee lands, logging out), on to the exam fee, the short result, the result
 *   items' payment, the purchased result and the score report. Payments go through the payment
 *   screens: the demo provider's panel, and Adyen's Drop-in over a stand-in of the Adyen Web
 *   library (the real one loads Adyen's scripts), whose callbacks the path fires. Confirmation
 *   backoffs run on a SimulatedClock the path moves. A checkout left unfinished (Back) shows on the
 *   menu as "Payment not completed"; the provider's redirect back (the returnUrl: the terminal
 *   loads the payment screen with our reference, Adyen's sessionId and redirectResult) lands on
 *   that screen's confirmation, not on the start of the app. The browser's Back on the score report
 *   returns to the short or purchased result it was opened from, Back on the result payment and on
 *   the purchased result returns where the pupil came from, a reload of the menu stays on the menu,
 *   and a reload on the fee's payment or a results screen comes back to that screen once the menu
 *   is read again (or to the menu, when the fee was paid meanwhile; to the short result, when the
 *   report's sheet is not owned).
 *
 * A session path whose steps (the same events, sent the same way) are the start of a pupil or
 * forwarding path is not run on its own: its state checks run inside the first such path, at the
 * step where the session path would end each of its states (`foldedSessionPaths`).
 */
import type { createMemoryHistory } from '@tanstack/react-router';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { SimulatedClock, createMachine, type Actor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import * as v from 'valibot';
import type { createKioskMachine } from '../../machines/kiosk/kiosk.actors.ts';
import { kioskMachine } from '../../machines/kiosk/kiosk.machine.ts';
import { paymentMachine } from '../../machines/payment/payment.machine.ts';
import { STATUS_BACKOFF_MAX_MS } from '../../machines/payment/payment.rules.ts';
import { resultsMachine } from '../../machines/results/results.machine.ts';
import { sessionMachine } from '../../machines/session/session.machine.ts';
import { examineeKeys, readPendingRevocations, readSession, readToken, storageKeys } from '../../machines/shared/storage.ts';
import type { Question } from '../../contract/exam.ts';
import {
  ExamPaymentSettingSchema,
  PaymentSessionSchema,
  PaymentStatusResponseSchema,
  ResultPaymentSettingSchema,
} from '../../contract/payments.ts';
import { ChoosePageStatusSchema, ScoreReportSchema, ShortResultSchema } from '../../contract/results.ts';
import { createControlledApi, type ControlledApi } from '../helpers/controlled-api.ts';
import { DEMO_PASSWORD, createFakeApi, demoLogins, demoOrganizations, demoQuestions, type FakeApi } from '../helpers/fake-api.ts';
import { memoryStorage } from '../helpers/memory-storage.ts';
import { CoverageRecorder, allTransitions, recordByMachine } from './harness.ts';
import { renderKioskApp, sendCode, serverAnswers } from '../helpers/render-app.tsx';
import { adyenWeb, resetAdyenWeb } from '../helpers/adyen-web-stand-in.ts';
import { createFakeConnectivity } from '../helpers/fake-connectivity.ts';

// Adyen Web's stand-in (test/helpers/adyen-web-stand-in.ts): the path fires its callbacks.
vi.mock('@adyen/adyen-web', () => import('../helpers/adyen-web-stand-in.ts'));
vi.mock('@adyen/adyen-web/styles/adyen.css', () => ({}));

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
        // Question 2 offers the on-screen alphabet keyboard.
        'server.sendsQuestionsWithKeyboard': 'answeringWithKeyboard',
        // The token is no longer valid: the exam ends the session.
        'server.refusesToken': 'loggingOut',
      },
    },
    answeringWithKeyboard: {
      on: {
        'pupil.togglesKeyboard': 'answeringWithKeyboard',
        'pupil.togglesCapitals': 'answeringWithKeyboard',
      },
    },
    questionsOffline: { on: { 'pupil.pressesOk': 'questionsFailed' } },
    questionsFailed: { on: { 'pupil.triesAgain': 'loadingQuestions' } },
    answering: {
      on: {
        'pupil.choosesAnswer': 'answering',
        'server.savesAnswer': 'answering',
        'pupil.goesToNextQuestion': 'answering',
        'pupil.goesToPreviousQuestion': 'answering',
        'pupil.picksQuestionFromList': 'answering',
        'pupil.pressesBack': 'answering',
        'pupil.asksToFinish': 'confirmingFinish',
        'pupil.answersWhileOffline': 'answerKeptOnTerminal',
        // What the pupil arranges on screen goes through the kiosk to the exam machine.
        'pupil.togglesQuestionList': 'answering',
        'pupil.togglesFlag': 'answering',
        'window.losesFocus': 'answering',
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
  /** The token each POST /logout was sent with. */
  logoutTokens: Array<string | undefined>;
}
// The exam's and the retry machine's UI-level coverage is measured by their own model
// (app-exam.model.test.tsx), which must take every transition.
const recorders = new Map<string, CoverageRecorder>([['kiosk', new CoverageRecorder('kiosk', allTransitions(kioskMachine))]]);
const recorder = new CoverageRecorder('session', allTransitions(sessionMachine));
const paymentRecorder = new CoverageRecorder('payment', allTransitions(paymentMachine));
const resultsRecorder = new CoverageRecorder('results', allTransitions(resultsMachine));

/** One inspector for every run: each model's paths count for every machine they go through. */
const record = recordByMachine(
  new Map([
    ...recorders,
    ['session', recorder],
    ['payment', paymentRecorder],
    ['results', resultsRecorder],
  ]),
);

let stopSync: (() => void) | undefined;

async function renderApp(): Promise<AppUnderTest> {
  const storage = memoryStorage();
  const control = createControlledApi();
  const logoutTokens: Array<string | undefined> = [];
  // The logout call as the machine makes it: which token it carries is recorded.
  const api = { ...control.api, logout: (token?: string) => (logoutTokens.push(token), control.api.logout(token)) };
  const rendered = await renderKioskApp({
    // No backoff window: a network failure while finishing opens the retry dialog at once.
    deps: { api, storage, retryWindowMs: 0 },
    input: { storedSession: null },
    url: '/login-code',
    inspect: record,
  });
  stopSync = rendered.stopSync;
  await screen.findByRole('heading', { level: 1, name: 'Log in with your login code' });
  return { control, kiosk: rendered.kiosk, history: rendered.history, storage, user: userEvent.setup(), lastCall: null, logoutTokens };
}

const heading = (name: string | RegExp) => screen.findByRole('heading', { level: 1, name });

async function networkFails(app: AppUnderTest) {
  const method = app.control.waiting()[0];
  if (!method) throw new Error('network.fails: no call is waiting');
  await act(async () => app.control.fail(method, 'NETWORK_ERROR'));
}

/** Shows question 2, the typed one. */
async function goToTypedQuestion(app: AppUnderTest) {
  if (!screen.queryByText('Question 2 of 3')) {
    if (screen.queryByText('Question 3 of 3')) await app.user.click(screen.getByRole('button', { name: /Previous/ }));
    else await app.user.click(screen.getByRole('button', { name: /Next/ }));
  }
  await screen.findByText('Question 2 of 3');
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
      await testWithFoldedSessionChecks(path, () => asSessionApp(app), {
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
          answeringWithKeyboard: async () => {
            await screen.findByText(/Question \d of 3/);
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
            // POST /logout carries the token: nothing is wiped before the server answered.
            expect(app.storage.items.get(storageKeys.token)).toBe('token-1');
          },
          loggedOut: async () => {
            await heading('Log in with your login code');
            expect(app.history.location.pathname).toBe('/login-code');
            // Once it answered, nothing of the pupil is left.
            expect(examineeKeys.filter((key) => app.storage.items.has(key))).toEqual([]);
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
            await act(async () => app.kiosk.getSnapshot().children.exam?.send({ type: 'connection.restored' }));
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
          'server.sendsQuestionsWithKeyboard': async () => {
            const load = app.control.server.examQuestions.bind(app.control.server);
            app.control.server.examQuestions = async (id) => {
              const loaded = await load(id);
              return {
                ...loaded,
                questions: loaded.questions.map((q): Question => (q.id === 102 ? { ...q, input: { kind: 'alphabet', upper_case: false } } : q)),
              };
            };
            await serverAnswers(app.control, 'examQuestions');
          },
          'server.refusesToken': async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('examQuestions'));
            await act(async () => app.control.fail('examQuestions', 'NOT_LOGGED_IN', 401));
          },
          'pupil.goesToPreviousQuestion': async () => {
            if ((screen.getByRole('button', { name: /Previous/ }) as HTMLButtonElement).disabled) {
              await app.user.click(screen.getByRole('button', { name: /Next/ }));
            }
            await app.user.click(screen.getByRole('button', { name: /Previous/ }));
            await screen.findByText('Question 1 of 3');
          },
          'pupil.picksQuestionFromList': async () => {
            if (!screen.queryByRole('navigation', { name: 'Question list' })) {
              await app.user.click(screen.getByRole('button', { name: 'Question list' }));
            }
            await app.user.click(within(screen.getByRole('navigation', { name: 'Question list' })).getAllByRole('button')[2]!);
            await screen.findByText('Question 3 of 3');
          },
          'pupil.togglesKeyboard': async () => {
            await goToTypedQuestion(app);
            const toggle = screen.getByRole('button', { name: /^(Hide|Show) alphabet keyboard$/ });
            const shown = toggle.textContent?.startsWith('Hide') ?? false;
            await app.user.click(toggle);
            await screen.findByRole('button', { name: shown ? 'Show alphabet keyboard' : 'Hide alphabet keyboard' });
          },
          'pupil.togglesCapitals': async () => {
            await goToTypedQuestion(app);
            const show = screen.queryByRole('button', { name: 'Show alphabet keyboard' });
            if (show) await app.user.click(show);
            const capitals = screen.getByRole('button', { name: 'Capital letters' });
            const pressed = capitals.getAttribute('aria-pressed') === 'true';
            await app.user.click(capitals);
            await waitFor(() => expect(screen.getByRole('button', { name: 'Capital letters' }).getAttribute('aria-pressed')).toBe(String(!pressed)));
          },
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
          'pupil.togglesQuestionList': async () => {
            const toggle = screen.getByRole('button', { name: /^(Question list|Hide question list)$/ });
            const open = toggle.getAttribute('aria-expanded') === 'true';
            await app.user.click(toggle);
            await waitFor(() => expect(toggle.getAttribute('aria-expanded')).toBe(String(!open)));
          },
          'pupil.togglesFlag': async () => {
            const flag = screen.getByRole('button', { name: /^(Flag for review|Remove flag)$/ });
            const pressed = flag.getAttribute('aria-pressed') === 'true';
            await app.user.click(flag);
            await waitFor(() => expect(flag.getAttribute('aria-pressed')).toBe(String(!pressed)));
          },
          'window.losesFocus': async () => {
            // Counted and reported, never blocking: the question stays on screen.
            await act(async () => void window.dispatchEvent(new Event('blur')));
            expect(screen.getByRole('button', { name: 'Finish the test' })).toBeTruthy();
          },
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
});

/**
 * What the kiosk forwards while the pupil is a visitor. The pupil's steps and the server's
 * answers that follow them are one event each: the session and payment machines' own branches
 * are walked by the session model (`sessionModel`); here every forwarded event is sent through
 * the app.
 */
const visitorModel = createMachine({
  id: 'visitor',
  initial: 'loginCode',
  states: {
    loginCode: {
      on: {
        'pupil.opensUnknownPage': 'notFound',
        'pupil.opensPrintRoute': 'documentLoading',
        'pupil.opensSchoolLogin': 'schoolLogin',
        'pupil.opensExamineeLogin': 'examineeLogin',
        // The staff page: its own machine under the kiosk; any other URL is the pupil's kiosk again.
        'teacher.opensProctorPage': 'proctorPage',
        // The terminal check: by the login screen's link, or by its URL.
        'teacher.clicksCheckThisTerminal': 'terminalCheck',
        'teacher.opensTerminalCheckUrl': 'terminalCheck',
        // A pupil's login is on its way when the check is opened: once accepted, the exam wins.
        'pupil.sendsCodeThenTeacherOpensCheck': 'terminalCheckDuringLogin',
      },
    },
    terminalCheckDuringLogin: { on: { 'server.acceptsCode': 'examFlow' } },
    proctorPage: { on: { 'teacher.opensLoginCodePage': 'loginCodeAgain' } },
    terminalCheck: {
      on: {
        'teacher.pressesBack': 'loginCodeAgain',
        'teacher.opensLoginCodePage': 'loginCodeAgain',
      },
    },
    notFound: { on: { 'pupil.goesToLogin': 'loginCodeAgain' } },
    loginCodeAgain: {},
    // The print route: the document machine, with the URL's token.
    documentLoading: {
      on: {
        'server.sendsReport': 'documentReady',
        'network.fails': 'documentFailed',
      },
    },
    documentFailed: { on: { 'pupil.triesAgain': 'documentLoading' } },
    documentReady: {},
    examineeLogin: { on: { 'pupil.logsInAsExaminee': 'examList' } },
    examList: { on: { 'pupil.choosesExam': 'examFlow' } },
    examFlow: {},
    schoolLogin: { on: { 'pupil.logsInAsNewPupil': 'basicInfoForm' } },
    basicInfoForm: { on: { 'pupil.fillsAndReviews': 'basicInfoCheck' } },
    basicInfoCheck: {
      on: {
        'pupil.changesDetails': 'basicInfoForm',
        'pupil.registers': 'basicInfo',
      },
    },
    basicInfo: { on: { 'pupil.continues': 'menuLoading' } },
    menuLoading: {
      on: {
        'network.fails': 'menuFailed',
        'server.sendsMenu': 'menu',
        'server.sendsMenuWithFee': 'feeMenu',
        'server.sendsMenuWithResults': 'resultsMenu',
      },
    },
    menuFailed: { on: { 'pupil.triesAgain': 'menuLoading' } },
    menu: {
      on: {
        'pupil.takesTest': 'examFlow',
        'pupil.logsOut': 'loggedOut',
        // A signed-in pupil's terminal is checked: the session is left as it was.
        'teacher.opensTerminalCheckUrl': 'terminalCheckOverMenu',
      },
    },
    terminalCheckOverMenu: { on: { 'teacher.pressesBack': 'menuAgain' } },
    menuAgain: {},
    loggedOut: {},
    feeMenu: { on: { 'pupil.paysFee': 'fee' } },
    fee: { on: { 'pupil.agreesAndPays': 'feeCheckout' } },
    feeCheckout: {
      on: {
        'pupil.refusesDemo': 'feeDeclined',
        'pupil.authorisesDemo': 'feePaid',
      },
    },
    feeDeclined: {
      on: {
        'pupil.triesAgain': 'feeAgreed',
        'pupil.goesBackToMenu': 'menuLoading',
      },
    },
    feeAgreed: { on: { 'pupil.pays': 'feeCheckout' } },
    feePaid: { on: { 'pupil.continues': 'menuLoading' } },
    resultsMenu: { on: { 'pupil.viewsResults': 'shortResult' } },
    shortResult: { on: { 'pupil.buysResultItems': 'resultPayment' } },
    resultPayment: { on: { 'pupil.choosesAgreesAndPays': 'adyenCheckout' } },
    adyenCheckout: { on: { 'adyen.completes': 'resultPaid' } },
    resultPaid: { on: { 'pupil.continuesToPurchases': 'purchased' } },
    purchased: { on: { 'pupil.opensReport': 'report' } },
    report: {
      on: {
        'pupil.prints': 'report',
        'pupil.savesPdf': 'report',
        'pupil.downloadsCertificate': 'report',
      },
    },
  },
});

interface VisitorApp {
  control: ControlledApi;
  history: ReturnType<typeof createMemoryHistory>;
  storage: ReturnType<typeof memoryStorage>;
  user: ReturnType<typeof userEvent.setup>;
  saveFile: Mock<(file: Blob, name: string) => void>;
  print: Mock<() => void>;
}

const PRINT_TOKEN = 'print-token-0123456789';

async function renderVisitorApp(): Promise<VisitorApp> {
  const storage = memoryStorage();
  const control = createControlledApi();
  const saveFile = vi.fn<(file: Blob, name: string) => void>();
  const print = vi.fn<() => void>();
  const rendered = await renderKioskApp({
    // The terminal check's browser work: a healthy terminal (test/helpers/fake-connectivity.ts).
    deps: { api: control.api, storage, saveFile, print, connectivity: createFakeConnectivity() },
    input: { storedSession: null },
    url: '/login-code',
    inspect: record,
  });
  stopSync = rendered.stopSync;
  await screen.findByRole('heading', { level: 1, name: 'Log in with your login code' });
  return { control, history: rendered.history, storage, user: userEvent.setup(), saveFile, print };
}

/** The provider's notification reached the server: every open checkout is paid. */
function providerNotifiesServer(server: FakeApi) {
  for (const checkout of server.checkouts.values()) {
    if (checkout.status === 2 || checkout.outcome !== 'open') continue;
    checkout.status = 2;
    checkout.outcome = 'paid';
    for (const kind of checkout.kinds) server.paid[kind] = 2;
  }
}

async function logInOnPage(app: VisitorApp, loginId: string) {
  await app.user.type(await screen.findByRole('textbox', { name: 'Login ID' }), loginId);
  await app.user.type(screen.getByLabelText('Password'), DEMO_PASSWORD);
  await app.user.click(screen.getByRole('button', { name: 'Log in' }));
}

const payButton = () => screen.getByRole('button', { name: /^Pay / }) as HTMLButtonElement;
const termsBox = () => screen.getByRole('checkbox', { name: 'I have read and agree to the payment terms' }) as HTMLInputElement;

const visitorPaths = createTestModel(visitorModel, {
  serializeTransition: (_state, event, previous) =>
    event ? ` via ${event.type} from ${JSON.stringify(previous?.value ?? null)}` : '',
}).getShortestPaths();

describe('a visitor through the app, every event the kiosk forwards', () => {
  beforeEach(() => {
    resetAdyenWeb();
  });

  for (const path of visitorPaths) {
    it(path.description, async () => {
      const app = await renderVisitorApp();
      const url = () => `${app.history.location.pathname}${app.history.location.search}`;
      await testWithFoldedSessionChecks(path, () => asSessionApp(app), {
        states: {
          loginCode: async () => {
            await heading('Log in with your login code');
          },
          notFound: async () => {
            await heading('Page not found');
            expect(app.history.location.pathname).toBe('/404');
          },
          proctorPage: async () => {
            await screen.findByRole('heading', { level: 1, name: 'Staff sign-in' });
            expect(app.history.location.pathname).toBe('/proctor');
          },
          terminalCheck: async () => {
            await heading('Terminal check');
            expect(app.history.location.pathname).toBe('/checking-domain-connection');
            await waitFor(() => expect(screen.getByRole('status').textContent).toBe('This terminal is ready'));
          },
          terminalCheckDuringLogin: async () => {
            await heading('Terminal check');
            expect(app.control.waiting()).toContain('login');
          },
          terminalCheckOverMenu: async () => {
            await heading('Terminal check');
            expect(app.history.location.pathname).toBe('/checking-domain-connection');
            await waitFor(() => expect(screen.getByRole('status').textContent).toBe('This terminal is ready'));
          },
          menuAgain: async () => {
            // The session was never touched: the same menu, the pupil's login still stored.
            await screen.findByRole('button', { name: 'Take test' });
            expect(app.history.location.pathname).toBe('/testing-menu');
            expect(app.storage.items.has(storageKeys.token)).toBe(true);
            expect(app.control.waiting()).toEqual([]);
          },
          loginCodeAgain: async () => {
            await heading('Log in with your login code');
            expect(app.history.location.pathname).toBe('/login-code');
          },
          documentLoading: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('scoreReport'));
            expect(app.history.location.pathname).toBe('/score-report-embed/7');
          },
          documentFailed: async () => {
            expect((await screen.findByRole('alert')).textContent).toContain('Network error');
          },
          documentReady: async () => {
            await screen.findByRole('heading', { level: 2, name: 'Overall result' });
            // The print variant: no buttons; the report was asked for with the URL's token, which is never stored.
            expect(screen.queryByRole('button', { name: 'Print' })).toBeNull();
            expect(app.control.server.reportTokens).toContain(PRINT_TOKEN);
            expect([...app.storage.items.values()].some((value) => value.includes(PRINT_TOKEN))).toBe(false);
          },
          examineeLogin: async () => {
            await screen.findByText('Maple Learning Centre');
          },
          examList: async () => {
            await heading('Choose an exam');
          },
          examFlow: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('examDetails'));
          },
          schoolLogin: async () => {
            await screen.findByText('Sakura Primary');
            await heading('Log in');
          },
          basicInfoForm: async () => {
            await heading('Your basic information');
            expect(app.history.location.pathname).toBe('/examinee-input-info');
          },
          basicInfoCheck: async () => {
            await heading('Check your details');
          },
          basicInfo: async () => {
            await heading('Your basic information');
            expect(app.history.location.pathname).toBe('/examinee-info');
          },
          menuLoading: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('chooseStatus'));
            expect(app.history.location.pathname).toBe('/testing-menu');
          },
          menuFailed: async () => {
            await screen.findByRole('button', { name: 'Try again' });
          },
          menu: async () => {
            await screen.findByRole('button', { name: 'Take test' });
          },
          loggedOut: async () => {
            await waitFor(() => expect(url()).toBe(`/login?school=${demoOrganizations.id}&logout=1`));
            expect(examineeKeys.filter((key) => app.storage.items.has(key))).toEqual([]);
          },
          feeMenu: async () => {
            await screen.findByRole('button', { name: 'Pay fee' });
          },
          fee: async () => {
            await screen.findByRole('heading', { level: 2, name: 'What you pay for' });
            expect(app.history.location.pathname).toBe('/pay-exam-fee');
          },
          feeCheckout: async () => {
            await screen.findByRole('heading', { level: 2, name: 'Demo payment — no real card is charged' });
          },
          feeDeclined: async () => {
            expect((await screen.findByRole('alert')).textContent).toContain('The card was refused.');
          },
          feeAgreed: async () => {
            await waitFor(() => expect(payButton().disabled).toBe(false));
          },
          feePaid: async () => {
            await screen.findByText('Payment complete. Thank you.');
            expect(app.control.server.paid.exam_fee).toBe(2);
          },
          resultsMenu: async () => {
            await screen.findByRole('button', { name: 'View results' });
          },
          shortResult: async () => {
            await screen.findByRole('button', { name: 'Buy the result sheet / certificate' });
            expect(app.history.location.pathname).toBe('/short-result');
          },
          resultPayment: async () => {
            await screen.findByRole('heading', { level: 2, name: 'Choose what to buy' });
            expect(app.history.location.pathname).toBe('/pay-exam-result');
          },
          adyenCheckout: async () => {
            await waitFor(() => expect(adyenWeb.mounted).toBe(1));
          },
          resultPaid: async () => {
            await screen.findByText('Payment complete. Thank you.');
            expect(app.control.server.paid).toMatchObject({ result_sheet: 2, certificate: 2 });
          },
          purchased: async () => {
            await screen.findByRole('button', { name: 'Download the certificate' });
            expect(app.history.location.pathname).toBe('/purchased-result');
          },
          report: async () => {
            await screen.findByRole('button', { name: 'Save as PDF' });
            expect(app.history.location.pathname).toBe('/score-report/7');
          },
        },
        events: {
          'pupil.opensUnknownPage': async () => {
            await act(async () => app.history.push('/no-such-page'));
          },
          'pupil.goesToLogin': () => app.user.click(screen.getByRole('button', { name: 'Go to the login page' })),
          'teacher.opensProctorPage': async () => {
            await act(async () => app.history.push('/proctor'));
          },
          'teacher.opensLoginCodePage': async () => {
            await act(async () => app.history.push('/login-code'));
          },
          'teacher.clicksCheckThisTerminal': () => app.user.click(screen.getByRole('link', { name: 'Check this terminal' })),
          'teacher.opensTerminalCheckUrl': async () => {
            await act(async () => app.history.push('/checking-domain-connection'));
          },
          'teacher.pressesBack': () => app.user.click(screen.getByRole('button', { name: 'Back' })),
          'pupil.sendsCodeThenTeacherOpensCheck': async () => {
            await sendCode(app.user, 'AC3E-F4GH-J6KM');
            await waitFor(() => expect(app.control.waiting()).toContain('login'));
            await app.user.click(screen.getByRole('link', { name: 'Check this terminal' }));
          },
          'server.acceptsCode': () => serverAnswers(app.control, 'login'),
          'pupil.opensPrintRoute': async () => {
            await act(async () => app.history.push(`/score-report-embed/7?token=${PRINT_TOKEN}&locale=en&document=report`));
          },
          'server.sendsReport': () => serverAnswers(app.control, 'scoreReport'),
          'network.fails': async () => {
            await waitFor(() => expect(app.control.waiting().length).toBeGreaterThan(0));
            await act(async () => app.control.fail(app.control.waiting()[0]!, 'NETWORK_ERROR'));
          },
          'pupil.triesAgain': () => app.user.click(screen.getByRole('button', { name: 'Try again' })),
          'pupil.opensExamineeLogin': async () => {
            await act(async () => app.history.push(`/login?org_code=${demoOrganizations.examinee}`));
            await serverAnswers(app.control, 'organization');
          },
          'pupil.logsInAsExaminee': async () => {
            await logInOnPage(app, demoLogins.examinee);
            await serverAnswers(app.control, 'loginExaminee');
            await serverAnswers(app.control, 'exams');
          },
          'pupil.choosesExam': async () => {
            const [first] = await screen.findAllByRole('button', { name: 'Start' });
            await app.user.click(first!);
          },
          'pupil.opensSchoolLogin': async () => {
            await act(async () => app.history.push(`/login?org_code=${demoOrganizations.id}`));
            await serverAnswers(app.control, 'organization');
          },
          'pupil.logsInAsNewPupil': async () => {
            await logInOnPage(app, demoLogins.myPage);
            await serverAnswers(app.control, 'loginWithId');
          },
          'pupil.fillsAndReviews': async () => {
            const name = screen.getByRole('textbox', { name: 'Name' });
            await app.user.clear(name);
            await app.user.type(name, 'Aiko Tanaka');
            await app.user.selectOptions(screen.getByRole('combobox', { name: 'Grade' }), '4');
            const email = screen.getByRole('textbox', { name: 'Email' });
            await app.user.clear(email);
            await app.user.type(email, 'aiko@example.com');
            await app.user.click(screen.getByRole('button', { name: 'Next' }));
          },
          'pupil.changesDetails': () => app.user.click(screen.getByRole('button', { name: 'Change' })),
          'pupil.registers': async () => {
            await app.user.click(screen.getByRole('button', { name: 'Register' }));
            await serverAnswers(app.control, 'saveExamineeInfo');
          },
          'pupil.continues': () => app.user.click(screen.getByRole('button', { name: 'Continue' })),
          'server.sendsMenu': () => serverAnswers(app.control, 'chooseStatus'),
          'server.sendsMenuWithFee': async () => {
            app.control.server.menu = {
              exam_fee: { required: true, status: 0 },
              exam: { schedule_history_id: 7, status: 0, can_take: false },
              result: { released: false, payment_status: 0 },
            };
            await serverAnswers(app.control, 'chooseStatus');
          },
          'server.sendsMenuWithResults': async () => {
            app.control.server.menu = {
              exam_fee: { required: true, status: 2 },
              exam: { schedule_history_id: 7, status: 1, can_take: false },
              result: { released: true, payment_status: 0 },
            };
            await serverAnswers(app.control, 'chooseStatus');
          },
          'pupil.takesTest': () => app.user.click(screen.getByRole('button', { name: 'Take test' })),
          'pupil.logsOut': async () => {
            await app.user.click(screen.getByRole('button', { name: 'Log out' }));
            await serverAnswers(app.control, 'logout');
          },
          'pupil.paysFee': async () => {
            await app.user.click(screen.getByRole('button', { name: 'Pay fee' }));
            await serverAnswers(app.control, 'examPaymentSetting');
          },
          'pupil.agreesAndPays': async () => {
            await app.user.click(termsBox());
            await app.user.click(payButton());
            await serverAnswers(app.control, 'createExamFeeSession');
          },
          'pupil.pays': async () => {
            await app.user.click(payButton());
            await serverAnswers(app.control, 'createExamFeeSession');
          },
          'pupil.refusesDemo': async () => {
            await app.user.click(screen.getByRole('button', { name: 'Refuse' }));
            await serverAnswers(app.control, 'completeDemoPayment');
          },
          'pupil.authorisesDemo': async () => {
            await app.user.click(screen.getByRole('button', { name: 'Authorise' }));
            await serverAnswers(app.control, 'completeDemoPayment');
          },
          'pupil.goesBackToMenu': () => app.user.click(screen.getByRole('button', { name: 'Back to menu' })),
          'pupil.viewsResults': async () => {
            await app.user.click(screen.getByRole('button', { name: 'View results' }));
            await serverAnswers(app.control, 'shortResult');
            await serverAnswers(app.control, 'resultPaymentSetting');
          },
          'pupil.buysResultItems': async () => {
            app.control.server.provider = 'adyen';
            await app.user.click(screen.getByRole('button', { name: 'Buy the result sheet / certificate' }));
            await serverAnswers(app.control, 'resultPaymentSetting');
          },
          'pupil.choosesAgreesAndPays': async () => {
            await app.user.click(screen.getByRole('checkbox', { name: 'Result sheet' }));
            await app.user.click(screen.getByRole('checkbox', { name: 'Certificate' }));
            await app.user.click(termsBox());
            await app.user.click(payButton());
            await serverAnswers(app.control, 'createResultFeeSession');
          },
          'adyen.completes': async () => {
            await waitFor(() => expect(adyenWeb.configs.length).toBe(1));
            await act(async () => adyenWeb.configs[0]!.onPaymentCompleted({ resultCode: 'Authorised' }));
            // Adyen's notification reaches the server before the status call.
            providerNotifiesServer(app.control.server);
            await serverAnswers(app.control, 'paymentStatus');
          },
          'pupil.continuesToPurchases': async () => {
            await app.user.click(screen.getByRole('button', { name: 'Continue' }));
            await serverAnswers(app.control, 'shortResult');
            await serverAnswers(app.control, 'resultPaymentSetting');
          },
          'pupil.opensReport': async () => {
            await app.user.click(screen.getByRole('button', { name: 'Open the score report' }));
            await serverAnswers(app.control, 'scoreReport');
          },
          'pupil.prints': async () => {
            await app.user.click(screen.getByRole('button', { name: 'Print' }));
            expect(app.print).toHaveBeenCalledTimes(1);
          },
          'pupil.savesPdf': async () => {
            await app.user.click(screen.getByRole('button', { name: 'Save as PDF' }));
            await serverAnswers(app.control, 'resultDocument');
            await waitFor(() => expect(app.saveFile).toHaveBeenCalledWith(expect.any(Blob), 'score-report-7.pdf'));
          },
          'pupil.downloadsCertificate': async () => {
            await app.user.click(screen.getByRole('button', { name: 'Download the certificate' }));
            await serverAnswers(app.control, 'resultDocument');
            await waitFor(() => expect(app.saveFile).toHaveBeenCalledWith(expect.any(Blob), 'certificate-7.pdf'));
          },
        },
      });
    });
  }
});

/** What a visitor sees and does in the session model; the server's answers are events too. */
const sessionModel = createMachine({
  id: 'visitor',
  initial: 'codePage',
  states: {
    codePage: {
      on: {
        'pupil.sendsEmptyCode': 'codePage',
        'pupil.sendsMalformedCode': 'codePage',
        'pupil.sendsCode': 'codeSubmitting',
        'pupil.opensUnknownPage': 'notFound',
        'pupil.opensExamPage': 'forbidden',
        'pupil.opensRoot': 'codePage',
        'pupil.typesMenuUrl': 'forbidden',
        'pupil.opensProtectedPage': 'forbidden',
        'pupil.types404': 'notFound',
        'pupil.types403': 'forbidden',
        'pupil.opensExamEnd': 'examEndKept',
        'pupil.opensAppEntryWithoutOrg': 'notFound',
        'pupil.opensAppEntry': 'appEntryLoginLoading',
        'pupil.opensLoginPage': 'loginLoading',
        'pupil.opensOauthWithError': 'entryFailed',
        'pupil.opensOauth': 'identifyingOauth',
        'pupil.opensPartnerEntryWithoutToken': 'entryFailed',
        'pupil.opensKenya': 'exchangingKenya',
        'pupil.opensKenyaWithBadToken': 'exchangingBadKenya',
        'pupil.opensEgypt': 'identifyingEgypt',
      },
    },
    codeSubmitting: {
      on: {
        'server.refusesCode': 'codePage',
        'server.acceptsCode': 'examFlowCode',
      },
    },
    examFlowCode: {
      on: {
        'server.sendsDetails': 'confirmingCode',
        'terminal.restarts': 'examFlowRestored',
      },
    },
    examFlowRestored: {},
    confirmingCode: {
      on: {
        'pupil.saysNotMe': 'loggingOutCode',
        'pupil.confirms': 'tutorial',
      },
    },
    tutorial: { on: { 'pupil.continues': 'readyToStart' } },
    readyToStart: { on: { 'pupil.pressesStart': 'starting' } },
    starting: { on: { 'server.startsExam': 'examStarted' } },
    examStarted: {},
    loggingOutCode: {
      on: {
        'server.endsSession': 'codePageAfterLogout',
        // 401: the token was revoked or had expired already.
        'server.refusesToken': 'codePageAfterLogout',
        'network.fails': 'codePageAfterOfflineLogout',
      },
    },
    codePageAfterLogout: {},
    // No answer: nothing of the pupil is left, but the token waits to be revoked.
    codePageAfterOfflineLogout: {},
    notFound: {
      on: {
        'pupil.goesToLogin': 'codePage',
        'pupil.typesLoginCodeUrl': 'codePage',
      },
    },
    forbidden: { on: { 'pupil.goesToLogin': 'codePage' } },
    examEndKept: { on: { 'pupil.logsOut': 'codePage' } },
    entryFailed: { on: { 'pupil.goesToLogin': 'codePage' } },
    appEntryLoginLoading: { on: { 'server.sendsPlace': 'loginReady' } },
    loginLoading: {
      on: {
        'server.sendsPlace': 'loginReady',
        'server.refusesPlace': 'loginInvalid',
        'network.fails': 'loginPlaceFailed',
      },
    },
    loginInvalid: {},
    loginPlaceFailed: { on: { 'pupil.triesAgain': 'loginLoading' } },
    loginReady: {
      on: {
        'pupil.sendsEmptyCredentials': 'loginReady',
        'pupil.sendsCredentials': 'loginSubmitting',
        'pupil.sendsMyPageCredentials': 'myPageSubmitting',
        'pupil.sendsRegisteredCredentials': 'registeredSubmitting',
      },
    },
    loginSubmitting: {
      on: {
        'server.refusesLogin': 'loginReady',
        'server.acceptsLogin': 'examFlowId',
      },
    },
    examFlowId: { on: { 'server.sendsDetails': 'confirmingId' } },
    confirmingId: { on: { 'pupil.saysNotMe': 'loggingOutId' } },
    loggingOutId: { on: { 'server.endsSession': 'loginPageAfterLogout' } },
    loginPageAfterLogout: {},
    myPageSubmitting: { on: { 'server.acceptsLogin': 'inputInfo' } },
    registeredSubmitting: { on: { 'server.acceptsLogin': 'info' } },
    inputInfo: {
      on: {
        'pupil.reviewsEmptyForm': 'inputInfo',
        'pupil.fillsForm': 'inputInfoFilled',
      },
    },
    inputInfoFilled: { on: { 'pupil.reviews': 'confirmingInfo' } },
    confirmingInfo: {
      on: {
        'pupil.changesDetails': 'inputInfoFilled',
        'pupil.registers': 'savingInfo',
      },
    },
    savingInfo: {
      on: {
        'server.savesInfo': 'info',
        'network.fails': 'confirmingInfo',
        'server.isInMaintenance': 'loggingOutWithError',
        'server.refusesToken': 'loggingOutWithError',
      },
    },
    info: {
      on: {
        'pupil.continues': 'menuLoading',
        'terminal.restarts': 'infoRestored',
      },
    },
    infoRestored: {},
    menuLoading: {
      on: {
        'server.sendsMenu': 'menuReady',
        'server.sendsMenuWithFee': 'menuWithFee',
        'server.sendsMenuWithResults': 'menuWithResults',
        'network.fails': 'menuFailed',
        'server.isInMaintenance': 'loggingOutWithError',
        'server.refusesToken': 'loggingOutWithError',
      },
    },
    menuFailed: { on: { 'pupil.triesAgain': 'menuLoading' } },
    // After a reload on a screen past the menu: the menu's status again, no screen of its own.
    feeReopening: {
      on: {
        'server.sendsMenuWithFee': 'feeLoading',
        // Paid meanwhile (another tab): the menu stands in, and says so.
        'server.sendsMenuWithFeePaid': 'menuFeePaid',
        'network.fails': 'menuFailed',
        'server.isInMaintenance': 'loggingOutWithError',
        'server.refusesToken': 'loggingOutWithError',
      },
    },
    menuFeePaid: {},
    resultsReopening: { on: { 'server.sendsMenuWithResults': 'resultLoading' } },
    resultPayReopening: { on: { 'server.sendsMenuWithResults': 'resultPayLoading' } },
    purchasedReopening: { on: { 'server.sendsMenuWithResults': 'purchasedLoading' } },
    reportReopening: { on: { 'server.sendsMenuWithResults': 'reportOwnedLoading' } },
    // The report reopened: what is owned is read first (no screen yet).
    reportOwnedLoading: {
      on: {
        'server.sendsOwnedResult': 'reportLoading',
        'server.sendsResult': 'resultReady',
        'network.fails': 'resultFailed',
        'server.isInMaintenance': 'loggingOutWithError',
        'server.refusesToken': 'loggingOutWithError',
      },
    },
    menuReady: {
      on: {
        'pupil.takesTest': 'examFlowMenu',
        // A reload of the menu stays on the menu (loaded anew), not on the basic information.
        'terminal.restarts': 'menuLoading',
      },
    },
    examFlowMenu: {},
    loggingOutWithError: { on: { 'server.endsSession': 'loginPageWithError' } },
    loginPageWithError: {},
    identifyingOauth: {
      on: {
        'server.identifiesToken': 'examListLoading',
        'server.refusesToken': 'entryFailedWithSchool',
      },
    },
    entryFailedWithSchool: { on: { 'pupil.goesToLogin': 'loginLoading' } },
    examListLoading: {
      on: {
        'server.sendsExams': 'examListReady',
        'network.fails': 'examListFailed',
        'server.isInMaintenance': 'loggingOutWithError',
        'server.refusesToken': 'loggingOutWithError',
      },
    },
    examListFailed: { on: { 'pupil.triesAgain': 'examListLoading' } },
    examListReady: { on: { 'pupil.choosesExam': 'examFlowChosen' } },
    examFlowChosen: {},
    exchangingKenya: {
      on: {
        'server.exchangesToken': 'identifyingPartner',
        'network.fails': 'entryFailed',
      },
    },
    exchangingBadKenya: { on: { 'server.exchangesToken': 'entryFailed' } },
    identifyingEgypt: { on: { 'server.identifiesToken': 'partnerExamList' } },
    identifyingPartner: { on: { 'server.identifiesToken': 'partnerExamList' } },
    partnerExamList: { on: { 'server.sendsExams': 'partnerExamListReady' } },
    partnerExamListReady: { on: { 'pupil.logsOut': 'partnerLoggingOut' } },
    partnerLoggingOut: { on: { 'server.endsSession': 'leavingForPartner' } },
    leavingForPartner: {
      on: {
        'server.sendsConfig': 'leftForPartner',
        'server.sendsConfigWithoutUrl': 'codePageAfterLogout',
        'network.fails': 'codePageAfterLogout',
      },
    },
    leftForPartner: {},
    // The exam fee (pay-exam-fee): the payment machine as the payment screen shows it.
    menuWithFee: { on: { 'pupil.paysFee': 'feeLoading' } },
    feeLoading: {
      on: {
        'server.sendsFeeSetting': 'feeChoosing',
        'server.sendsPaidFeeSetting': 'feeNothingToPay',
        'server.sendsAdyenFeeSetting': 'adyenFeeChoosing',
        'network.fails': 'feeLoadFailed',
      },
    },
    feeLoadFailed: {
      on: {
        'pupil.triesAgain': 'feeLoading',
        'pupil.goesBackToMenu': 'menuLoading',
      },
    },
    feeNothingToPay: { on: { 'pupil.continues': 'menuLoading' } },
    feeChoosing: {
      on: {
        // A reload on the fee's payment: the menu is read again first (the URL stays).
        'terminal.restarts': 'feeReopening',
        'pupil.agreesToTerms': 'feeAgreed',
        'pupil.goesBackToMenu': 'menuLoading',
      },
    },
    feeAgreed: { on: { 'pupil.pays': 'feeStarting' } },
    feeStarting: {
      on: {
        'server.opensCheckout': 'feeCheckout',
        'server.saysAlreadyPaid': 'feeLoading',
        'server.refusesCheckout': 'feeDeclined',
      },
    },
    feeCheckout: {
      on: {
        // Back (the browser's button) leaves the checkout open: PENDING on the server.
        'pupil.leavesCheckout': 'feeLeftLoading',
        'pupil.authorisesDemo': 'feeReportingAuthorised',
        'pupil.refusesDemo': 'feeReportingRefused',
        'pupil.cancelsDemo': 'feeReportingCancelled',
      },
    },
    feeReportingAuthorised: {
      on: {
        'server.confirmsPayment': 'feePaid',
        'server.keepsCheckoutOpen': 'feeWaiting',
        'server.reportsCheckoutError': 'feeDeclined',
        'network.fails': 'feeDeclined',
      },
    },
    feeReportingRefused: {
      on: {
        'server.confirmsOutcome': 'feeDeclined',
        'server.keepsCheckoutOpen': 'feeLastWait',
      },
    },
    feeReportingCancelled: { on: { 'server.confirmsOutcome': 'feeDeclined' } },
    feeWaiting: { on: { 'time.passes': 'feeChecking' } },
    feeChecking: {
      on: {
        'server.confirmsPayment': 'feePaid',
        'server.keepsCheckoutOpen': 'feeWaiting',
        'network.fails': 'feeWaiting',
        'server.fails': 'feeDeclined',
      },
    },
    // The provider said refused but the server heard nothing: one more look, then the provider's word.
    feeLastWait: { on: { 'time.passes': 'feeLastCheck' } },
    feeLastCheck: { on: { 'server.keepsCheckoutOpen': 'feeDeclined' } },
    feeDeclined: {
      on: {
        'pupil.triesAgain': 'feeAgreed',
        'pupil.goesBackToMenu': 'menuLoading',
      },
    },
    feePaid: { on: { 'pupil.continues': 'menuLoading' } },
    feeLeftLoading: { on: { 'server.sendsMenuWithPendingFee': 'menuWithPendingFee' } },
    menuWithPendingFee: {
      on: {
        'pupil.resumesPayment': 'feeLoading',
        // The shopper finished on the provider's (bank's) page, which sends the browser back.
        'provider.redirectsBack': 'feeReturnLoading',
      },
    },
    feeReturnLoading: {
      on: {
        'server.sendsFeeSetting': 'feeChecking',
        'server.sendsAdyenFeeSetting': 'adyenFeeReturning',
      },
    },
    adyenFeeReturning: { on: { 'adyen.completesRedirect': 'feeChecking' } },
    adyenFeeChoosing: { on: { 'pupil.agreesAndPays': 'adyenFeeStarting' } },
    adyenFeeStarting: { on: { 'server.opensCheckout': 'adyenFeeCheckout' } },
    adyenFeeCheckout: { on: { 'adyen.completes': 'feeChecking' } },
    // The results (short-result), their payment (pay-exam-result), purchased-result, score-report.
    menuWithResults: { on: { 'pupil.viewsResults': 'resultLoading' } },
    resultLoading: {
      on: {
        'server.sendsResult': 'resultReady',
        'server.sendsOwnedResult': 'resultOwnedReady',
        'network.fails': 'resultFailed',
        'server.isInMaintenance': 'loggingOutWithError',
        'server.refusesToken': 'loggingOutWithError',
      },
    },
    resultFailed: {
      on: {
        'pupil.triesAgain': 'resultLoading',
        'pupil.goesBackToMenu': 'menuLoading',
      },
    },
    resultReady: {
      on: {
        'terminal.restarts': 'resultsReopening',
        // Back on the result payment opened from here: the short result again.
        'pupil.buysThenPressesBack': 'resultLoading',
        'pupil.buysResultItems': 'resultPayLoading',
        'pupil.goesBackToMenu': 'menuLoading',
      },
    },
    resultOwnedReady: {
      on: {
        'pupil.opensReport': 'reportLoading',
        // The browser's Back on the score report: the short result it was opened from, loaded anew.
        'pupil.readsReportThenPressesBack': 'resultLoading',
      },
    },
    resultPayLoading: {
      on: {
        'server.sendsResultSetting': 'resultChoosing',
        'server.sendsAdyenResultSetting': 'adyenResultChoosing',
        'network.fails': 'resultPayLoadFailed',
      },
    },
    resultPayLoadFailed: {
      on: {
        'pupil.triesAgain': 'resultPayLoading',
        // "Back to menu" on pay-exam-result returns to the short result.
        'pupil.goesBackToMenu': 'resultLoading',
      },
    },
    resultChoosing: { on: { 'pupil.ticksItems': 'resultItemsTicked', 'terminal.restarts': 'resultPayReopening' } },
    resultItemsTicked: { on: { 'pupil.agreesToTerms': 'resultAgreed' } },
    resultAgreed: { on: { 'pupil.pays': 'resultStarting' } },
    resultStarting: { on: { 'server.opensCheckout': 'resultCheckout' } },
    resultCheckout: {
      on: {
        'provider.redirectsBack': 'resultReturnLoading',
        'pupil.authorisesDemo': 'resultReporting',
        'pupil.refusesDemo': 'resultReportingRefused',
      },
    },
    resultReporting: { on: { 'server.confirmsPayment': 'resultPaid' } },
    resultReportingRefused: { on: { 'server.confirmsOutcome': 'resultDeclined' } },
    resultDeclined: { on: { 'pupil.triesAgain': 'resultAgreed' } },
    resultPaid: { on: { 'pupil.continues': 'purchasedLoading' } },
    adyenResultChoosing: { on: { 'pupil.choosesAgreesAndPays': 'adyenResultStarting' } },
    adyenResultStarting: { on: { 'server.opensCheckout': 'adyenResultCheckout' } },
    adyenResultCheckout: { on: { 'adyen.completes': 'resultChecking' } },
    resultChecking: { on: { 'server.confirmsPayment': 'resultPaid' } },
    resultReturnLoading: { on: { 'server.sendsAdyenResultSetting': 'adyenResultReturning' } },
    adyenResultReturning: { on: { 'adyen.completesRedirect': 'resultChecking' } },
    purchasedLoading: {
      on: {
        'server.sendsOwnedResult': 'purchasedReady',
        'server.sendsPartlyOwnedResult': 'purchasedPartReady',
        'network.fails': 'purchasedFailed',
        'server.isInMaintenance': 'loggingOutWithError',
        'server.refusesToken': 'loggingOutWithError',
      },
    },
    purchasedFailed: { on: { 'pupil.triesAgain': 'purchasedLoading' } },
    // The result sheet owned, the certificate not yet: "Buy" opens pay-exam-result again.
    purchasedPartReady: {
      on: {
        'pupil.buysResultItems': 'resultPayLoading',
        // Back on the result payment opened from here: the purchased result again.
        'pupil.buysThenPressesBack': 'purchasedLoading',
      },
    },
    purchasedReady: {
      on: {
        'terminal.restarts': 'purchasedReopening',
        // Back: the result payment the pupil came from.
        'pupil.pressesBack': 'resultPayLoading',
        'pupil.downloadsCertificate': 'purchasedDownloading',
        'pupil.opensReport': 'reportLoading',
        'pupil.goesBackToMenu': 'menuLoading',
        // The browser's Back on the score report: the purchased result it was opened from, loaded anew.
        'pupil.readsReportThenPressesBack': 'purchasedLoading',
      },
    },
    purchasedDownloading: {
      on: {
        'server.sendsDocument': 'purchasedReady',
        'network.fails': 'purchasedDownloadFailed',
        'server.isInMaintenance': 'loggingOutWithError',
        'server.refusesToken': 'loggingOutWithError',
      },
    },
    purchasedDownloadFailed: { on: { 'pupil.downloadsCertificate': 'purchasedDownloading' } },
    reportLoading: {
      on: {
        'server.sendsReport': 'reportReady',
        'network.fails': 'reportFailed',
        'server.isInMaintenance': 'loggingOutWithError',
        'server.refusesToken': 'loggingOutWithError',
      },
    },
    reportFailed: {
      on: {
        'pupil.triesAgain': 'reportLoading',
        'pupil.typesMenuUrl': 'menuLoading',
        'pupil.goesBackToMenu': 'menuLoading',
      },
    },
    reportReady: {
      on: {
        'terminal.restarts': 'reportReopening',
        'pupil.prints': 'reportReady',
        'pupil.savesPdf': 'reportDownloading',
        'pupil.downloadsCertificate': 'reportCertificateDownloading',
        // Back from the score report: its button, or the menu's URL.
        'pupil.goesBackToMenu': 'menuLoading',
        'pupil.typesMenuUrl': 'menuLoading',
      },
    },
    reportDownloading: {
      on: {
        'server.sendsDocument': 'reportReady',
        'network.fails': 'reportDownloadFailed',
        'server.isInMaintenance': 'loggingOutWithError',
        'server.refusesToken': 'loggingOutWithError',
      },
    },
    reportCertificateDownloading: {
      on: {
        'server.sendsDocument': 'reportReady',
        'network.fails': 'reportDownloadFailed',
        'server.isInMaintenance': 'loggingOutWithError',
        'server.refusesToken': 'loggingOutWithError',
      },
    },
    reportDownloadFailed: {
      on: {
        'pupil.savesPdf': 'reportDownloading',
        'pupil.downloadsCertificate': 'reportCertificateDownloading',
      },
    },
  },
});


interface SessionApp {
  control: ControlledApi;
  history: ReturnType<typeof createMemoryHistory>;
  storage: ReturnType<typeof memoryStorage>;
  user: ReturnType<typeof userEvent.setup>;
  left: string[];
  /** The app's clock: the payment's confirmation backoff moves only when the path says so. */
  clock: SimulatedClock;
  /** The token each POST /logout was sent with (never without one). */
  logoutTokens: Array<string | undefined>;
  /** The edge's file download and print dialog. */
  saveFile: Mock<(file: Blob, name: string) => void>;
  print: Mock<() => void>;
  stop: () => void;
}


/**
 * Session transitions no path through the rendered app can take, because the view gives no way
 * to send their event: the report test requires exactly these to be missing.
 */
/** Session transitions the screens give no way to: none (a gap here is a missing button). */
const sessionUnreachable: Record<string, string> = {};

let current: SessionApp | undefined;

/** Boots the app at `url`: storage as the terminal has it (a stored INCORRECT_DEVICE end). */
async function renderSessionApp(options: { url: string; storage?: ReturnType<typeof memoryStorage>; control?: ControlledApi }) {
  const storage = options.storage ?? memoryStorage();
  const control = options.control ?? createControlledApi();
  const left: string[] = [];
  const logoutTokens: Array<string | undefined> = [];
  // The logout call as the machine makes it: which token it carries is recorded.
  const api = { ...control.api, logout: (token?: string) => (logoutTokens.push(token), control.api.logout(token)) };
  const clock = new SimulatedClock();
  const saveFile = vi.fn<(file: Blob, name: string) => void>();
  const print = vi.fn<() => void>();
  const { kiosk, history, stopSync } = await renderKioskApp({
    deps: { api, storage, leaveApp: (url) => void left.push(url), saveFile, print },
    input: { storedSession: readSession(storage), storedToken: null, storedErrorCode: 'INCORRECT_DEVICE' },
    url: options.url,
    inspect: record,
    clock,
  });
  const app: SessionApp = {
    control,
    history,
    storage,
    user: userEvent.setup(),
    left,
    logoutTokens,
    clock,
    saveFile,
    print,
    stop: () => {
      stopSync();
      kiosk.stop();
    },
  };
  current = app;
  return app;
}


/** A reload past the menu: the menu's status is read again, the reloaded URL kept, no screen yet (the skeleton). */
async function reopening(app: SessionApp, path: string) {
  await waitFor(() => expect(app.control.waiting()).toContain('chooseStatus'));
  expect(app.history.location.pathname).toBe(path);
  expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
}
const url = (app: SessionApp) => `${app.history.location.pathname}${app.history.location.search}`;

async function open(app: SessionApp, path: string) {
  await act(async () => app.history.push(path));
}

async function serverFails(app: SessionApp, code: Parameters<ControlledApi['fail']>[1], status?: number) {
  await waitFor(() => expect(app.control.waiting().length).toBeGreaterThan(0));
  const method = app.control.waiting()[0]!;
  await act(async () => app.control.fail(method, code, status));
}

async function sendCredentials(app: SessionApp, loginId: string, password: string) {
  const id = await screen.findByRole('textbox', { name: 'Login ID' });
  await app.user.clear(id);
  if (loginId) await app.user.type(id, loginId);
  const secret = screen.getByLabelText('Password');
  await app.user.clear(secret);
  if (password) await app.user.type(secret, password);
  await app.user.click(screen.getByRole('button', { name: 'Log in' }));
}

const nothingOfThePupil = (app: SessionApp) => expect(examineeKeys.filter((key) => app.storage.items.has(key))).toEqual([]);

/**
 * Logging out: POST /logout waits, sent with the pupil's token, which is still
 * stored (nothing is wiped before the server ended it) and noted for revocation meanwhile.
 */
async function logoutWaitsWithToken(app: SessionApp) {
  await waitFor(() => expect(app.control.waiting()).toContain('logout'));
  const token = readToken(app.storage);
  expect(token).toBeTruthy();
  expect(app.logoutTokens.at(-1)).toBe(token);
  expect(readPendingRevocations(app.storage)).toEqual([token]);
}

type Method = Parameters<ControlledApi['answer']>[0];

/** The server answers the waiting call of `method` with `reply` instead of its own state. */
async function serverAnswersWith(app: SessionApp, method: Method, reply: () => unknown) {
  await waitFor(() => expect(app.control.waiting()).toContain(method));
  const server = app.control.server as unknown as Record<string, unknown>;
  const own = server[method];
  server[method] = async () => reply();
  await act(async () => app.control.answer(method));
  server[method] = own;
}

/** What a checkout's status call answers while the server has no outcome yet (PENDING). */
function stillOpen(app: SessionApp, outcome: 'open' | 'authorised' | 'error' = 'authorised') {
  const [reference] = [...app.control.server.checkouts.keys()].slice(-1);
  const kinds = app.control.server.checkouts.get(reference ?? '')?.kinds ?? ['exam_fee'];
  return { reference: reference ?? 'GR-unknown', status: 1 as const, outcome, kinds, server_time: new Date().toISOString() };
}

/** Adyen's redirect result for the paths (opaque to us; handed back to Adyen as it came). */
const REDIRECT_RESULT = 'X6XtfGC3!Y3Jg2';

/** Where the provider sends the browser back: the returnUrl the server gave it, with Adyen's additions. */
function providerReturnUrl(app: SessionApp, path: '/pay-exam-fee' | '/pay-exam-result') {
  const [reference] = [...app.control.server.checkouts.keys()].slice(-1);
  const query = new URLSearchParams({ schedule_history_id: '7', reference: reference ?? '', sessionId: 'CS1234', redirectResult: REDIRECT_RESULT });
  return `${path}?${query}`;
}

/** The provider's notification reached the server: every open checkout is paid. */

const menuWithFee: FakeApi['menu'] = {
  exam_fee: { required: true, status: 0 },
  exam: { schedule_history_id: 7, status: 0, can_take: false },
  result: { released: false, payment_status: 0 },
};
const menuWithResults: FakeApi['menu'] = {
  exam_fee: { required: true, status: 2 },
  exam: { schedule_history_id: 7, status: 1, can_take: false },
  result: { released: true, payment_status: 0 },
};


/** The session model's check of each state, on the app `current` returns (a restart boots a new one). */
function sessionStates(current: () => SessionApp) {
  return {
    codePage: async () => {
      const app = current();
      await heading('Log in with your login code');
      expect(app.history.location.pathname).toBe('/login-code');
    },
    codeSubmitting: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('login'));
    },
    examFlowCode: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('examDetails'));
      expect(app.storage.items.get(storageKeys.token)).toBe('token-1');
    },
    examFlowRestored: async () => {
      const app = current();
      // The reloaded terminal resumes the stored session: the exam asks for its details again.
      await waitFor(() => expect(app.control.waiting()).toContain('examDetails'));
      expect(app.control.waiting()).not.toContain('login');
      expect(readSession(app.storage)?.token).toBe('token-1');
    },
    confirmingCode: async () => {
      await heading('Is this you?');
    },
    tutorial: async () => {
      await heading('How the test works');
    },
    readyToStart: async () => {
      await heading('Ready to start');
    },
    starting: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('startExam'));
    },
    examStarted: async () => {
      const app = current();
      await waitFor(() => expect(app.history.location.pathname).toBe('/start'));
      expect(readSession(app.storage)?.schedule_history_id).toBe(7);
    },
    loggingOutCode: async () => {
      const app = current();
      await logoutWaitsWithToken(app);
      expect(app.logoutTokens.at(-1)).toBe('token-1');
    },
    codePageAfterLogout: async () => {
      const app = current();
      await heading('Log in with your login code');
      expect(url(app)).toBe('/login-code?logout=1');
      nothingOfThePupil(app);
      expect(readPendingRevocations(app.storage)).toEqual([]);
      expect(app.storage.items.has(storageKeys.pendingRevocations)).toBe(false);
    },
    codePageAfterOfflineLogout: async () => {
      const app = current();
      await heading('Log in with your login code');
      expect(url(app)).toBe('/login-code?logout=1');
      nothingOfThePupil(app);
      // Only the bare token, under its own key: never readable as a session.
      expect(readPendingRevocations(app.storage)).toEqual(['token-1']);
      expect(readSession(app.storage)).toBeNull();
      expect(readToken(app.storage)).toBeNull();
    },
    notFound: async () => {
      const app = current();
      await heading('Page not found');
      expect(app.history.location.pathname).toBe('/404');
    },
    forbidden: async () => {
      const app = current();
      // Rule 7: the "not logged in" view with the header, one main and one h1.
      await heading('You are not logged in.');
      expect(screen.getByText('You need to log in to see this page.')).toBeTruthy();
      expect(screen.getByRole('banner')).toBeTruthy();
      expect(screen.getAllByRole('main')).toHaveLength(1);
      expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
      expect(app.history.location.pathname).toBe('/403');
    },
    examEndKept: async () => {
      const app = current();
      // The end screen itself (its route may load lazily): not the heading of the screen before.
      expect(await screen.findByRole('button', { name: /Log out/ })).toBeTruthy();
      await heading(/.+/);
      expect(app.history.location.pathname).toBe('/exam-end');
    },
    entryFailed: async () => {
      await heading('Could not log in');
      expect(screen.getByRole('alert')).toBeTruthy();
    },
    entryFailedWithSchool: async () => {
      const app = current();
      await heading('Could not log in');
      expect(app.storage.items.get(storageKeys.token)).toBeUndefined();
    },
    appEntryLoginLoading: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('appSchedule'));
      expect(url(app)).toBe('/login?org_code=ORG1&from=app_entry');
    },
    loginLoading: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('organization'));
      expect(app.history.location.pathname).toBe('/login');
    },
    loginInvalid: async () => {
      await screen.findByText(/Please check the address of this page/);
    },
    loginPlaceFailed: async () => {
      await screen.findByRole('button', { name: 'Try again' });
    },
    loginReady: async () => {
      await heading('Log in');
      expect(await screen.findByText('Sakura Primary')).toBeTruthy();
    },
    loginSubmitting: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('loginWithId'));
    },
    myPageSubmitting: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('loginWithId'));
    },
    registeredSubmitting: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('loginWithId'));
    },
    examFlowId: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('examDetails'));
    },
    confirmingId: async () => {
      await heading('Is this you?');
    },
    loggingOutId: async () => {
      const app = current();
      await logoutWaitsWithToken(app);
    },
    loginPageAfterLogout: async () => {
      const app = current();
      await waitFor(() => expect(url(app)).toBe('/login?school=ORG1&logout=1'));
      nothingOfThePupil(app);
      expect(readPendingRevocations(app.storage)).toEqual([]);
    },
    inputInfo: async () => {
      const app = current();
      await heading('Your basic information');
      expect(app.history.location.pathname).toBe('/examinee-input-info');
    },
    inputInfoFilled: async () => {
      expect((screen.getByRole('textbox', { name: 'Email' }) as HTMLInputElement).value).toBe('aiko@example.com');
    },
    confirmingInfo: async () => {
      await heading('Check your details');
    },
    savingInfo: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('saveExamineeInfo'));
    },
    info: async () => {
      const app = current();
      await heading('Your basic information');
      expect(app.history.location.pathname).toBe('/examinee-info');
      expect(screen.getByText('aiko@example.com')).toBeTruthy();
    },
    infoRestored: async () => {
      const app = current();
      // A my-page user's reload shows their basic information again, then the menu.
      await heading('Your basic information');
      expect(app.history.location.pathname).toBe('/examinee-info');
    },
    menuLoading: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('chooseStatus'));
      expect(app.history.location.pathname).toBe('/testing-menu');
    },
    menuFailed: async () => {
      await screen.findByRole('button', { name: 'Try again' });
    },
    feeReopening: async () => {
      const app = current();
      await reopening(app, '/pay-exam-fee');
    },
    menuFeePaid: async () => {
      const app = current();
      await screen.findByText('Fee paid');
      expect(app.history.location.pathname).toBe('/testing-menu');
      // In place of the payment's URL: no entry of it is left behind.
      expect(app.history.length).toBe(1);
    },
    resultsReopening: async () => {
      const app = current();
      await reopening(app, '/short-result');
    },
    resultPayReopening: async () => {
      const app = current();
      await reopening(app, '/pay-exam-result');
    },
    purchasedReopening: async () => {
      const app = current();
      await reopening(app, '/purchased-result');
    },
    reportReopening: async () => {
      const app = current();
      await reopening(app, '/score-report/7');
    },
    reportOwnedLoading: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('shortResult'));
      expect(app.history.location.pathname).toBe('/score-report/7');
      expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
    },
    menuReady: async () => {
      await screen.findByRole('button', { name: 'Take test' });
    },
    examFlowMenu: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('examDetails'));
      expect(readSession(app.storage)?.schedule_history_id).toBe(7);
    },
    loggingOutWithError: async () => {
      const app = current();
      await logoutWaitsWithToken(app);
    },
    loginPageWithError: async () => {
      const app = current();
      // Seed section 4: a session ended by an error goes to the login page with school and error_code.
      await waitFor(() => expect(url(app)).toMatch(/^\/login\?school=ORG1&error_code=(DURING_MAINTENANCE|GENERIC_ERROR)$/));
      nothingOfThePupil(app);
      expect(readPendingRevocations(app.storage)).toEqual([]);
    },
    identifyingOauth: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('me'));
      expect(app.storage.items.get(storageKeys.token)).toBe('sso-token');
      await heading('Signing you in…');
    },
    examListLoading: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('exams'));
      expect(app.history.location.pathname).toBe('/exam-step-mode');
    },
    examListFailed: async () => {
      await screen.findByRole('button', { name: 'Try again' });
    },
    examListReady: async () => {
      await heading('Choose an exam');
      expect(screen.getAllByRole('button', { name: 'Start' }).length).toBeGreaterThan(0);
    },
    examFlowChosen: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('examDetails'));
      expect(readSession(app.storage)?.schedule_history_id).toBe(7);
    },
    exchangingKenya: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('kenyaLoginLink'));
    },
    exchangingBadKenya: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('kenyaLoginLink'));
    },
    identifyingEgypt: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('me'));
      expect(app.storage.items.get(storageKeys.loginType)).toBe('7');
    },
    identifyingPartner: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('me'));
      expect(app.storage.items.get(storageKeys.loginType)).toBe('6');
    },
    partnerExamList: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('exams'));
      expect(app.history.location.pathname).toBe('/exam');
    },
    partnerExamListReady: async () => {
      await heading('Choose an exam');
    },
    partnerLoggingOut: async () => {
      const app = current();
      await logoutWaitsWithToken(app);
    },
    leavingForPartner: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('clientConfig'));
    },
    leftForPartner: async () => {
      const app = current();
      await waitFor(() => expect(app.left.length).toBe(1));
      expect(app.left[0]).toMatch(/^https:\/\/(kenya|egypt)\.example\/$/);
      nothingOfThePupil(app);
      expect(readPendingRevocations(app.storage)).toEqual([]);
    },
    menuWithFee: async () => {
      await screen.findByRole('button', { name: 'Pay fee' });
      expect((screen.getByRole('button', { name: 'Take test' }) as HTMLButtonElement).disabled).toBe(true);
    },
    feeLoading: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('examPaymentSetting'));
      await heading('Pay the exam fee');
      expect(app.history.location.pathname).toBe('/pay-exam-fee');
    },
    feeLoadFailed: async () => {
      expect((await screen.findByRole('alert')).textContent).toContain('Network error');
      expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    },
    feeNothingToPay: async () => {
      // Paid already when the screen opened: the payment machine starts in `paid`, and says so.
      await screen.findByText('This has already been paid for. You will not be charged again.');
      expect(within(screen.getByRole('list', { name: 'Paid items' })).getByText('Exam fee')).toBeTruthy();
      expect(screen.queryByRole('button', { name: /^Pay / })).toBeNull();
    },
    feeChoosing: async () => {
      await screen.findByRole('heading', { level: 2, name: 'What you pay for' });
      expect(termsBox().checked).toBe(false);
      expect(payButton().disabled).toBe(true);
      expect(screen.getByTestId('payment-total').textContent).toBe('$15.00');
    },
    feeAgreed: async () => {
      await waitFor(() => expect(termsBox().checked).toBe(true));
      expect(payButton().disabled).toBe(false);
    },
    feeStarting: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('createExamFeeSession'));
    },
    feeCheckout: async () => {
      await screen.findByRole('heading', { level: 2, name: 'Demo payment — no real card is charged' });
    },
    feeReportingAuthorised: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('completeDemoPayment'));
      await screen.findByText(/Confirming your payment/);
    },
    feeReportingRefused: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('completeDemoPayment'));
    },
    feeReportingCancelled: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('completeDemoPayment'));
    },
    feeWaiting: async () => {
      const app = current();
      await screen.findByText(/Confirming your payment/);
      expect(app.control.waiting()).toEqual([]);
    },
    feeChecking: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('paymentStatus'));
      expect(screen.getByText(/Confirming your payment/)).toBeTruthy();
    },
    feeLastWait: async () => {
      const app = current();
      await screen.findByText(/Confirming your payment/);
      expect(app.control.waiting()).toEqual([]);
    },
    feeLastCheck: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('paymentStatus'));
    },
    feeDeclined: async () => {
      const app = current();
      await screen.findByRole('alert');
      expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
      expect(app.control.server.paid.exam_fee).not.toBe(2);
    },
    feePaid: async () => {
      const app = current();
      await screen.findByText('Payment complete. Thank you.');
      expect(app.control.server.paid.exam_fee).toBe(2);
    },
    feeLeftLoading: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('chooseStatus'));
      expect(app.history.location.pathname).toBe('/testing-menu');
      // The checkout left behind is PENDING: opened, not completed.
      expect(app.control.server.paid.exam_fee).toBe(1);
    },
    menuWithPendingFee: async () => {
      await screen.findByText('Payment not completed');
      expect(screen.getByRole('button', { name: 'Go to the payment' })).toBeTruthy();
      expect((screen.getByRole('button', { name: 'Take test' }) as HTMLButtonElement).disabled).toBe(true);
    },
    feeReturnLoading: async () => {
      const app = current();
      // Back from the provider: the payment screen, not the start of the app.
      await waitFor(() => expect(app.control.waiting()).toContain('examPaymentSetting'));
      await heading('Pay the exam fee');
      expect(app.history.location.pathname).toBe('/pay-exam-fee');
    },
    adyenFeeReturning: async () => {
      await waitFor(() => expect(adyenWeb.submitted).toEqual([{ details: { redirectResult: REDIRECT_RESULT } }]));
      expect(screen.getByText(/Confirming your payment/)).toBeTruthy();
      expect(adyenWeb.mounted).toBe(0);
    },
    adyenFeeChoosing: async () => {
      await screen.findByRole('heading', { level: 2, name: 'What you pay for' });
      expect(payButton().disabled).toBe(true);
    },
    adyenFeeStarting: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('createExamFeeSession'));
    },
    adyenFeeCheckout: async () => {
      await waitFor(() => expect(adyenWeb.mounted).toBe(1));
      expect(screen.queryByRole('heading', { name: /Demo payment/ })).toBeNull();
    },
    menuWithResults: async () => {
      await screen.findByRole('button', { name: 'View results' });
      expect(screen.getByText('Exam completed')).toBeTruthy();
    },
    resultLoading: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('shortResult'));
      await heading('Your result');
      expect(app.history.location.pathname).toBe('/short-result');
    },
    resultFailed: async () => {
      expect((await screen.findByRole('alert')).textContent).toContain('Network error');
    },
    resultReady: async () => {
      await screen.findByText('Passed');
      expect(screen.getByRole('button', { name: 'Buy the result sheet / certificate' })).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Open the score report' })).toBeNull();
    },
    resultOwnedReady: async () => {
      await screen.findByRole('button', { name: 'Open the score report' });
      expect(screen.queryByRole('button', { name: 'Buy the result sheet / certificate' })).toBeNull();
    },
    resultPayLoading: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('resultPaymentSetting'));
      await heading('Buy the result sheet and certificate');
      expect(app.history.location.pathname).toBe('/pay-exam-result');
    },
    resultPayLoadFailed: async () => {
      expect((await screen.findByRole('alert')).textContent).toContain('Network error');
    },
    resultChoosing: async () => {
      await screen.findByRole('heading', { level: 2, name: 'Choose what to buy' });
      expect(payButton().disabled).toBe(true);
      expect(screen.getByTestId('payment-total').textContent).toBe('$0.00');
    },
    resultItemsTicked: async () => {
      await waitFor(() => expect(screen.getByTestId('payment-total').textContent).toBe('$13.00'));
      expect(payButton().disabled).toBe(true);
    },
    resultAgreed: async () => {
      await waitFor(() => expect(payButton().disabled).toBe(false));
      expect(termsBox().checked).toBe(true);
    },
    resultStarting: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('createResultFeeSession'));
    },
    resultCheckout: async () => {
      await screen.findByRole('heading', { level: 2, name: 'Demo payment — no real card is charged' });
      expect(screen.getByTestId('payment-total').textContent).toBe('$13.00');
    },
    resultReporting: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('completeDemoPayment'));
    },
    resultReportingRefused: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('completeDemoPayment'));
    },
    resultDeclined: async () => {
      const app = current();
      expect((await screen.findByRole('alert')).textContent).toContain('The card was refused.');
      expect(app.control.server.paid.result_sheet).toBe(0);
    },
    resultPaid: async () => {
      const app = current();
      await screen.findByText('Payment complete. Thank you.');
      expect(app.control.server.paid.result_sheet).toBe(2);
    },
    adyenResultChoosing: async () => {
      await screen.findByRole('heading', { level: 2, name: 'Choose what to buy' });
    },
    adyenResultStarting: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('createResultFeeSession'));
    },
    adyenResultCheckout: async () => {
      await waitFor(() => expect(adyenWeb.mounted).toBe(1));
    },
    resultChecking: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('paymentStatus'));
    },
    resultReturnLoading: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('resultPaymentSetting'));
      await heading('Buy the result sheet and certificate');
      expect(app.history.location.pathname).toBe('/pay-exam-result');
    },
    adyenResultReturning: async () => {
      await waitFor(() => expect(adyenWeb.submitted).toEqual([{ details: { redirectResult: REDIRECT_RESULT } }]));
      expect(screen.getByText(/Confirming your payment/)).toBeTruthy();
    },
    purchasedLoading: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('shortResult'));
      await heading('Purchased result');
      expect(app.history.location.pathname).toBe('/purchased-result');
    },
    purchasedFailed: async () => {
      expect((await screen.findByRole('alert')).textContent).toContain('Network error');
    },
    purchasedReady: async () => {
      await screen.findByRole('button', { name: 'Download the certificate' });
      expect(screen.getByRole('button', { name: 'Open the score report' })).toBeTruthy();
    },
    purchasedPartReady: async () => {
      await screen.findByRole('button', { name: 'Buy the result sheet / certificate' });
      expect(screen.queryByRole('button', { name: 'Download the certificate' })).toBeNull();
    },
    purchasedDownloading: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('resultDocument'));
      expect(screen.getByRole('button', { name: 'Downloading the certificate…' })).toBeTruthy();
    },
    purchasedDownloadFailed: async () => {
      expect((await screen.findByRole('alert')).textContent).toContain('Network error');
      expect(screen.getByRole('button', { name: 'Download the certificate' })).toBeTruthy();
    },
    reportLoading: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('scoreReport'));
      expect(app.history.location.pathname).toBe('/score-report/7');
    },
    reportFailed: async () => {
      expect((await screen.findByRole('alert')).textContent).toContain('Network error');
    },
    reportReady: async () => {
      await screen.findByRole('button', { name: 'Save as PDF' });
      expect(screen.getByRole('heading', { level: 2, name: 'Overall result' })).toBeTruthy();
    },
    reportDownloading: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('resultDocument'));
      expect(screen.getByRole('button', { name: 'Preparing the PDF…' })).toBeTruthy();
    },
    reportCertificateDownloading: async () => {
      const app = current();
      await waitFor(() => expect(app.control.waiting()).toContain('resultDocument'));
      expect(screen.getByRole('button', { name: 'Preparing the certificate…' })).toBeTruthy();
    },
    reportDownloadFailed: async () => {
      expect((await screen.findByRole('alert')).textContent).toContain('The document cannot be created right now.');
    },
  };
}

const sessionTestModel = createTestModel(sessionModel, {
  serializeTransition: (_state, event, previous) =>
    event ? ` via ${event.type} from ${JSON.stringify(previous?.value ?? null)}` : '',
});

const sessionPaths = sessionTestModel.getShortestPaths();

type SessionPath = (typeof sessionPaths)[number];

const eventTypes = (path: { steps: ReadonlyArray<{ event: { type: string } }> }) =>
  path.steps.map((step) => step.event.type).filter((type) => type !== 'xstate.init');

/**
 * Session paths whose events are the start of a pupil or forwarding path (the login code page's
 * and the unknown page's steps, sent the same way by all three models), by the first path that
 * starts with them: that run checks their states too, and they are not run on their own.
 */
const foldedSessionPaths = new Map<object, SessionPath[]>();
const ownSessionPaths = sessionPaths.filter((sessionPath) => {
  const steps = eventTypes(sessionPath);
  const host = [...paths, ...visitorPaths].find((path) => {
    const hostSteps = eventTypes(path);
    return steps.length <= hostSteps.length && steps.every((type, index) => hostSteps[index] === type);
  });
  if (!host) return true;
  foldedSessionPaths.set(host, [...(foldedSessionPaths.get(host) ?? []), sessionPath]);
  return false;
});

/** The fields of a pupil's or visitor's app that the session model's checks read, as a session app. */
function asSessionApp(app: Pick<SessionApp, 'control' | 'history' | 'storage' | 'user'> & { logoutTokens?: Array<string | undefined> }): SessionApp {
  return {
    control: app.control,
    history: app.history,
    storage: app.storage,
    user: app.user,
    logoutTokens: app.logoutTokens ?? [],
    left: [],
    clock: new SimulatedClock(),
    saveFile: vi.fn<(file: Blob, name: string) => void>(),
    print: vi.fn<() => void>(),
    stop: () => {},
  };
}

type PathChecks = {
  states: Record<string, () => Promise<void>>;
  events: Record<string, () => Promise<unknown>>;
};

/**
 * Tests the path, with the checks of the session paths folded into it: after the path's own check
 * of the state its nth event leads to, the session model's check of the state the same n events
 * lead to there. Throws if a folded session path's state went unchecked.
 */
async function testWithFoldedSessionChecks(path: { test: (params: PathChecks) => Promise<unknown> }, app: () => SessionApp, params: PathChecks) {
  const folded = foldedSessionPaths.get(path) ?? [];
  const checks = sessionStates(app);
  let taken = 0;
  const checked = new Map<SessionPath, number>(folded.map((sessionPath) => [sessionPath, 0]));
  const states = Object.fromEntries(
    Object.entries(params.states).map(([key, check]) => [
      key,
      async () => {
        await check();
        for (const sessionPath of folded) {
          const step = sessionPath.steps[taken];
          if (!step) continue;
          await checks[step.state.value as keyof typeof checks]();
          checked.set(sessionPath, taken + 1);
        }
      },
    ]),
  );
  const events = Object.fromEntries(
    Object.entries(params.events).map(([type, send]) => [
      type,
      async () => {
        await send();
        taken += 1;
      },
    ]),
  );
  await path.test({ states, events });
  for (const [sessionPath, count] of checked) {
    if (count !== sessionPath.steps.length) throw new Error(`${sessionPath.description}: ${count} of ${sessionPath.steps.length} states checked`);
  }
}

beforeEach(() => {
  resetAdyenWeb();
});

afterEach(() => {
  current?.stop();
  current = undefined;
});

describe('the fake server the paths drive', () => {
  it('answers the results and payment calls as the contract says', async () => {
    const server = createFakeApi();
    server.menu = structuredClone(menuWithResults);
    const parse = <S extends v.GenericSchema>(schema: S, value: unknown) => expect(v.safeParse(schema, value).issues).toBeUndefined();
    parse(ChoosePageStatusSchema, await server.chooseStatus());
    parse(ShortResultSchema, await server.shortResult(7));
    parse(ResultPaymentSettingSchema, await server.resultPaymentSetting(7));
    parse(ExamPaymentSettingSchema, await server.examPaymentSetting(7));
    const fee = await server.createExamFeeSession({ schedule_history_id: 7, terms_accepted: true, return_url: 'http://localhost/pay-exam-fee' });
    parse(PaymentSessionSchema, fee);
    parse(PaymentStatusResponseSchema, await server.paymentStatus(fee.reference));
    parse(PaymentStatusResponseSchema, await server.completeDemoPayment({ reference: fee.reference, outcome: 'authorised' }));
    expect(server.paid.exam_fee).toBe(2);
    server.provider = 'adyen';
    const items = await server.createResultFeeSession({
      schedule_history_id: 7,
      items: ['result_sheet', 'certificate'],
      terms_accepted: true,
      return_url: 'http://localhost/pay-exam-result',
    });
    parse(PaymentSessionSchema, items);
    expect(items.adyen_session).not.toBeNull();
    await expect(server.scoreReport(7)).rejects.toMatchObject({ code: 'PAYMENT_REQUIRED' });
    parse(ScoreReportSchema, await server.scoreReport(7, 'print-token-0123456789'));
    const pdf = await server.resultDocument(7, 'report');
    expect(pdf.type).toBe('application/pdf');
  });
});

describe('a visitor through the app, every transition of the session model', () => {
  for (const path of ownSessionPaths) {
    it(path.description, async () => {
      let app = await renderSessionApp({ url: '/login-code' });
      await heading('Log in with your login code');
      await path.test({
        states: sessionStates(() => app),
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
          'terminal.restarts': async () => {
            // The terminal reloads: a new app over the same storage resumes the stored session.
            const storage = app.storage;
            app.stop();
            cleanup();
            app = await renderSessionApp({ url: app.history.location.pathname, storage });
          },
          'pupil.saysNotMe': () => app.user.click(screen.getByRole('button', { name: 'No, log out' })),
          'pupil.confirms': () => app.user.click(screen.getByRole('button', { name: 'Yes, continue' })),
          'pupil.continues': () => app.user.click(screen.getByRole('button', { name: 'Continue' })),
          'pupil.pressesStart': () => app.user.click(screen.getByRole('button', { name: 'Start the test' })),
          'server.startsExam': () => serverAnswers(app.control, 'startExam'),
          'server.endsSession': () => serverAnswers(app.control, 'logout'),
          'network.fails': () => serverFails(app, 'NETWORK_ERROR'),
          'server.isInMaintenance': () => serverFails(app, 'DURING_MAINTENANCE', 401),
          'server.refusesToken': () => serverFails(app, 'NOT_LOGGED_IN', 401),
          'pupil.opensUnknownPage': () => open(app, '/no-such-page'),
          'pupil.opensExamPage': () => open(app, '/start'),
          // Rule 5: the root, neither public nor a screen of a stored login, goes to the login page.
          'pupil.opensRoot': () => open(app, '/'),
          'pupil.opensProtectedPage': () => open(app, '/examinee-info'),
          'pupil.types404': () => open(app, '/404'),
          'pupil.types403': () => open(app, '/403'),
          'pupil.typesLoginCodeUrl': () => open(app, '/login-code'),
          'pupil.opensExamEnd': () => open(app, '/exam-end'),
          'pupil.opensAppEntryWithoutOrg': () => open(app, '/app-entry'),
          'pupil.opensAppEntry': () => open(app, '/app-entry?organization_code=ORG1'),
          'pupil.opensLoginPage': () => open(app, '/login?org_code=ORG1'),
          'pupil.opensOauthWithError': () => open(app, '/oauth?error=1&errorCode=invalid_state&schoolId=ORG1'),
          'pupil.opensOauth': () => open(app, '/oauth?accessToken=sso-token&schoolId=ORG1&loginType=2&orgStepMode=1'),
          'pupil.opensPartnerEntryWithoutToken': () => open(app, '/oauth-kaigen'),
          'pupil.opensKenya': () => open(app, '/oauth-kenya?token=kenya-ok'),
          'pupil.opensKenyaWithBadToken': () => open(app, '/oauth-kenya?token=stolen'),
          'pupil.opensEgypt': () => open(app, '/oauth-egypt?token=egypt-token&orgCode=EG1'),
          'pupil.goesToLogin': async () => {
            const buttons = await screen.findAllByRole('button', { name: 'Go to the login page' });
            await app.user.click(buttons[0]!);
          },
          'pupil.logsOut': () => app.user.click(screen.getByRole('button', { name: /Log out/ })),
          'server.sendsPlace': async () => {
            await waitFor(() => expect(app.control.waiting().some((m) => m === 'organization' || m === 'appSchedule')).toBe(true));
            await act(async () => app.control.answer(app.control.waiting().includes('organization') ? 'organization' : 'appSchedule'));
          },
          'server.refusesPlace': async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('organization'));
            await act(async () => app.control.fail('organization', 'INVALID_SCHEDULE', 404));
          },
          'pupil.triesAgain': () => app.user.click(screen.getByRole('button', { name: 'Try again' })),
          'pupil.sendsEmptyCredentials': () => sendCredentials(app, '', ''),
          'pupil.sendsCredentials': () => sendCredentials(app, demoLogins.id, DEMO_PASSWORD),
          'pupil.sendsMyPageCredentials': () => sendCredentials(app, demoLogins.myPage, DEMO_PASSWORD),
          'pupil.sendsRegisteredCredentials': () => sendCredentials(app, demoLogins.registered, DEMO_PASSWORD),
          'server.refusesLogin': async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('loginWithId'));
            await act(async () => app.control.fail('loginWithId', 'INCORRECT_ID_PASSWORD', 401));
          },
          'server.acceptsLogin': () => serverAnswers(app.control, 'loginWithId'),
          'pupil.reviewsEmptyForm': () => app.user.click(screen.getByRole('button', { name: 'Next' })),
          'pupil.fillsForm': async () => {
            await app.user.type(screen.getByRole('textbox', { name: 'Name' }), 'Aiko Tanaka');
            await app.user.selectOptions(screen.getByRole('combobox', { name: 'Grade' }), '4');
            await app.user.type(screen.getByRole('textbox', { name: 'Email' }), 'aiko@example.com');
          },
          'pupil.reviews': () => app.user.click(screen.getByRole('button', { name: 'Next' })),
          'pupil.changesDetails': () => app.user.click(screen.getByRole('button', { name: 'Change' })),
          'pupil.registers': () => app.user.click(screen.getByRole('button', { name: 'Register' })),
          'server.savesInfo': () => serverAnswers(app.control, 'saveExamineeInfo'),
          'server.sendsMenu': () => serverAnswers(app.control, 'chooseStatus'),
          'pupil.takesTest': () => app.user.click(screen.getByRole('button', { name: 'Take test' })),
          'server.identifiesToken': () => serverAnswers(app.control, 'me'),
          'server.sendsExams': () => serverAnswers(app.control, 'exams'),
          'pupil.choosesExam': async () => {
            const [first] = screen.getAllByRole('button', { name: 'Start' });
            await app.user.click(first!);
          },
          'server.exchangesToken': () => serverAnswers(app.control, 'kenyaLoginLink'),
          'server.sendsConfig': () => serverAnswers(app.control, 'clientConfig'),
          'server.sendsConfigWithoutUrl': async () => {
            app.control.server.clientConfig = async () => ({
              partner_logout_urls: {},
              embed_target_origin: null,
              oidc_enabled: false,
              server_time: new Date().toISOString(),
            });
            await serverAnswers(app.control, 'clientConfig');
          },
          'server.sendsMenuWithFee': async () => {
            app.control.server.menu = structuredClone(menuWithFee);
            await serverAnswers(app.control, 'chooseStatus');
          },
          'server.sendsMenuWithResults': async () => {
            app.control.server.menu = structuredClone(menuWithResults);
            await serverAnswers(app.control, 'chooseStatus');
          },
          'pupil.paysFee': () => app.user.click(screen.getByRole('button', { name: 'Pay fee' })),
          'pupil.leavesCheckout': async () => {
            await act(async () => app.history.back());
          },
          'server.sendsMenuWithFeePaid': async () => {
            app.control.server.menu = { ...structuredClone(menuWithFee), exam_fee: { required: true, status: 2 } };
            await serverAnswers(app.control, 'chooseStatus');
          },
          'pupil.buysThenPressesBack': async () => {
            await app.user.click(screen.getByRole('button', { name: 'Buy the result sheet / certificate' }));
            app.control.server.provider = 'demo';
            await serverAnswers(app.control, 'resultPaymentSetting');
            await screen.findByRole('heading', { level: 2, name: 'Choose what to buy' });
            expect(app.history.location.pathname).toBe('/pay-exam-result');
            await act(async () => app.history.back());
          },
          'pupil.pressesBack': async () => {
            await act(async () => app.history.back());
          },
          'server.sendsMenuWithPendingFee': async () => {
            app.control.server.menu = { ...structuredClone(menuWithFee), exam_fee: { required: true, status: 1 } };
            await serverAnswers(app.control, 'chooseStatus');
          },
          'pupil.resumesPayment': () => app.user.click(screen.getByRole('button', { name: 'Go to the payment' })),
          'provider.redirectsBack': async () => {
            // The browser comes back from the provider's page: the app loads afresh at the returnUrl.
            const target = providerReturnUrl(app, app.history.location.pathname === '/pay-exam-result' ? '/pay-exam-result' : '/pay-exam-fee');
            const storage = app.storage;
            app.stop();
            cleanup();
            resetAdyenWeb();
            // The same server: the checkout the pupil left is there, PENDING.
            expect(app.control.waiting()).toEqual([]);
            app = await renderSessionApp({ url: target, storage, control: app.control });
          },
          'adyen.completesRedirect': async () => {
            await waitFor(() => expect(adyenWeb.configs.length).toBe(1));
            await act(async () => adyenWeb.configs[0]!.onPaymentCompleted({ resultCode: 'Authorised' }));
          },
          'server.sendsFeeSetting': async () => {
            app.control.server.paid.exam_fee = 0;
            app.control.server.provider = 'demo';
            await serverAnswers(app.control, 'examPaymentSetting');
          },
          'server.sendsPaidFeeSetting': async () => {
            app.control.server.paid.exam_fee = 2;
            await serverAnswers(app.control, 'examPaymentSetting');
          },
          'server.sendsAdyenFeeSetting': async () => {
            app.control.server.paid.exam_fee = 0;
            app.control.server.provider = 'adyen';
            await serverAnswers(app.control, 'examPaymentSetting');
          },
          'pupil.goesBackToMenu': () => app.user.click(screen.getByRole('button', { name: 'Back to menu' })),
          'pupil.agreesToTerms': () => app.user.click(termsBox()),
          'pupil.pays': () => app.user.click(payButton()),
          'pupil.agreesAndPays': async () => {
            await app.user.click(termsBox());
            await app.user.click(payButton());
          },
          'pupil.choosesAgreesAndPays': async () => {
            await app.user.click(screen.getByRole('checkbox', { name: 'Result sheet' }));
            await app.user.click(termsBox());
            await app.user.click(payButton());
          },
          'server.opensCheckout': async () => {
            const method = app.control.waiting().includes('createExamFeeSession') ? 'createExamFeeSession' : 'createResultFeeSession';
            await serverAnswers(app.control, method);
          },
          'server.saysAlreadyPaid': async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('createExamFeeSession'));
            await act(async () => app.control.fail('createExamFeeSession', 'ALREADY_PAID', 409));
          },
          'server.refusesCheckout': async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('createExamFeeSession'));
            await act(async () => app.control.fail('createExamFeeSession', 'PAYMENT_ERROR', 422));
          },
          'pupil.authorisesDemo': () => app.user.click(screen.getByRole('button', { name: 'Authorise' })),
          'pupil.refusesDemo': () => app.user.click(screen.getByRole('button', { name: 'Refuse' })),
          'pupil.cancelsDemo': () => app.user.click(screen.getByRole('button', { name: 'Cancel' })),
          'adyen.completes': async () => {
            await waitFor(() => expect(adyenWeb.configs.length).toBe(1));
            await act(async () => adyenWeb.configs[0]!.onPaymentCompleted({ resultCode: 'Authorised' }));
          },
          'server.confirmsPayment': async () => {
            // The provider's notification reaches the server before the status call (Adyen's webhook).
            providerNotifiesServer(app.control.server);
            await waitFor(() => expect(app.control.waiting().some((m) => m === 'completeDemoPayment' || m === 'paymentStatus')).toBe(true));
            await act(async () => app.control.answer(app.control.waiting().includes('completeDemoPayment') ? 'completeDemoPayment' : 'paymentStatus'));
          },
          'server.confirmsOutcome': () => serverAnswers(app.control, 'completeDemoPayment'),
          'server.keepsCheckoutOpen': async () => {
            await waitFor(() => expect(app.control.waiting().some((m) => m === 'completeDemoPayment' || m === 'paymentStatus')).toBe(true));
            const method = app.control.waiting().includes('completeDemoPayment') ? 'completeDemoPayment' : 'paymentStatus';
            await serverAnswersWith(app, method, () => stillOpen(app));
          },
          'server.reportsCheckoutError': () => serverAnswersWith(app, 'completeDemoPayment', () => ({ ...stillOpen(app, 'error'), status: 0 })),
          'server.fails': async () => {
            await waitFor(() => expect(app.control.waiting().length).toBeGreaterThan(0));
            await act(async () => app.control.fail(app.control.waiting()[0]!, 'GENERIC_ERROR', 500));
          },
          'time.passes': async () => {
            await act(async () => app.clock.increment(STATUS_BACKOFF_MAX_MS));
          },
          'pupil.viewsResults': () => app.user.click(screen.getByRole('button', { name: 'View results' })),
          'server.sendsResult': async () => {
            app.control.server.paid.result_sheet = 0;
            app.control.server.paid.certificate = 0;
            await serverAnswers(app.control, 'shortResult');
            await serverAnswers(app.control, 'resultPaymentSetting');
          },
          'server.sendsOwnedResult': async () => {
            app.control.server.paid.result_sheet = 2;
            app.control.server.paid.certificate = 2;
            await serverAnswers(app.control, 'shortResult');
            await serverAnswers(app.control, 'resultPaymentSetting');
          },
          'server.sendsPartlyOwnedResult': async () => {
            app.control.server.paid.result_sheet = 2;
            app.control.server.paid.certificate = 0;
            await serverAnswers(app.control, 'shortResult');
            await serverAnswers(app.control, 'resultPaymentSetting');
          },
          'pupil.buysResultItems': () => app.user.click(screen.getByRole('button', { name: 'Buy the result sheet / certificate' })),
          'pupil.opensReport': () => app.user.click(screen.getByRole('button', { name: 'Open the score report' })),
          'pupil.readsReportThenPressesBack': async () => {
            await app.user.click(screen.getByRole('button', { name: 'Open the score report' }));
            await serverAnswers(app.control, 'scoreReport');
            await screen.findByRole('button', { name: 'Save as PDF' });
            expect(app.history.location.pathname).toBe('/score-report/7');
            await act(async () => app.history.back());
          },
          'server.sendsResultSetting': async () => {
            app.control.server.provider = 'demo';
            await serverAnswers(app.control, 'resultPaymentSetting');
          },
          'server.sendsAdyenResultSetting': async () => {
            app.control.server.provider = 'adyen';
            await serverAnswers(app.control, 'resultPaymentSetting');
          },
          'pupil.ticksItems': async () => {
            await app.user.click(screen.getByRole('checkbox', { name: 'Result sheet' }));
            await app.user.click(screen.getByRole('checkbox', { name: 'Certificate' }));
          },
          'pupil.downloadsCertificate': () => app.user.click(screen.getByRole('button', { name: 'Download the certificate' })),
          'pupil.savesPdf': () => app.user.click(screen.getByRole('button', { name: 'Save as PDF' })),
          'pupil.prints': async () => {
            const before = app.print.mock.calls.length;
            await app.user.click(screen.getByRole('button', { name: 'Print' }));
            expect(app.print).toHaveBeenCalledTimes(before + 1);
          },
          'server.sendsDocument': async () => {
            const before = app.saveFile.mock.calls.length;
            const name = screen.queryByRole('button', { name: 'Preparing the PDF…' }) ? 'score-report-7.pdf' : 'certificate-7.pdf';
            await serverAnswers(app.control, 'resultDocument');
            await waitFor(() => expect(app.saveFile).toHaveBeenCalledTimes(before + 1));
            const [file, saved] = app.saveFile.mock.calls[before]!;
            expect(saved).toBe(name);
            expect(file.type).toBe('application/pdf');
          },
          'server.sendsReport': () => serverAnswers(app.control, 'scoreReport'),
          'pupil.typesMenuUrl': () => open(app, '/testing-menu'),
        },
      });
    });
  }

  it('takes every transition of the session machine through the app', () => {
    recorder.report('ui');
    // Exactly the transitions the view gives no way to (sessionUnreachable): anything else missing fails.
    expect(recorder.missing()).toEqual(Object.keys(sessionUnreachable).sort());
    expect(recorder.taken.size).toBe(recorder.all.size - Object.keys(sessionUnreachable).length);
  });

  it('takes the payment machine through the payment screens', () => {
    paymentRecorder.report('ui');
    expect(paymentRecorder.missing()).toEqual([]);
    expect(paymentRecorder.taken.size).toBe(paymentRecorder.all.size);
  });

  it('takes the results machine through the results screens', () => {
    resultsRecorder.report('ui');
    expect(resultsRecorder.missing()).toEqual([]);
    expect(resultsRecorder.taken.size).toBe(resultsRecorder.all.size);
  });
});

describe('the kiosk machine through the app', () => {
  it('takes every transition of the kiosk machine through the app', () => {
    for (const recorder of recorders.values()) recorder.report('ui');
    for (const recorder of recorders.values()) {
      expect(recorder.missing(), recorder.name).toEqual([]);
      expect(recorder.taken.size, recorder.name).toBe(recorder.all.size);
    }
    expect(demoQuestions.length).toBe(3);
  });
});
