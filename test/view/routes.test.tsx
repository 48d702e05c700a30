// @vitest-environment jsdom
/**
 * The route tree: every URL of the journey renders its one screen through its actor's binding
 * (stubbed here with fixed props and APIs; the results and payment screens, bound to no running
 * actor, show their loading state), unknown paths wait for the machine, and the page title
 * is the product name on every route.
 */
import { RouterProvider, createMemoryHistory } from '@tanstack/react-router';
import { screen } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { gradeIds } from '../../contract/session.ts';
import type { ExamApi } from '../../machines/exam/exam.connect.ts';
import type { KioskApi } from '../../machines/kiosk/kiosk.connect.ts';
import type { SessionApi } from '../../machines/session/session.connect.ts';
import { createAppRouter } from '../../src/app/router.ts';
import { examDetails, questions } from '../helpers/exam-fixtures.ts';
import { renderView } from '../helpers/render-view.tsx';

const noop = () => undefined;
/** The exam's screens (machines/exam/exam.connect.ts), each in a state that shows its heading. */
const exam: ExamApi = {
  loginConfirm: { status: 'ready', details: examDetails, error: null, confirm: noop, reject: noop, retry: noop },
  examStart: { busy: false, offline: null, error: null, timeLimitMinutes: 40, start: noop, startAnyway: noop },
  exam: {
    status: 'answering', questions, index: 0, answers: {}, deadlineAt: Date.now() + 2_400_000, clockOffsetMs: 0, timeLimitSeconds: 2_400,
    confirmingFinish: false, error: null, flagged: [], listOpen: false, keyboardOpen: true, upperCase: false, draft: null,
    retry: noop, answer: noop, type: noop, commitDraft: noop, next: noop, previous: noop, select: noop, flag: noop, toggleList: noop, toggleKeyboard: noop,
    toggleUpperCase: noop, requestFinish: noop, confirmFinish: noop, cancelFinish: noop, focusLost: noop,
  },
  examEnd: { outcome: 'sent', receipt: null, errorCode: null, movedAway: null, canLogout: true, logout: noop },
  tutorial: { questionCount: 3, timeLimitMinutes: 40, complete: noop },
  retryDialog: null,
};

/** The session's screens (machines/session/session.connect.ts), each in a state that shows its heading. */
const session: SessionApi = {
  goToLogin: noop,
  loginCode: { busy: false, error: null, submit: noop },
  login: { status: 'ready', place: null, kind: 'id', ssoUrl: null, busy: false, error: null, submit: noop, retry: noop },
  entry: { status: 'working', error: null },
  inputInfo: {
    step: 'editing', values: { examinee_name: '', grade_id: null, email: '' }, errors: {}, failure: null, grades: gradeIds,
    change: noop, review: noop, edit: noop, confirm: noop,
  },
  info: { info: { examinee_name: 'Aiko Tanaka', grade_id: 4, email: 'aiko@example.com' }, acknowledge: noop },
  menu: { status: 'loading', menu: null, error: null, takeTest: noop, payFee: noop, viewResults: noop, retry: noop, logout: noop },
  examList: { status: 'ready', rows: [], stepMode: false, error: null, choose: noop, retry: noop, logout: noop },
};

/** The frame's part of the kiosk (machines/kiosk/kiosk.connect.ts): nothing waits, no retry dialog. */
const shell = vi.hoisted(() => ({ busy: false, screen: 'login-code' as string }));
const kiosk = (): KioskApi =>
  ({ ...shell, retryDialog: null, retry: noop, closeDialog: noop, checkTerminal: noop }) as KioskApi;

vi.mock('../../src/app/connect/use-session.ts', () => ({ useSession: () => session }));
vi.mock('../../src/app/connect/use-exam.ts', () => ({ useExam: () => exam }));
vi.mock('../../src/app/use-kiosk.ts', () => ({
  useKioskValue: (select: (api: KioskApi) => unknown) => select(kiosk()),
  useKioskApi: () => kiosk,
  useCheckTerminal: () => ({ checkTerminal: () => kiosk().checkTerminal() }),
}));

