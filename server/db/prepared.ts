/**
 * Statements prepared once and run in one round trip, for the hot paths where a query builder
 * and a fresh parse and plan per call would cost more than the work itself (the answer save,
 * server/domain/answers/). Works on either driver behind a `Db` (server/db/client.ts):
 *
 * - PostgreSQL (node-postgres Pool): a named query. Each pooled connection parses it the first
 *   time it runs it there and afterwards only binds and executes it; PostgreSQL keeps its plan.
 * - PGlite: the statement is parsed (and its rows described) once under its name, and each
 *   run is ONE exchange with the database (Bind, Execute, Sync in one message), where
 *   `PGlite.query` makes six and parses and plans the text every time. It runs under PGlite's own transaction and query
 *   locks, so it never lands inside another caller's open transaction.
 *
 * The text names every parameter's type with a cast (`$1::text`): values go over as text (a
 * Date as its ISO instant, null as NULL) and rows come back parsed by the driver's own parsers
 * (timestamptz as Date, int4 as number, bool as boolean; avoid int8 and numeric).
 * `prepare` makes a statement once per database client and name (callers ask it on every call)
 * and answers undefined for a handle that is neither (a transaction): callers keep a
 * query-builder path for that. `namedParameters` lets a statement's text and its callers name
 * each parameter instead of counting `$n`.
 */
import { parse as pgliteParse, protocol, type PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Db } from './client.ts';

export type StatementValue = string | number | boolean | Date | null;
/** A parameter: a value, or an array of values, as `$1::text[]` takes it. */
export type StatementParameter = StatementValue | readonly StatementValue[];

export type PreparedStatement<Row> = {
  run(values: readonly StatementParameter[]): Promise<Row[]>;
};

type Definition = { name: string; text: string };

/** The types a named parameter may have (its cast in the text; keep to those the drivers parse plainly). */
export type ParameterType = 'text' | 'int' | 'timestamptz';

/**
 * A statement's parameters by name, from their types in positional order (the object's key
 * order: `{ sittingId: 'int', value: 'text' }` makes `sittingId` $1 and `value` $2):
 * - `sql`: each name's placeholder with its cast, for the text (`sql.sittingId` is `$1::int`);
 * - `arrays`: the same as arrays (`$1::int[]`), for a statement that takes many rows at once;
 * - `values`: named values as the positional array `run` takes;
 * - `columns`: many rows of named values as one array per parameter (for `arrays`).
 * The names are the only place the positions are written.
 */
export type NamedParameters<Values extends Record<string, StatementValue>> = {
  readonly names: readonly (keyof Values & string)[];
  readonly sql: { readonly [K in keyof Values]: string };
  readonly arrays: { readonly [K in keyof Values]: string };
  values(named: Values): StatementValue[];
  columns(rows: readonly Values[]): StatementValue[][];
};

export function namedParameters<Values extends Record<string, StatementValue>>(types: {
  readonly [K in keyof Values]: ParameterType;
}): NamedParameters<Values> {
  const names = Object.keys(types) as (keyof Values & string)[];
  const placeholders = (suffix: string) =>
    Object.fromEntries(names.map((name, i) => [name, `$${i + 1}::${types[name]}${suffix}`])) as { [K in keyof Values]: string };
  return {
    names,
    sql: placeholders(''),
    arrays: placeholders('[]'),
    values: (named) => names.map((name) => named[name] as StatementValue),
    columns: (rows) => names.map((name) => rows.map((row) => row[name] as StatementValue)),
  };
}

type BackendMessage = Awaited<ReturnType<PGlite['execProtocol']>>['messages'][number];

/** What each PGlite client has parsed: statement name -> the row description of its results. */
const pgliteParsed = new WeakMap<PGlite, Map<string, BackendMessage>>();

/** The statements prepared on each database client, by name: a caller asks `prepare` on every call. */
const preparedByClient = new WeakMap<object, Map<string, PreparedStatement<unknown>>>();

