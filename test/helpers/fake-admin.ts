/**
 * An in-memory admin API (contract/admin.ts) behind the proctor machine's AdminPort, for the
 * proctor's machine, view and UI-level model tests: staff login with lockout, one schedule with
 * two rooms and a roster served per room, in full (with a strong ETag: If-None-Match -> 304) or as
 * its changes since a cursor it gave (any other: 422 ROSTER_CURSOR_INVALID), the four actions with
 * their refusals (an extension past the upload window too, as the real server), and the audit
 * trail, newest first. Every answer is a wire answer (status, JSON body, ETag), so the real
 * actors parse it with the contract's schemas.
 *
 * `createControlledAdmin()` wraps it so every call waits until the test says how it ends.
 */
import type {
  AdminSchedule,
  AuditEntry,
  RosterChanges,
  RosterPupil,
  RosterResponse,
  Staff,
} from '../../contract/admin.ts';
import { isPastUploadWindow } from '../../contract/exam.ts';
import type { AdminPort, AdminRequest, AdminResponse } from '../../machines/proctor/proctor.types.ts';
import { ApiFailure, type FailureCode } from '../../machines/shared/ports.ts';

/** The fake server's proctor (a proctor: its organisation's code and name are strings). */
export const demoStaff = {
  name: 'Grace Hopper',
  login_id: 'proctor.demo',
  role: 'proctor',
  org_code: 'GRADUS-DEMO',
  org_name: 'Sakura Primary School',
} satisfies Staff;
export const STAFF_PASSWORD = 'gradus-demo';
/** A staff account the fake server always answers ACCOUNT_LOCKED for. */
export const LOCKED_LOGIN_ID = 'proctor.locked';

/** The fake server's clock: every timestamp of the fixtures is relative to it. */
export const FAKE_NOW = Date.parse('2026-11-24T09:20:00.000Z');
const iso = (offsetMs: number) => new Date(FAKE_NOW + offsetMs).toISOString();

export const rooms = { one: { id: 11, name: 'Room 1' }, two: { id: 12, name: 'Room 2' } } as const;

export const demoSchedules: AdminSchedule[] = [
  {
    code: 'DEMO-2026',
    name: 'Spring test 2026',
    starts_at: iso(-3_600_000),
    ends_at: iso(3_600_000),
    venue: null,
    pupil_count: 7,
  },
  {
    code: 'DEMO-2027',
    name: '',
    starts_at: iso(86_400_000),
    ends_at: iso(90_000_000),
    venue: rooms.two,
    pupil_count: 0,
  },
];

function pupil(overrides: Partial<RosterPupil> & Pick<RosterPupil, 'schedule_history_id' | 'examinee_name' | 'state'>): RosterPupil {
  return {
    login_code_hint: '3463',
    venue: rooms.one,
    subject_id: 1,
    level_id: 1,
    level_name: 'Level 1',
    exam_title: 'English (vocabulary) 1',
    status: 6,
    question_index: null,
    question_count: 20,
    answers_saved: 0,
    waiting_answers: 0,
    refused_elsewhere_at: null,
    last_contact_at: null,
    started_at: null,
    deadline_at: null,
    extra_seconds: 0,
    device_bound: false,
    flag_retake: false,
    receipt: null,
    ...overrides,
  };
}

/** One pupil in each state the roster shows, in two rooms. */
export function demoPupils(): RosterPupil[] {
  return [
    pupil({
      schedule_history_id: 501, examinee_name: 'Amara Okafor', state: 'in_exam', login_code_hint: '3463',
      question_index: 4, answers_saved: 5, last_contact_at: iso(-12_000), started_at: iso(-600_000),
      deadline_at: iso(1_800_000), device_bound: true,
    }),
    pupil({
      schedule_history_id: 502, examinee_name: 'Kenji Sato', state: 'offline', login_code_hint: '3464',
      question_index: 9, answers_saved: 9, last_contact_at: iso(-45_000), started_at: iso(-900_000),
      deadline_at: iso(1_500_000), device_bound: true, extra_seconds: 300,
    }),
    pupil({
      schedule_history_id: 503, examinee_name: 'Lucía Fernández', state: 'finished', login_code_hint: '3466', venue: rooms.two,
      status: 1, question_index: 19, answers_saved: 20, last_contact_at: iso(-300_000), started_at: iso(-2_700_000),
      deadline_at: iso(-300_000),
      receipt: { answer_count: 20, digest: 'ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12', finished_at: iso(-310_000) },
    }),
    pupil({ schedule_history_id: 504, examinee_name: 'Noah Williams', state: 'not_logged_in', login_code_hint: '3467', venue: rooms.two, status: 0 }),
    pupil({ schedule_history_id: 505, examinee_name: 'Priya Sharma', state: 'logged_in', login_code_hint: '3469', status: 0, last_contact_at: iso(-20_000) }),
    pupil({ schedule_history_id: 506, examinee_name: 'Mai Nguyen', state: 'cancelled', login_code_hint: '346A', venue: rooms.two, status: 2 }),
    pupil({
      schedule_history_id: 507, examinee_name: 'Ethan Brown', state: 'moving', login_code_hint: '346C',
      question_index: 2, answers_saved: 3, last_contact_at: iso(-60_000), started_at: iso(-400_000), deadline_at: iso(2_000_000),
    }),
  ];
}

