// @vitest-environment jsdom
/**
 * The route tree: every URL of the journey renders its one screen through the kiosk bindings
 * (stubbed here with fixed props), unknown paths wait for the machine, and the page title is
 * the product name on every route.
 */
import { RouterProvider, createMemoryHistory } from '@tanstack/react-router';
import { screen } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type * as KioskBindings from '../../src/app/kiosk-bindings.ts';
import type { ScreenName, ScreenProps } from '../../src/app/kiosk-bindings.ts';
import { createAppRouter } from '../../src/app/router.ts';
import { examDetails, questions } from './fixtures.ts';
import { renderView } from './render.tsx';

const noop = () => undefined;
const fixtures: ScreenProps = {
  booting: {},
  'login-code': { busy: false, error: null, onSubmit: noop },
  'login-confirm': { status: 'ready', details: examDetails, error: null, onConfirm: noop, onReject: noop, onRetry: noop },
  'exam-tutorial': { questionCount: 3, timeLimitMinutes: 40, onContinue: noop },
  'exam-start': { busy: false, error: null, timeLimitMinutes: 40, onStart: noop },
  exam: {
    status: 'answering', questions, index: 0, answers: {}, deadlineAt: Date.now() + 2_400_000, clockOffsetMs: 0,
    confirmingFinish: false, error: null, onAnswer: noop, onNext: noop, onPrevious: noop, onFinishRequest: noop,
    onFinishConfirm: noop, onFinishCancel: noop, onRetry: noop,
  },
  'exam-end': { outcome: 'sent', receipt: null, onLogout: noop },
  'not-found': { onGoToLogin: noop },
  login: { status: 'ready', place: null, kind: 'id', ssoUrl: null, busy: false, error: null, onSubmit: noop, onRetry: noop },
  entry: { status: 'working', error: null, onGoToLogin: noop },
  forbidden: { onGoToLogin: noop },
  'examinee-input-info': {
    step: 'editing', values: { examinee_name: '', grade_id: null, email: '' }, errors: {}, failure: null,
    onChange: noop, onReview: noop, onBack: noop, onConfirm: noop,
  },
  'examinee-info': { info: { examinee_name: 'Aiko Tanaka', grade_id: 4, email: 'aiko@example.com' }, onContinue: noop },
  'testing-menu': { status: 'loading', menu: null, error: null, onTakeTest: noop, onRetry: noop, onLogout: noop },
  'exam-list': { status: 'ready', exams: [], stepMode: false, error: null, onChoose: noop, onRetry: noop, onLogout: noop },
  'score-report-embed': { status: 'loading', document: 'report', report: null, error: null, onRetry: noop },
  'short-result': {
    status: 'loading', result: null, owned: { result_sheet: false, certificate: false }, error: null,
    onBuy: noop, onOpenReport: noop, onBack: noop, onRetry: noop,
  },
  'pay-exam-fee': { view: null, send: noop, onBack: noop, onContinue: noop },
  'pay-exam-result': { view: null, send: noop, onBack: noop, onContinue: noop },
  'purchased-result': {
    status: 'loading', purchases: null, error: null, download: { status: 'idle', error: null },
    onOpenReport: noop, onDownloadCertificate: noop, onBuy: noop, onBack: noop, onRetry: noop,
  },
  'score-report': { status: 'loading', report: null, error: null, variant: 'screen' },
};

const shell = vi.hoisted(() => ({ busy: false, screen: 'login-code' as string }));

vi.mock('../../src/app/kiosk-bindings.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof KioskBindings>()),
  useScreen: (name: ScreenName) => fixtures[name],
  useShell: () => shell,
  // The shell's retry dialog reads the kiosk too; no call is being retried here.
  useRetryDialog: () => null,
}));

beforeAll(() => {
  // The router starts every navigation at the top; jsdom has no scrolling.
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
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
    ['/403', 'Please log in'],
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

  it('shows the progress bar while the machine is busy', async () => {
    shell.busy = true;
    await visit('/login-code');
    expect(await screen.findByRole('progressbar', { name: 'Loading' })).toBeTruthy();
    shell.busy = false;
  });
});
