/**
 * The session machine walked transition by transition: every way in (login code), the entry
 * guards for visitors, and every way out.
 */
import { expect } from 'vitest';
import { sessionFromLogin, sessionMachine } from '../../machines/session/session.machine.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';
import type { LoginResponse } from '../../src/shared/contract.ts';
import { demoExaminee } from '../helpers/fake-api.ts';
import { never } from '../helpers/never.ts';
import { describeModel } from './suite.ts';

const loginResponse: LoginResponse = {
  access_token: 'token-1',
  examinee: demoExaminee,
  server_time: '2026-11-22T09:00:00.000Z',
};

const machine = sessionMachine.provide({
  actors: { loginWithCode: never<LoginResponse, { code: string }>(), endServerSession: never<void, void>() },
  actions: {
    persistSession: () => {},
    wipeSession: () => {},
    persistChange: () => {},
    notifySignedIn: () => {},
    notifySignedOut: () => {},
  },
});

describeModel({
  name: 'session',
  machine,
  inputs: [{ storedSession: null }, { storedSession: sessionFromLogin(loginResponse, '00000000-0000-4000-8000-000000000000') }],
  samples: {
    'loginCode.submitted': [{ type: 'loginCode.submitted', code: '' }, { type: 'loginCode.submitted', code: 'ab-cd' }, { type: 'loginCode.submitted', code: 'ac3ef4ghj6km' }],
    'xstate.done.actor.loginWithCode': [{ type: 'xstate.done.actor.loginWithCode', output: loginResponse }],
    'xstate.error.actor.loginWithCode': [
      { type: 'xstate.error.actor.loginWithCode', error: new ApiFailure('LOGIN_CODE_INCORRECT', 401) },
      { type: 'xstate.error.actor.loginWithCode', error: new ApiFailure('NETWORK_ERROR') },
    ],
    'xstate.done.actor.endServerSession': [{ type: 'xstate.done.actor.endServerSession', output: undefined }],
    'xstate.error.actor.endServerSession': [{ type: 'xstate.error.actor.endServerSession', error: new ApiFailure('NETWORK_ERROR') }],
    'location.unmatched': [
      { type: 'location.unmatched', path: '/start', known: true },
      { type: 'location.unmatched', path: '/no-such-page', known: false },
    ],
    'xstate.route': [
      { type: 'xstate.route', to: '#sessionLoginCode' },
      { type: 'xstate.route', to: '#sessionNotFound' },
    ],
    'session.updated': [{ type: 'session.updated', change: { question_index: 2 } }],
  },
  contextKey: (context) => ({
    signedIn: context.session !== null,
    error: (context.loginError as { kind?: string; rule?: string; code?: string } | null) ?? null,
  }),
  invariants: (snapshot) => {
    // A session is held exactly while signed in or signing out.
    const holds = snapshot.matches('signedIn') || snapshot.matches('signingOut');
    expect(snapshot.context.session !== null).toBe(holds);
  },
});
