/**
 * The proctor machine's rules as pure functions, outside the model walk
 * (test/model/proctor.model.test.ts) and the page's binding (test/view/proctor-connect.test.ts):
 * the staff login form and the confirm step checked field by field at their limits, which
 * actions apply to a pupil in each roster state, the rooms and the summary counts, and each row
 * as a teacher reads it.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, SimulatedClock, toPromise, type AnyActorLogic } from 'xstate';
import type { RosterChanges, RosterPupil, RosterResponse, RosterState } from '../../contract/admin.ts';
import { OFFLINE_AFTER_MS } from '../../contract/presence.ts';
import {
  actionsFor,
  asciiDigits,
  checkConfirmation,
  checkStaffLogin,
  filterCounts,
  isInExam,
  mergeRoster,
  POLL_BACKOFF_MAX_MS,
  pollDelayMs,
  proctorMachine,
  roomsOf,
  unavailableActions,
  visiblePupils,
} from '../../machines/proctor/proctor.machine.ts';
import { rowOf, serverNow, withAttention } from '../../machines/proctor/proctor.selectors.ts';
import type { ActionDraft } from '../../machines/proctor/proctor.types.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';
import { FAKE_NOW, FAKE_UPLOAD_WINDOW_MS, demoPupils, demoRoster, demoSchedules, demoStaff, noChanges, rooms } from '../helpers/fake-admin.ts';
import { never } from '../helpers/never.ts';

const staff = { org_code: 'GRADUS-DEMO', login_id: 'grace', password: 'secret' };

/** An idempotency key: an RFC 4122 version-4 UUID (machines/shared/uuid.ts). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('the staff login form', () => {
  it('passes the values as the request, trimmed where the contract trims', () => {
    expect(checkStaffLogin({ ...staff, login_id: '  grace  ' })).toEqual({ ok: true, request: staff });
  });

  it('names each field that is missing or invalid, once', () => {
    expect(checkStaffLogin({ org_code: '', login_id: ' ', password: '' })).toEqual({
      ok: false,
      fields: { login_id: 'required', password: 'required' },
    });
    expect(checkStaffLogin({ org_code: 'no spaces', login_id: 'x'.repeat(65), password: 'p'.repeat(129) })).toEqual({
      ok: false,
      fields: { org_code: 'invalid', login_id: 'invalid', password: 'invalid' },
    });
    expect(checkStaffLogin({ ...staff, login_id: 'x'.repeat(64), password: 'p'.repeat(128) }).ok).toBe(true);
    expect(checkStaffLogin({ ...staff, password: '' })).toEqual({ ok: false, fields: { password: 'required' } });
  });

  it("takes an empty organisation code as an administrator's sign-in (no org_code is sent)", () => {
    const checked = checkStaffLogin({ org_code: '  ', login_id: 'root', password: 'a long password' });
    expect(checked).toEqual({ ok: true, request: { login_id: 'root', password: 'a long password' } });
  });
});

describe('the confirm step', () => {
  const draft = (kind: ActionDraft['kind'], venueId: number | null = null): ActionDraft => ({
    kind,
    sittingId: kind === 'extend_room' ? null : 501,
    examineeName: kind === 'extend_room' ? null : 'Amara Okafor',
    answersSaved: 5,
    venueId,
    venueName: null,
    pupilsInExam: 0,
  });

  it('an action on a pupil needs a reason of 1 to 500 characters, trimmed; no minutes', () => {
    for (const kind of ['move_terminal', 'retake'] as const) {
      expect(checkConfirmation(draft(kind), { reason: '  Terminal froze  ', minutes: 'ignored' })).toEqual({
        ok: true,
        request: { ...draft(kind), reason: 'Terminal froze', minutes: null },
      });
      expect(checkConfirmation(draft(kind), { reason: '   ' })).toEqual({ ok: false, fields: { reason: 'required' } });
      expect(checkConfirmation(draft(kind), { reason: 'r'.repeat(501) })).toEqual({ ok: false, fields: { reason: 'invalid' } });
      expect(checkConfirmation(draft(kind), { reason: 'r'.repeat(500) }).ok).toBe(true);
    }
  });

  it('an extension needs whole minutes from 1 to 60 as typed', () => {
    for (const kind of ['extend', 'extend_room'] as const) {
      const minutes = (typed: string | undefined) => checkConfirmation(draft(kind), { reason: 'Fire drill', ...(typed === undefined ? {} : { minutes: typed }) });
      expect(minutes(' 5 ')).toEqual({ ok: true, request: { ...draft(kind), reason: 'Fire drill', minutes: 5 } });
      expect(minutes('1')).toMatchObject({ ok: true, request: { minutes: 1 } });
      expect(minutes('60')).toMatchObject({ ok: true, request: { minutes: 60 } });
      for (const typed of ['', '  ', undefined]) expect(minutes(typed), String(typed)).toEqual({ ok: false, fields: { minutes: 'required' } });
      for (const typed of ['0', '61', '99', '100', '1.5', '-1', 'ten', '5 minutes']) {
        expect(minutes(typed), typed).toEqual({ ok: false, fields: { minutes: 'invalid' } });
      }
    }
  });

  it('minutes typed in any script\'s digits count: Arabic, Persian, Devanagari, Myanmar, Khmer, Thai, full-width', () => {
    const minutes = (typed: string) => checkConfirmation(draft('extend'), { reason: 'Fire drill', minutes: typed });
    for (const [typed, value] of [['٥', 5], ['۱۵', 15], ['१०', 10], ['၃၀', 30], ['៦០', 60], ['๔๕', 45], ['１０', 10], ['𝟗', 9]] as const) {
      expect(minutes(typed), typed).toMatchObject({ ok: true, request: { minutes: value } });
    }
    for (const typed of ['٠', '٦١', '５.５', '−５']) expect(minutes(typed), typed).toEqual({ ok: false, fields: { minutes: 'invalid' } });
    expect(asciiDigits('a١٢b')).toBe('a12b');
    expect(asciiDigits('𝟎𝟗𝟘𝟡𝟶𝟿')).toBe('090909');
  });

  it('both fields wrong: both named', () => {
    expect(checkConfirmation(draft('extend'), { reason: '', minutes: '0' })).toEqual({ ok: false, fields: { reason: 'required', minutes: 'invalid' } });
  });

  it('the room-wide extension is sent with its room, or for the whole schedule', () => {
    expect(checkConfirmation(draft('extend_room', 12), { reason: 'Fire drill', minutes: '10' })).toEqual({
      ok: true,
      request: { ...draft('extend_room', 12), reason: 'Fire drill', minutes: 10 },
    });
    // A room id that is no id cannot be sent.
    expect(checkConfirmation(draft('extend_room', 0), { reason: 'Fire drill', minutes: '10' })).toEqual({ ok: false, fields: { reason: 'invalid' } });
  });
});

describe('pupils and rooms', () => {
  const base = demoPupils()[0]!;
  const pupil = (state: RosterState, status = 6): RosterPupil => ({ ...base, state, status } as RosterPupil);

  it('which actions apply in each roster state', () => {
    const expected: Record<RosterState, string[]> = {
      not_logged_in: [],
      logged_in: [],
      in_exam: ['move_terminal', 'extend', 'retake'],
      offline: ['move_terminal', 'extend', 'retake'],
      moving: ['extend', 'retake'],
      time_up: ['extend', 'retake'],
      finished: ['retake'],
      cancelled: [],
      expired: [],
    };
    for (const [state, actions] of Object.entries(expected) as [RosterState, string[]][]) {
      expect(actionsFor(pupil(state, state === 'finished' ? 1 : 6)), state).toEqual(actions);
      expect(isInExam(pupil(state)), state).toBe(['in_exam', 'offline', 'moving', 'time_up'].includes(state));
    }
    // A released result (RESULT_PUBLIC) cannot be reset; a scored one can.
    expect(actionsFor(pupil('finished', 5))).toEqual([]);
    expect(actionsFor(pupil('finished', 8))).toEqual(['retake']);
  });

  it('the rooms are the schedule\'s, as the last full answer listed them; the filter shows one room or all', () => {
    const inRoom = (id: number, name: string): RosterPupil => ({ ...base, venue: { id, name } });
    const rooms = [{ id: 2, name: 'Alpha' }, { id: 1, name: 'Beta' }, { id: 3, name: 'Beta' }];
    const roster = { rooms, pupils: [inRoom(3, 'Beta'), inRoom(2, 'Alpha'), inRoom(3, 'Beta'), { ...base, venue: null }] } as RosterResponse;
    expect(roomsOf(roster)).toEqual(rooms);
    expect(roomsOf(null)).toEqual([]);
    expect(visiblePupils({ roster, venueId: null })).toHaveLength(4);
    expect(visiblePupils({ roster, venueId: 3 })).toEqual([inRoom(3, 'Beta'), inRoom(3, 'Beta')]);
    expect(visiblePupils({ roster: null, venueId: 3 })).toEqual([]);
  });

  describe('mergeRoster: the changes since the cursor into the rows held', () => {
    const row = (id: number, name: string, extra: Partial<RosterPupil> = {}): RosterPupil => ({ ...base, schedule_history_id: id, examinee_name: name, ...extra });
    const held = { ...demoRoster([row(1, 'Ana'), row(2, 'Ben'), row(3, 'Cleo')]), cursor: '10.1000' };
    const changes = (pupils: RosterPupil[], extra: Partial<RosterChanges> = {}): RosterChanges => ({
      ...noChanges(held),
      pupils,
      cursor: '12.6000',
      server_time: new Date(6000).toISOString(),
      ...extra,
    });

    it('replaces each changed row where it stands, adds a new sitting after the others, and takes the cursor and time', () => {
      const merged = mergeRoster(held, changes([row(3, 'Cleo', { state: 'in_exam' }), row(4, 'Aaron'), row(1, 'Ana', { answers_saved: 3 })]))!;
      expect(merged.pupils.map((p) => [p.schedule_history_id, p.state, p.answers_saved])).toEqual([
        [1, base.state, 3],
        [2, base.state, base.answers_saved],
        [3, 'in_exam', base.answers_saved],
        [4, base.state, base.answers_saved],
      ]);
      expect(merged.pupils[1]).toBe(held.pupils[1]);
      expect(merged).toMatchObject({ cursor: '12.6000', server_time: new Date(6000).toISOString(), schedule: held.schedule, rooms: held.rooms });
      expect(held.pupils.map((p) => p.schedule_history_id)).toEqual([1, 2, 3]);
    });

    it('no change keeps the very rows held, with the new cursor', () => {
      const merged = mergeRoster(held, changes([]))!;
      expect(merged.pupils).toBe(held.pupils);
      expect(merged.cursor).toBe('12.6000');
    });

    it('cannot merge without a roster held, or the changes of another room: null (ask in full)', () => {
      expect(mergeRoster(null, changes([row(1, 'Ana')]))).toBeNull();
      expect(mergeRoster(held, changes([row(1, 'Ana')], { venue: rooms.one }))).toBeNull();
      expect(mergeRoster({ ...held, venue: rooms.one }, changes([], { venue: rooms.one }))).not.toBeNull();
    });
  });

  it('the state filters count the rows by what they show', () => {
    const rows = withAttention(
      (['in_exam', 'offline', 'moving', 'time_up', 'finished', 'finished', 'not_logged_in', 'logged_in', 'cancelled'] as RosterState[]).map((state) =>
        rowOf(pupil(state), FAKE_NOW),
      ),
    );
    expect(filterCounts(rows)).toEqual({ all: 9, attention: 4, not_started: 2, in_exam: 4, finished: 2, ended: 1 });
    expect(filterCounts([])).toEqual({ all: 0, attention: 0, not_started: 0, in_exam: 0, finished: 0, ended: 0 });
  });
});

describe('a row on the server clock', () => {
  const base = { ...demoPupils()[0]!, state: 'in_exam' as const };
  const at = (ms: number) => new Date(FAKE_NOW + ms).toISOString();

  it('a pupil in the exam is shown offline only after more than OFFLINE_AFTER_MS without contact or confirmation', () => {
    const heard = { ...base, last_contact_at: at(0) };
    // Confirmed in the exam by the last roster answer at FAKE_NOW (the default: now).
    expect(rowOf(heard, FAKE_NOW + OFFLINE_AFTER_MS, FAKE_NOW)).toMatchObject({
      state: 'in_exam', lastContactSeconds: OFFLINE_AFTER_MS / 1000, recentContact: true,
    });
    expect(rowOf(heard, FAKE_NOW + OFFLINE_AFTER_MS + 1, FAKE_NOW)).toMatchObject({ state: 'offline', recentContact: false });
    // A 304 a moment ago confirmed "in the exam" (heard from within 30 s): the old instant does not make the pupil offline.
    const old = { ...base, last_contact_at: at(-5 * OFFLINE_AFTER_MS) };
    expect(rowOf(old, FAKE_NOW + 5_000, FAKE_NOW)).toMatchObject({ state: 'in_exam', recentContact: true });
    expect(rowOf(old, FAKE_NOW)).toMatchObject({ state: 'in_exam', recentContact: true });
    // ...until the page has had no answer for more than 30 s.
    expect(rowOf(old, FAKE_NOW + OFFLINE_AFTER_MS + 1, FAKE_NOW)).toMatchObject({ state: 'offline', lastContactSeconds: 5 * OFFLINE_AFTER_MS / 1000 + OFFLINE_AFTER_MS / 1000 });
    // A contact after the confirmation counts too.
    expect(rowOf({ ...base, last_contact_at: at(20_000) }, FAKE_NOW + 20_000 + OFFLINE_AFTER_MS, FAKE_NOW).state).toBe('in_exam');
    // Only "in the exam" is recent contact: an offline pupil shows their seconds.
    expect(rowOf({ ...old, state: 'offline' }, FAKE_NOW)).toMatchObject({ state: 'offline', recentContact: false, lastContactSeconds: 150 });
    // Only a pupil the server shows in the exam: a finished one stays finished.
    expect(rowOf({ ...heard, state: 'finished' }, FAKE_NOW + 10 * OFFLINE_AFTER_MS)).toMatchObject({ state: 'finished' });
    // A contact "in the future" (clocks apart) is no negative time.
    expect(rowOf({ ...base, last_contact_at: at(5_000) }, FAKE_NOW).lastContactSeconds).toBe(0);
    expect(rowOf({ ...base, last_contact_at: at(-1_999) }, FAKE_NOW).lastContactSeconds).toBe(1);
  });

  it("Extend is unavailable once the sitting is past deadline + upload window (the server's TIME_END line), never before", () => {
    const WINDOW = 30 * 60_000;
    const timeUp = { ...base, state: 'time_up' as const, deadline_at: at(-WINDOW) };
    // At the very end of the window the server still extends; one millisecond later it refuses.
    expect(rowOf(timeUp, FAKE_NOW, FAKE_NOW, WINDOW)).toMatchObject({ actions: ['extend', 'retake'], unavailable: {} });
    expect(rowOf(timeUp, FAKE_NOW + 1, FAKE_NOW, WINDOW)).toMatchObject({ actions: ['extend', 'retake'], unavailable: { extend: 'upload_window_closed' } });
    expect(unavailableActions(timeUp, FAKE_NOW + 1, WINDOW)).toEqual({ extend: 'upload_window_closed' });
    // Moving (DOING, no terminal) follows the same rule; a finished pupil has no extension to refuse.
    expect(unavailableActions({ ...timeUp, state: 'moving' }, FAKE_NOW + 1, WINDOW)).toEqual({ extend: 'upload_window_closed' });
    expect(unavailableActions({ ...timeUp, state: 'finished', status: 1 }, FAKE_NOW + 1, WINDOW)).toEqual({});
    // No deadline, or no window known: nothing is past it.
    expect(unavailableActions({ ...timeUp, deadline_at: null }, FAKE_NOW + 1, WINDOW)).toEqual({});
    expect(rowOf(timeUp, FAKE_NOW + 1).unavailable).toEqual({});
  });

  it('time left rounds up to the second while the exam runs; none without a deadline or outside the exam', () => {
    expect(rowOf({ ...base, deadline_at: at(1_001) }, FAKE_NOW).timeLeftSeconds).toBe(2);
    expect(rowOf({ ...base, deadline_at: at(1_000) }, FAKE_NOW).timeLeftSeconds).toBe(1);
    expect(rowOf({ ...base, deadline_at: at(-1) }, FAKE_NOW).timeLeftSeconds).toBe(0);
    expect(rowOf({ ...base, deadline_at: null }, FAKE_NOW).timeLeftSeconds).toBeNull();
    expect(rowOf({ ...base, state: 'finished', deadline_at: at(60_000) }, FAKE_NOW).timeLeftSeconds).toBeNull();
  });

  it('shows the question 1-based, extra time in whole minutes, the receipt and the retake flag', () => {
    const row = rowOf({ ...base, question_index: 0, extra_seconds: 150, receipt: { answer_count: 17 } as RosterPupil['receipt'], flag_retake: true }, FAKE_NOW);
    expect(row).toMatchObject({ questionNumber: 1, extraMinutes: 3, receiptAnswers: 17, retake: true });
    expect(rowOf({ ...base, receipt: null, venue: null }, FAKE_NOW)).toMatchObject({ receiptAnswers: null, room: null });
  });

  it('the server clock is this terminal\'s plus the kept offset', () => {
    expect(serverNow({ clockOffsetMs: -10_000 }, FAKE_NOW)).toBe(FAKE_NOW - 10_000);
    expect(serverNow({ clockOffsetMs: 2_500 }, FAKE_NOW)).toBe(FAKE_NOW + 2_500);
  });
});

describe('polling', () => {
  it('every 5 s, doubling after failures up to 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 50].map(pollDelayMs)).toEqual([5_000, 5_000, 10_000, 20_000, POLL_BACKOFF_MAX_MS, POLL_BACKOFF_MAX_MS, POLL_BACKOFF_MAX_MS]);
    expect(POLL_BACKOFF_MAX_MS).toBe(30_000);
  });
});

describe('the machine, driven by hand', () => {
  const serverTime = new Date(FAKE_NOW).toISOString();
  const callNames = ['restoreSession', 'signIn', 'loadSchedules', 'loadRoster', 'performAction', 'loadAudit', 'signOut'];
  /** The machine with calls that never answer (the test answers them) and, optionally, the storage actions watched. */
  const machineWith = (actions: { storeToken?: (_: unknown, params: { token: string }) => void; forgetToken?: () => void } = {}) =>
    proctorMachine.provide({
      actors: {
        restoreSession: never(), signIn: never(), loadSchedules: never(), loadRoster: never(),
        performAction: never(), loadAudit: never(), signOut: never(),
      },
      actions,
    });
  const done = (actor: { send(event: never): void }, id: string, output: unknown) => actor.send({ type: `xstate.done.actor.${id}`, output } as never);
  const failed = (actor: { send(event: never): void }, id: string, error: unknown) => actor.send({ type: `xstate.error.actor.${id}`, error } as never);

  function signedIn() {
    const stored: string[] = [];
    let forgotten = 0;
    const actor = createActor(
      machineWith({ storeToken: (_, params) => void stored.push(params.token), forgetToken: () => void (forgotten += 1) }),
    ).start();
    done(actor, 'restoreSession', { token: 'staff-token', staff: demoStaff });
    done(actor, 'loadSchedules', { schedules: demoSchedules, server_time: serverTime });
    return { actor, stored, forgotten: () => forgotten };
  }

  function onRoster(pupils = demoPupils()) {
    const machine = signedIn();
    machine.actor.send({ type: 'schedule.chosen', code: 'DEMO-2026' });
    done(machine.actor, 'loadRoster', { kind: 'full', roster: demoRoster(pupils) });
    return machine;
  }

  it('a stored session signs in; none shows the login form', () => {
    const { actor } = signedIn();
    expect(actor.getSnapshot().context).toMatchObject({ token: 'staff-token', staff: demoStaff, schedules: demoSchedules, notice: null });
    const empty = createActor(machineWith()).start();
    done(empty, 'restoreSession', null);
    expect(empty.getSnapshot().value).toBe('signedOut');
    expect(empty.getSnapshot().context.token).toBeNull();
  });

  it('a 401 ends the staff session with a notice; maintenance, a dropped connection or another code does not', () => {
    for (const [error, value] of [
      [new ApiFailure('NOT_LOGGED_IN', 401), 'signedOut'],
      [{ code: 'NOT_LOGGED_IN' }, 'signedOut'],
      [{ code: 'TIMEOUT' }, 'restoreFailed'],
      [new ApiFailure('DURING_MAINTENANCE', 401), 'restoreFailed'],
      [new ApiFailure('NOT_LOGGED_IN', 403), 'restoreFailed'],
      [new ApiFailure('NETWORK_ERROR'), 'restoreFailed'],
    ] as const) {
      let forgotten = 0;
      const actor = createActor(machineWith({ forgetToken: () => void (forgotten += 1) })).start();
      failed(actor, 'restoreSession', error);
      expect(actor.getSnapshot().value, JSON.stringify(error)).toBe(value);
      if (value === 'signedOut') {
        expect(actor.getSnapshot().context.notice).toBe('sessionEnded');
        expect(forgotten).toBe(1);
      } else {
        expect(actor.getSnapshot().context.failure).toBe(error.code);
        expect(forgotten).toBe(0);
      }
    }
  });

  it('the login form: invalid values stay on the form with their fields; a refusal says its code', () => {
    const actor = createActor(machineWith()).start();
    done(actor, 'restoreSession', null);
    actor.send({ type: 'login.submitted', values: { ...staff, password: '' } });
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(actor.getSnapshot().context.loginError).toEqual({ kind: 'fields', fields: { password: 'required' } });
    actor.send({ type: 'login.submitted', values: staff });
    expect(actor.getSnapshot().value).toBe('signingIn');
    expect(actor.getSnapshot().context).toMatchObject({ credentials: staff, loginError: null });
    failed(actor, 'signIn', new ApiFailure('ACCOUNT_LOCKED', 403));
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(actor.getSnapshot().context).toMatchObject({ credentials: null, loginError: { kind: 'failure', code: 'ACCOUNT_LOCKED' } });
  });

  it('signing in keeps the token under the staff key', () => {
    const stored: string[] = [];
    const actor = createActor(machineWith({ storeToken: (_, params) => void stored.push(params.token) })).start();
    done(actor, 'restoreSession', null);
    actor.send({ type: 'login.submitted', values: staff });
    done(actor, 'signIn', { access_token: 'new-token', staff: demoStaff, server_time: serverTime });
    expect(stored).toEqual(['new-token']);
    expect(actor.getSnapshot().context).toMatchObject({ token: 'new-token', staff: demoStaff, credentials: null, loginError: null });
  });

  it('only a schedule of the list can be chosen; only a room of the schedule (or all) watched, each asked for in full', () => {
    const { actor } = signedIn();
    actor.send({ type: 'schedule.chosen', code: 'NO-SUCH' });
    expect(actor.getSnapshot().matches({ signedIn: 'schedules' })).toBe(true);
    actor.send({ type: 'schedule.chosen', code: 'DEMO-2026' });
    expect(actor.getSnapshot().matches({ signedIn: 'watching' })).toBe(true);
    expect(actor.getSnapshot().context.scheduleCode).toBe('DEMO-2026');
    done(actor, 'loadRoster', { kind: 'full', roster: demoRoster() });
    actor.send({ type: 'venue.chosen', venueId: 999 });
    expect(actor.getSnapshot().context.venueId).toBeNull();
    actor.send({ type: 'venue.chosen', venueId: rooms.two.id });
    expect(actor.getSnapshot().context.venueId).toBe(rooms.two.id);
    actor.send({ type: 'venue.chosen', venueId: null });
    expect(actor.getSnapshot().context.venueId).toBeNull();
  });

  it('changes with none keep the rows held and mark them current; a failed poll counts and says why', () => {
    const { actor } = onRoster();
    const roster = actor.getSnapshot().context.roster!;
    actor.send({ type: 'roster.refreshRequested' });
    failed(actor, 'loadRoster', new ApiFailure('NETWORK_ERROR'));
    expect(actor.getSnapshot().context).toMatchObject({ pollFailures: 1, pollFailure: 'NETWORK_ERROR', roster, cursor: roster.cursor });
    actor.send({ type: 'roster.refreshRequested' });
    failed(actor, 'loadRoster', new ApiFailure('TIMEOUT'));
    expect(actor.getSnapshot().context).toMatchObject({ pollFailures: 2, pollFailure: 'TIMEOUT' });
    actor.send({ type: 'roster.refreshRequested' });
    done(actor, 'loadRoster', { kind: 'changes', changes: { ...noChanges(roster), cursor: '9.9' } });
    expect(actor.getSnapshot().context).toMatchObject({ pollFailures: 0, pollFailure: null, cursor: '9.9' });
    expect(actor.getSnapshot().context.roster!.pupils).toBe(roster.pupils);
  });

  it('a cursor the server refuses is dropped: the next poll asks in full, and says why meanwhile', () => {
    const { actor } = onRoster();
    const roster = actor.getSnapshot().context.roster!;
    actor.send({ type: 'roster.refreshRequested' });
    failed(actor, 'loadRoster', new ApiFailure('ROSTER_CURSOR_INVALID', 422));
    expect(actor.getSnapshot().context).toMatchObject({ pollFailures: 1, pollFailure: 'ROSTER_CURSOR_INVALID', roster, cursor: null });
  });

  it('an action: only one that applies to a pupil of the roster; its draft says who and what', () => {
    const { actor } = onRoster();
    actor.send({ type: 'action.requested', kind: 'move_terminal', sittingId: 999, now: Date.now() });
    actor.send({ type: 'action.requested', kind: 'move_terminal', sittingId: 503, now: Date.now() });
    expect(actor.getSnapshot().context.draft).toBeNull();
    actor.send({ type: 'action.requested', kind: 'retake', sittingId: 503, now: Date.now() });
    expect(actor.getSnapshot().context.draft).toEqual({
      kind: 'retake', sittingId: 503, examineeName: 'Lucía Fernández', answersSaved: demoPupils()[2]!.answers_saved,
      waitingAnswers: demoPupils()[2]!.waiting_answers, terminalOffline: demoPupils()[2]!.state === 'offline',
      venueId: rooms.two.id, venueName: rooms.two.name, pupilsInExam: 0,
    });
    actor.send({ type: 'action.cancelled' });
    expect(actor.getSnapshot().context.draft).toBeNull();
  });

  it('the move dialog calls the terminal offline as the row shows it: in the exam, but neither heard from nor confirmed for over OFFLINE_AFTER_MS', () => {
    const { actor } = onRoster();
    const amara = demoPupils().find((p) => p.examinee_name === 'Amara Okafor')!;
    expect(amara.state).toBe('in_exam');
    actor.send({ type: 'action.requested', kind: 'move_terminal', sittingId: amara.schedule_history_id, now: Date.now() });
    expect(actor.getSnapshot().context.draft).toMatchObject({ kind: 'move_terminal', terminalOffline: false });
    actor.send({ type: 'action.cancelled' });
    // No roster answer since, and 31 s on: the row shows her offline, and so does the dialog.
    actor.send({ type: 'action.requested', kind: 'move_terminal', sittingId: amara.schedule_history_id, now: Date.now() + OFFLINE_AFTER_MS + 1_000 });
    expect(actor.getSnapshot().context.draft).toMatchObject({ kind: 'move_terminal', terminalOffline: true });
  });

  it('the room-wide extension counts the pupils in the exam of the room shown, and names the room', () => {
    const { actor } = onRoster();
    actor.send({ type: 'venue.chosen', venueId: rooms.one.id });
    actor.send({ type: 'action.requested', kind: 'extend_room', now: Date.now() });
    expect(actor.getSnapshot().context.draft).toMatchObject({ kind: 'extend_room', sittingId: null, venueId: rooms.one.id, venueName: rooms.one.name, pupilsInExam: 3 });
    actor.send({ type: 'action.cancelled' });
    actor.send({ type: 'venue.chosen', venueId: rooms.two.id });
    actor.send({ type: 'action.requested', kind: 'extend_room', now: Date.now() });
    expect(actor.getSnapshot().context.draft).toBeNull();
  });

  it("refuses an extension past the sitting's upload window itself, on the server's clock when asked; the room-wide one counts only whom it extends", () => {
    // Kenji's time ran out one upload window before the roster's server_time; Amara's and Ethan's still run.
    const pupils = demoPupils().map((p) =>
      p.schedule_history_id === 502 ? { ...p, state: 'time_up' as const, deadline_at: new Date(FAKE_NOW - FAKE_UPLOAD_WINDOW_MS).toISOString() } : p,
    );
    // Our clock is 10 s behind the server's (the offset kept from the roster's server_time).
    vi.useFakeTimers({ toFake: ['Date'], now: FAKE_NOW - 10_000 });
    const { actor } = (() => {
      try {
        return onRoster(pupils);
      } finally {
        vi.useRealTimers();
      }
    })();
    const endOfWindow = FAKE_NOW - 10_000;
    const idle = () => actor.getSnapshot().matches({ signedIn: { watching: { action: 'idle' } } });
    // At the very end of the window the server still extends: the machine asks for it.
    actor.send({ type: 'action.requested', kind: 'extend', sittingId: 502, now: endOfWindow });
    expect(actor.getSnapshot().context.draft).toMatchObject({ kind: 'extend', sittingId: 502 });
    actor.send({ type: 'action.cancelled' });
    actor.send({ type: 'action.requested', kind: 'extend_room', now: endOfWindow });
    expect(actor.getSnapshot().context.draft).toMatchObject({ kind: 'extend_room', pupilsInExam: 3 });
    actor.send({ type: 'action.cancelled' });
    // One millisecond later the server refuses it (TIME_END): the machine does not ask, whoever sent it.
    actor.send({ type: 'action.requested', kind: 'extend', sittingId: 502, now: endOfWindow + 1 });
    expect(actor.getSnapshot().context.draft).toBeNull();
    expect(idle()).toBe(true);
    // Kenji's retake still applies; the room-wide extension reaches Amara and Ethan only, and says so.
    actor.send({ type: 'action.requested', kind: 'retake', sittingId: 502, now: endOfWindow + 1 });
    expect(actor.getSnapshot().context.draft).toMatchObject({ kind: 'retake', sittingId: 502 });
    actor.send({ type: 'action.cancelled' });
    actor.send({ type: 'action.requested', kind: 'extend_room', now: endOfWindow + 1 });
    expect(actor.getSnapshot().context.draft).toMatchObject({ kind: 'extend_room', pupilsInExam: 2 });
    actor.send({ type: 'action.cancelled' });
    // Once every sitting in the exam is past its window, the room-wide extension reaches nobody: not asked.
    actor.send({ type: 'action.requested', kind: 'extend_room', now: endOfWindow + FAKE_UPLOAD_WINDOW_MS + 3_600_000 });
    expect(actor.getSnapshot().context.draft).toBeNull();
    expect(idle()).toBe(true);
  });

  it('a confirmed action is sent with its reason; its answer replaces that pupil row, and the roster is asked again', () => {
    const { actor } = onRoster();
    actor.send({ type: 'action.requested', kind: 'extend', sittingId: 501, now: Date.now() });
    actor.send({ type: 'action.confirmed', reason: '', minutes: '5' });
    expect(actor.getSnapshot().context).toMatchObject({ pending: null, fieldErrors: { reason: 'required' } });
    actor.send({ type: 'action.confirmed', reason: 'Fire drill', minutes: '5' });
    expect(actor.getSnapshot().context.pending).toMatchObject({ kind: 'extend', sittingId: 501, reason: 'Fire drill', minutes: 5 });
    expect(actor.getSnapshot().matches({ signedIn: { watching: { action: 'acting' } } })).toBe(true);
    const changed = { ...demoPupils()[0]!, extra_seconds: 300 };
    done(actor, 'performAction', { pupil: changed, extended: null, server_time: serverTime });
    const { context } = actor.getSnapshot();
    expect(context.roster?.pupils.find((p) => p.schedule_history_id === 501)).toEqual(changed);
    expect(context.roster?.pupils.find((p) => p.schedule_history_id === 502)).toEqual(demoPupils()[1]);
    expect(context.outcome).toEqual({ kind: 'extend', examineeName: 'Amara Okafor', minutes: 5, extended: null, venueName: rooms.one.name });
    expect(context).toMatchObject({ draft: null, pending: null, fieldErrors: {}, actionFailure: null });
    expect(actor.getSnapshot().matches({ signedIn: { watching: { roster: 'fetching' } } })).toBe(true);
  });

  it('a failed action says why and can be tried again or dropped; a 401 signs out', () => {
    const { actor } = onRoster();
    actor.send({ type: 'action.requested', kind: 'move_terminal', sittingId: 501, now: Date.now() });
    actor.send({ type: 'action.confirmed', reason: 'Frozen' });
    failed(actor, 'performAction', new ApiFailure('INCORRECT_DEVICE', 403));
    expect(actor.getSnapshot().context.actionFailure).toBe('INCORRECT_DEVICE');
    actor.send({ type: 'action.retried' });
    expect(actor.getSnapshot().matches({ signedIn: { watching: { action: 'acting' } } })).toBe(true);
    failed(actor, 'performAction', new ApiFailure('NOT_LOGGED_IN', 401));
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(actor.getSnapshot().context).toMatchObject({ notice: 'sessionEnded', token: null, roster: null, pending: null });
  });

  it('the audit trail loads, fails and comes back to the roster', () => {
    const { actor } = onRoster();
    actor.send({ type: 'audit.requested' });
    failed(actor, 'loadAudit', new ApiFailure('GENERIC_ERROR', 500));
    expect(actor.getSnapshot().context.failure).toBe('GENERIC_ERROR');
    actor.send({ type: 'retry.requested' });
    done(actor, 'loadAudit', { entries: [], server_time: serverTime });
    expect(actor.getSnapshot().context).toMatchObject({ audit: [], failure: null });
    actor.send({ type: 'audit.closed' });
    expect(actor.getSnapshot().matches({ signedIn: 'watching' })).toBe(true);
  });

  it('signing out forgets the token whatever the answer, and keeps nothing of the session', () => {
    for (const answer of ['done', 'error'] as const) {
      const machine = onRoster();
      machine.actor.send({ type: 'logout.requested' });
      expect(machine.actor.getSnapshot().value).toBe('signingOut');
      if (answer === 'done') done(machine.actor, 'signOut', undefined);
      else failed(machine.actor, 'signOut', new ApiFailure('NETWORK_ERROR'));
      expect(machine.forgotten()).toBe(1);
      expect(machine.actor.getSnapshot().context).toMatchObject({
        token: null, staff: null, schedules: [], scheduleCode: null, roster: null, notice: 'signedOut', loginError: null,
      });
    }
  });

  it('unprovided, each call fails loudly, naming where it is provided', async () => {
    const { actors } = proctorMachine.implementations;
    for (const name of callNames) {
      const rejection = await toPromise(createActor(actors[name] as AnyActorLogic, { input: {} as never }).start()).catch((error: Error) => error.message);
      expect(rejection).toBe(`${name} is provided by the edge (proctor.actors.ts)`);
    }
  });
});

