/**
 * The roster's SQL (roster.ts): a roster row's columns written once, and the statements a roster
 * answer is, each ONE prepared statement (server/db/prepared.ts) that finds the schedule and the
 * room asked for, takes the snapshot and reads the rows:
 *
 * - its first row (`part` 0) is the header: the schedule (as lookups.ts `byCode` finds a code:
 *   the exact spelling first, else the code in any case, the older first; within the staff
 *   member's organisation unless they reach every one), the room asked for (null when none is
 *   or it is not the organisation's), `pg_current_snapshot()` and, in full, the schedule's
 *   pupil count and its rooms; no row at all when there is no such schedule;
 * - the rows after it (`part` 1) are the pupils', by name, read with that same snapshot (one
 *   statement reads with one snapshot, and `pg_current_snapshot()` is it).
 *
 * The schedule and the room reach the rows as subqueries PostgreSQL runs once (InitPlans), so a
 * room's rows come by examinees_venue_idx and schedule_histories_examinee_idx in the plan kept
 * for every call, and the pupils without a classroom (the schedule's own venue holds them) are
 * read only when the room asked for is that venue. One statement per kind of answer (a room or
 * the whole schedule, in full or its changes): each keeps one plan.
 */
import { ScheduleHistoryStatus } from '../../contract/enums.ts';
import { OFFLINE_AFTER_MS } from '../../contract/presence.ts';
import { namedParameters } from '../db/prepared.ts';

const S = ScheduleHistoryStatus;

/** What a roster statement is given, by name (the first four: every statement's). */
type RosterParameters = {
  /** The instant of the answer: a login counts while its token outlives it. */
  now: Date;
  /** The schedule's code as asked (in any case). */
  code: string;
  /** The staff member's organisation; null for one who reaches every organisation. */
  organizationId: number | null;
  /** The room asked for; null for the whole schedule. */
  venueId: number | null;
};

/** A poll's values besides (roster.ts `changedSince` explains them). */
type ChangesParameters = RosterParameters & {
  /** The cursor's xmin, as decimal text (a bigint). */
  xmin: string;
  /** The cursor's snapshot as PostgreSQL reads a `pg_snapshot`, null for the conservative form. */
  snapshot: string | null;
  /** The cursor's time less the margin, and now: what the time alone moved in between. */
  from: Date;
  to: Date;
};

const ROSTER_TYPES = { now: 'timestamptz', code: 'text', organizationId: 'int', venueId: 'int' } as const;

export const FULL_PARAMETERS = namedParameters<RosterParameters>(ROSTER_TYPES);
export const CHANGES_PARAMETERS = namedParameters<ChangesParameters>({
  ...ROSTER_TYPES,
  xmin: 'text',
  snapshot: 'text',
  from: 'timestamptz',
  to: 'timestamptz',
});

/** The row a roster entry is derived from (roster.ts `pupilView`). */
export type PupilRow = {
  id: number;
  status: number;
  startedAt: Date | null;
  deadlineAt: Date | null;
  finishedAt: Date | null;
  deviceToken: string | null;
  deviceReleasedAt: Date | null;
  lastContactAt: Date | null;
  questionIndex: number | null;
  waitingAnswers: number;
  refusedElsewhereAt: Date | null;
  extraSeconds: number;
  flagRetake: boolean;
  answerCount: number | null;
  answersDigest: string | null;
  examineeName: string;
  loginCode: string;
  examTitle: string;
  levelId: number;
  levelName: string;
  subjectId: number;
  /** The pupil's room: their classroom, else the schedule's venue. */
  venueId: number | null;
  venueName: string | null;
  questionCount: number;
  answersSaved: number;
  loggedIn: boolean;
};

/** A roster statement's header (its first row). */
export type HeaderRow = {
  scheduleId: number;
  scheduleCode: string;
  scheduleName: string;
  startsAt: Date;
  endsAt: Date;
  scheduleVenueId: number | null;
  scheduleVenueName: string | null;
  roomId: number | null;
  roomName: string | null;
  /** `pg_current_snapshot()` as text (`xmin:xmax:xip,...`). */
  snapshot: string;
};

/** The header of an answer in full. */
export type FullHeaderRow = HeaderRow & { pupilCount: number; rooms: { id: number; name: string }[] };

