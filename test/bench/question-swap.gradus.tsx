/**
 * The Gradus sides of the question-swap bench (question-swap.bench.ts, in Chromium through
 * question-swap.page.tsx). `gradusSwap`: the real app as src/main.tsx boots it (the kiosk with the
 * real session and exam machines, the router, the shell, the connected exam screen, Lingui) over
 * an API that answers at once, the page's localStorage, the IndexedDB outbox and exam cache and
 * the browser terminal's ticks, signed in and answering question 1. `swap()` presses Next, or
 * Previous on question 2, and returns once React has committed (flushSync). `screenSwap`: the
 * exam screen alone. No Testing Library: the bench runs React's production build, which has no `act`.
 */
import { RouterProvider, createMemoryHistory } from '@tanstack/react-router';
import { setupI18n } from '@lingui/core';
import { useCallback, useState } from 'react';
import { createActor } from 'xstate';
import type { Question } from '../../contract/exam.ts';
import { createKioskMachine } from '../../machines/kiosk/kiosk.actors.ts';
import { waitForKiosk, watchKiosk } from '../../machines/kiosk/kiosk.watch.ts';
import { sessionFromLogin } from '../../machines/session/session.machine.ts';
import { readSession, readToken, writeLanguage, writeSession } from '../../machines/shared/storage.ts';
import { KioskProvider } from '../../src/app/actors.ts';
import { AppProviders } from '../../src/app/providers.tsx';
import { createAppRouter } from '../../src/app/router.ts';
import { syncRouterWithKiosk } from '../../src/app/router-sync.ts';
import { createLanguageController } from '../../src/i18n/language-controller.ts';
import { createIndexedDbExamCache } from '../../src/platform/exam-cache.ts';
import { createIndexedDbOutbox } from '../../src/platform/outbox.ts';
import { createBrowserTerminal } from '../../src/platform/terminal.ts';
import { ExamScreen } from '../../src/screens/exam/exam.tsx';
import { createFakeApi, demoExaminee } from '../helpers/fake-api.ts';
import { mounted, type SwapUnderTest } from './question-swap.mount.tsx';
import { examOf } from '../helpers/kiosk-exam.ts';

export async function gradusSwap(questions: Question[]): Promise<SwapUnderTest> {
  const api = createFakeApi();
  const load = api.examQuestions.bind(api);
  api.examQuestions = async (id) => ({ ...(await load(id)), questions });
  const storage = window.localStorage;
  storage.clear();
  writeSession(storage, sessionFromLogin({ access_token: 'token-1', examinee: demoExaminee, server_time: new Date().toISOString() }, crypto.randomUUID()));
  // The outbox and the exam cache as the browser keeps them (IndexedDB), and its clock.
  const examCache = createIndexedDbExamCache(`bench-exam-cache-${crypto.randomUUID()}`);
  const outbox = createIndexedDbOutbox(`bench-outbox-${crypto.randomUUID()}`);
  const kiosk = createActor(createKioskMachine({ api, storage, examCache, outbox, terminal: createBrowserTerminal() }), {
    input: { storedSession: readSession(storage), storedToken: readToken(storage) },
  }).start();
  const exam = () => kiosk.getSnapshot().children.exam?.getSnapshot();
  await waitForKiosk(kiosk, () => exam()?.matches('confirming') ?? false);
  examOf(kiosk).send({ type: 'identity.confirmed' });
  examOf(kiosk).send({ type: 'tutorial.completed' });
  examOf(kiosk).send({ type: 'start.confirmed' });
  await waitForKiosk(kiosk, () => exam()?.matches('answering') ?? false);

  // The time the machines' `send` takes (XState's transition and everything that observes it):
  // the exam's and its `position` child's (a swap goes to the child), timed from before the
  // screen binds to them: the bench prints it as the machines' share.
  const examActor = examOf(kiosk);
  const positionActor = examActor.getSnapshot().children.position;
  if (!positionActor) throw new Error('the exam runs no position child while answering');
  let inMachine = 0;
  for (const actor of [examActor, positionActor] as Array<{ send(event: never): void }>) {
    const send = actor.send.bind(actor);
    actor.send = (event) => {
      const started = performance.now();
      send(event);
      inMachine += performance.now() - started;
    };
  }
  const machineTime = () => {
    const spent = inMachine;
    inMachine = 0;
    return spent;
  };
  const i18n = setupI18n();
  writeLanguage(storage, 'en');
  const controller = createLanguageController({ i18n, storage, browserLanguages: [], root: document.documentElement });
  await controller.start();
  const history = createMemoryHistory({ initialEntries: ['/start'] });
  const router = createAppRouter({ history });
  const stopSync = syncRouterWithKiosk(history, kiosk, (listener) => watchKiosk(kiosk, listener));
  return mounted(
    <AppProviders environment={{ i18n, language: controller }}>
      <KioskProvider kiosk={kiosk}>
        <RouterProvider router={router} />
      </KioskProvider>
    </AppProviders>,
    () => {
      stopSync();
      kiosk.stop();
    },
    machineTime,
  );
}

const noop = () => {};
const noAnswers = {};
const noFlags: readonly number[] = [];

/**
 * The exam screen alone (src/screens/exam/exam.tsx, with Lingui as the app has it), its index in
 * `useState` and its events bound once: the view's share of a swap, without the machines.
 */
export async function screenSwap(questions: Question[]): Promise<SwapUnderTest> {
  const storage = window.localStorage;
  const i18n = setupI18n();
  writeLanguage(storage, 'en');
  const controller = createLanguageController({ i18n, storage, browserLanguages: [], root: document.documentElement });
  await controller.start();
  const deadlineAt = Date.now() + 2_400_000;
  function Screen() {
    const [index, setIndex] = useState(0);
    const next = useCallback(() => setIndex((i) => i + 1), []);
    const previous = useCallback(() => setIndex((i) => i - 1), []);
    return (
      <ExamScreen
        api={{
          status: 'answering',
          questions,
          index,
          answers: noAnswers,
          deadlineAt,
          clockOffsetMs: 0,
          timeLimitSeconds: 2400,
          confirmingFinish: false,
          error: null,
          flagged: noFlags,
          listOpen: false,
          keyboardOpen: true,
          upperCase: false,
          draft: null,
          retry: noop,
          answer: noop,
          type: noop,
          commitDraft: noop,
          next,
          previous,
          select: noop,
          flag: noop,
          toggleList: noop,
          toggleKeyboard: noop,
          toggleUpperCase: noop,
          requestFinish: noop,
          confirmFinish: noop,
          cancelFinish: noop,
          focusLost: noop,
        }}
      />
    );
  }
  return mounted(
    <AppProviders environment={{ i18n, language: controller }}>
      <Screen />
    </AppProviders>,
    noop,
  );
}