/** The fake server's upload window (the real one's default, UPLOAD_WINDOW_HOURS 24). */
export const FAKE_UPLOAD_WINDOW_MS = 24 * 3_600_000;

/** The rooms the pupils sit in, by name (as the server lists a schedule's rooms). */
export function roomsIn(pupils: readonly RosterPupil[]): Array<{ id: number; name: string }> {
  const byId = new Map<number, string>();
  for (const p of pupils) if (p.venue) byId.set(p.venue.id, p.venue.name);
  return [...byId].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

export function demoRoster(pupils: RosterPupil[] = demoPupils()): RosterResponse {
  return {
    kind: 'full',
    schedule: demoSchedules[0]!,
    venue: null,
    rooms: roomsIn(pupils),
    pupils,
    cursor: `0.${FAKE_NOW}`,
    upload_window_ms: FAKE_UPLOAD_WINDOW_MS,
    server_time: iso(0),
  };
}

/** Changes since the roster's cursor that change nothing (a room where nothing happened). */
export function noChanges(roster: RosterResponse): RosterChanges {
  return {
    kind: 'changes',
    since: roster.cursor,
    venue: roster.venue,
    pupils: [],
    cursor: roster.cursor,
    upload_window_ms: roster.upload_window_ms,
    server_time: roster.server_time,
  };
}

const json = (status: number, body: unknown, etag: string | null = null): AdminResponse => ({ status, body, etag });
const refusal = (status: number, code: FailureCode, message = code): AdminResponse => json(status, { code, message });

function hash(text: string): string {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0).toString(16);
}

export interface FakeAdmin extends AdminPort {
  /** Every request received, in order. */
  readonly requests: AdminRequest[];
  pupils: RosterPupil[];
  audit: AuditEntry[];
  schedules: AdminSchedule[];
  /** Tokens the server accepts. */
  readonly tokens: Set<string>;
  /** Ends every staff session (the next call: 401 NOT_LOGGED_IN). */
  revokeAll(): void;
  /** The server's clock, ms. */
  now: number;
}