/** A roster statement's rows: the header (part 0), then the pupils (part 1). */
export type RosterRow<Header> = ({ part: 0 } & Header & { [K in keyof PupilRow]: null }) | ({ part: 1 } & { [K in keyof Header]: null } & PupilRow);

/**
 * `t` is a token of the sitting `sh`: one bound to it, or one of its pupil's bound to none. A token
 * bound to a sitting is that sitting's pupil's (login.ts and documents/store.ts issue it so, and a
 * sitting keeps its pupil), so both are among the pupil's tokens, found by auth_tokens_examinee_idx
 * (a pupil has a few); bound to the sitting alone, a token would be looked for in the whole table.
 */
const SITTING_TOKEN = 't.examinee_id = sh.examinee_id and (t.schedule_history_id = sh.id or t.schedule_history_id is null)';

/**
 * A roster row's columns over `sh` (the sitting) and `e` (the pupil), by alias; `now` is the
 * SQL of the answer's instant.
 */
function pupilColumns(now: string): [keyof PupilRow, string][] {
  return [
    ['id', 'sh.id'],
    ['status', 'sh.status'],
    ['startedAt', 'sh.started_at'],
    ['deadlineAt', 'sh.deadline_at'],
    ['finishedAt', 'sh.finished_at'],
    ['deviceToken', 'sh.device_token'],
    ['deviceReleasedAt', 'sh.device_released_at'],
    ['lastContactAt', 'sh.last_contact_at'],
    ['questionIndex', 'sh.question_index'],
    ['waitingAnswers', 'sh.waiting_answers'],
    ['refusedElsewhereAt', 'sh.refused_elsewhere_at'],
    ['extraSeconds', 'sh.extra_seconds'],
    ['flagRetake', 'sh.flag_retake'],
    ['answerCount', 'sh.answer_count'],
    ['answersDigest', 'sh.answers_digest'],
    ['examineeName', 'e.name'],
    ['loginCode', 'e.login_code'],
    ['examTitle', 'ex.title'],
    ['levelId', 'lv.id'],
    ['levelName', 'lv.name'],
    ['subjectId', 'lv.subject_id'],
    ['venueId', 'coalesce(e.venue_id, sc.venue_id)'],
    ['venueName', 'pupil_room.name'],
    ['questionCount', 'question_count.n'],
    ['answersSaved', `(select count(*)::int from answers a where a.schedule_history_id = sh.id and a.value <> '')`],
    [
      'loggedIn',
      `exists (select 1 from auth_tokens t where ${SITTING_TOKEN} and t.revoked_at is null and t.expires_at > ${now})`,
    ],
  ];
}

/** The sitting with its pupil, as every roster read starts. */
const SITTINGS = 'schedule_histories sh join examinees e on e.id = sh.examinee_id';

/** What a row needs besides the sitting and the pupil: its schedule, its paper and level, and its room. */
const ROW_JOINS = `join schedules sc on sc.id = sh.schedule_id
  join exams ex on ex.id = sh.exam_id
  join levels lv on lv.id = ex.level_id
  left join venues pupil_room on pupil_room.id = coalesce(e.venue_id, sc.venue_id)`;

/**
 * One sitting's roster row, as text to run in a transaction (roster.ts `rosterPupil`); `now` is
 * the SQL of the answer's instant, the caller adds `where`.
 */
export function sittingRowText(now: string): string {
  return `select ${pupilColumns(now)
    .map(([alias, expression]) => `${expression} as "${alias}"`)
    .join(', ')} from ${SITTINGS} ${ROW_JOINS}
  cross join lateral (select count(*)::int as n from questions q where q.exam_id = sh.exam_id) question_count`;
}

/** A room's pupils: its classroom's, and those without one when it is the schedule's own venue. */
const ROOM_SITTINGS = `(select id, name, login_code, venue_id from examinees where venue_id = (select id from room)
    union all
    select id, name, login_code, venue_id from examinees
    where venue_id is null and (select id from room) = (select venue_id from schedule)) e
  join schedule_histories sh on sh.examinee_id = e.id`;