describe('the machine\'s calls and its polling', () => {
  const serverTime = new Date(FAKE_NOW).toISOString();
  const callNames = ['restoreSession', 'signIn', 'loadSchedules', 'loadRoster', 'performAction', 'loadAudit', 'signOut'] as const;

  /** Every call never answers (the test answers it) and records its input; a simulated clock runs the polls. */
  function watched() {
    const inputs: Record<string, unknown[]> = {};
    const clock = new SimulatedClock();
    const actors = Object.fromEntries(
      callNames.map((name) => [
        name,
        fromPromise<never, unknown>(({ input }) => {
          (inputs[name] ??= []).push(input);
          return new Promise<never>(() => {});
        }),
      ]),
    );
    const actor = createActor(proctorMachine.provide({ actors: actors as never, actions: { storeToken: () => {}, forgetToken: () => {} } }), {
      clock,
    }).start();
    const done = (id: string, output: unknown) => actor.send({ type: `xstate.done.actor.${id}`, output } as never);
    const failed = (id: string, error: unknown) => actor.send({ type: `xstate.error.actor.${id}`, error } as never);
    return { actor, clock, inputs, done, failed };
  }

  function onRoster() {
    const m = watched();
    m.done('restoreSession', { token: 'staff-token', staff: demoStaff });
    m.done('loadSchedules', { schedules: demoSchedules, server_time: serverTime });
    m.actor.send({ type: 'schedule.chosen', code: 'DEMO-2026' });
    return m;
  }

  it('restores first; a failed restore can be tried again, or dropped for the login form', () => {
    const m = watched();
    expect(m.actor.getSnapshot().value).toBe('restoring');
    expect(m.actor.getSnapshot().hasTag('busy')).toBe(true);
    m.failed('restoreSession', new ApiFailure('NETWORK_ERROR'));
    expect(m.actor.getSnapshot().hasTag('error')).toBe(true);
    m.actor.send({ type: 'retry.requested' });
    expect(m.actor.getSnapshot().value).toBe('restoring');
    expect(m.inputs.restoreSession).toHaveLength(2);
    m.failed('restoreSession', new ApiFailure('TIMEOUT'));
    m.actor.send({ type: 'logout.requested' });
    expect(m.actor.getSnapshot().value).toBe('signedOut');
    expect(m.actor.getSnapshot().context).toMatchObject({ notice: 'signedOut', failure: null, token: null });
  });

  it('signs in with the checked values; loads the schedules with the token; Refresh loads them again', () => {
    const m = watched();
    m.done('restoreSession', null);
    m.actor.send({ type: 'login.submitted', values: { org_code: 'GRADUS-DEMO', login_id: ' grace ', password: 'secret' } });
    expect(m.inputs.signIn).toEqual([{ org_code: 'GRADUS-DEMO', login_id: 'grace', password: 'secret' }]);
    m.done('signIn', { access_token: 'new-token', staff: demoStaff, server_time: serverTime });
    expect(m.actor.getSnapshot().matches({ signedIn: { schedules: 'loading' } })).toBe(true);
    expect(m.inputs.loadSchedules).toEqual([{ token: 'new-token' }]);
    m.failed('loadSchedules', new ApiFailure('GENERIC_ERROR', 500));
    expect(m.actor.getSnapshot().matches({ signedIn: { schedules: 'failed' } })).toBe(true);
    expect(m.actor.getSnapshot().context.failure).toBe('GENERIC_ERROR');
    m.actor.send({ type: 'retry.requested' });
    m.done('loadSchedules', { schedules: demoSchedules, server_time: serverTime });
    expect(m.actor.getSnapshot().context.failure).toBeNull();
    m.actor.send({ type: 'retry.requested' });
    expect(m.inputs.loadSchedules).toHaveLength(3);
    m.failed('loadSchedules', new ApiFailure('NOT_LOGGED_IN', 401));
    expect(m.actor.getSnapshot().value).toBe('signedOut');
    expect(m.actor.getSnapshot().context.notice).toBe('sessionEnded');
  });

  it('a room chosen is asked for in full at once, then its changes since its own cursor', () => {
    const m = onRoster();
    m.done('loadRoster', { kind: 'full', roster: demoRoster() });
    m.actor.send({ type: 'venue.chosen', venueId: rooms.two.id });
    expect(m.actor.getSnapshot().context).toMatchObject({ venueId: rooms.two.id, cursor: null });
    expect(m.inputs.loadRoster?.at(-1)).toEqual({ token: 'staff-token', code: 'DEMO-2026', venueId: rooms.two.id, since: null });
    const room = { ...demoRoster(demoPupils().filter((p) => p.venue?.id === rooms.two.id)), venue: rooms.two, cursor: '4.4' };
    m.done('loadRoster', { kind: 'full', roster: room });
    expect(m.actor.getSnapshot().context).toMatchObject({ roster: room, cursor: '4.4' });
    m.actor.send({ type: 'roster.refreshRequested' });
    expect(m.inputs.loadRoster?.at(-1)).toEqual({ token: 'staff-token', code: 'DEMO-2026', venueId: rooms.two.id, since: '4.4' });
    // Changes of another room (an answer for the room left) cannot be merged: the next poll asks in full.
    m.done('loadRoster', { kind: 'changes', changes: { ...noChanges(room), venue: rooms.one } });
    expect(m.actor.getSnapshot().context).toMatchObject({ roster: room, cursor: null });
  });

  it('asks for the roster with the token and the code, in full then since the cursor held; polls every 5 s, backing off after failures', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: FAKE_NOW - 3_000 });
    try {
      const m = onRoster();
      expect(m.inputs.loadRoster).toEqual([{ token: 'staff-token', code: 'DEMO-2026', venueId: null, since: null }]);
      m.done('loadRoster', { kind: 'full', roster: demoRoster() });
      // The server's clock is 3 s ahead of ours.
      expect(m.actor.getSnapshot().context).toMatchObject({ cursor: demoRoster().cursor, clockOffsetMs: 3_000, updatedAt: FAKE_NOW - 3_000 });
      m.clock.increment(4_999);
      expect(m.inputs.loadRoster).toHaveLength(1);
      m.clock.increment(1);
      expect(m.inputs.loadRoster).toEqual([
        { token: 'staff-token', code: 'DEMO-2026', venueId: null, since: null },
        { token: 'staff-token', code: 'DEMO-2026', venueId: null, since: demoRoster().cursor },
      ]);
      m.failed('loadRoster', new ApiFailure('NETWORK_ERROR'));
      m.clock.increment(4_999);
      expect(m.inputs.loadRoster).toHaveLength(2);
      m.clock.increment(1);
      expect(m.inputs.loadRoster).toHaveLength(3);
      m.failed('loadRoster', new ApiFailure('NETWORK_ERROR'));
      m.clock.increment(9_999);
      expect(m.inputs.loadRoster).toHaveLength(3);
      m.clock.increment(1);
      expect(m.inputs.loadRoster).toHaveLength(4);
      // Asked again at once while a call runs: that call is dropped and asked anew.
      m.actor.send({ type: 'roster.refreshRequested' });
      expect(m.inputs.loadRoster).toHaveLength(5);
      m.failed('loadRoster', new ApiFailure('NOT_LOGGED_IN', 401));
      expect(m.actor.getSnapshot().value).toBe('signedOut');
    } finally {
      vi.useRealTimers();
    }
  });

  it('an action is sent with the token, the schedule and the request; done, the roster is asked again at once', () => {
    const m = onRoster();
    m.done('loadRoster', { kind: 'full', roster: demoRoster() });
    m.actor.send({ type: 'action.requested', kind: 'retake', sittingId: 501, now: Date.now() });
    m.actor.send({ type: 'action.confirmed', reason: 'Reset' });
    expect(m.inputs.performAction).toEqual([
      {
        token: 'staff-token',
        scheduleCode: 'DEMO-2026',
        request: { ...m.actor.getSnapshot().context.draft, reason: 'Reset', minutes: null, idempotencyKey: expect.stringMatching(UUID) },
      },
    ]);
    expect(m.actor.getSnapshot().hasTag('busy')).toBe(true);
    m.done('performAction', { pupil: null, extended: 2, server_time: serverTime });
    expect(m.inputs.loadRoster).toHaveLength(2);
    expect(m.actor.getSnapshot().context.roster).toEqual(demoRoster());
    expect(m.actor.getSnapshot().context.outcome).toMatchObject({ kind: 'retake', examineeName: 'Amara Okafor', extended: 2 });
  });

  it('"Try again" sends the same action with the same idempotency key; the next action has a key of its own', () => {
    const m = onRoster();
    m.done('loadRoster', { kind: 'full', roster: demoRoster() });
    m.actor.send({ type: 'action.requested', kind: 'extend', sittingId: 501, now: Date.now() });
    m.actor.send({ type: 'action.confirmed', reason: 'Power cut', minutes: '10' });
    // The answer was lost: it is not known whether the server extended.
    m.failed('performAction', new ApiFailure('NETWORK_ERROR'));
    m.actor.send({ type: 'action.retried' });
    const [first, retried] = m.inputs.performAction as Array<{ request: { idempotencyKey: string; minutes: number } }>;
    expect(first!.request).toMatchObject({ idempotencyKey: expect.stringMatching(UUID), minutes: 10 });
    expect(retried!.request).toEqual(first!.request);
    m.done('performAction', { pupil: null, extended: null, server_time: serverTime });
    m.actor.send({ type: 'action.requested', kind: 'extend', sittingId: 501, now: Date.now() });
    m.actor.send({ type: 'action.confirmed', reason: 'Power cut', minutes: '10' });
    const next = (m.inputs.performAction as Array<{ request: { idempotencyKey: string } }>)[2]!;
    expect(next.request.idempotencyKey).toMatch(UUID);
    expect(next.request.idempotencyKey).not.toBe(first!.request.idempotencyKey);
  });

  it('a failed action can be cancelled; the audit and the schedules are left from the roster, choosing afresh', () => {
    const m = onRoster();
    m.done('loadRoster', { kind: 'full', roster: demoRoster() });
    m.actor.send({ type: 'venue.chosen', venueId: rooms.one.id });
    m.actor.send({ type: 'action.requested', kind: 'move_terminal', sittingId: 501, now: Date.now() });
    m.actor.send({ type: 'action.confirmed', reason: 'Frozen' });
    m.failed('performAction', new ApiFailure('GENERIC_ERROR', 500));
    expect(m.actor.getSnapshot().hasTag('error')).toBe(true);
    m.actor.send({ type: 'action.cancelled' });
    expect(m.actor.getSnapshot().context).toMatchObject({ draft: null, actionFailure: null, pending: null });
    m.actor.send({ type: 'audit.requested' });
    expect(m.inputs.loadAudit).toEqual([{ token: 'staff-token', code: 'DEMO-2026' }]);
    m.done('loadAudit', { entries: [], server_time: serverTime });
    m.actor.send({ type: 'retry.requested' });
    expect(m.inputs.loadAudit).toHaveLength(2);
    m.failed('loadAudit', new ApiFailure('NOT_LOGGED_IN', 401));
    expect(m.actor.getSnapshot().value).toBe('signedOut');

    const back = onRoster();
    back.done('loadRoster', { kind: 'full', roster: demoRoster() });
    back.actor.send({ type: 'venue.chosen', venueId: rooms.one.id });
    back.actor.send({ type: 'schedules.requested' });
    expect(back.actor.getSnapshot().matches({ signedIn: 'schedules' })).toBe(true);
    back.done('loadSchedules', { schedules: demoSchedules, server_time: serverTime });
    back.actor.send({ type: 'schedule.chosen', code: 'DEMO-2027' });
    expect(back.actor.getSnapshot().context).toMatchObject({ scheduleCode: 'DEMO-2027', roster: null, cursor: null, venueId: null, audit: [] });
    expect(back.inputs.loadRoster?.at(-1)).toEqual({ token: 'staff-token', code: 'DEMO-2027', venueId: null, since: null });
  });

  it('before the roster\'s first answer, no pupil action can be asked for', () => {
    const m = onRoster();
    m.actor.send({ type: 'action.requested', kind: 'move_terminal', sittingId: 501, now: Date.now() });
    m.actor.send({ type: 'action.requested', kind: 'extend_room', now: Date.now() });
    expect(m.actor.getSnapshot().status).toBe('active');
    expect(m.actor.getSnapshot().context.draft).toBeNull();
    expect(m.actor.getSnapshot().matches({ signedIn: { watching: { action: 'idle' } } })).toBe(true);
  });

  it('signs out with the token it holds', () => {
    const m = onRoster();
    m.actor.send({ type: 'logout.requested' });
    expect(m.inputs.signOut).toEqual([{ token: 'staff-token' }]);
    expect(m.actor.getSnapshot().hasTag('busy')).toBe(true);
  });
});
