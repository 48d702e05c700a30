/**
 * proctor.connect.ts as a pure function: a snapshot of the proctor machine (driven to the roster
 * with its own events) and a time in, exactly what the page renders out. Rows are on the server's
 * clock (the offset kept from the roster's server_time), a pupil in the exam neither heard from
 * nor confirmed in the exam by a roster answer for more than 30 s shows offline, the room filter and the room-wide
 * extension follow the rows shown, and every callback sends the event it names. An administrator's
 * console (the child `administration`, when the host passes it) is the administration connect's part.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import type { RosterPupil } from '../../contract/admin.ts';
import { administrationImplementations } from '../../machines/administration/administration.actors.ts';
import { administrationMachine } from '../../machines/administration/administration.machine.ts';
import type { AdministrationEvent } from '../../machines/administration/administration.types.ts';
import { connect } from '../../machines/proctor/proctor.connect.ts';
import { actionsFor, pollDelayMs, proctorMachine } from '../../machines/proctor/proctor.machine.ts';
import { rowOf } from '../../machines/proctor/proctor.selectors.ts';
import type { ProctorEvent } from '../../machines/proctor/proctor.types.ts';
import { FAKE_NOW, FAKE_UPLOAD_WINDOW_MS, demoPupils, demoRoster, demoSchedules, demoStaff, rooms } from '../helpers/fake-admin.ts';
import { createFakeAdministration } from '../helpers/fake-administration.ts';
import { never } from '../helpers/never.ts';

const serverTime = new Date(FAKE_NOW).toISOString();

/** The machine on the roster: signed in, schedule chosen, the roster answered (the server's clock 10 s ahead of ours). */
function onRoster(pupils: RosterPupil[] = demoPupils()) {
  vi.useFakeTimers({ toFake: ['Date'], now: FAKE_NOW - 10_000 });
  const actor = createActor(
    proctorMachine.provide({
      actors: {
        restoreSession: never(), signIn: never(), loadSchedules: never(), loadRoster: never(),
        performAction: never(), loadAudit: never(), signOut: never(),
      },
    }),
  ).start();
  actor.send({ type: 'xstate.done.actor.restoreSession', output: { token: 't', staff: demoStaff } } as never);
  actor.send({ type: 'xstate.done.actor.loadSchedules', output: { schedules: demoSchedules, server_time: serverTime } } as never);
  actor.send({ type: 'schedule.chosen', code: 'DEMO-2026' });
  actor.send({ type: 'xstate.done.actor.loadRoster', output: { kind: 'full', roster: demoRoster(pupils) } } as never);
  vi.useRealTimers();
  return actor;
}