beforeAll(async () => {
  // The router starts every navigation at the top; jsdom has no scrolling.
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  // Every route's view is a lazy module (src/routes/): loaded here first, as the built app's
  // precache has them, so a test waits for its screen and never for Vite to transform a module
  // on a busy machine (longer than findByRole's second).
  const router = createAppRouter({ history: createMemoryHistory({ initialEntries: ['/'] }) });
  const preloads = Object.values(router.routesById).map((route) => (route.options.component as { preload?: () => Promise<void> } | undefined)?.preload);
  expect(preloads.filter(Boolean).length, 'the routes have lazy views to load').toBeGreaterThan(10);
  await Promise.all(preloads.map((preload) => preload?.()));
});

async function visit(path: string) {
  const router = createAppRouter({ history: createMemoryHistory({ initialEntries: [path] }) });
  const view = await renderView(<RouterProvider router={router} />);
  return { ...view, router };
}

describe('routes', () => {
  it.each([
    ['/login-code', 'Log in with your login code'],
    ['/login-confirm', 'Is this you?'],
    ['/exam-tutorial', 'How the test works'],
    ['/exam-start', 'Ready to start'],
    ['/start', 'Which word means "big"?'],
    ['/exam-end', 'Test complete'],
    ['/404', 'Page not found'],
    ['/login?org_code=ORG1', 'Log in'],
    ['/oauth?accessToken=t&schoolId=12', 'Signing you in…'],
    ['/oauth-kenya?token=t', 'Signing you in…'],
    ['/app-entry?organization_code=ORG1', 'Signing you in…'],
    ['/403', 'You are not logged in.'],
    ['/examinee-input-info', 'Your basic information'],
    ['/examinee-info', 'Your basic information'],
    ['/testing-menu', 'Menu'],
    ['/exam', 'Choose an exam'],
    ['/exam-step-mode', 'Choose an exam'],
    ['/short-result', 'Your result'],
    ['/pay-exam-fee', 'Pay the exam fee'],
    ['/pay-exam-result', 'Buy the result sheet and certificate'],
    ['/purchased-result', 'Purchased result'],
    ['/score-report/42', 'Score report'],
  ])('%s renders its screen', async (path, heading) => {
    await visit(path);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeTruthy();
    expect(document.title).toBe('Gradus');
  });

  it.each(['/', '/no-such-page', '/exam-end/extra'])('%s waits for the machine with the boot skeleton', async (path) => {
    await visit(path);
    expect((await screen.findByRole('status')).textContent).toBe('Loading…');
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
  });

  it('shows a screen after the first only once the rest of the catalog is in; the first screens do not wait for it', async () => {
    let complete = noop as () => void;
    const catalogComplete = vi.fn(() => new Promise<void>((resolve) => (complete = resolve)));
    const router = createAppRouter({ history: createMemoryHistory({ initialEntries: ['/login-code'] }), catalogComplete });
    await renderView(<RouterProvider router={router} />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Log in with your login code' })).toBeTruthy();
    expect(catalogComplete).not.toHaveBeenCalled();
    // The view's chunk is in: only the catalog holds the screen back.
    await router.loadRouteChunk(router.routesById['/exam-end']);
    void router.navigate({ to: '/exam-end' });
    await vi.waitFor(() => expect(catalogComplete).toHaveBeenCalled());
    expect(screen.getByRole('heading', { level: 1, name: 'Log in with your login code' })).toBeTruthy();
    complete();
    expect(await screen.findByRole('heading', { level: 1, name: 'Test complete' })).toBeTruthy();
  });

  it('shows the progress bar while the machine is busy', async () => {
    shell.busy = true;
    await visit('/login-code');
    expect(await screen.findByRole('progressbar', { name: 'Loading' })).toBeTruthy();
    shell.busy = false;
  });
});
