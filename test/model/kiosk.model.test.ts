/**
 * The kiosk machine walked transition by transition, with stand-in children: what it owns is
 * composing them, passing the exam's reports to the session and turning locations into events
 * (the proctor page at /proctor, and back to the pupil's screens from it; the terminal check at
 * /checking-domain-connection, by URL or by a login screen's link, left when done or by URL).
 */
import { expect } from 'vitest';
import { createMachine } from 'xstate';
import { kioskMachine } from '../../machines/kiosk/kiosk.machine.ts';
import { sessionFromLogin } from '../../machines/session/session.machine.ts';
import { demoExaminee } from '../helpers/fake-api.ts';
import { describeModel } from './suite.ts';

const session = sessionFromLogin(
  { access_token: 'token-1', examinee: demoExaminee, server_time: '2026-11-22T09:00:00.000Z' },
  '0f0e0d0c-0b0a-4908-8706-050403020100',
);

const machine = kioskMachine.provide({
  actors: {
    session: createMachine({ id: 'standInSession' }) as never,
    exam: createMachine({ id: 'standInExam' }) as never,
    document: createMachine({ id: 'standInDocument' }) as never,
    proctor: createMachine({ id: 'standInProctor' }) as never,
    connectivity: createMachine({ id: 'standInConnectivity' }) as never,
  },
});

describeModel({
  name: 'kiosk',
  machine,
  inputs: [{ storedSession: null }],
  samples: {
    'session.signedIn': [{ type: 'session.signedIn', session }],
    'exam.progressed': [{ type: 'exam.progressed', change: { question_index: 1 } }],
    'location.changed': [
      ...['/login-code', '/start', '/exam-tutorial', '/no-such-page', '/score-report-embed/4217', '/proctor', '/checking-domain-connection'].map(
        (path) => ({ type: 'location.changed' as const, path }),
      ),
      // The print route with its own login (the token in its URL); without one it is the session's (rule 7).
      { type: 'location.changed', path: '/score-report-embed/4217', search: { token: 'a'.repeat(43) } },
    ],
    // The terminal check is done: the teacher pressed "Back".
    'xstate.done.actor.connectivity': [{ type: 'xstate.done.actor.connectivity', output: undefined }],
  },
  contextKey: (context) => ({ signedIn: context.session !== null }),
  invariants: (snapshot) => {
    // The exam runs exactly while an examinee is signed in; the proctor page exactly while it is shown.
    expect(Boolean(snapshot.children.exam)).toBe(snapshot.matches('examinee'));
    expect(Boolean(snapshot.children.proctor)).toBe(snapshot.matches('proctor'));
    expect(Boolean(snapshot.children.connectivity)).toBe(snapshot.matches('connectivity'));
    // The pupil's session runs under every screen, the proctor page's too.
    expect(Boolean(snapshot.children.session)).toBe(true);
    expect(snapshot.context.session !== null).toBe(snapshot.matches('examinee'));
  },
});
