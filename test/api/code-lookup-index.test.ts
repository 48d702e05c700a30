/**
 * A code in the other case (server/domain/lookups.ts `byCode`) misses the exact lookup and asks
 * again with lower(code) = lower($1): that second query has an index of its own, the expression
 * indexes organizations_code_lower_idx and schedules_schedule_code_lower_idx (server/db/schema.ts,
 * migration 0008). The statement the app really sends is caught at the driver and explained on
 * PostgreSQL, after ANALYZE, with sequential scans switched off: the tables of a test database are
 * a few rows, so the planner would read them whole whatever the indexes; switched off, it takes an
 * index whenever one applies, and without the expression index the plan names none of them (it
 * walks the primary key and filters). So the assertion says "the index serves this query", not
 * "it is cheapest today", and it does not depend on the table sizes.
 */
import pg from 'pg';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { organizationOfCode, scheduleOfPage } from '../../server/domain/lookups.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { useApi, type ApiContext } from '../helpers/server-api.ts';
import { addSitting } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();

type Sent = { text: string; values: unknown[] };

/** The statements the app sends while `work` runs (text and parameters). */
async function statementsOf(work: () => Promise<unknown>): Promise<Sent[]> {
  const sent: Sent[] = [];
  const query = pg.Client.prototype.query;
  const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
    // query(text, values) or query({ text, values }) or, as Drizzle sends it, query({ text }, values).
    const config = args[0] as { text?: string; values?: unknown[] } | string;
    const values = Array.isArray(args[1]) ? (args[1] as unknown[]) : undefined;
    if (typeof config === 'string') sent.push({ text: config, values: values ?? [] });
    else if (config?.text) sent.push({ text: config.text, values: config.values ?? values ?? [] });
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as never);
  try {
    await work();
    return sent;
  } finally {
    spy.mockRestore();
  }
}

/** The plan of `statement` with sequential scans switched off, as text. */
async function planOf(api: ApiContext, statement: Sent): Promise<string> {
  const client = new pg.Client({ connectionString: api.database.url });
  await client.connect();
  try {
    await client.query('begin');
    // Fresh statistics (an expression index has its own: lower(code) is as distinct as code), as
    // autovacuum keeps them on a live database; without them the planner guesses 0.5 % of the rows
    // match and may walk the primary key for `order by id limit 1` instead.
    await client.query('analyze organizations, schedules');
    await client.query('set local enable_seqscan = off');
    // EXPLAIN takes no bind parameters: the statement is prepared and explained with its values.
    await client.query(`prepare lookup as ${statement.text}`);
    const values = statement.values.map((value) => client.escapeLiteral(String(value))).join(', ');
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(`explain execute lookup(${values})`);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  } finally {
    await client.query('rollback').catch(() => undefined);
    await client.end();
  }
}

/** The one statement sent that compares lower(code). */
function fallbackOf(sent: Sent[]): Sent {
  const folded = sent.filter((s) => /lower\(/.test(s.text));
  expect(folded).toHaveLength(1);
  expect(folded[0]!.values.length).toBeGreaterThan(0);
  return folded[0]!;
}

describe.each(kinds.filter((k) => k === 'postgres'))('the any-case fallback of a code lookup on %s', (kind) => {
  const api = useApi(kind);
  afterEach(() => vi.restoreAllMocks());

  test("an organisation's code in small letters: the fallback reads organizations_code_lower_idx", async () => {
    const sent = await statementsOf(() => organizationOfCode(api.db, 'gradus-demo'));
    const plan = await planOf(api, fallbackOf(sent));
    expect(plan).toContain('organizations_code_lower_idx');
  });

  test("a schedule's code in small letters: the fallback reads schedules_schedule_code_lower_idx", async () => {
    const pupil = await addSitting(api.db, { venue: {} });
    const sent = await statementsOf(() => scheduleOfPage(api.db, { scheduleCode: pupil.scheduleCode.toLowerCase() }));
    const plan = await planOf(api, fallbackOf(sent));
    expect(plan).toContain('schedules_schedule_code_lower_idx');
  });
});
