/**
 * Login throttling, with rate-limiter-flexible: in memory on PGlite (one process owns the
 * database), in a PostgreSQL table (`rate_limits`, made by the library) when the app runs on
 * PostgreSQL, so every API process counts against the same limits. Counting is in real time
 * (the library's clock), not the app's injectable clock.
 *
 * What counts is a FAILED login: a wrong login code, a wrong login ID or password, a refused
 * partner token. Each attempt takes its points up front (so a burst of concurrent requests
 * cannot slip past a limit) and gets them back when it did not fail: a right code, a refusal that
 * proves the credentials (TIME_START, DISABLED_CLASS...), and an attempt the throttle itself
 * refused. So a 429 never counts toward any limit: hammering a spent limit does not lengthen it.
 *
 * Who is counted. A school lab is 40-60 terminals behind ONE address, so the address alone must
 * never be what stops a pupil. Every attempt is counted on three keys, and may be refused by any:
 * - the terminal: address + X-Device-Token (the id the kiosk makes once and sends on every call;
 *   a request without one counts as the address's one token-less terminal). A terminal that
 *   floods is refused after `devicePerMinute` failures, and after `devicePerHour` for the rest
 *   of the hour; the other terminals behind its address go on. Keyed with the address, so nobody
 *   elsewhere can spend a terminal's budget by copying its token.
 * - the address, every terminal behind it together: `addressPerMinute` / `addressPerHour`
 *   failures, far above what a lab fails (40 pupils each mistyping twice in one minute: 80 of
 *   300). It is what holds a machine that makes up a new device token per attempt; only such a
 *   machine ever reaches it.
 * - the identifier (address + login ID, or address + organisation + login ID for examinee and
 *   staff logins): the seed's lock, MAX_FAILED_LOGINS wrong passwords in a row lock that ID for
 *   1 minute at that address (403 ACCOUNT_LOCKED, even the right password; a right password
 *   resets the count); and address + login code / partner token: `identifier` failures in 10
 *   minutes, then 429 (a terminal stuck re-sending one wrong code). No limit is per identifier
 *   alone: nobody can lock out a pupil they are not sitting beside.
 * Staff sign-ins (/admin/login) are counted on keys of their own (`staff*` limits): no pupil's
 * failure, however many, refuses a proctor, and a flood of wrong staff passwords stops staff
 * sign-ins from that terminal or address, not the pupils'.
 *
 * Why guessing stays infeasible. A login code is 12 characters of LOGIN_CODE_ALPHABET (21
 * letters and digits): 21^12 ≈ 7.36·10^15 codes. With N valid codes in the database a random
 * guess hits one with probability N / 21^12, so finding one takes about 21^12 / N guesses:
 * - one address (any number of terminals or made-up device tokens): at most 2,400 failures an
 *   hour; N = 10,000 pupils: 3.1·10^8 hours ≈ 35,000 years; N = 1,000,000: ≈ 350 years;
 * - one terminal: at most 100 failures an hour; N = 1,000,000: ≈ 8,400 years.
 * A login ID's password is held by the lock (5 guesses a minute per address and ID) and by the
 * same address limit when one password is sprayed over many IDs.
 * (test/api/throttle-lab.test.ts computes these figures from the limits and asserts them.)
 *
 * Keys are hashed: the table never holds a login code, login ID or device token.
 *
 * Across processes (several API processes on one PostgreSQL, `npm start`'s cluster): every
 * count is one row of `rate_limits`, updated by one upsert, so any worker sees the others'
 * failures at once; nothing is kept in a process's memory but the fallback for a database error
 * (`insuranceLimiter`). The table is made once per process, before any limiter uses it, with
 * its statement serialised by an advisory lock: the library would otherwise run a
 * `CREATE TABLE IF NOT EXISTS` per limiter at once, and on a new database concurrent ones can
 * fail; a limiter whose creation failed counts in memory only, forever.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Db } from '../db/client.ts';
import { LOCK_MS, MAX_FAILED_LOGINS } from '../domain/credentials.ts';
import type { Logger } from '../logger.ts';

/** The numbers (see the module comment for why). Durations in seconds, as the library takes them. */
export const throttleLimits = {
  /** Failed pupil logins from one terminal (address + device token). */
  devicePerMinute: { points: 20, duration: 60 },
  devicePerHour: { points: 100, duration: 3600 },
  /** Failed pupil logins from one address, all its terminals together. */
  addressPerMinute: { points: 300, duration: 60 },
  addressPerHour: { points: 2400, duration: 3600 },
  /** Failed staff sign-ins, on keys of their own. */
  staffDevicePerMinute: { points: 10, duration: 60 },
  staffDevicePerHour: { points: 60, duration: 3600 },
  staffAddressPerMinute: { points: 30, duration: 60 },
  staffAddressPerHour: { points: 300, duration: 3600 },
  /** MAX_FAILED_LOGINS wrong passwords within `duration` lock for `lockSeconds`. */
  passwordLock: { points: MAX_FAILED_LOGINS, duration: 3600, lockSeconds: LOCK_MS / 1000 },
  identifier: { points: 10, duration: 600 },
  /** CSP reports kept per address (more are answered but not counted or logged). */
  cspReports: { points: 60, duration: 60 },
} as const;

