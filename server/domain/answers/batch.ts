/**
 * Many saves as one statement: PostgreSQL's usual way (server/db/batching.ts sends the saves
 * that arrive while the database is busy together; on exam day the commit, the round trip and
 * the driver's work are paid once for many saves). The same rules as the one statement
 * (statement.ts, statement-sql.ts), row by row: each named parameter (SAVE_PARAMETERS) is an
 * array with one element per save, unnested into the rows of `input` (`i`, a column per
 * parameter, `i.sitting_id` for `sittingId`), and the rows come back with `ord`, the save's
 * place (from 1), for each save whose token is valid. Each save still gets its own outcome, or
 * its own refusal.
 *
 * The batcher never puts two saves of one question or of one key in a batch, so no row is
 * stored twice by one statement, and no two batches at the database hold saves of one
 * sitting. A sitting whose row another transaction holds (a Finish, a reset, a move, a
 * deadline change under way) is SKIPPED, not waited for: that save comes back without
 * `deadline_ms` and goes the careful way, which waits for the row (FOR SHARE) and decides on it
 * as it then stands. So no batch waits for one pupil's sitting, and batches never wait for each
 * other in a cycle.
 */
import { createBatcher, type Batcher } from '../../db/batching.ts';
import type { PreparedStatement } from '../../db/prepared.ts';
import {
  boundDevice,
  DEADLINE_MS,
  SAVE_PARAMETERS,
  savableSitting,
  storeAnswer,
  TOKEN_COLUMNS,
  usableToken,
  type SaveParameters,
  type SaveRow,
  type SaveValuesSql,
} from './statement-sql.ts';

/** At most this many batches of saves at the database at once (the pool holds 10 connections; the rest serve other calls). */
export const SAVE_BATCHES_IN_FLIGHT = 4;
/** At most this many saves in one statement. */
export const SAVE_BATCH_SIZE = 64;

/** A row of the batch: a save's SaveRow and its place. */
export type BatchRow = SaveRow & { ord: number };

/** `input`'s column of each parameter: its name in snake case (`sittingId`, i.sitting_id). */
const column = (name: string) => name.replace(/[A-Z]/g, (capital) => `_${capital.toLowerCase()}`);
const { names, arrays } = SAVE_PARAMETERS;
const i = Object.fromEntries(names.map((name) => [name, `i.${column(name)}`])) as SaveValuesSql;

export const SAVE_ANSWERS = {
  name: 'gradus_save_answers_2_postgres',
  text: `with input as (
  select * from unnest(${names.map((name) => arrays[name]).join(', ')})
    with ordinality as i(${names.map(column).join(', ')}, ord)
),
tok as (
  select i.ord, ${TOKEN_COLUMNS}
  from input i join auth_tokens t on t.token_hash = ${i.tokenHash} join examinees e on e.id = t.examinee_id
  where ${usableToken(i)}
),
sit as (
  select i.ord, h.id, h.deadline_at, h.last_contact_at, ${i.contactFloor} as contact_floor, ${i.now} as now_at,
    ${boundDevice(i)} as bound
  from input i join tok on tok.ord = i.ord join schedule_histories h on h.id = ${i.sittingId}
  where ${savableSitting(i)}
  for no key update of h skip locked
),
contact as (
  update schedule_histories h set last_contact_at = c.now_at
  from (select id, max(now_at) as now_at, min(contact_floor) as contact_floor, max(last_contact_at) as last_contact_at
    from sit where bound group by id) c
  where h.id = c.id and (c.last_contact_at is null or c.last_contact_at < c.contact_floor)
),
saved as (
  ${storeAnswer(i, 'sit join input i on i.ord = sit.ord', 'a.schedule_history_id, a.question_id')}
)
select tok.ord::int as ord, tok.id as token_id, tok.examinee_id, tok.schedule_history_id, tok.login_type, tok.live,
  ${DEADLINE_MS},
  (select count(*)::int from saved s where s.schedule_history_id = sit.id and s.question_id = ${i.questionId}) as saved
from tok join input i on i.ord = tok.ord left join sit on sit.ord = tok.ord`,
};

/** The batcher of the statement saves: `one` alone for a save whose batch failed, `many` for a batch. */
export function batcherOf(one: PreparedStatement<SaveRow>, many: PreparedStatement<BatchRow>): Batcher<SaveParameters, SaveRow[]> {
  return createBatcher<SaveParameters, SaveRow[]>({
    maxInFlight: SAVE_BATCHES_IN_FLIGHT,
    maxBatch: SAVE_BATCH_SIZE,
    conflictKeys: (save) => [`q ${save.sittingId} ${save.questionId}`, `k ${save.idempotencyKey}`],
    // A sitting's saves share a statement, never two at once: each locks the sitting's row.
    ownerKeys: (save) => [`s ${save.sittingId}`],
    async runBatch(saves) {
      const rows = await many.run(SAVE_PARAMETERS.columns(saves));
      const byPlace: SaveRow[][] = saves.map(() => []);
      for (const { ord, ...row } of rows) byPlace[ord - 1]?.push(row);
      return byPlace;
    },
    runOne: (save) => one.run(SAVE_PARAMETERS.values(save)),
  });
}
