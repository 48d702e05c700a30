// @vitest-environment jsdom
/**
 * The UI level of the session's model-based tests (DESIGN.md), the same approach as
 * app.model.test.tsx: an abstract model of what a visitor sees and does on a shared terminal
 * (typed URLs, the login pages, the entry routes, where each examinee lands, logging out),
 * where the server's answers and failures are explicit events. Its shortest paths (every
 * transition, self-transitions included) drive the real app: the real kiosk, session and
 * exam machines, router and screens, over an API whose calls wait for the path. Every state
 * checks what is on screen and the URL. The session machine's transitions taken are reported
 * as `model coverage session (through the app)`, and must be all of them.
 */
import type { createMemoryHistory } from '@tanstack/react-router';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMachine } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { sessionMachine } from '../../machines/session/session.machine.ts';
import { examineeKeys, readSession, storageKeys } from '../../machines/shared/storage.ts';
import { createControlledApi, type ControlledApi } from '../helpers/controlled-api.ts';
import { DEMO_PASSWORD, demoLogins } from '../helpers/fake-api.ts';
import { memoryStorage } from '../view/render.tsx';
import { CoverageRecorder, allTransitions, recordByMachine } from './harness.ts';
import { renderKioskApp, sendCode, serverAnswers } from '../helpers/render-app.tsx';

/** What a visitor sees and does; the server's answers are events too. */
const visitorModel = createMachine({
  id: 'visitor',
  initial: 'codePage',
  states: {
    codePage: {
      on: {
        'pupil.sendsEmptyCode': 'codePage',
        'pupil.sendsMalformedCode': 'codePage',
        'pupil.sendsCode': 'codeSubmitting',
        'pupil.opensUnknownPage': 'notFound',
        'pupil.opensExamPage': 'codePage',
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
        'network.fails': 'codePageAfterLogout',
      },
    },
    codePageAfterLogout: {},
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
        'network.fails': 'menuFailed',
        'server.isInMaintenance': 'loggingOutWithError',
        'server.refusesToken': 'loggingOutWithError',
      },
    },
    menuFailed: { on: { 'pupil.triesAgain': 'menuLoading' } },
    menuReady: { on: { 'pupil.takesTest': 'examFlowMenu' } },
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
  },
});


interface AppUnderTest {
  control: ControlledApi;
  history: ReturnType<typeof createMemoryHistory>;
  storage: ReturnType<typeof memoryStorage>;
  user: ReturnType<typeof userEvent.setup>;
  left: string[];
  stop: () => void;
}

const recorder = new CoverageRecorder('session', allTransitions(sessionMachine));

const record = recordByMachine(new Map([['session', recorder]]));

let current: AppUnderTest | undefined;

/** Boots the app at `url`: storage as the terminal has it (a stored INCORRECT_DEVICE end). */
async function renderApp(options: { url: string; storage?: ReturnType<typeof memoryStorage>; control?: ControlledApi }) {
  const storage = options.storage ?? memoryStorage();
  const control = options.control ?? createControlledApi();
  const left: string[] = [];
  const { kiosk, history, stopSync } = await renderKioskApp({
    deps: { api: control.api, storage, leaveApp: (url) => void left.push(url) },
    input: { storedSession: readSession(storage), storedToken: null, storedErrorCode: 'INCORRECT_DEVICE' },
    url: options.url,
    inspect: record,
  });
  const app: AppUnderTest = {
    control,
    history,
    storage,
    user: userEvent.setup(),
    left,
    stop: () => {
      stopSync();
      kiosk.stop();
    },
  };
  current = app;
  return app;
}

const heading = (name: string | RegExp) => screen.findByRole('heading', { level: 1, name });
const url = (app: AppUnderTest) => `${app.history.location.pathname}${app.history.location.search}`;

async function open(app: AppUnderTest, path: string) {
  await act(async () => app.history.push(path));
}

async function serverFails(app: AppUnderTest, code: Parameters<ControlledApi['fail']>[1], status?: number) {
  await waitFor(() => expect(app.control.waiting().length).toBeGreaterThan(0));
  const method = app.control.waiting()[0]!;
  await act(async () => app.control.fail(method, code, status));
}

async function sendCredentials(app: AppUnderTest, loginId: string, password: string) {
  const id = await screen.findByRole('textbox', { name: 'Login ID' });
  await app.user.clear(id);
  if (loginId) await app.user.type(id, loginId);
  const secret = screen.getByLabelText('Password');
  await app.user.clear(secret);
  if (password) await app.user.type(secret, password);
  await app.user.click(screen.getByRole('button', { name: 'Log in' }));
}

const nothingOfThePupil = (app: AppUnderTest) => expect(examineeKeys.filter((key) => app.storage.items.has(key))).toEqual([]);

const model = createTestModel(visitorModel, {
  serializeTransition: (_state, event, previous) =>
    event ? ` via ${event.type} from ${JSON.stringify(previous?.value ?? null)}` : '',
});

const paths = model.getShortestPaths();

beforeAll(() => {
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
});

afterEach(() => {
  current?.stop();
  current = undefined;
});

