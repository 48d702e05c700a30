/**
 * kiosk.connect.ts as a pure function: a snapshot of the kiosk (with stand-in children whose
 * states carry the screen and the `busy` tag) in, exactly what the shell renders out: which
 * screen is current (booting while the active child shows none), whether anything waits for a
 * call, the exam's retry dialog and where its buttons go (the exam itself), and the way to the
 * terminal check (the kiosk's own event).
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromPromise, setup } from 'xstate';
import { connect } from '../../machines/kiosk/kiosk.connect.ts';
import { kioskMachine } from '../../machines/kiosk/kiosk.machine.ts';
import { retryMachine } from '../../machines/retry/retry.machine.ts';
import { sessionFromLogin } from '../../machines/session/session.machine.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';
import { demoExaminee } from '../helpers/fake-api.ts';

const session = sessionFromLogin(
  { access_token: 'token-1', examinee: demoExaminee, server_time: '2026-11-22T09:00:00.000Z' },
  '0f0e0d0c-0b0a-4908-8706-050403020100',
);

/** A child that shows `screen` (none: undefined), busy or not. */
const standIn = (screen?: string, busy = false) =>
  createMachine({ initial: 'shown', states: { shown: { ...(screen ? { meta: { screen } } : {}), tags: busy ? ['busy'] : [] } } });

/** An exam whose finishing call failed for want of network past the backoff window (the autoConnect dialog). */
function offlineExam(received: string[], context: { startedAt: number | null; answers: Record<number, unknown> } | undefined = undefined) {
  return setup({
    actors: {
      retry: retryMachine.provide({ actors: { call: fromPromise(() => Promise.reject(new ApiFailure('NETWORK_ERROR'))) } }),
    },
  }).createMachine({
    ...(context ? { context } : {}),
    initial: 'finishing',
    states: { finishing: { meta: { screen: 'exam' } } },
    invoke: { id: 'finishExam', src: 'retry', input: { variant: 'autoConnect', input: null, windowMs: 0 } },
    on: { '*': { actions: ({ event }) => void received.push(event.type) } },
  });
}

function boot(children: { session?: unknown; exam?: unknown }) {
  const machine = kioskMachine.provide({
    actors: {
      session: children.session ?? standIn('login-code'),
      exam: children.exam ?? standIn('login-confirm'),
      document: standIn(),
      proctor: standIn('proctor'),
      connectivity: standIn('connectivity'),
    } as never,
  });
  return createActor(machine, { input: { storedSession: null } }).start();
}

describe('kiosk connect', () => {
  it("names the active child's screen, and booting while it shows none", () => {
    expect(connect(boot({}).getSnapshot(), () => {}).screen).toBe('login-code');
    expect(connect(boot({ session: standIn() }).getSnapshot(), () => {}).screen).toBe('booting');
    const kiosk = boot({});
    kiosk.send({ type: 'session.signedIn', session });
    expect(connect(kiosk.getSnapshot(), () => {}).screen).toBe('login-confirm');
  });

  it('is busy while the session or the exam waits for a call, and not otherwise', () => {
    expect(connect(boot({}).getSnapshot(), () => {}).busy).toBe(false);
    expect(connect(boot({ session: standIn('login-code', true) }).getSnapshot(), () => {}).busy).toBe(true);
    const kiosk = boot({ exam: standIn('exam-start', true) });
    expect(connect(kiosk.getSnapshot(), () => {}).busy).toBe(false);
    kiosk.send({ type: 'session.signedIn', session });
    expect(connect(kiosk.getSnapshot(), () => {}).busy).toBe(true);
  });

  it("says the pupil's answers are kept only once the exam has started or holds an answer", async () => {
    const cases = [
      { context: { startedAt: null, answers: {} }, kept: false },
      { context: { startedAt: null, answers: { 101: { value: 'a' } } }, kept: true },
      { context: { startedAt: Date.parse('2026-09-01T08:00:00Z'), answers: {} }, kept: true },
    ];
    for (const { context, kept } of cases) {
      const kiosk = boot({ exam: offlineExam([], context) });
      kiosk.send({ type: 'session.signedIn', session });
      await vi.waitFor(() => expect(connect(kiosk.getSnapshot(), () => {}).retryDialog).toEqual({ kind: 'retry' }));
      expect(connect(kiosk.getSnapshot(), () => {}).retryAnswersKept, JSON.stringify(context)).toBe(kept);
      kiosk.stop();
    }
  });

  it("shows the exam's retry dialog, and its buttons go to the exam", async () => {
    const received: string[] = [];
    const kiosk = boot({ exam: offlineExam(received) });
    expect(connect(kiosk.getSnapshot(), () => {}).retryDialog).toBeNull();
    kiosk.send({ type: 'session.signedIn', session });
    await vi.waitFor(() => expect(connect(kiosk.getSnapshot(), () => {}).retryDialog).toEqual({ kind: 'retry' }));
    const kioskSend = vi.fn();
    const api = connect(kiosk.getSnapshot(), kioskSend);
    api.retry();
    api.closeDialog();
    expect(received.filter((type) => type === 'retry.requested' || type === 'dialog.closed')).toEqual(['retry.requested', 'dialog.closed']);
    expect(kioskSend).not.toHaveBeenCalled();
  });

  it('has no retry dialog, and its buttons do nothing, without an exam', () => {
    const api = connect(boot({}).getSnapshot(), () => {});
    expect(api.retryDialog).toBeNull();
    expect(() => {
      api.retry();
      api.closeDialog();
    }).not.toThrow();
  });

  it('opens the terminal check with the kiosk\'s own event', () => {
    const send = vi.fn();
    connect(boot({}).getSnapshot(), send).checkTerminal();
    expect(send).toHaveBeenCalledWith({ type: 'connectivity.requested' });
  });
});
