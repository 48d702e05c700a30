/**
 * Who needs the proctor, in what order the roster lists the pupils, and what the state filter and
 * the search keep (machines/proctor/proctor.rules.ts), stated outright; then the same through the
 * machine: the filter and the search are events, the connect gives the rows, the counts and the
 * callbacks, and choosing another schedule starts both afresh.
 */
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { RosterPupil, RosterState } from '../../contract/admin.ts';
import { connect } from '../../machines/proctor/proctor.connect.ts';
import {
  SEARCH_MAX_LENGTH,
  attentionFirst,
  attentionOf,
  filterCounts,
  inFilter,
  matchesSearch,
  proctorMachine,
  roomFactsOf,
  rosterFilters,
} from '../../machines/proctor/proctor.machine.ts';
import { REFUSED_ELSEWHERE_ATTENTION_MS } from '../../machines/proctor/proctor.rules.ts';
import { rowOf } from '../../machines/proctor/proctor.selectors.ts';
import type { AttentionReason, ProctorEvent } from '../../machines/proctor/proctor.types.ts';
import { FAKE_NOW, demoPupils, demoRoster, demoSchedules, demoStaff } from '../helpers/fake-admin.ts';
import { never } from '../helpers/never.ts';

const row = (state: RosterState, waitingAnswers = 0, refusedElsewhereSeconds: number | null = null) => ({
  state,
  name: 'Amara Okafor',
  codeHint: '3463',
  waitingAnswers,
  refusedElsewhereSeconds,
});
const mostStarted = { mostStarted: true };
const fewStarted = { mostStarted: false };

describe('who needs attention', () => {
  it('a pupil offline, with answers waiting on the terminal or out of time always; one not started only once most of the room has started', () => {
    expect(attentionOf(row('offline'), fewStarted)).toBe('offline');
    expect(attentionOf(row('in_exam', 2), fewStarted)).toBe('answers_waiting');
    // The first reason that applies: offline before the answers it holds, those before the time.
    expect(attentionOf(row('offline', 2), fewStarted)).toBe('offline');
    expect(attentionOf(row('time_up', 1), fewStarted)).toBe('answers_waiting');
    expect(attentionOf(row('time_up'), fewStarted)).toBe('time_up');
    for (const state of ['not_logged_in', 'logged_in'] as const) {
      expect(attentionOf(row(state), fewStarted)).toBeNull();
      expect(attentionOf(row(state), mostStarted)).toBe('not_started');
    }
    for (const state of ['in_exam', 'moving', 'finished', 'cancelled', 'expired'] as const) {
      expect(attentionOf(row(state), mostStarted), state).toBeNull();
    }
  });

  it('a login refused at another terminal comes first, for REFUSED_ELSEWHERE_ATTENTION_MS', () => {
    const limit = REFUSED_ELSEWHERE_ATTENTION_MS / 1000;
    expect(attentionOf(row('in_exam', 0, 0), fewStarted)).toBe('refused_elsewhere');
    // Before the terminal offline and the answers it holds: the pupil stands at a second terminal.
    expect(attentionOf(row('offline', 3, limit), fewStarted)).toBe('refused_elsewhere');
    expect(attentionOf(row('offline', 3, limit + 1), fewStarted)).toBe('offline');
    expect(attentionOf(row('in_exam', 0, limit + 1), fewStarted)).toBeNull();
  });

  it('the roster row counts the seconds since the refused login on the server\'s clock; none since the last move is null', () => {
    const refused = demoPupils().find((p) => p.state === 'in_exam')!;
    const at = Date.parse('2026-12-07T09:00:00.000Z');
    expect(rowOf({ ...refused, refused_elsewhere_at: new Date(at).toISOString() }, at + 42_500).refusedElsewhereSeconds).toBe(42);
    expect(rowOf({ ...refused, refused_elsewhere_at: null }, at).refusedElsewhereSeconds).toBeNull();
  });

  it('"most of the room" is more started (or finished) than not started; cancelled and expired count for neither', () => {
    const room = (...states: RosterState[]) => roomFactsOf(states.map((s) => row(s)));
    expect(room('in_exam', 'finished', 'not_logged_in')).toEqual(mostStarted);
    expect(room('in_exam', 'logged_in')).toEqual(fewStarted);
    expect(room('offline', 'time_up', 'moving', 'logged_in', 'not_logged_in', 'cancelled', 'expired', 'expired')).toEqual(mostStarted);
    expect(room('cancelled', 'expired')).toEqual(fewStarted);
    expect(room()).toEqual(fewStarted);
  });
});

