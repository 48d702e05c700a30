/**
 * The session's ways in while nobody is signed in (seed sections 2, 3 and 8): the login-code
 * form, the login page of a school or schedule (login ID + password, examinee login, single
 * sign-on), the entry routes (/oauth*, /app-entry: rules 1-4), and the screens a visitor is kept
 * on (/403 and /404 by rules 5 and 7, the end screen kept for its stored error codes) or sent
 * away from (the partner's site at logout). Every URL a visitor types without a screen of this
 * machine arrives here as `location.unmatched` and is judged in the order of the rules.
 */
import { assign } from 'xstate';
import { normalizeLoginCode, type ExamineeInfo, type ExamineeSession } from '../../contract/session.ts';
import { failureCodeOf } from '../shared/ports.ts';
import { uuidV4 } from '../shared/uuid.ts';
import {
  appEntryOrg,
  failureFromSearch,
  loginSearch,
  oauthEntry,
  oauthError,
  partnerEntry,
  sessionFromLogin,
  ssoCodeOf,
  visibleFailure,
} from './session.rules.ts';
import { partnerLogoutUrlOf, sessionSetup } from './session.setup.ts';
import type { EntryFacts, LoginPlace, SessionContext } from './session.types.ts';

/** After a login: the session it opened (just assigned to the context) is stored. */
const persistTheSession = {
  type: 'persistSession',
  params: ({ context }: { context: SessionContext }) => ({ session: context.session as ExamineeSession }),
} as const;

