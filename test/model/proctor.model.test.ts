/**
 * The proctor machine walked transition by transition: every call's outcome (the server's
 * answers, its refusals, a dropped connection) and every poll timer are explicit events of the
 * path. Invariants: the staff token is held exactly while signed in, an action is sent only with
 * its confirmed reason (and minutes), one action at a time, and what the page shows
 * (proctor.connect.ts) always matches the machine.
 */
import assert from 'node:assert/strict';
import { afterAll, vi } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import type { AdminSchedulesResponse, AuditResponse, RosterChanges, RosterPupil, StaffLoginResponse } from '../../contract/admin.ts';
import { connect, type ProctorSnapshot } from '../../machines/proctor/proctor.connect.ts';
import { inFilter, matchesSearch, proctorMachine, visiblePupils } from '../../machines/proctor/proctor.machine.ts';
import type { ActionResult, ProctorContext, RestoredSession, RosterResult } from '../../machines/proctor/proctor.types.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';
import { FAKE_NOW, FAKE_UPLOAD_WINDOW_MS, demoPupils, demoRoster, demoSchedules, demoStaff, rooms } from '../helpers/fake-admin.ts';
import { never } from '../helpers/never.ts';
import { describeModel } from './suite.ts';

/**
 * The machine reads the terminal's time (Date.now) when an answer comes, for its offset from the
 * server's clock, and `action.requested` carries that time: with the clock running, paths that
 * reach one state a millisecond apart were told apart, and the number of paths changed from run to
 * run. The terminal's Date stands still at FAKE_NOW for the file (timers stay real).
 */
vi.useFakeTimers({ toFake: ['Date'], now: FAKE_NOW });
afterAll(() => {
  vi.useRealTimers();
});

const machine = proctorMachine.provide({
  actors: {
    restoreSession: never(),
    signIn: never(),
    loadSchedules: never(),
    loadRoster: never(),
    performAction: never(),
    loadAudit: never(),
    signOut: never(),
  },
});

/** A sample output that reads as its name in a path's description (the harness prints events as JSON). */
function named<T extends object>(value: T, name: string): T {
  return Object.defineProperty(value, 'toJSON', { value: () => name, enumerable: false });
}

const serverTime = new Date(FAKE_NOW).toISOString();
const restored: RestoredSession = named({ token: 'staff-token-1', staff: demoStaff }, 'stored token of Grace Hopper');
const loginAnswer: StaffLoginResponse = named({ access_token: 'staff-token-2', staff: demoStaff, server_time: serverTime }, 'token of Grace Hopper');
const schedulesAnswer = (schedules = demoSchedules): AdminSchedulesResponse =>
  named({ schedules, server_time: serverTime }, `${schedules.length} schedules`);
const auditAnswer: AuditResponse = named({
  entries: [
    {
      id: 2, at: serverTime, actor: 'staff', staff_name: demoStaff.name, action: 'move_terminal', examinee_name: 'Amara Okafor',
      schedule_history_id: 501, detail: { revoked_tokens: 1 }, reason: 'Terminal 1 froze',
    },
    {
      id: 1, at: serverTime, actor: 'system', staff_name: null, action: 'outage_credit', examinee_name: 'Kenji Sato',
      schedule_history_id: 502, detail: { seconds: 120 }, reason: 'The server was unavailable for 2 minutes',
    },
  ],
  server_time: serverTime,
}, '2 audit entries');

const unauthorized = () => new ApiFailure('NOT_LOGGED_IN', 401);
const offline = () => new ApiFailure('NETWORK_ERROR');

const contextOf = (snapshot: AnyMachineSnapshot) => snapshot.context as ProctorContext;

const HOUR = 3_600_000;
/**
 * This terminal's time at which the server's clock (the offset kept from the last answer) reads
 * the fixtures' FAKE_NOW: every deadline of the roster is within an hour of it, so the drift of the
 * offset between path generation and replay cannot matter.
 */
const terminalTime = (snapshot: AnyMachineSnapshot) => FAKE_NOW - contextOf(snapshot).clockOffsetMs;

function actionAnswer(context: ProctorContext): ActionResult {
  const request = context.pending!;
  if (request.kind === 'extend_room') return named({ pupil: null, extended: 2, server_time: serverTime }, '2 extended');
  const pupil = demoPupils().find((p) => p.schedule_history_id === request.sittingId)!;
  const changed =
    request.kind === 'move_terminal'
      ? { ...pupil, state: 'moving' as const, device_bound: false }
      : request.kind === 'retake'
        ? { ...pupil, state: 'not_logged_in' as const, status: 0 as const, answers_saved: 0, flag_retake: true }
        : { ...pupil, extra_seconds: pupil.extra_seconds + (request.minutes ?? 0) * 60 };
  return named({ pupil: changed, extended: null, server_time: serverTime }, `${request.kind} done`);
}