/** The statement on this handle's database, made once per client and name; undefined for a transaction. */
export function prepare<Row>(db: Db, definition: Definition): PreparedStatement<Row> | undefined {
  const client = clientOf(db);
  const made = client instanceof pg.Pool ? 'postgres' : isPglite(client) ? 'pglite' : undefined;
  if (made === undefined) return undefined;
  let statements = preparedByClient.get(client as object);
  if (!statements) preparedByClient.set(client as object, (statements = new Map()));
  let statement = statements.get(definition.name);
  if (!statement) {
    statement = made === 'postgres' ? postgresStatement(client as pg.Pool, definition) : pgliteStatement(client as PGlite, definition);
    statements.set(definition.name, statement);
  }
  return statement as PreparedStatement<Row>;
}

/**
 * Which driver a handle runs on, for a statement that differs between them (PGlite runs one
 * statement at a time, so what only guards against concurrent writers can go); undefined for
 * a transaction.
 */
export function driverOf(db: Db): 'pglite' | 'postgres' | undefined {
  const client = clientOf(db);
  if (client instanceof pg.Pool) return 'postgres';
  if (isPglite(client)) return 'pglite';
  return undefined;
}

function clientOf(db: Db): unknown {
  return (db as unknown as { $client?: unknown }).$client;
}

function toText(value: StatementValue): string | null {
  if (value === null) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'boolean') return value ? 't' : 'f';
  return String(value);
}

/** An array as PostgreSQL's text form reads it (`{"a","b",NULL}`), each element quoted, as node-postgres writes it. */
function arrayLiteral(values: readonly StatementValue[]): string {
  const elements = values.map((value) => {
    const text = toText(value);
    return text === null ? 'NULL' : `"${text.replace(/[\\"]/g, '\\$&')}"`;
  });
  return `{${elements.join(',')}}`;
}

function isArray(value: StatementParameter): value is readonly StatementValue[] {
  return Array.isArray(value);
}

function postgresStatement<Row>(pool: pg.Pool, { name, text }: Definition): PreparedStatement<Row> {
  return {
    async run(values) {
      // An array's elements as text like any value; node-postgres writes the array literal, quoting each.
      const texts = values.map((value) => (isArray(value) ? value.map(toText) : toText(value)));
      const result = await pool.query({ name, text, values: texts });
      return result.rows as Row[];
    },
  };
}

function isPglite(client: unknown): client is PGlite {
  return (
    typeof client === 'object' &&
    client !== null &&
    typeof (client as PGlite).execProtocol === 'function' &&
    typeof (client as PGlite)._runExclusiveTransaction === 'function'
  );
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function pgliteStatement<Row>(client: PGlite, { name, text }: Definition): PreparedStatement<Row> {
  const { serialize } = protocol;
  const executeAndSync = concat([serialize.execute({}), serialize.sync()]);
  return {
    run(values) {
      // The transaction lock first, as PGlite.query takes it: a transaction holds it from BEGIN to COMMIT.
      return client._runExclusiveTransaction(() =>
        client._runExclusiveQuery(async () => {
          let parsed = pgliteParsed.get(client);
          if (!parsed) pgliteParsed.set(client, (parsed = new Map()));
          let rowDescription = parsed.get(name);
          if (!rowDescription) {
            // Parsed once; the description of its rows is kept, so a run need not ask for it again.
            const described = await client.execProtocol(
              concat([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]),
              { syncToFs: false },
            );
            rowDescription = described.messages.find((m) => m.name === 'rowDescription');
            if (!rowDescription) throw new Error(`prepare ${name}: the statement returns no rows`);
            parsed.set(name, rowDescription);
          }
          const texts = values.map((value) => (isArray(value) ? arrayLiteral(value) : toText(value)));
          const bind = serialize.bind({ statement: name, values: texts });
          const { messages } = await client.execProtocol(concat([bind, executeAndSync]));
          const [result] = pgliteParse.parseResults([rowDescription, ...messages], client.parsers);
          return (result?.rows ?? []) as Row[];
        }),
      );
    },
  };
}
