// @vitest-environment jsdom
/**
 * The UI level of the model-based tests (ARCHITECTURE.md): an abstract model of what the pupil
 * sees and does, where the server's answers and network failures are explicit events. Its
 * shortest paths (every transition, self-transitions included) drive the real app: the real
 * kiosk, session and exam machines, the real router and screens, over an API whose calls wait
 * for the path to say how they end. Every state of the model checks what is on screen and the
 * URL; while the paths run, the kiosk machine's transitions are recorded and reported as
 * `model coverage kiosk (through the app)`. The exam and retry machines are measured through the
 * app by their own model (app-exam.model.test.tsx), which must take all of their transitions;
 * the session and payment machines by app-session.model.test.tsx.
 *
 * A second model walks what the kiosk forwards while the pupil is a visitor: the login pages,
 * basic information, the testing menu, the exam fee and result payments (the demo panel, and
 * Adyen's Drop-in over a stand-in of the Adyen Web library), the results and score report
 * (print, PDF and certificate through the edge's `print` and `saveFile`), the exam list,
 * the print route /score-report-embed/{id}?token=&locale=&document= (the document machine),
 * and the terminal check /checking-domain-connection (the connectivity machine: by the login
 * screen's link or its URL, left by "Back" or another URL, and over a signed-in pupil's menu,
 * whose session it leaves untouched).
 */
import type { createMemoryHistory } from '@tanstack/react-router';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { createMachine, type Actor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import type { createKioskMachine } from '../../machines/kiosk/kiosk.actors.ts';
import { kioskMachine } from '../../machines/kiosk/kiosk.machine.ts';
import { examineeKeys, storageKeys } from '../../machines/shared/storage.ts';
import type { Question } from '../../contract/exam.ts';
import { createControlledApi, type ControlledApi } from '../helpers/controlled-api.ts';
import { DEMO_PASSWORD, demoLogins, demoOrganizations, demoQuestions, type FakeApi } from '../helpers/fake-api.ts';
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
}

// The session's, the exam's and the retry machine's UI-level coverage is measured by their own
// models (app-session.model.test.tsx, app-exam.model.test.tsx), which must take every transition.
const recorders = new Map<string, CoverageRecorder>([['kiosk', new CoverageRecorder('kiosk', allTransitions(kioskMachine))]]);

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
 * are walked by app-session.model.test.tsx; here every forwarded event is sent through the app.
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
      await path.test({
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