/** The sittings whose row may have changed after the cursor (roster.ts `changedSince`). */
function changedSince(p: typeof CHANGES_PARAMETERS.sql): string {
  const offline = `interval '${OFFLINE_AFTER_MS} milliseconds'`;
  return `((sh.roster_version >= ${p.xmin}::bigint
      and (${p.snapshot} is null or not pg_visible_in_snapshot(sh.roster_version::text::xid8, (select ${p.snapshot}::pg_snapshot))))
    or (sh.status = ${S.DOING} and sh.last_contact_at >= ${p.from} - ${offline} and sh.last_contact_at <= ${p.to} - ${offline})
    or (sh.status = ${S.DOING} and sh.deadline_at >= ${p.from} and sh.deadline_at <= ${p.to})
    or exists (select 1 from answers a where a.schedule_history_id = sh.id and a.received_at > ${p.from})
    or (sh.status = ${S.PENDING} and exists (select 1 from auth_tokens t where ${SITTING_TOKEN}
      and t.expires_at > ${p.from} and t.expires_at <= ${p.to})))`;
}

export type RosterScope = 'room' | 'schedule';
export type RosterKind = 'full' | 'changes';

/** The statement of one kind of roster answer (see the module comment). */
export function rosterStatement(scope: RosterScope, kind: RosterKind): { name: string; text: string } {
  const p = kind === 'full' ? FULL_PARAMETERS.sql : CHANGES_PARAMETERS.sql;
  const header: [string, string][] = [
    ['scheduleId', 's.id'],
    ['scheduleCode', 's.schedule_code'],
    ['scheduleName', 's.name'],
    ['startsAt', 's.starts_at'],
    ['endsAt', 's.ends_at'],
    ['scheduleVenueId', 's.venue_id'],
    ['scheduleVenueName', 's.venue_name'],
    ['roomId', 'room.id'],
    ['roomName', 'room.name'],
    ['snapshot', 'pg_current_snapshot()::text'],
  ];
  if (kind === 'full') {
    header.push(
      ['pupilCount', '(select count(*)::int from schedule_histories h where h.schedule_id = s.id)'],
      [
        'rooms',
        `(select coalesce(json_agg(json_build_object('id', v.id, 'name', v.name) order by v.name, v.id), '[]')
          from venues v where v.id in (select coalesce(e.venue_id, s.venue_id)
            from schedule_histories h join examinees e on e.id = h.examinee_id where h.schedule_id = s.id))`,
      ],
    );
  }
  const pupils = pupilColumns(p.now);
  // The rows are read first (`pupil`), then each paper's length is counted once for all of them
  // (`paper`), not once a row: a room's pupils sit a few papers.
  const read = pupils.filter(([alias]) => alias !== 'questionCount');
  const where = [
    'sh.schedule_id = (select id from schedule)',
    ...(kind === 'changes' ? [changedSince(CHANGES_PARAMETERS.sql)] : []),
  ].join(' and ');
  const text = `with schedule as (
    select s.id, s.schedule_code, s.name, s.starts_at, s.ends_at, s.venue_id, v.name as venue_name
    from schedules s left join venues v on v.id = s.venue_id
    where (s.schedule_code = ${p.code} or lower(s.schedule_code) = lower(${p.code}))
      and (${p.organizationId} is null or s.organization_id = ${p.organizationId})
    order by s.schedule_code = ${p.code} desc, s.id
    limit 1
  ), room as (
    select r.id, r.name from venues r where r.id = ${p.venueId} and (${p.organizationId} is null or r.organization_id = ${p.organizationId})
  ), pupil as materialized (
    select sh.exam_id, ${read.map(([alias, expression]) => `${expression} as "${alias}"`).join(', ')}
    from ${scope === 'room' ? ROOM_SITTINGS : SITTINGS} ${ROW_JOINS}
    where ${where}
  ), paper as (
    select q.exam_id, count(*)::int as n from questions q where q.exam_id in (select distinct exam_id from pupil) group by q.exam_id
  )
  select 0 as part, ${header.map(([alias, expression]) => `${expression} as "${alias}"`).join(', ')},
    ${pupils.map(([alias]) => `null as "${alias}"`).join(', ')}
  from schedule s left join room on true
  union all
  select 1, ${header.map(() => 'null').join(', ')},
    ${pupils.map(([alias]) => (alias === 'questionCount' ? 'coalesce(paper.n, 0)' : `pupil."${alias}"`)).join(', ')}
  from pupil left join paper on paper.exam_id = pupil.exam_id
  order by part, "examineeName", "id"`;
  return { name: `roster_${scope}_${kind}`, text };
}