describe('the order', () => {
  it('lists who needs attention first, the most urgent reason first, and keeps the given order within each group', () => {
    const rows: Array<{ name: string; attention: AttentionReason | null }> = [
      { name: 'Amara', attention: null },
      { name: 'Bea', attention: 'not_started' },
      { name: 'Chen', attention: 'time_up' },
      { name: 'Dara', attention: null },
      { name: 'Emil', attention: 'offline' },
      { name: 'Femi', attention: 'time_up' },
      { name: 'Gus', attention: 'offline' },
      { name: 'Hana', attention: 'answers_waiting' },
    ];
    expect(attentionFirst(rows).map((r) => r.name)).toEqual(['Emil', 'Gus', 'Hana', 'Chen', 'Femi', 'Bea', 'Amara', 'Dara']);
    // Nobody needs attention: the given order (the server's, by name) stays.
    expect(attentionFirst(rows.map((r) => ({ ...r, attention: null }))).map((r) => r.name)).toEqual(rows.map((r) => r.name));
    expect(attentionFirst([])).toEqual([]);
  });
});

describe('the state filter', () => {
  const groups: Record<RosterState, string[]> = {
    not_logged_in: ['not_started'],
    logged_in: ['not_started'],
    in_exam: ['in_exam'],
    offline: ['in_exam'],
    moving: ['in_exam'],
    time_up: ['in_exam'],
    finished: ['finished'],
    cancelled: ['ended'],
    expired: ['ended'],
  };

  it('puts each state in exactly one group besides All; Needs attention is whoever has a reason', () => {
    for (const [state, group] of Object.entries(groups) as Array<[RosterState, string[]]>) {
      const kept = rosterFilters.filter((f) => f !== 'all' && f !== 'attention' && inFilter({ state, attention: null }, f));
      expect(kept, state).toEqual(group);
      expect(inFilter({ state, attention: null }, 'all')).toBe(true);
      expect(inFilter({ state, attention: null }, 'attention')).toBe(false);
    }
    expect(inFilter({ state: 'logged_in', attention: 'not_started' }, 'attention')).toBe(true);
  });

  it('counts what each filter keeps', () => {
    const rows = [
      { state: 'offline' as const, attention: 'offline' as const },
      { state: 'in_exam' as const, attention: null },
      { state: 'logged_in' as const, attention: null },
      { state: 'finished' as const, attention: null },
      { state: 'expired' as const, attention: null },
    ];
    expect(filterCounts(rows)).toEqual({ all: 5, attention: 1, not_started: 1, in_exam: 2, finished: 1, ended: 1 });
  });
});

describe('the search', () => {
  const lucia = { name: 'Lucía Fernández', codeHint: 'K7QZ' };

  it('finds a name by any of its parts, in any order, whatever the case and accents', () => {
    for (const query of ['Lucía', 'lucia', 'FERNANDEZ', 'fern luc', '  ucí  ', 'Lucía Fernández']) {
      expect(matchesSearch(lucia, query), query).toBe(true);
    }
    for (const query of ['Lucas', 'fernandez x']) expect(matchesSearch(lucia, query), query).toBe(false);
  });

  it('finds a login code by its end (the roster holds only the last 4 characters), typed with dashes, spaces or in lower case', () => {
    for (const query of ['K7QZ', 'k7qz', '7Q', 'ABCD-EFGH-K7QZ', 'abcd efgh k7qz', 'ABCDEFGHK7QZ']) {
      expect(matchesSearch(lucia, query), query).toBe(true);
    }
    // A whole code of someone else, and characters the hint does not hold.
    for (const query of ['ABCD-EFGH-K7QA', 'ZZ', 'K7QZ-']) {
      expect(matchesSearch(lucia, query), query).toBe(query === 'K7QZ-');
    }
  });

  it('nothing typed keeps every row', () => {
    expect(matchesSearch(lucia, '')).toBe(true);
    expect(matchesSearch(lucia, '   ')).toBe(true);
  });
});

