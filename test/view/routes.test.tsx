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
};

const shell = vi.hoisted(() => ({ busy: false, screen: 'login-code' as string }));

vi.mock('../../src/app/kiosk-bindings.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof KioskBindings>()),
  useScreen: (name: ScreenName) => fixtures[name],
  useShell: () => shell,
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