export function createFakeAdmin(): FakeAdmin {
  let issued = 0;
  let auditId = 0;
  const server: FakeAdmin = {
    requests: [],
    pupils: demoPupils(),
    audit: [],
    schedules: demoSchedules.map((s) => ({ ...s })),
    tokens: new Set(),
    now: FAKE_NOW,
    revokeAll: () => server.tokens.clear(),
    async send(request) {
      server.requests.push(request);
      return handle(request);
    },
  };
  const serverTime = () => new Date(server.now).toISOString();

  function record(entry: Omit<AuditEntry, 'id' | 'at' | 'actor' | 'staff_name'>) {
    server.audit.unshift({ id: ++auditId, at: serverTime(), actor: 'staff', staff_name: demoStaff.name, ...entry });
  }

  /** As the real server: a sitting past its deadline and upload window is not extended (TIME_END). */
  function pastUploadWindow(pupil: RosterPupil): boolean {
    return pupil.deadline_at !== null && isPastUploadWindow(new Date(pupil.deadline_at), new Date(server.now), FAKE_UPLOAD_WINDOW_MS);
  }

  /** Every cursor given, with the rows as they were then (by sitting, as JSON). */
  const cursors = new Map<string, Map<number, string>>();
  function cursor(): string {
    const given = `${cursors.size + 1}.${server.now}`;
    cursors.set(given, new Map(server.pupils.map((p) => [p.schedule_history_id, JSON.stringify(p)])));
    return given;
  }

  function roster(venue: { id: number; name: string } | null = null): RosterResponse {
    return {
      kind: 'full',
      schedule: server.schedules[0]!,
      venue,
      rooms: roomsIn(server.pupils),
      pupils: venue === null ? server.pupils : server.pupils.filter((p) => p.venue?.id === venue.id),
      cursor: cursor(),
      upload_window_ms: FAKE_UPLOAD_WINDOW_MS,
      server_time: serverTime(),
    };
  }

  /** The rows of the room that differ from what they were at the cursor (null: not a cursor given here). */
  function changes(since: string, venue: { id: number; name: string } | null): RosterChanges | null {
    const then = cursors.get(since);
    if (!then) return null;
    const inRoom = venue === null ? server.pupils : server.pupils.filter((p) => p.venue?.id === venue.id);
    const pupils = inRoom.filter((p) => then.get(p.schedule_history_id) !== JSON.stringify(p));
    return { kind: 'changes', since, venue, pupils, cursor: cursor(), upload_window_ms: FAKE_UPLOAD_WINDOW_MS, server_time: serverTime() };
  }

  function sittingAction(id: number, kind: 'move-terminal' | 'retake' | 'extend', body: Record<string, unknown>): AdminResponse {
    const index = server.pupils.findIndex((p) => p.schedule_history_id === id);
    const current = server.pupils[index];
    if (!current) return refusal(404, 'NOT_FOUND');
    const reason = typeof body.reason === 'string' ? body.reason.trim() : '';
    if (!reason) return refusal(422, 'VALIDATION_ERROR');
    const doing = current.status === 6;
    if (kind === 'move-terminal') {
      if (!doing) return refusal(403, current.status === 0 ? 'EXAM_NOT_STARTED' : 'ER_SCHEDULE_HISTORY_COMPLETED');
      const moved = { ...current, state: 'moving' as const, device_bound: false };
      server.pupils[index] = moved;
      record({ action: 'move_terminal', examinee_name: current.examinee_name, schedule_history_id: id, detail: { revoked_tokens: 1 }, reason });
      return json(200, { pupil: moved, server_time: serverTime() });
    }
    if (kind === 'retake') {
      if (current.status === 0) return refusal(403, 'EXAM_NOT_STARTED');
      const reset = {
        ...current, status: 0 as const, state: 'not_logged_in' as const, answers_saved: 0, question_index: null, started_at: null,
        deadline_at: null, device_bound: false, flag_retake: true, receipt: null,
      };
      server.pupils[index] = reset;
      record({ action: 'retake', examinee_name: current.examinee_name, schedule_history_id: id, detail: { archived_answers: current.answers_saved }, reason });
      return json(200, { pupil: reset, server_time: serverTime() });
    }
    const minutes = body.minutes;
    if (typeof minutes !== 'number' || !Number.isInteger(minutes) || minutes < 1 || minutes > 60) return refusal(422, 'VALIDATION_ERROR');
    if (!doing || !current.deadline_at) return refusal(403, 'EXAM_NOT_STARTED');
    if (pastUploadWindow(current)) return refusal(403, 'TIME_END');
    const deadline = new Date(Date.parse(current.deadline_at) + minutes * 60_000).toISOString();
    const extended = { ...current, deadline_at: deadline, extra_seconds: current.extra_seconds + minutes * 60 };
    server.pupils[index] = extended;
    record({
      action: 'extend', examinee_name: current.examinee_name, schedule_history_id: id,
      detail: { seconds: minutes * 60, previous_deadline_at: current.deadline_at, deadline_at: deadline }, reason,
    });
    return json(200, { pupil: extended, deadline_at: deadline, server_time: serverTime() });
  }

  function handle(request: AdminRequest): AdminResponse {
    const { method, path } = request;
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (method === 'POST' && path === '/admin/login') {
      if (body.login_id === LOCKED_LOGIN_ID) return refusal(403, 'ACCOUNT_LOCKED');
      if (body.org_code !== demoStaff.org_code || body.login_id !== demoStaff.login_id || body.password !== STAFF_PASSWORD) {
        return refusal(401, 'INCORRECT_ID_PASSWORD');
      }
      const token = `staff-token-${++issued}`;
      server.tokens.add(token);
      return json(200, { access_token: token, staff: demoStaff, server_time: serverTime() });
    }
    if (!request.token || !server.tokens.has(request.token)) return refusal(401, 'NOT_LOGGED_IN');
    if (method === 'POST' && path === '/admin/logout') {
      server.tokens.delete(request.token);
      return json(204, undefined);
    }
    if (method === 'GET' && path === '/admin/me') return json(200, { staff: demoStaff, server_time: serverTime() });
    if (method === 'GET' && path === '/admin/schedules') return json(200, { schedules: server.schedules, server_time: serverTime() });
    let match = /^\/admin\/schedules\/([^/]+)\/roster$/.exec(path);
    if (method === 'GET' && match) {
      if (decodeURIComponent(match[1]!) !== server.schedules[0]!.code) return refusal(404, 'NOT_FOUND');
      const venueId = request.query?.['venue_id'];
      const venue = venueId === undefined ? null : (roomsIn(server.pupils).find((r) => r.id === Number(venueId)) ?? null);
      if (venueId !== undefined && venue === null) return refusal(404, 'NOT_FOUND');
      const since = request.query?.['since'];
      if (since !== undefined) {
        const changed = changes(String(since), venue);
        return changed === null ? refusal(422, 'ROSTER_CURSOR_INVALID') : json(200, changed);
      }
      const current = roster(venue);
      const etag = `"${hash(JSON.stringify({ ...current, cursor: undefined, server_time: undefined }))}"`;
      if (request.ifNoneMatch === etag) return json(304, undefined, etag);
      return json(200, current, etag);
    }
    match = /^\/admin\/schedules\/([^/]+)\/extend$/.exec(path);
    if (method === 'POST' && match) {
      const minutes = body.minutes;
      const reason = typeof body.reason === 'string' ? body.reason.trim() : '';
      if (typeof minutes !== 'number' || !reason) return refusal(422, 'VALIDATION_ERROR');
      const venueId = typeof body.venue_id === 'number' ? body.venue_id : null;
      let extended = 0;
      server.pupils = server.pupils.map((p) => {
        if (p.status !== 6 || !p.deadline_at || pastUploadWindow(p) || (venueId !== null && p.venue?.id !== venueId)) return p;
        extended += 1;
        return { ...p, deadline_at: new Date(Date.parse(p.deadline_at) + minutes * 60_000).toISOString(), extra_seconds: p.extra_seconds + minutes * 60 };
      });
      server.audit.unshift({
        id: ++auditId, at: serverTime(), actor: 'staff', staff_name: demoStaff.name, action: 'extend_room', examinee_name: null,
        schedule_history_id: null, detail: { seconds: minutes * 60, sittings: extended, venue_id: venueId }, reason,
      });
      return json(200, { extended, server_time: serverTime() });
    }
    match = /^\/admin\/sittings\/([0-9]+)\/(move-terminal|retake|extend)$/.exec(path);
    if (method === 'POST' && match) return sittingAction(Number(match[1]), match[2] as 'move-terminal' | 'retake' | 'extend', body);
    if (method === 'GET' && path === '/admin/audit') {
      if (request.query?.schedule !== server.schedules[0]!.code) return refusal(404, 'NOT_FOUND');
      return json(200, { entries: server.audit, server_time: serverTime() });
    }
    return refusal(404, 'NOT_FOUND');
  }

  return server;
}