describe('through the machine', () => {
  /** On the roster of `pupils` (the demo roster by default): each call's answer is sent as the machine's event. */
  function onRoster(pupils: RosterPupil[] = demoPupils()) {
    const actor = createActor(
      proctorMachine.provide({
        actors: {
          restoreSession: never(),
          loadSchedules: never(),
          loadRoster: never(),
          signIn: never(),
          performAction: never(),
          loadAudit: never(),
          signOut: never(),
        },
      }),
    ).start();
    const serverTime = new Date(FAKE_NOW).toISOString();
    actor.send({ type: 'xstate.done.actor.restoreSession', output: { token: 't', staff: demoStaff } } as never);
    actor.send({ type: 'xstate.done.actor.loadSchedules', output: { schedules: demoSchedules, server_time: serverTime } } as never);
    actor.send({ type: 'schedule.chosen', code: demoSchedules[0]!.code });
    actor.send({ type: 'xstate.done.actor.loadRoster', output: { kind: 'full', roster: demoRoster(pupils) } } as never);
    return actor;
  }

  it('lists the offline pupil first, counts each filter, and keeps only what the filter and the search keep', () => {
    const actor = onRoster();
    const api = () => connect(actor.getSnapshot(), actor.send, FAKE_NOW).roster;
    // Kenji is offline; 4 of the 6 who can still sit have started, so the 2 who have not need attention too.
    expect(api().rows.map((r) => [r.name, r.attention])).toEqual([
      ['Kenji Sato', 'offline'],
      ['Noah Williams', 'not_started'],
      ['Priya Sharma', 'not_started'],
      ['Amara Okafor', null],
      ['Lucía Fernández', null],
      ['Mai Nguyen', null],
      ['Ethan Brown', null],
    ]);
    expect(api().filters).toEqual([
      { filter: 'all', count: 7, chosen: true },
      { filter: 'attention', count: 3, chosen: false },
      { filter: 'not_started', count: 2, chosen: false },
      { filter: 'in_exam', count: 3, chosen: false },
      { filter: 'finished', count: 1, chosen: false },
      { filter: 'ended', count: 1, chosen: false },
    ]);
    api().chooseFilter('not_started');
    expect(api().rows.map((r) => r.name)).toEqual(['Noah Williams', 'Priya Sharma']);
    expect(api().filters.find((f) => f.chosen)?.filter).toBe('not_started');
    // The search narrows the filter's rows; the counts stay the room's.
    api().setSearch('priya');
    expect(api().rows.map((r) => r.name)).toEqual(['Priya Sharma']);
    expect(api().search).toBe('priya');
    expect(api().total).toBe(7);
    api().chooseFilter('all');
    api().setSearch('3466');
    expect(api().rows.map((r) => r.name)).toEqual(['Lucía Fernández']);
    api().setSearch('nobody');
    expect(api().rows).toEqual([]);
    // What the page could not offer changes nothing; a search is kept to SEARCH_MAX_LENGTH.
    actor.send({ type: 'roster.filterChosen', filter: 'everyone' } as unknown as ProctorEvent);
    expect(actor.getSnapshot().context.rosterFilter).toBe('all');
    api().setSearch('x'.repeat(SEARCH_MAX_LENGTH + 50));
    expect(api().search).toHaveLength(SEARCH_MAX_LENGTH);
    // Another schedule starts with everyone and no search.
    api().chooseFilter('finished');
    api().backToSchedules();
    actor.send({ type: 'xstate.done.actor.loadSchedules', output: { schedules: demoSchedules, server_time: new Date(FAKE_NOW).toISOString() } } as never);
    actor.send({ type: 'schedule.chosen', code: demoSchedules[0]!.code });
    expect(actor.getSnapshot().context).toMatchObject({ rosterFilter: 'all', search: '' });
  });

  it('answers waiting on a terminal come after offline and before out of time; those not started last, and only once most of the room has started', () => {
    const started = (p: RosterPupil): RosterPupil =>
      p.state === 'cancelled' ? { ...p, state: 'in_exam', status: 1, last_contact_at: new Date(FAKE_NOW).toISOString() } : p;
    const timeUp = (p: RosterPupil): RosterPupil => (p.examinee_name === 'Amara Okafor' ? { ...p, state: 'time_up' } : p);
    const holding = (p: RosterPupil): RosterPupil => (p.examinee_name === 'Ethan Brown' ? { ...p, waiting_answers: 3 } : p);
    const actor = onRoster(demoPupils().map(started).map(timeUp).map(holding));
    const rows = connect(actor.getSnapshot(), actor.send, FAKE_NOW).roster.rows;
    expect(rows.map((r) => [r.name, r.attention])).toEqual([
      ['Kenji Sato', 'offline'],
      ['Ethan Brown', 'answers_waiting'],
      ['Amara Okafor', 'time_up'],
      ['Noah Williams', 'not_started'],
      ['Priya Sharma', 'not_started'],
      ['Lucía Fernández', null],
      ['Mai Nguyen', null],
    ]);
    expect(rows[1]).toMatchObject({ waitingAnswers: 3 });
    // Half the room not started yet (Amara and Ethan back before Start): nobody is late to start.
    const early = (p: RosterPupil): RosterPupil =>
      p.examinee_name === 'Amara Okafor' || p.examinee_name === 'Ethan Brown' ? { ...p, state: 'logged_in', status: 0 } : p;
    const second = onRoster(demoPupils().map(early));
    expect(connect(second.getSnapshot(), second.send, FAKE_NOW).roster.rows.map((r) => [r.name, r.attention])).toEqual([
      ['Kenji Sato', 'offline'],
      ['Amara Okafor', null],
      ['Lucía Fernández', null],
      ['Noah Williams', null],
      ['Priya Sharma', null],
      ['Mai Nguyen', null],
      ['Ethan Brown', null],
    ]);
  });

  it('lays a long roster out in up to 3 columns of at most 20 rows', () => {
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ ...demoPupils()[3]!, schedule_history_id: 1_000 + i, examinee_name: `Pupil ${String(i).padStart(2, '0')}` }));
    for (const [n, columns] of [[1, 1], [20, 1], [21, 2], [40, 2], [41, 3], [60, 3], [90, 3]] as const) {
      const actor = onRoster(many(n));
        expect(connect(actor.getSnapshot(), actor.send, FAKE_NOW).roster.columns, `${n} rows`).toBe(columns);
      actor.stop();
    }
  });
});
