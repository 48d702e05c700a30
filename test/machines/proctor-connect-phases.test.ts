/**
 * proctor.connect.ts phase by phase: the machine driven by hand (its calls never answer; the test
 * answers them) and, in each part of the page, exactly what the page renders and what each
 * callback sends. test/view/proctor-connect.test.ts holds the roster's rows and the room filter;
 * this file holds the rest: restoring, the login form, the schedules, the roster before its first
 * answer, the confirm dialog in each of its steps, and the audit trail.
 */
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { AuditEntry } from '../../contract/admin.ts';
import { connect } from '../../machines/proctor/proctor.connect.ts';
import { proctorMachine } from '../../machines/proctor/proctor.machine.ts';
import type { ProctorEvent } from '../../machines/proctor/proctor.types.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';
import { FAKE_NOW, demoRoster, demoSchedules, demoStaff, rooms } from '../helpers/fake-admin.ts';
import { never } from '../helpers/never.ts';

const serverTime = new Date(FAKE_NOW).toISOString();
const staffValues = { org_code: 'GRADUS-DEMO', login_id: 'grace', password: 'secret' };

function machine() {
  const actor = createActor(
    proctorMachine.provide({
      actors: {
        restoreSession: never(), signIn: never(), loadSchedules: never(), loadRoster: never(),
        performAction: never(), loadAudit: never(), signOut: never(),
      },
      actions: { storeToken: () => {}, forgetToken: () => {} },
    }),
  ).start();
  const sent: ProctorEvent[] = [];
  const api = () => connect(actor.getSnapshot(), (event) => void sent.push(event), FAKE_NOW);
  const done = (id: string, output: unknown) => actor.send({ type: `xstate.done.actor.${id}`, output } as never);
  const failed = (id: string, error: unknown) => actor.send({ type: `xstate.error.actor.${id}`, error } as never);
  return { actor, sent, api, done, failed };
}

function signedIn() {
  const m = machine();
  m.done('restoreSession', { token: 't', staff: demoStaff });
  m.done('loadSchedules', { schedules: demoSchedules, server_time: serverTime });
  return m;
}

function watching() {
  const m = signedIn();
  m.actor.send({ type: 'schedule.chosen', code: 'DEMO-2026' });
  return m;
}

function onRoster() {
  const m = watching();
  m.done('loadRoster', { kind: 'full', roster: demoRoster() });
  return m;
}

/** One entry of the trail, as the page gets it (the machine keeps the entries as they came). */
const entry = { id: 1, at: serverTime, actor: 'staff', staff_name: 'Grace Hopper', reason: 'Fire drill' } as unknown as AuditEntry;