describe('a visitor through the app, every transition of the session model', () => {
  for (const path of paths) {
    it(path.description, async () => {
      let app = await renderApp({ url: '/login-code' });
      await heading('Log in with your login code');
      await path.test({
        states: {
          codePage: async () => {
            await heading('Log in with your login code');
            expect(app.history.location.pathname).toBe('/login-code');
          },
          codeSubmitting: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('login'));
          },
          examFlowCode: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('examDetails'));
            expect(app.storage.items.get(storageKeys.token)).toBe('token-1');
          },
          examFlowRestored: async () => {
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
            await waitFor(() => expect(app.control.waiting()).toContain('startExam'));
          },
          examStarted: async () => {
            await waitFor(() => expect(app.history.location.pathname).toBe('/start'));
            expect(readSession(app.storage)?.schedule_history_id).toBe(7);
          },
          loggingOutCode: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('logout'));
            nothingOfThePupil(app);
          },
          codePageAfterLogout: async () => {
            await heading('Log in with your login code');
            expect(url(app)).toBe('/login-code?logout=1');
            nothingOfThePupil(app);
          },
          notFound: async () => {
            await heading('Page not found');
            expect(app.history.location.pathname).toBe('/404');
          },
          forbidden: async () => {
            await heading('Please log in');
            expect(screen.getByRole('heading', { level: 1, name: 'You are not logged in.' })).toBeTruthy();
            expect(app.history.location.pathname).toBe('/403');
          },
          examEndKept: async () => {
            await heading(/.+/);
            expect(app.history.location.pathname).toBe('/exam-end');
          },
          entryFailed: async () => {
            await heading('Could not log in');
            expect(screen.getByRole('alert')).toBeTruthy();
          },
          entryFailedWithSchool: async () => {
            await heading('Could not log in');
            expect(app.storage.items.get(storageKeys.token)).toBeUndefined();
          },
          appEntryLoginLoading: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('appSchedule'));
            expect(url(app)).toBe('/login?org_code=ORG1&from=app_entry');
          },
          loginLoading: async () => {
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
            await waitFor(() => expect(app.control.waiting()).toContain('loginWithId'));
          },
          myPageSubmitting: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('loginWithId'));
          },
          registeredSubmitting: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('loginWithId'));
          },
          examFlowId: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('examDetails'));
          },
          confirmingId: async () => {
            await heading('Is this you?');
          },
          loggingOutId: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('logout'));
            nothingOfThePupil(app);
          },
          loginPageAfterLogout: async () => {
            await waitFor(() => expect(url(app)).toBe('/login?school=ORG1&logout=1'));
            nothingOfThePupil(app);
          },
          inputInfo: async () => {
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
            await waitFor(() => expect(app.control.waiting()).toContain('saveExamineeInfo'));
          },
          info: async () => {
            await heading('Your basic information');
            expect(app.history.location.pathname).toBe('/examinee-info');
            expect(screen.getByText('aiko@example.com')).toBeTruthy();
          },
          infoRestored: async () => {
            // A my-page user's reload shows their basic information again, then the menu.
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
          menuReady: async () => {
            await screen.findByRole('button', { name: 'Take test' });
          },
          examFlowMenu: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('examDetails'));
            expect(readSession(app.storage)?.schedule_history_id).toBe(7);
          },
          loggingOutWithError: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('logout'));
            nothingOfThePupil(app);
          },
          loginPageWithError: async () => {
            // Seed section 4: a session ended by an error goes to the login page with school and error_code.
            await waitFor(() => expect(url(app)).toMatch(/^\/login\?school=ORG1&error_code=(DURING_MAINTENANCE|GENERIC_ERROR)$/));
            nothingOfThePupil(app);
          },
          identifyingOauth: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('me'));
            expect(app.storage.items.get(storageKeys.token)).toBe('sso-token');
            await heading('Signing you in…');
          },
          examListLoading: async () => {
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
            await waitFor(() => expect(app.control.waiting()).toContain('examDetails'));
            expect(readSession(app.storage)?.schedule_history_id).toBe(7);
          },
          exchangingKenya: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('kenyaLoginLink'));
          },
          exchangingBadKenya: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('kenyaLoginLink'));
          },
          identifyingEgypt: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('me'));
            expect(app.storage.items.get(storageKeys.loginType)).toBe('7');
          },
          identifyingPartner: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('me'));
            expect(app.storage.items.get(storageKeys.loginType)).toBe('6');
          },
          partnerExamList: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('exams'));
            expect(app.history.location.pathname).toBe('/exam');
          },
          partnerExamListReady: async () => {
            await heading('Choose an exam');
          },
          partnerLoggingOut: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('logout'));
            nothingOfThePupil(app);
          },
          leavingForPartner: async () => {
            await waitFor(() => expect(app.control.waiting()).toContain('clientConfig'));
          },
          leftForPartner: async () => {
            await waitFor(() => expect(app.left.length).toBe(1));
            expect(app.left[0]).toMatch(/^https:\/\/(kenya|egypt)\.example\/$/);
            nothingOfThePupil(app);
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
          'terminal.restarts': async () => {
            // The terminal reloads: a new app over the same storage resumes the stored session.
            const storage = app.storage;
            app.stop();
            cleanup();
            app = await renderApp({ url: app.history.location.pathname, storage });
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
        },
      });
    });
  }

  it('takes every transition of the session machine through the app', () => {
    recorder.report('ui');
    expect(recorder.missing()).toEqual([]);
    expect(recorder.taken.size).toBe(recorder.all.size);
  });
});