describeModel({
  name: 'proctor',
  machine,
  inputs: [undefined],
  samples: {
    'xstate.done.actor.restoreSession': [
      { type: 'xstate.done.actor.restoreSession', output: null },
      { type: 'xstate.done.actor.restoreSession', output: restored },
    ],
    'xstate.error.actor.restoreSession': [
      { type: 'xstate.error.actor.restoreSession', error: unauthorized() },
      { type: 'xstate.error.actor.restoreSession', error: offline() },
    ],
    'login.submitted': [
      { type: 'login.submitted', values: { org_code: 'GRADUS-DEMO', login_id: 'proctor.demo', password: 'gradus-demo' } },
      { type: 'login.submitted', values: { org_code: '', login_id: ' ', password: '' } },
      { type: 'login.submitted', values: { org_code: 'not a code!', login_id: 'proctor.demo', password: 'x' } },
    ],
    'xstate.done.actor.signIn': [{ type: 'xstate.done.actor.signIn', output: loginAnswer }],
    'xstate.error.actor.signIn': [
      { type: 'xstate.error.actor.signIn', error: new ApiFailure('INCORRECT_ID_PASSWORD', 401) },
      { type: 'xstate.error.actor.signIn', error: new ApiFailure('ACCOUNT_LOCKED', 403) },
    ],
    'xstate.done.actor.loadSchedules': [
      { type: 'xstate.done.actor.loadSchedules', output: schedulesAnswer() },
      { type: 'xstate.done.actor.loadSchedules', output: schedulesAnswer([]) },
    ],
    'xstate.error.actor.loadSchedules': [
      { type: 'xstate.error.actor.loadSchedules', error: unauthorized() },
      { type: 'xstate.error.actor.loadSchedules', error: offline() },
    ],
    'schedule.chosen': [
      { type: 'schedule.chosen', code: 'DEMO-2026' },
      { type: 'schedule.chosen', code: 'NO-SUCH-SCHEDULE' },
    ],
    'xstate.done.actor.loadRoster': (snapshot) => {
      const outputs: RosterResult[] = [named({ kind: 'full', roster: demoRoster() }, 'roster of 7 pupils')];
      const held = contextOf(snapshot).roster;
      if (held !== null) {
        const changes = (pupils: RosterPupil[]): RosterChanges => ({
          kind: 'changes', since: held.cursor, venue: held.venue, pupils, cursor: `${held.cursor}1`, upload_window_ms: held.upload_window_ms, server_time: serverTime,
        });
        outputs.push(named({ kind: 'changes', changes: changes([]) }, 'no change'));
        outputs.push(named({ kind: 'changes', changes: changes([{ ...held.pupils[0]!, question_index: 9 }]) }, 'one row changed'));
      }
      return outputs.map((output) => ({ type: 'xstate.done.actor.loadRoster', output }));
    },
    'xstate.error.actor.loadRoster': [
      { type: 'xstate.error.actor.loadRoster', error: unauthorized() },
      { type: 'xstate.error.actor.loadRoster', error: offline() },
      { type: 'xstate.error.actor.loadRoster', error: new ApiFailure('ROSTER_CURSOR_INVALID', 422) },
    ],
    'venue.chosen': [
      { type: 'venue.chosen', venueId: null },
      { type: 'venue.chosen', venueId: rooms.two.id },
      { type: 'venue.chosen', venueId: 999 },
    ],
    'roster.filterChosen': [
      { type: 'roster.filterChosen', filter: 'attention' },
      { type: 'roster.filterChosen', filter: 'all' },
      { type: 'roster.filterChosen', filter: 'everyone' },
    ],
    'roster.searched': [
      { type: 'roster.searched', text: 'Kenji' },
      { type: 'roster.searched', text: '' },
    ],
    'action.requested': (snapshot) => {
      const now = terminalTime(snapshot);
      return [
        { type: 'action.requested', kind: 'move_terminal', sittingId: 501, now },
        { type: 'action.requested', kind: 'extend', sittingId: 502, now },
        { type: 'action.requested', kind: 'retake', sittingId: 503, now },
        { type: 'action.requested', kind: 'extend_room', now },
        // Not in the exam: nothing to move.
        { type: 'action.requested', kind: 'move_terminal', sittingId: 504, now },
        // A day and an hour later every sitting in the exam is past its upload window: no extension.
        { type: 'action.requested', kind: 'extend', sittingId: 502, now: now + FAKE_UPLOAD_WINDOW_MS + HOUR },
        { type: 'action.requested', kind: 'extend_room', now: now + FAKE_UPLOAD_WINDOW_MS + HOUR },
      ];
    },
    'action.confirmed': (snapshot) => {
      const kind = contextOf(snapshot).draft?.kind;
      const extension = kind === 'extend' || kind === 'extend_room';
      return [
        { type: 'action.confirmed', reason: 'Terminal 1 froze', ...(extension ? { minutes: '5' } : {}) },
        { type: 'action.confirmed', reason: '   ', ...(extension ? { minutes: '0' } : {}) },
      ];
    },
    'xstate.done.actor.performAction': (snapshot) => [
      { type: 'xstate.done.actor.performAction', output: actionAnswer(contextOf(snapshot)) },
    ],
    'xstate.error.actor.performAction': [
      { type: 'xstate.error.actor.performAction', error: unauthorized() },
      { type: 'xstate.error.actor.performAction', error: new ApiFailure('EXAM_NOT_STARTED', 403) },
    ],
    'xstate.done.actor.loadAudit': [{ type: 'xstate.done.actor.loadAudit', output: auditAnswer }],
    'xstate.error.actor.loadAudit': [
      { type: 'xstate.error.actor.loadAudit', error: unauthorized() },
      { type: 'xstate.error.actor.loadAudit', error: offline() },
    ],
    'xstate.done.actor.signOut': [{ type: 'xstate.done.actor.signOut', output: undefined }],
    'xstate.error.actor.signOut': [{ type: 'xstate.error.actor.signOut', error: offline() }],
  } satisfies Record<string, AnyEventObject[] | ((snapshot: AnyMachineSnapshot) => AnyEventObject[])>,
  contextKey: (context) => {
    const c = context as unknown as ProctorContext;
    return {
      schedules: c.schedules.length,
      roster: c.roster !== null,
      venue: c.venueId,
      draft: c.draft?.kind ?? null,
      pending: c.pending?.kind ?? null,
    };
  },
  // node:assert rather than expect: invariants run after every event of every path, where expect's cost dominates.
  invariants: (snapshot) => {
    const context = contextOf(snapshot);
    const api = connect(snapshot as unknown as ProctorSnapshot, () => {}, FAKE_NOW);
    // The staff token is held exactly while signed in (and while signing out, for the logout call).
    const signedIn = snapshot.matches('signedIn') || snapshot.matches('signingOut');
    assert.equal(context.token !== null, signedIn);
    assert.equal(context.staff !== null, signedIn);
    // A cursor only with a roster held, and it is that roster's own (its last answer's).
    if (context.cursor !== null) assert.equal(context.cursor, context.roster?.cursor);
    // The password is held only while the login call runs.
    assert.equal(context.credentials !== null, snapshot.matches('signingIn'));
    // An action is sent only with its confirmed reason; minutes with every extension.
    const sending = snapshot.matches({ signedIn: { watching: { action: 'acting' } } });
    const failed = snapshot.matches({ signedIn: { watching: { action: 'failed' } } });
    assert.equal(context.pending !== null, sending || failed);
    if (context.pending) {
      assert.ok(context.pending.reason.trim().length > 0);
      const extension = context.pending.kind === 'extend' || context.pending.kind === 'extend_room';
      assert.equal(context.pending.minutes !== null, extension);
    }
    // One action at a time: a draft exactly while confirming, sending or failed.
    const confirming = snapshot.matches({ signedIn: { watching: { action: 'confirming' } } });
    assert.equal(context.draft !== null, confirming || sending || failed);
    // The page shows what the machine is in.
    assert.equal(
      api.phase,
      snapshot.matches('restoring')
        ? 'restoring'
        : snapshot.matches('restoreFailed')
          ? 'restoreFailed'
          : snapshot.matches('signedOut') || snapshot.matches('signingIn')
            ? 'signedOut'
            : snapshot.matches('signingOut')
              ? 'signingOut'
              : snapshot.matches({ signedIn: 'schedules' })
                ? 'schedules'
                : snapshot.matches({ signedIn: 'audit' })
                  ? 'audit'
                  : 'roster',
    );
    assert.equal(api.dialog !== null, confirming || sending || failed);
    if (api.phase === 'roster') {
      // The rows are the room's that the search and the state filter keep (all of them with every state), those who need attention first.
      const kept = visiblePupils(context).filter((p) => matchesSearch({ name: p.examinee_name, codeHint: p.login_code_hint }, context.search));
      const shown = api.roster.rows.map((r) => r.sittingId);
      assert.equal(shown.every((id) => kept.some((p) => p.schedule_history_id === id)), true);
      assert.equal(api.roster.rows.every((r) => inFilter(r, context.rosterFilter)), true);
      if (context.rosterFilter === 'all') assert.equal(shown.length, kept.length);
      const waiting = api.roster.rows.map((r) => (r.attention === null ? 1 : 0));
      assert.deepStrictEqual(waiting, [...waiting].sort());
      // A failed poll keeps the last roster and says so; a good one clears the banner.
      assert.equal(api.roster.connection.lost, context.pollFailures > 0);
    }
  },
});