export const signedOutState = sessionSetup.createStateConfig({
  initial: 'loginCode',
  on: {
    // Rule 7 for a protected screen the URL routes to directly (the testing menu): /403.
    'xstate.route': { guard: 'isRouteToProtectedScreen', target: '#sessionForbidden' },
    'location.unmatched': [
      // Rule 4: /app-entry needs organization_code; with it, the school's login page.
      { guard: 'isAppEntryWithoutOrg', target: '#sessionNotFound' },
      {
        guard: 'isAppEntry',
        target: '#sessionLogin',
        actions: assign({ search: ({ event }) => ({ org_code: appEntryOrg(event.search) ?? '', from: 'app_entry' }) }),
      },
      // Rule 1: an error stores the school id and shows the SSO error.
      {
        guard: 'isOauthError',
        target: '#sessionEntryFailed',
        actions: [
          assign({ entryError: ({ event }) => ({ kind: 'sso', code: oauthError(event.search)?.code ?? 'unknown' }) }),
          { type: 'persistSchoolId', params: ({ event }) => ({ schoolId: oauthError(event.search)?.schoolId ?? null }) },
        ],
      },
      {
        guard: 'isOauthWithToken',
        target: '#sessionIdentifying',
        actions: [
          assign({ entry: ({ context, event }) => oauthEntry(event.search, context.storedToken) }),
          { type: 'persistEntry', params: ({ context }) => ({ entry: context.entry as EntryFacts }) },
        ],
      },
      // Rule 2: Kenya's token is exchanged first.
      {
        guard: 'isKenyaWithToken',
        target: '#sessionExchanging',
        actions: assign({ entry: ({ event }) => partnerEntry(event.path, event.search) }),
      },
      // Rules 2 and 3: the partner's token is ours.
      {
        guard: 'isPartnerWithToken',
        target: '#sessionIdentifying',
        actions: [
          assign({ entry: ({ event }) => partnerEntry(event.path, event.search) }),
          { type: 'persistEntry', params: ({ context }) => ({ entry: context.entry as EntryFacts }) },
        ],
      },
      // Rule 1 (no token or no school id) and rule 2 (no token): unknown.
      {
        guard: 'isEntryPath',
        target: '#sessionEntryFailed',
        actions: assign({ entryError: { kind: 'sso', code: 'unknown' } }),
      },
      { guard: 'isLoginPage', target: '#sessionLogin', actions: assign({ search: ({ event }) => loginSearch(event.search) }) },
      // Rule 5's exception: the end screen stays for these stored error codes.
      { guard: 'isKeptExamEnd', target: '#sessionExamEndKept' },
      // Rule 7: a screen that needs a stored login shows /403.
      { guard: 'isProtectedPath', target: '#sessionForbidden' },
      { guard: 'isUnknownPath', target: '#sessionNotFound' },
      // Rule 5: any other protected path without a token goes to the login page.
      { target: '#sessionLoginCode', actions: assign({ search: {} }) },
    ],
  },
  states: {
    loginCode: {
      id: 'sessionLoginCode',
      meta: { path: '/login-code', screen: 'login-code', withSearch: true },
      route: { guard: 'isSignedOut' },
      entry: assign({ loginError: ({ context }) => failureFromSearch(context.search) }),
      initial: 'editing',
      states: {
        editing: {
          on: {
            'loginCode.submitted': [
              { guard: 'isCodeMissing', actions: assign({ loginError: { kind: 'field', rule: 'required' } }) },
              { guard: 'isCodeMalformed', actions: assign({ loginError: { kind: 'field', rule: 'invalid' } }) },
              {
                target: 'submitting',
                actions: assign({
                  loginError: null,
                  pendingCode: ({ event }) => normalizeLoginCode(event.code) ?? null,
                }),
              },
            ],
          },
        },
        submitting: {
          tags: ['busy'],
          invoke: {
            id: 'loginWithCode',
            src: 'loginWithCode',
            input: ({ context }) => ({ code: context.pendingCode ?? '' }),
            onDone: {
              target: '#session.signedIn',
              actions: [
                assign({ session: ({ event }) => sessionFromLogin(event.output, uuidV4()), pendingCode: null, search: {} }),
                persistTheSession,
              ],
            },
            onError: {
              target: 'editing',
              actions: assign({
                loginError: ({ event }) => ({ kind: 'failure', code: failureCodeOf(event.error) }),
                pendingCode: null,
              }),
            },
          },
        },
      },
    },
    login: {
      id: 'sessionLogin',
      meta: { path: '/login', screen: 'login', withSearch: true },
      entry: assign({ passwordError: ({ context }) => failureFromSearch(context.search), place: null, placeError: null }),
      initial: 'loadingPlace',
      states: {
        loadingPlace: {
          tags: ['busy'],
          invoke: {
            id: 'loadLoginPlace',
            src: 'loadLoginPlace',
            input: ({ context }) => ({ search: context.search }),
            onDone: { target: 'ready', actions: assign({ place: ({ event }) => event.output }) },
            onError: [
              // "Venue, organization or schedule URL invalid".
              { guard: 'isInvalidPlace', target: 'invalid', actions: assign({ placeError: 'INVALID_SCHEDULE' }) },
              { target: 'placeFailed', actions: assign({ placeError: ({ event }) => visibleFailure(event.error) }) },
            ],
          },
        },
        invalid: {},
        placeFailed: {
          on: { 'retry.requested': 'loadingPlace' },
        },
        ready: {
          on: {
            'login.submitted': [
              {
                guard: 'areCredentialsIncomplete',
                actions: assign({
                  passwordError: ({ event }) => ({
                    kind: 'fields',
                    fields: {
                      ...(event.login_id.trim() === '' ? { login_id: 'required' as const } : {}),
                      ...(event.password === '' ? { password: 'required' as const } : {}),
                    },
                  }),
                }),
              },
              {
                target: 'submitting',
                actions: assign({
                  passwordError: null,
                  credentials: ({ event }) => ({ login_id: event.login_id.trim(), password: event.password }),
                }),
              },
            ],
          },
        },
        submitting: {
          tags: ['busy'],
          invoke: {
            id: 'loginWithPassword',
            src: 'loginWithPassword',
            input: ({ context }) => ({
              place: context.place as LoginPlace,
              credentials: context.credentials ?? { login_id: '', password: '' },
            }),
            onDone: {
              target: '#session.signedIn',
              actions: [
                assign({ session: ({ event }) => sessionFromLogin(event.output, uuidV4()), credentials: null, search: {} }),
                persistTheSession,
              ],
            },
            onError: {
              target: 'ready',
              actions: assign({
                passwordError: ({ event }) => ({ kind: 'failure', code: visibleFailure(event.error) }),
                credentials: null,
              }),
            },
          },
        },
      },
    },
    entering: {
      meta: { screen: 'entry' },
      tags: ['busy'],
      initial: 'identifying',
      states: {
        exchanging: {
          id: 'sessionExchanging',
          invoke: {
            id: 'exchangeKenyaToken',
            src: 'exchangeKenyaToken',
            input: ({ context }) => ({ token: context.entry?.token ?? '' }),
            onDone: [
              {
                guard: { type: 'hasKenyaToken', params: ({ event }) => event.output },
                target: 'identifying',
                actions: [
                  assign({
                    entry: ({ context, event }) => ({
                      token: event.output.access_token ?? '',
                      schoolId: event.output.org_code ?? context.entry?.schoolId ?? '',
                      loginType: event.output.login_type ?? 6,
                      stepMode: event.output.org_step_mode ?? context.entry?.stepMode ?? false,
                    }),
                  }),
                  { type: 'persistEntry', params: ({ context }) => ({ entry: context.entry as EntryFacts }) },
                ],
              },
              {
                target: '#sessionEntryFailed',
                actions: assign({ entryError: ({ event }) => ({ kind: 'sso', code: ssoCodeOf(event.output.error) }) }),
              },
            ],
            onError: {
              target: '#sessionEntryFailed',
              actions: assign({ entryError: ({ event }) => ({ kind: 'failure', code: visibleFailure(event.error) }) }),
            },
          },
        },
        identifying: {
          id: 'sessionIdentifying',
          invoke: {
            id: 'identifyToken',
            src: 'identifyToken',
            onDone: {
              target: '#session.signedIn',
              actions: [
                assign({
                  // The entry's query decides the login type and step mode (rule 1).
                  session: ({ context, event }) =>
                    sessionFromLogin(
                      {
                        ...event.output,
                        examinee: {
                          ...event.output.examinee,
                          login_type: (context.entry?.loginType ?? event.output.examinee.login_type) as ExamineeInfo['login_type'],
                          enable_mode_step: context.entry?.stepMode ?? event.output.examinee.enable_mode_step,
                        },
                      },
                      uuidV4(),
                    ),
                  entry: null,
                }),
                persistTheSession,
              ],
            },
            onError: {
              target: '#sessionEntryFailed',
              actions: [
                assign({ entryError: ({ event }) => ({ kind: 'failure', code: visibleFailure(event.error) }) }),
                'wipeSession',
              ],
            },
          },
        },
      },
    },
    entryFailed: {
      id: 'sessionEntryFailed',
      meta: { screen: 'entry' },
      on: {
        'login.requested': [
          {
            guard: 'hasEntrySchool',
            target: 'login',
            actions: assign({ search: ({ context }) => ({ school: context.entry?.schoolId ?? '' }), entry: null, entryError: null }),
          },
          { target: 'loginCode', actions: assign({ search: {}, entry: null, entryError: null }) },
        ],
      },
    },
    forbidden: {
      id: 'sessionForbidden',
      meta: { path: '/403', screen: 'forbidden' },
      route: { guard: 'isSignedOut' },
      on: { 'login.requested': { target: 'loginCode', actions: [assign({ search: {} }), 'clearLoginError'] } },
    },
    notFound: {
      id: 'sessionNotFound',
      meta: { path: '/404', screen: 'not-found' },
      route: { guard: 'isSignedOut' },
      on: { 'login.requested': { target: 'loginCode', actions: [assign({ search: {} }), 'clearLoginError'] } },
    },
    examEndKept: {
      id: 'sessionExamEndKept',
      meta: { path: '/exam-end', screen: 'exam-end' },
      on: { 'login.requested': { target: 'loginCode', actions: assign({ search: {} }) } },
    },
    leavingForPartner: {
      meta: { screen: 'entry' },
      tags: ['busy'],
      invoke: {
        id: 'loadClientConfig',
        src: 'loadClientConfig',
        onDone: [
          {
            guard: { type: 'hasPartnerLogoutUrl', params: ({ event }) => event.output },
            target: 'left',
            actions: {
              type: 'leaveApp',
              params: ({ context, event }) => ({
                url: partnerLogoutUrlOf(event.output, context.exit?.loginType) ?? '',
              }),
            },
          },
          { target: 'loginCode', actions: assign({ search: { logout: '1' }, exit: null }) },
        ],
        onError: { target: 'loginCode', actions: assign({ search: { logout: '1' }, exit: null }) },
      },
    },
    /** The browser is on its way to the partner's site. */
    left: { meta: { screen: 'entry' }, tags: ['busy'] },
  },
});