describe('proctor connect, part by part', () => {
  it('while restoring: busy, nobody signed in, nothing loaded, no dialog', () => {
    const { api } = machine();
    const page = api();
    expect(page.phase).toBe('restoring');
    expect(page.busy).toBe(true);
    expect(page.staff).toBeNull();
    expect(page.restore.failure).toBeNull();
    expect(page.login).toMatchObject({ busy: false, error: null, notice: null });
    expect(page.schedules).toMatchObject({ status: 'loading', items: [], failure: null });
    expect(page.roster).toMatchObject({
      status: 'loading', schedule: null, rooms: [], venueId: null, rows: [], total: 0, search: '',
      canExtendRoom: false, outcome: null, canLeave: false,
    });
    expect(page.roster.connection).toMatchObject({ lost: false, failure: null, updatedAt: null });
    expect(page.dialog).toBeNull();
    expect(page.audit).toMatchObject({ status: 'loading', entries: [], failure: null, scheduleName: null });
  });

  it('a failed restore says why only there, and offers trying again or signing in as someone else', () => {
    const { api, failed, sent } = machine();
    failed('restoreSession', new ApiFailure('NETWORK_ERROR'));
    const page = api();
    expect(page.phase).toBe('restoreFailed');
    expect(page.busy).toBe(false);
    expect(page.restore.failure).toBe('NETWORK_ERROR');
    // The failure belongs to the restore: the schedules and the audit do not show it.
    expect(page.schedules.failure).toBeNull();
    expect(page.audit.failure).toBeNull();
    page.restore.retry();
    page.logout();
    expect(sent).toEqual([{ type: 'retry.requested' }, { type: 'logout.requested' }]);
  });

  it('the login form: its notice, its errors, busy while the call runs, and submit sends the values', () => {
    const { actor, api, failed, sent } = machine();
    failed('restoreSession', new ApiFailure('NOT_LOGGED_IN', 401));
    expect(api()).toMatchObject({ phase: 'signedOut', busy: false, login: { busy: false, notice: 'sessionEnded', error: null } });
    api().login.submit(staffValues);
    expect(sent).toEqual([{ type: 'login.submitted', values: staffValues }]);
    actor.send({ type: 'login.submitted', values: { ...staffValues, password: '' } });
    expect(api().login).toMatchObject({ busy: false, notice: null, error: { kind: 'fields', fields: { password: 'required' } } });
    actor.send({ type: 'login.submitted', values: staffValues });
    expect(api()).toMatchObject({ phase: 'signedOut', busy: true, login: { busy: true, error: null } });
    failed('signIn', new ApiFailure('ACCOUNT_LOCKED', 403));
    expect(api().login).toMatchObject({ busy: false, error: { kind: 'failure', code: 'ACCOUNT_LOCKED' } });
  });

  it('the schedules: loading, failed with its code, ready with the list; choose and refresh send their events', () => {
    const { api, done, failed, actor, sent } = machine();
    done('restoreSession', { token: 't', staff: demoStaff });
    expect(api()).toMatchObject({ phase: 'schedules', busy: true, staff: demoStaff, schedules: { status: 'loading', failure: null } });
    failed('loadSchedules', new ApiFailure('GENERIC_ERROR', 500));
    expect(api()).toMatchObject({ busy: false, schedules: { status: 'failed', failure: 'GENERIC_ERROR', items: [] } });
    expect(api().restore.failure).toBeNull();
    actor.send({ type: 'retry.requested' });
    expect(api().schedules).toMatchObject({ status: 'loading', failure: null });
    done('loadSchedules', { schedules: demoSchedules, server_time: serverTime });
    expect(api().schedules).toMatchObject({ status: 'ready', items: demoSchedules, failure: null });
    api().schedules.choose('DEMO-2026');
    api().schedules.retry();
    expect(sent).toEqual([{ type: 'schedule.chosen', code: 'DEMO-2026' }, { type: 'retry.requested' }]);
  });

  it('the roster before its first answer names the chosen schedule; a failed first poll shows failed, not loading', () => {
    const { actor, api, failed, done } = watching();
    expect(api().phase).toBe('roster');
    expect(api().busy).toBe(false);
    expect(api().roster).toMatchObject({ status: 'loading', schedule: { code: 'DEMO-2026', name: 'Spring test 2026' }, rows: [], canLeave: true });
    expect(api().roster.connection).toMatchObject({ lost: false, failure: null, updatedAt: null });
    failed('loadRoster', new ApiFailure('TIMEOUT'));
    expect(api().roster.status).toBe('failed');
    expect(api().roster.connection).toMatchObject({ lost: true, failure: 'TIMEOUT' });
    api().roster.connection.retryNow();
    actor.send({ type: 'roster.refreshRequested' });
    done('loadRoster', { kind: 'full', roster: { ...demoRoster(), schedule: { ...demoSchedules[0]!, name: 'As the roster says' } } });
    expect(api().roster.status).toBe('ready');
    // Once the roster answered, its own schedule is named.
    expect(api().roster.schedule).toEqual({ code: 'DEMO-2026', name: 'As the roster says' });
    expect(api().roster.connection.lost).toBe(false);
    expect(api().roster.connection.updatedAt).toEqual(expect.any(Number));
  });

  it('the confirm dialog: confirming, sending, failed with its code; pupil actions ask no minutes', () => {
    const { actor, api, failed, sent } = onRoster();
    expect(api().dialog).toBeNull();
    actor.send({ type: 'action.requested', kind: 'move_terminal', sittingId: 501, now: Date.now() });
    let dialog = api().dialog!;
    expect(dialog).toMatchObject({
      kind: 'move_terminal', examineeName: 'Amara Okafor', answersSaved: 5, venueName: rooms.one.name, pupilsInExam: 0,
      asksMinutes: false, status: 'confirming', fieldErrors: {}, failure: null,
    });
    expect(api().roster.canLeave).toBe(false);
    dialog.confirm({ reason: 'Frozen' });
    dialog.confirm({ reason: 'Extra', minutes: '5' });
    dialog.cancel();
    dialog.retry();
    expect(sent).toEqual([
      { type: 'action.confirmed', reason: 'Frozen' },
      { type: 'action.confirmed', reason: 'Extra', minutes: '5' },
      { type: 'action.cancelled' },
      { type: 'action.retried' },
    ]);
    actor.send({ type: 'action.confirmed', reason: 'Frozen' });
    expect(api().busy).toBe(true);
    expect(api().dialog).toMatchObject({ status: 'sending', failure: null });
    failed('performAction', new ApiFailure('INCORRECT_DEVICE', 403));
    dialog = api().dialog!;
    expect(dialog).toMatchObject({ status: 'failed', failure: 'INCORRECT_DEVICE' });
    expect(api().busy).toBe(false);
    actor.send({ type: 'action.cancelled' });
    expect(api().dialog).toBeNull();
    expect(api().roster.canLeave).toBe(true);

    actor.send({ type: 'action.requested', kind: 'retake', sittingId: 501, now: Date.now() });
    expect(api().dialog).toMatchObject({ kind: 'retake', asksMinutes: false });
    actor.send({ type: 'action.cancelled' });
    actor.send({ type: 'action.requested', kind: 'extend', sittingId: 501, now: Date.now() });
    expect(api().dialog).toMatchObject({ kind: 'extend', asksMinutes: true });
  });

  it('the outcome of an action is the roster\'s status line', () => {
    const { actor, api, done } = onRoster();
    actor.send({ type: 'action.requested', kind: 'extend', sittingId: 501, now: Date.now() });
    actor.send({ type: 'action.confirmed', reason: 'Fire drill', minutes: '5' });
    done('performAction', { pupil: null, extended: null, server_time: serverTime });
    expect(api().roster.outcome).toEqual({ kind: 'extend', examineeName: 'Amara Okafor', minutes: 5, extended: null, venueName: rooms.one.name });
    expect(api().dialog).toBeNull();
  });

  it('the audit trail: loading, failed with its code, ready with its entries, under the schedule\'s name', () => {
    const { actor, api, done, failed, sent } = onRoster();
    actor.send({ type: 'audit.requested' });
    expect(api()).toMatchObject({ phase: 'audit', busy: true, audit: { status: 'loading', failure: null, scheduleName: 'Spring test 2026' } });
    // The roster is not on screen: no rows, no room-wide extension, though the roster has pupils in the exam.
    expect(api().roster.rows).toEqual([]);
    expect(api().roster.total).toBe(0);
    expect(api().roster.filters.every((f) => f.count === 0)).toBe(true);
    expect(api().roster.canExtendRoom).toBe(false);
    failed('loadAudit', new ApiFailure('GENERIC_ERROR', 500));
    expect(api()).toMatchObject({ busy: false, audit: { status: 'failed', failure: 'GENERIC_ERROR' } });
    expect(api().schedules.failure).toBeNull();
    actor.send({ type: 'retry.requested' });
    done('loadAudit', { entries: [entry], server_time: serverTime });
    expect(api().audit).toMatchObject({ status: 'ready', entries: [entry], failure: null });
    api().audit.close();
    api().audit.retry();
    expect(sent).toEqual([{ type: 'audit.closed' }, { type: 'retry.requested' }]);
  });

  it('the audit of a schedule without a name goes by its code, as the list and the roster do', () => {
    const { actor, api, done } = signedIn();
    actor.send({ type: 'schedule.chosen', code: 'DEMO-2027' });
    // Before its roster answers, the roster names the chosen schedule (not the first of the list).
    expect(api().roster.schedule).toEqual({ code: 'DEMO-2027', name: '' });
    done('loadRoster', { kind: 'full', roster: { ...demoRoster([]), schedule: demoSchedules[1]! } });
    actor.send({ type: 'audit.requested' });
    // Not "What was done in , newest first".
    expect(api().audit.scheduleName).toBe('DEMO-2027');
  });

  it('a dialog is shown only on the roster: signing out drops it', () => {
    const { actor, api } = onRoster();
    actor.send({ type: 'action.requested', kind: 'move_terminal', sittingId: 501, now: Date.now() });
    actor.send({ type: 'logout.requested' });
    expect(api().phase).toBe('signingOut');
    expect(api().busy).toBe(true);
    expect(api().dialog).toBeNull();
  });
});
