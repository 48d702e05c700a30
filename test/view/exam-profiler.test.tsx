// @vitest-environment jsdom
/**
 * Answering a question re-renders the exam screen and nothing else, shown with
 * React's <Profiler> on the real app (the kiosk, session and exam machines, the router, the shell
 * and the connected screens over a controlled API, as test/model/app-exam.model.test.tsx renders
 * it). Three profilers count renders:
 * - `app`, around the whole app: every commit React makes;
 * - `exam screen`, around the exam screen (src/screens/exam/exam.tsx);
 * - `shell`, around the shell's progress bar, which renders exactly when the shell does.
 * While the pupil answers, moves to the next question and the answer is saved, the exam screen
 * takes part in every commit (no commit without it) and the shell never renders (the shell is the
 * only other connected component on /start). The shell probe does render while the exam loads
 * (busy changes), so it can see the shell render.
 */
import { RouterProvider, createMemoryHistory } from '@tanstack/react-router';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Profiler, type ProfilerOnRenderCallback, type ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import { POSITION_PAUSE_MS } from '../../machines/exam/exam.setup.ts';
import { createKioskMachine } from '../../machines/kiosk/kiosk.actors.ts';
import { watchKiosk } from '../../machines/kiosk/kiosk.watch.ts';
import { sessionFromLogin } from '../../machines/session/session.machine.ts';
import { readSession, readToken, writeSession } from '../../machines/shared/storage.ts';
import { KioskProvider } from '../../src/app/actors.ts';
import { AppProviders } from '../../src/app/providers.tsx';
import { createAppRouter } from '../../src/app/router.ts';
import { syncRouterWithKiosk } from '../../src/app/router-sync.ts';
import { createControlledApi } from '../helpers/controlled-api.ts';
import { demoExaminee } from '../helpers/fake-api.ts';
import { serverAnswers } from '../helpers/render-app.tsx';
import { setupLanguage } from '../helpers/render-view.tsx';
import { memoryStorage } from '../helpers/memory-storage.ts';

/** Renders counted by profiler id (hoisted: the module mocks below count into it). */
const { renders, countRender } = vi.hoisted(() => {
  const renders = new Map<string, number>();
  return { renders, countRender: (id: string) => void renders.set(id, (renders.get(id) ?? 0) + 1) };
});
const count: ProfilerOnRenderCallback = (id) => countRender(id);

// The exam screen and the shell's progress bar, each inside a profiler of its own.
vi.mock(import('../../src/screens/exam/exam.tsx'), async (importOriginal) => {
  const original = await importOriginal();
  const { createElement, Profiler: ReactProfiler } = await import('react');
  return {
    ...original,
    ExamScreen: (props: Parameters<typeof original.ExamScreen>[0]) =>
      createElement(ReactProfiler, { id: 'exam screen', onRender: countRender }, createElement(original.ExamScreen, props)),
  };
});

vi.mock(import('../../src/components/progress-bar/progress-bar.tsx'), async (importOriginal) => {
  const original = await importOriginal();
  const { createElement, Profiler: ReactProfiler } = await import('react');
  return {
    ...original,
    ProgressBar: (props: Parameters<typeof original.ProgressBar>[0]) =>
      createElement(ReactProfiler, { id: 'shell', onRender: countRender }, createElement(original.ProgressBar, props)),
  };
});

function AppProfiler({ children }: { children: ReactNode }) {
  return (
    <Profiler id="app" onRender={count}>
      {children}
    </Profiler>
  );
}

let stop: (() => void) | undefined;

beforeAll(() => {
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
});

afterEach(() => {
  stop?.();
  stop = undefined;
});

/** The real app, signed in with a stored session, up to the first question on screen. */
async function answeringApp() {
  const storage = memoryStorage();
  writeSession(
    storage,
    sessionFromLogin({ access_token: 'token-1', examinee: demoExaminee, server_time: new Date().toISOString() }, '0f0e0d0c-0b0a-4908-8706-050403020100'),
  );
  const control = createControlledApi();
  const { i18n, controller } = await setupLanguage('en');
  // The machines' delays move only when the test says (the pupil's pause after a move).
  const clock = new SimulatedClock();
  const kiosk = createActor(createKioskMachine({ api: control.api, storage }), {
    input: { storedSession: readSession(storage), storedToken: readToken(storage) },
    clock,
  }).start();
  const history = createMemoryHistory({ initialEntries: ['/login-code'] });
  const router = createAppRouter({ history });
  const stopSync = syncRouterWithKiosk(history, kiosk, (listener) => watchKiosk(kiosk, listener));
  stop = () => {
    stopSync();
    kiosk.stop();
  };
  render(
    <AppProfiler>
      <AppProviders environment={{ i18n, language: controller }}>
        <KioskProvider kiosk={kiosk}>
          <RouterProvider router={router} />
        </KioskProvider>
      </AppProviders>
    </AppProfiler>,
  );
  const user = userEvent.setup();
  await serverAnswers(control, 'examDetails');
  await user.click(await screen.findByRole('button', { name: 'Yes, continue' }));
  await user.click(await screen.findByRole('button', { name: 'Continue' }));
  await user.click(await screen.findByRole('button', { name: 'Start the test' }));
  await serverAnswers(control, 'startExam');
  await serverAnswers(control, 'examQuestions');
  await screen.findByText('Question 1 of 3');
  return { control, user, storage, clock };
}

describe('the exam screen renders alone', () => {
  it('sees the shell render while the exam loads (the probe works)', async () => {
    renders.clear();
    await answeringApp();
    expect(renders.get('shell') ?? 0).toBeGreaterThan(0);
    expect(renders.get('exam screen') ?? 0).toBeGreaterThan(0);
  });

  it('answering a question, and its save, re-render the exam screen and nothing else', async () => {
    const { control, user } = await answeringApp();
    renders.clear();
    await user.click(screen.getByRole('radio', { name: 'puppy' }));
    await serverAnswers(control, 'saveAnswer');
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Saved on the server'));
    expect(renders.get('exam screen') ?? 0).toBeGreaterThan(0);
    expect(renders.get('shell') ?? 0).toBe(0);
    // Every commit of the app in that time was the exam screen's.
    expect(renders.get('app')).toBe(renders.get('exam screen'));
  });

  it('moving to the next question re-renders the exam screen and nothing else', async () => {
    const { storage, user, clock } = await answeringApp();
    renders.clear();
    await user.click(screen.getByRole('button', { name: /Next/ }));
    await screen.findByText('Question 2 of 3');
    await act(async () => {});
    // Only the exam screen rendered, and nothing was written on the swap ...
    expect(renders.get('exam screen') ?? 0).toBeGreaterThan(0);
    expect(renders.get('shell') ?? 0).toBe(0);
    expect(renders.get('app')).toBe(renders.get('exam screen'));
    expect(readSession(storage)?.question_index).toBe(0);
    // ... the question on screen is kept for a reload (the stored session) once the pupil pauses.
    await act(async () => clock.increment(POSITION_PAUSE_MS));
    expect(readSession(storage)?.question_index).toBe(1);
  });
});