/** The name of an admin call, for tests that answer calls one by one. */
export type AdminCall = 'login' | 'logout' | 'me' | 'schedules' | 'roster' | 'move' | 'retake' | 'extend' | 'extendRoom' | 'audit';

export function callOf(request: AdminRequest): AdminCall {
  const { path } = request;
  if (path === '/admin/login') return 'login';
  if (path === '/admin/logout') return 'logout';
  if (path === '/admin/me') return 'me';
  if (path === '/admin/schedules') return 'schedules';
  if (path.endsWith('/roster')) return 'roster';
  if (path.endsWith('/move-terminal')) return 'move';
  if (path.endsWith('/retake')) return 'retake';
  if (path.startsWith('/admin/schedules/') && path.endsWith('/extend')) return 'extendRoom';
  if (path.endsWith('/extend')) return 'extend';
  if (path === '/admin/audit') return 'audit';
  throw new Error(`no admin call is named for ${request.method} ${path}`);
}

export interface ControlledAdmin {
  port: AdminPort;
  server: FakeAdmin;
  /** The calls now waiting, oldest first. */
  waiting(): AdminCall[];
  /** The requests now waiting, oldest first. */
  waitingRequests(): AdminRequest[];
  /** Lets the oldest waiting call of this name reach the fake server and answer. */
  answer(call: AdminCall): void;
  /** Answers the oldest waiting call of this name with a refusal (no server state changes). */
  refuse(call: AdminCall, code: FailureCode, status: number): void;
  /** Fails the oldest waiting call of this name as if no answer came (NETWORK_ERROR). */
  dropConnection(call: AdminCall): void;
}

export function createControlledAdmin(): ControlledAdmin {
  const server = createFakeAdmin();
  const pending: Array<{ call: AdminCall; resolve(response: AdminResponse): void; reject(error: unknown): void; request: AdminRequest }> = [];
  const take = (call: AdminCall) => {
    const index = pending.findIndex((p) => p.call === call);
    if (index < 0) throw new Error(`no ${call} call is waiting (waiting: ${pending.map((p) => p.call).join(', ') || 'none'})`);
    return pending.splice(index, 1)[0]!;
  };
  return {
    server,
    port: {
      send: (request) =>
        new Promise<AdminResponse>((resolve, reject) => {
          pending.push({ call: callOf(request), request, resolve, reject });
        }),
    },
    waiting: () => pending.map((p) => p.call),
    waitingRequests: () => pending.map((p) => p.request),
    answer: (call) => {
      const next = take(call);
      server.send(next.request).then(next.resolve, next.reject);
    },
    refuse: (call, code, status) => take(call).resolve({ status, body: { code, message: code }, etag: null }),
    dropConnection: (call) => take(call).reject(new ApiFailure('NETWORK_ERROR')),
  };
}
