/**
 * The whole app rendered the way src/main.tsx boots it, for the UI-level model tests: the real
 * kiosk machine over a controlled API, the real router synced with it, the real providers.
 * Also the pupil's and the server's steps that both UI models share.
 */
import { RouterProvider, createMemoryHistory } from '@tanstack/react-router';
import { act, render, screen, waitFor } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { expect } from 'vitest';
import { createActor, type InspectionEvent, type SimulatedClock } from 'xstate';
import { createKioskMachine } from '../../machines/kiosk/kiosk.actors.ts';
import type { KioskInput } from '../../machines/kiosk/kiosk.types.ts';
import { watchKiosk } from '../../machines/kiosk/kiosk.watch.ts';
import { KioskProvider } from '../../src/app/actors.ts';
import { AppProviders } from '../../src/app/providers.tsx';
import { createAppRouter } from '../../src/app/router.ts';
import { syncRouterWithKiosk } from '../../src/app/router-sync.ts';
import type { ControlledApi } from './controlled-api.ts';
import { setupLanguage } from './render-view.tsx';

type KioskDeps = Parameters<typeof createKioskMachine>[0];

export async function renderKioskApp(options: {
  deps: KioskDeps;
  input: KioskInput;
  url: string;
  inspect: (event: InspectionEvent) => void;
  /** The actor system's clock (every machine's delays); a SimulatedClock lets the test move time. */
  clock?: SimulatedClock;
}) {
  const { i18n, controller } = await setupLanguage('en');
  const history = createMemoryHistory({ initialEntries: [options.url] });
  const router = createAppRouter({ history });
  // Every route's view is a lazy chunk (src/routes/); the built app preloads the exam's and the
  // service worker precaches the rest. Here each is loaded once up front, so a first import
  // (Vite transforming the module) is never what a findBy waits for.
  await Promise.all(Object.values(router.routesById).map((route) => router.loadRouteChunk(route)));
  const kiosk = createActor(createKioskMachine(options.deps), {
    input: options.input,
    inspect: options.inspect,
    ...(options.clock ? { clock: options.clock } : {}),
  }).start();
  const stopSync = syncRouterWithKiosk(history, kiosk, (listener) => watchKiosk(kiosk, listener));
  render(
    <AppProviders environment={{ i18n, language: controller }}>
      <KioskProvider kiosk={kiosk}>
        <RouterProvider router={router} />
      </KioskProvider>
    </AppProviders>,
  );
  return { kiosk, history, stopSync };
}

/** Lets the waiting call of `method` reach the server, then lets React settle. */
export async function serverAnswers(control: ControlledApi, method: Parameters<ControlledApi['answer']>[0]) {
  await waitFor(() => expect(control.waiting()).toContain(method));
  await act(async () => control.answer(method));
}

/** Types a login code (none: leaves the field empty) and presses "Log in". */
export async function sendCode(user: UserEvent, code: string) {
  const field = await screen.findByRole('textbox', { name: 'Login code' });
  await user.clear(field);
  if (code) await user.type(field, code);
  await user.click(screen.getByRole('button', { name: 'Log in' }));
}