/** The limits that count every failure of a terminal or an address (not the identifier's). */
type WindowLimit = Exclude<keyof typeof throttleLimits, 'passwordLock' | 'identifier' | 'cspReports'>;

/**
 * What a login attempt is about. `password`: the seed's lock applies; `identifier`: a 429 after
 * too many. `staff`: a staff sign-in, counted apart from the pupils'.
 */
export type LoginAttempt = { kind: 'password' | 'identifier'; identifier: string; staff?: boolean };

/** Who attempts: the client address and the terminal's X-Device-Token (undefined when none was sent). */
export type LoginClient = { address: string; device: string | undefined };

export type ThrottleRefusal = {
  code: 'TOO_MANY_REQUESTS' | 'ACCOUNT_LOCKED';
  /** Whole seconds until another attempt can succeed (Retry-After). */
  retryAfterSeconds: number;
  /**
   * Which limit refused: `device-minute`, `device-hour`, `address-minute`, `address-hour` (and
   * the same with `staff-` in front), `password-lock`, `identifier`.
   */
  limit: string;
};

export type LoginThrottle = {
  /** Before an attempt: undefined to go ahead, else the refusal. Takes the terminal's and the address's points. */
  admit(client: LoginClient, attempt: LoginAttempt): Promise<ThrottleRefusal | undefined>;
  /** After it: a failure is counted (and may lock: the refusal to answer instead), anything else gives the points back. */
  settle(client: LoginClient, attempt: LoginAttempt, failed: boolean): Promise<ThrottleRefusal | undefined>;
  /** CSP reports: true while this address may still be counted. */
  admitReport(address: string): Promise<boolean>;
};

type Limiters = Record<WindowLimit | 'passwordLock' | 'identifier' | 'cspReports', RateLimiterAbstract>;

/** The key prefix of each limiter in the store (and, without `login-`, the limit's name in a refusal). */
const keyPrefixes: Record<keyof Limiters, string> = {
  devicePerMinute: 'login-device-minute',
  devicePerHour: 'login-device-hour',
  addressPerMinute: 'login-address-minute',
  addressPerHour: 'login-address-hour',
  staffDevicePerMinute: 'login-staff-device-minute',
  staffDevicePerHour: 'login-staff-device-hour',
  staffAddressPerMinute: 'login-staff-address-minute',
  staffAddressPerHour: 'login-staff-address-hour',
  passwordLock: 'login-password',
  identifier: 'login-identifier',
  cspReports: 'csp-report',
};

export const RATE_LIMIT_TABLE = 'rate_limits';

/** Limiters belong to a database: two apps on one database (or one PostgreSQL) count together. */
const limitersByDb = new WeakMap<Db, Promise<Limiters>>();

/** Names the lock that serialises the table's creation among the database's advisory locks. */
const TABLE_LOCK_ID = 7_230_412;

