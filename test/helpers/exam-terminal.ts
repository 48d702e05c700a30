/**
 * One exam terminal for the machine tests (test/machines/exam-*.test.ts): the exam machine with
 * its real actors (examImplementations) and the real retry machine, over the in-memory fake
 * server whose network the test can cut, with an outbox, an exam cache and a stored session
 * that outlive a reload (`boot()` again), a proctor's move to another terminal (`moveAway()`: the
 * server then refuses this terminal as it refuses a terminal moved away from), a SimulatedClock
 * (every backoff and heartbeat interval is a step of the test), and the page's signals sent by
 * the test (`signal`), as src/platform/terminal.ts sends them in the browser. Pages booted at once
 * are windows of the one terminal: each hears the answers another announces as saved
 * (`answer.savedElsewhere`) and the clock offset another shares (`clock.shared`).
 *
 * A page ends as a page does: `actor.stop()` is the page going away (F5, the window closed), so
 * the browser's pagehide reaches the exam first, as it always does before a page is gone (the
 * exam reports the question on screen then, src/platform/terminal.ts); `crash()` ends it with no
 * word at all (the browser or the terminal dying), the one end that loses a move the pupil had
 * not paused after.
 */
import { randomUUID } from 'node:crypto';
import { SimulatedClock, createActor, waitFor } from 'xstate';
import { examImplementations } from '../../machines/exam/exam.actors.ts';
import { examMachine } from '../../machines/exam/exam.machine.ts';
import { refusedOnThisTerminal } from '../../machines/exam/exam.rules.ts';
import type { ExamSession, TerminalSignal } from '../../machines/exam/exam.types.ts';
import { createMemoryExamCache } from '../../machines/exam/memory-exam-cache.ts';
import { sessionFromLogin } from '../../machines/session/session.machine.ts';
import { createMemoryOutbox } from '../../machines/shared/memory-outbox.ts';
import { ApiFailure, type ApiPort } from '../../machines/shared/ports.ts';
import { createFakeApi, demoExaminee, type FakeApi } from './fake-api.ts';

/** The exam calls whose network the test cuts. */
const examCalls = ['examDetails', 'startExam', 'examQuestions', 'saveAnswer', 'finishExam', 'heartbeat'] as const;

/**
 * Whether the server refuses this call of a terminal a proctor moved the pupil away from at
 * `movedAt` (epoch ms, the server's clock), as the real one does: the move revoked the terminal's
 * token, so every call is 403 INCORRECT_DEVICE (server/http/middleware.ts), but an answer given
 * before the move is still taken (server/domain/answers/).
 */
function refusedAfterMove(name: (typeof examCalls)[number], args: unknown[], movedAt: number): boolean {
  if (name !== 'saveAnswer') return true;
  return Date.parse((args[0] as { answered_at: string }).answered_at) >= movedAt;
}

/**
 * One terminal (outbox, exam cache, stored session) over one server; each `boot()` is a page load
 * (after F5: the same terminal). `moveAway()`: a proctor moves the pupil to another terminal now.
 * `serverNow`: the time the server stamps on its responses (a response slow to arrive is one
 * stamped earlier than this terminal's clock reads when it lands).
 */
export function setUp(options: { serverNow?: () => number } = {}) {
  const server = createFakeApi({ now: options.serverNow });
  const network = { up: true, tries: [] as string[] };
  let movedAt: number | null = null;
  const port: ApiPort = { ...server };
  for (const name of examCalls) {
    const call = server[name] as (...args: unknown[]) => Promise<unknown>;
    (port as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
      network.tries.push(name);
      if (!network.up) return Promise.reject(new ApiFailure('NETWORK_ERROR'));
      if (movedAt !== null && refusedAfterMove(name, args, movedAt)) return Promise.reject(new ApiFailure('INCORRECT_DEVICE', 403));
      return call(...args);
    };
  }
  const moveAway = () => {
    movedAt = Date.now();
  };
  const outbox = createMemoryOutbox();
  const examCache = createMemoryExamCache();
  let stored: ExamSession = sessionFromLogin({ access_token: 'token-1', examinee: demoExaminee, server_time: new Date().toISOString() }, randomUUID());

  /** Every page booted on this terminal, as each hears what another announces (a BroadcastChannel in the browser). */
  const pages = new Set<(signal: TerminalSignal) => void>();

  const boot = (session: ExamSession = stored) => {
    const listeners = new Set<(signal: TerminalSignal) => void>();
    const hear = (event: TerminalSignal) => {
      for (const listener of listeners) listener(event);
    };
    pages.add(hear);
    const implementations = examImplementations({
      api: port,
      outbox,
      examCache,
      terminal: {
        watch: (listener) => (listeners.add(listener), () => listeners.delete(listener)),
        // The other pages of this terminal hear it a moment later (a message, as a BroadcastChannel's); never this one.
        announce: (answer) => {
          for (const page of pages) if (page !== hear) queueMicrotask(() => page({ type: 'answer.savedElsewhere', answer }));
        },
        shareClock: (clock) => {
          for (const page of pages) if (page !== hear) queueMicrotask(() => page({ type: 'clock.shared', clock }));
        },
      },
    });
    const machine = examMachine.provide({
      ...implementations,
      actions: {
        ...implementations.actions,
        // The kiosk keeps the session's progress (question_index...) in storage; here, this variable.
        reportProgress: ({ context }) => {
          stored = { ...stored, question_index: context.questionIndex };
        },
        // As the kiosk does: a Finish under way is kept in the stored session until the exam is completed.
        reportFinishing: (_, params: { pending: boolean }) => {
          stored = { ...stored, finish_pending: params.pending };
        },
        // As the kiosk does: a move away is kept in the stored session, with the refusals so far.
        reportMovedAway: ({ context }) => {
          stored = { ...stored, moved_away_refused: refusedOnThisTerminal(context) };
        },
        reportCompleted: () => {
          stored = { ...stored, is_completed: true, finish_pending: false };
        },
        requestLogout: () => {},
        reportUnauthorized: () => {},
        requestLogoutWithError: () => {},
      },
    });
    const clock = new SimulatedClock();
    const actor = createActor(machine, { input: { session }, clock } as never);
    const signal = hear;
    const crash = actor.stop.bind(actor);
    actor.stop = () => {
      signal({ type: 'page.changed', now: Date.now(), visible: false, cause: 'pagehide' });
      return crash();
    };
    return { actor, clock, signal, crash };
  };
  return { server, network, outbox, examCache, boot, moveAway, session: () => stored };
}

/** Lets promise actors settle. */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Settles until the exam's snapshot (read afresh: a child's move does not emit the parent's
 * snapshot) satisfies the predicate.
 */
export async function until<T>(actor: { getSnapshot(): T }, predicate: (snapshot: T) => boolean): Promise<T> {
  for (let round = 0; round < 100; round++) {
    if (predicate(actor.getSnapshot())) return actor.getSnapshot();
    await settle();
  }
  throw new Error('until: the condition never held');
}

/** This terminal's time `ms` after the deadline the server fixed (the fake server's clock is this terminal's). */
export const afterDeadline = (server: FakeApi, ms: number) => Date.parse(server.deadlineAt()) + ms;

export async function startedExam(terminal: ReturnType<typeof setUp>) {
  await terminal.server.startExam(7);
  const running = terminal.boot();
  running.actor.start();
  running.actor.send({ type: 'INIT_TEST' });
  await waitFor(running.actor, (s) => s.matches('answering'));
  return running;
}