describe('proctor connect', () => {
  it('gives the rows on the server clock: last contact and time left', () => {
    const actor = onRoster();
    // Our clock is 10 s behind the server's: 12 s since Amara's last contact by the server's clock.
    const api = connect(actor.getSnapshot(), () => {}, FAKE_NOW - 10_000);
    const amara = api.roster.rows.find((r) => r.name === 'Amara Okafor')!;
    expect(amara).toMatchObject({ state: 'in_exam', recentContact: true, lastContactSeconds: 12, timeLeftSeconds: 1_800, questionNumber: 5, answersSaved: 5, attention: null });
    // 20 s later (ours): 32 s since the contact the roster named, but the roster said "in the exam" 20 s ago.
    const later = connect(actor.getSnapshot(), () => {}, FAKE_NOW + 10_000).roster.rows.find((r) => r.name === 'Amara Okafor')!;
    expect(later).toMatchObject({ state: 'in_exam', attention: null, lastContactSeconds: 32, timeLeftSeconds: 1_780 });
    // With no roster answer for more than 30 s (the polls fail), the page no longer vouches for her.
    const stale = connect(actor.getSnapshot(), () => {}, FAKE_NOW + 21_000).roster.rows.find((r) => r.name === 'Amara Okafor')!;
    expect(stale).toMatchObject({ state: 'offline', attention: 'offline', recentContact: false, lastContactSeconds: 43 });
  });

  it('shows no time left for a pupil without a running deadline, and 0 once past it', () => {
    const clock = FAKE_NOW;
    const [amara] = demoPupils();
    expect(rowOf({ ...amara!, state: 'time_up', deadline_at: new Date(clock - 5_000).toISOString() }, clock)).toMatchObject({
      state: 'time_up', timeLeftSeconds: 0,
    });
    const noah = demoPupils().find((p) => p.state === 'not_logged_in')!;
    expect(rowOf(noah, clock)).toMatchObject({ timeLeftSeconds: null, lastContactSeconds: null, questionNumber: null, actions: [] });
  });

  it('offers each pupil only the actions that apply', () => {
    const byName = Object.fromEntries(demoPupils().map((p) => [p.examinee_name, actionsFor(p)]));
    expect(byName).toEqual({
      'Amara Okafor': ['move_terminal', 'extend', 'retake'],
      'Kenji Sato': ['move_terminal', 'extend', 'retake'],
      'Lucía Fernández': ['retake'],
      'Noah Williams': [],
      'Priya Sharma': [],
      'Mai Nguyen': [],
      'Ethan Brown': ['extend', 'retake'],
    });
    const released = { ...demoPupils()[2]!, status: 5 as const };
    expect(actionsFor(released)).toEqual([]);
  });

  it('filters by room, counts what it shows, and offers the room-wide extension only with someone in the exam', () => {
    const actor = onRoster();
    const all = connect(actor.getSnapshot(), () => {}, FAKE_NOW);
    expect(all.roster.rooms).toEqual([rooms.one, rooms.two]);
    expect(Object.fromEntries(all.roster.filters.map((f) => [f.filter, f.count]))).toEqual({
      all: 7, attention: 3, not_started: 2, in_exam: 3, finished: 1, ended: 1,
    });
    expect(all.roster.total).toBe(7);
    expect(all.roster.canExtendRoom).toBe(true);
    actor.send({ type: 'venue.chosen', venueId: rooms.two.id });
    const roomTwo = connect(actor.getSnapshot(), () => {}, FAKE_NOW);
    // In Room 2 only Lucía has started: Noah is not late to start there.
    expect(roomTwo.roster.rows.map((r) => r.name)).toEqual(['Lucía Fernández', 'Noah Williams', 'Mai Nguyen']);
    expect(roomTwo.roster.filters.find((f) => f.filter === 'attention')?.count).toBe(0);
    expect(roomTwo.roster.canExtendRoom).toBe(false);
  });

  it("offers Extend disabled, with why, once a pupil's sitting is past its upload window; the room-wide one only for someone it can reach", () => {
    // Time up one upload window (the roster's upload_window_ms) before the roster's server_time.
    const late = { ...demoPupils()[0]!, state: 'time_up' as const, deadline_at: new Date(FAKE_NOW - FAKE_UPLOAD_WINDOW_MS).toISOString() };
    const actor = onRoster([late]);
    // Our clock is 10 s behind the server's: FAKE_NOW - 10 s is the end of the window, on the server's clock.
    const atEnd = connect(actor.getSnapshot(), () => {}, FAKE_NOW - 10_000);
    expect(atEnd.roster.rows[0]).toMatchObject({ actions: ['extend', 'retake'], unavailable: {} });
    expect(atEnd.roster.canExtendRoom).toBe(true);
    // One millisecond later the server refuses the extension (TIME_END): the page shows why instead.
    const past = connect(actor.getSnapshot(), () => {}, FAKE_NOW - 10_000 + 1);
    expect(past.roster.rows[0]).toMatchObject({ actions: ['extend', 'retake'], unavailable: { extend: 'upload_window_closed' } });
    expect(past.roster.canExtendRoom).toBe(false);
  });

  it("past a pupil's upload window, an Extend asked for anyway opens nothing, and the room-wide dialog counts only whom it extends", () => {
    // Kenji's time ran out one upload window and a millisecond before the roster's server_time.
    const late = (p: RosterPupil) =>
      p.schedule_history_id === 502 ? { ...p, state: 'time_up' as const, deadline_at: new Date(FAKE_NOW - FAKE_UPLOAD_WINDOW_MS - 1).toISOString() } : p;
    const actor = onRoster(demoPupils().map(late));
    // Our clock is 10 s behind the server's: FAKE_NOW - 10 s is FAKE_NOW on the server's clock.
    const api = () => connect(actor.getSnapshot(), actor.send, FAKE_NOW - 10_000);
    const kenji = api().roster.rows.find((r) => r.name === 'Kenji Sato')!;
    expect(kenji.unavailable).toEqual({ extend: 'upload_window_closed' });
    // Sent anyway (the button is disabled, not gone): the machine does not take it.
    kenji.request('extend');
    expect(api().dialog).toBeNull();
    expect(actor.getSnapshot().matches({ signedIn: { watching: { action: 'idle' } } })).toBe(true);
    // The room-wide extension leaves Kenji out (as the server does): Amara and Ethan.
    expect(api().roster.canExtendRoom).toBe(true);
    api().roster.extendRoom();
    expect(api().dialog).toMatchObject({ kind: 'extend_room', pupilsInExam: 2 });
  });

  it('hands the screens callbacks that send exactly their events', () => {
    const actor = onRoster();
    const sent: ProctorEvent[] = [];
    const api = connect(actor.getSnapshot(), (event) => sent.push(event), FAKE_NOW);
    api.roster.rows.find((r) => r.name === 'Amara Okafor')!.request('move_terminal');
    api.roster.extendRoom();
    api.roster.chooseVenue(rooms.one.id);
    api.roster.chooseFilter('attention');
    api.roster.setSearch('Kenji');
    api.roster.connection.retryNow();
    api.roster.openAudit();
    api.roster.backToSchedules();
    api.logout();
    expect(sent).toEqual([
      // With the time the page shows (this terminal's), which the machine judges the action at.
      { type: 'action.requested', kind: 'move_terminal', sittingId: 501, now: FAKE_NOW },
      { type: 'action.requested', kind: 'extend_room', now: FAKE_NOW },
      { type: 'venue.chosen', venueId: rooms.one.id },
      { type: 'roster.filterChosen', filter: 'attention' },
      { type: 'roster.searched', text: 'Kenji' },
      { type: 'roster.refreshRequested' },
      { type: 'audit.requested' },
      { type: 'schedules.requested' },
      { type: 'logout.requested' },
    ]);
  });

  it('opens the confirm step with what will happen, and keeps one action at a time', () => {
    const actor = onRoster();
    actor.send({ type: 'action.requested', kind: 'extend_room', now: FAKE_NOW - 10_000 });
    const api = connect(actor.getSnapshot(), () => {}, FAKE_NOW);
    expect(api.dialog).toMatchObject({ kind: 'extend_room', pupilsInExam: 3, asksMinutes: true, status: 'confirming', venueName: null });
    expect(api.roster.canLeave).toBe(false);
    // Another action while one is open is not taken.
    actor.send({ type: 'action.requested', kind: 'move_terminal', sittingId: 501, now: FAKE_NOW - 10_000 });
    expect(connect(actor.getSnapshot(), () => {}, FAKE_NOW).dialog?.kind).toBe('extend_room');
    actor.send({ type: 'action.confirmed', reason: '', minutes: '61' });
    expect(connect(actor.getSnapshot(), () => {}, FAKE_NOW).dialog?.fieldErrors).toEqual({ reason: 'required', minutes: 'invalid' });
  });

  it('polls every 5 s, and backs off to at most 30 s after failures', () => {
    expect([0, 1, 2, 3, 4, 10].map(pollDelayMs)).toEqual([5_000, 5_000, 10_000, 20_000, 30_000, 30_000]);
  });

  it('gives the console of an administrator (the child the host passes) the administration connect\'s part, its events to that child', () => {
    const actor = onRoster();
    expect(connect(actor.getSnapshot(), () => {}, FAKE_NOW).administration).toBeNull();
    const child = createActor(administrationMachine.provide(administrationImplementations({ admin: createFakeAdministration() })), {
      input: { token: 't', loginId: 'root' },
    }).start();
    const sent: AdministrationEvent[] = [];
    const proctorSent: ProctorEvent[] = [];
    const api = connect(actor.getSnapshot(), (event) => proctorSent.push(event), FAKE_NOW, { snapshot: child.getSnapshot(), send: (event) => sent.push(event) });
    expect(api.administration).toMatchObject({ section: 'examDay', sessionEnded: false });
    expect(api.administration?.sections.map((section) => section.id)).toEqual(['examDay', 'schools', 'imports', 'exams', 'documents', 'staff', 'audit']);
    api.administration?.sections.find((section) => section.id === 'schools')?.choose();
    expect(sent).toEqual([{ type: 'section.chosen', section: 'schools' }]);
    expect(proctorSent).toEqual([]);
    child.stop();
  });
});