/** Makes `rate_limits` as the library would (its own statement), once, whoever else starts at the same time. */
async function createTable(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock($1)', [TABLE_LOCK_ID]);
    await client.query(
      `create table if not exists ${RATE_LIMIT_TABLE} (key varchar(255) primary key, points integer not null default 0, expire bigint)`,
    );
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

async function makeLimiters(pool: pg.Pool | undefined, logger: Logger): Promise<Limiters> {
  const memoryLimiter = (keyPrefix: string, options: { points: number; duration: number }) => new RateLimiterMemory({ keyPrefix, ...options });
  let tableMade = pool !== undefined;
  if (pool) {
    try {
      await createTable(pool);
    } catch (error) {
      tableMade = false;
      logger.error(`throttle: the ${RATE_LIMIT_TABLE} table could not be made; counting in this process`, error);
    }
  }
  // Each limiter is made once the table is there (`tableCreated`: the library adds nothing then).
  // A database error later falls back to counting in this process rather than failing logins.
  const limiter = (name: keyof Limiters): RateLimiterAbstract => {
    const { points, duration } = throttleLimits[name];
    const memory = memoryLimiter(keyPrefixes[name], { points, duration });
    if (!pool || !tableMade) return memory;
    return new RateLimiterPostgres({
      storeClient: pool,
      storeType: 'pool',
      tableName: RATE_LIMIT_TABLE,
      tableCreated: true,
      keyPrefix: keyPrefixes[name],
      points,
      duration,
      insuranceLimiter: memory,
    });
  };
  const names = Object.keys(keyPrefixes) as (keyof Limiters)[];
  return Object.fromEntries(names.map((name) => [name, limiter(name)])) as Limiters;
}

function limitersFor(db: Db, pool: pg.Pool | undefined, logger: Logger): Promise<Limiters> {
  let limiters = limitersByDb.get(db);
  if (!limiters) {
    limiters = makeLimiters(pool, logger);
    limitersByDb.set(db, limiters);
  }
  return limiters;
}

/** One key per address and something of the client (an identifier, a device token), hashed: the store never holds them. */
function pairKey(address: string, identifier: string): string {
  return createHash('sha256').update(`${address}\n${identifier}`).digest('base64url').slice(0, 32);
}

/** A terminal: its address and device token (a request without one is the address's token-less terminal). */
const deviceKey = (client: LoginClient) => pairKey(client.address, `device:${client.device ?? ''}`);

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** A count at or over `points` that has not run out yet (the memory store keeps a record until its timer fires). */
function isHeld(held: RateLimiterRes | null | undefined, points: number): held is RateLimiterRes {
  return held !== null && held !== undefined && held.consumedPoints >= points && held.msBeforeNext > 0;
}

/** One window limit an attempt counts on. */
type Count = { name: WindowLimit; key: string };

/** The attempt's counts, in the order they are asked: the terminal's first, then its address's. */
function countsOf(client: LoginClient, attempt: LoginAttempt): Count[][] {
  const device = deviceKey(client);
  return attempt.staff
    ? [
        [
          { name: 'staffDevicePerMinute', key: device },
          { name: 'staffDevicePerHour', key: device },
        ],
        [
          { name: 'staffAddressPerMinute', key: client.address },
          { name: 'staffAddressPerHour', key: client.address },
        ],
      ]
    : [
        [
          { name: 'devicePerMinute', key: device },
          { name: 'devicePerHour', key: device },
        ],
        [
          { name: 'addressPerMinute', key: client.address },
          { name: 'addressPerHour', key: client.address },
        ],
      ];
}

/** The name of a limit in a refusal and in the metrics: `device-minute`, `staff-address-hour`... */
const limitName = (name: keyof Limiters) => keyPrefixes[name].replace(/^login-/, '');

/** The longest wait of several refusals: the one that tells the truth. */
const longest = (refusals: ThrottleRefusal[]) => refusals.sort((a, b) => b.retryAfterSeconds - a.retryAfterSeconds)[0];

export function createLoginThrottle(options: { db: Db; pool: pg.Pool | undefined; logger: Logger }): LoginThrottle {
  const made = limitersFor(options.db, options.pool, options.logger);

  const safely = async <T>(what: string, work: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await work();
    } catch (error) {
      options.logger.error(`throttle: ${what} failed`, error);
      return undefined;
    }
  };

  /**
   * Takes a point: `taken` when the store counted it (the library counts a refused one too), the
   * refusal when the limit is spent. Errors other than "spent" never refuse a login.
   */
  const take = async (limiters: Limiters, count: Count): Promise<{ taken: boolean; refusal?: ThrottleRefusal }> => {
    try {
      await limiters[count.name].consume(count.key);
      return { taken: true };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        return { taken: true, refusal: { code: 'TOO_MANY_REQUESTS', retryAfterSeconds: seconds(rejection.msBeforeNext), limit: limitName(count.name) } };
      }
      options.logger.error(`throttle: ${limitName(count.name)} could not be counted`, rejection);
      return { taken: false };
    }
  };
  const giveBack = (limiters: Limiters, counts: Count[]) =>
    Promise.all(counts.map((count) => safely('giving a point back', () => limiters[count.name].reward(count.key))));

  return {
    async admit(client, attempt) {
      const limiters = await made;
      const taken: Count[] = [];
      for (const stage of countsOf(client, attempt)) {
        const results = await Promise.all(stage.map((count) => take(limiters, count)));
        stage.forEach((count, i) => {
          if (results[i]!.taken) taken.push(count);
        });
        const refusals = results.flatMap((r) => (r.refusal ? [r.refusal] : []));
        if (refusals.length > 0) {
          // A refused attempt counts toward nothing: a flood of them cannot lengthen a wait.
          await giveBack(limiters, taken);
          return longest(refusals);
        }
      }
      const key = pairKey(client.address, attempt.identifier);
      let refusal: ThrottleRefusal | undefined;
      if (attempt.kind === 'password') {
        const held = await safely('reading a password lock', () => limiters.passwordLock.get(key));
        if (isHeld(held, throttleLimits.passwordLock.points)) {
          refusal = { code: 'ACCOUNT_LOCKED', retryAfterSeconds: seconds(held.msBeforeNext), limit: 'password-lock' };
        }
      } else {
        const held = await safely('reading an identifier limit', () => limiters.identifier.get(key));
        if (isHeld(held, throttleLimits.identifier.points)) {
          refusal = { code: 'TOO_MANY_REQUESTS', retryAfterSeconds: seconds(held.msBeforeNext), limit: 'identifier' };
        }
      }
      if (refusal) await giveBack(limiters, taken);
      return refusal;
    },

    async settle(client, attempt, failed) {
      const limiters = await made;
      const key = pairKey(client.address, attempt.identifier);
      if (!failed) {
        await Promise.all([
          giveBack(limiters, countsOf(client, attempt).flat()),
          // A right password (or code) starts the count of wrong ones again.
          safely('resetting a count', () => (attempt.kind === 'password' ? limiters.passwordLock : limiters.identifier).delete(key)),
        ]);
        return undefined;
      }
      if (attempt.kind === 'identifier') {
        await safely('counting a failure', () => limiters.identifier.penalty(key));
        return undefined;
      }
      const counted = await safely('counting a wrong password', () => limiters.passwordLock.penalty(key));
      if (counted && counted.consumedPoints >= throttleLimits.passwordLock.points) {
        // The 5th wrong password locks (and says so); the count starts afresh when the lock ends.
        await safely('locking', () => limiters.passwordLock.block(key, throttleLimits.passwordLock.lockSeconds));
        return { code: 'ACCOUNT_LOCKED', retryAfterSeconds: throttleLimits.passwordLock.lockSeconds, limit: 'password-lock' };
      }
      return undefined;
    },

    async admitReport(address) {
      const limiters = await made;
      try {
        await limiters.cspReports.consume(address);
        return true;
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) options.logger.error('throttle: a CSP report could not be counted', rejection);
        return false;
      }
    },
  };
}
