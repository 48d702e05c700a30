/**
 * Login throttling (issue 13), with rate-limiter-flexible: in memory on PGlite (one process owns
 * the database), in a PostgreSQL table (`rate_limits`, made by the library) when the app runs on
 * PostgreSQL, so every API process counts against the same limits. Counting is in real time
 * (the library's clock), not the app's injectable clock.
 *
 * What counts is a FAILED login: a wrong login code, a wrong login ID or password (also a staff
 * login's), a refused partner token. Each attempt takes its point up front (so a burst of
 * concurrent requests cannot slip past the check) and gets it back when it did not fail: a
 * right code, or a refusal that proves the credentials (TIME_START, DISABLED_CLASS...).
 *
 * The limits, and why (README "Throttling"):
 * - per client address, all login paths together: 150 failures a minute and 900 an hour, then
 *   429 TOO_MANY_REQUESTS with Retry-After until the window ends. A lab of 40 terminals behind
 *   one school NAT where every pupil mistypes twice fails 80 times in that minute (a bit over
 *   half of the limit); two labs logging in at the same minute still fit. A script guessing 300
 *   codes or spraying one password over 300 login IDs is stopped after 150.
 * - per client address AND login ID (the identifier a password belongs to: the login ID for
 *   login type 1, organisation + login ID for examinee and staff logins): the seed's lock, 5
 *   wrong passwords in a row lock for 1 minute (ACCOUNT_LOCKED, even the right password; a right
 *   password before that resets the count). It used to be kept on the pupil's row, so anyone who
 *   knew a login ID could lock that pupil out again and again from anywhere; now it locks only
 *   the address that guessed. Guessing from many addresses is held by the per-address limits.
 * - per client address AND login code / partner token (hashed): 10 failures in 10 minutes,
 *   then 429: a terminal stuck re-sending one wrong code stops hammering the database.
 * No limit is per identifier alone: nobody can lock out a pupil they are not sitting beside.
 * Keys are hashed (address + identifier): the table never holds a login code or login ID.
 *
 * Across processes (several API processes on one PostgreSQL, `npm start`'s cluster): every
 * count is one row of `rate_limits`, updated by one upsert, so any worker sees the others'
 * failures at once; nothing is kept in a process's memory but the fallback for a database error
 * (`insuranceLimiter`). The table is made once per process, before any limiter uses it, with
 * its statement serialised by an advisory lock: the library would otherwise run five
 * `CREATE TABLE IF NOT EXISTS` at once (one per limiter), and on a new database concurrent ones
 * can fail; a limiter whose creation failed counts in memory only, forever.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Db } from '../db/client.ts';
import { LOCK_MS, MAX_FAILED_LOGINS } from '../domain/credentials.ts';
import type { Logger } from '../logger.ts';

/** The numbers (see the module comment for why). Durations in seconds, as the library takes them. */
export const throttleLimits = {
  addressPerMinute: { points: 150, duration: 60 },
  addressPerHour: { points: 900, duration: 3600 },
  /** MAX_FAILED_LOGINS wrong passwords within `duration` lock for `lockSeconds`. */
  passwordLock: { points: MAX_FAILED_LOGINS, duration: 3600, lockSeconds: LOCK_MS / 1000 },
  identifier: { points: 10, duration: 600 },
  /** CSP reports kept per address (more are answered but not counted or logged). */
  cspReports: { points: 60, duration: 60 },
} as const;

/** What a login attempt is about. `password`: the seed's lock applies; `identifier`: a 429 after too many. */
export type LoginAttempt = { kind: 'password' | 'identifier'; identifier: string };

export type ThrottleRefusal = {
  code: 'TOO_MANY_REQUESTS' | 'ACCOUNT_LOCKED';
  /** Whole seconds until another attempt can succeed (Retry-After). */
  retryAfterSeconds: number;
  /** Which limit refused: `address-minute`, `address-hour`, `password-lock`, `identifier`. */
  limit: string;
};

export type LoginThrottle = {
  /** Before an attempt: undefined to go ahead, else the refusal. Takes the address's point. */
  admit(address: string, attempt: LoginAttempt): Promise<ThrottleRefusal | undefined>;
  /** After it: a failure is counted (and may lock: the refusal to answer instead), anything else gives the point back. */
  settle(address: string, attempt: LoginAttempt, failed: boolean): Promise<ThrottleRefusal | undefined>;
  /** CSP reports: true while this address may still be counted. */
  admitReport(address: string): Promise<boolean>;
};

type Limiters = {
  addressPerMinute: RateLimiterAbstract;
  addressPerHour: RateLimiterAbstract;
  passwordLock: RateLimiterAbstract;
  identifier: RateLimiterAbstract;
  cspReports: RateLimiterAbstract;
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
  if (!pool) {
    return {
      addressPerMinute: memoryLimiter('login-address-minute', throttleLimits.addressPerMinute),
      addressPerHour: memoryLimiter('login-address-hour', throttleLimits.addressPerHour),
      passwordLock: memoryLimiter('login-password', throttleLimits.passwordLock),
      identifier: memoryLimiter('login-identifier', throttleLimits.identifier),
      cspReports: memoryLimiter('csp-report', throttleLimits.cspReports),
    };
  }
  let tableMade = true;
  try {
    await createTable(pool);
  } catch (error) {
    tableMade = false;
    logger.error(`throttle: the ${RATE_LIMIT_TABLE} table could not be made; counting in this process`, error);
  }
  // Each limiter is made once the table is there (`tableCreated`: the library adds nothing then).
  // A database error later falls back to counting in this process rather than failing logins.
  const limiter = (keyPrefix: string, options: { points: number; duration: number }): RateLimiterAbstract => {
    const memory = memoryLimiter(keyPrefix, options);
    if (!tableMade) return memory;
    return new RateLimiterPostgres({
      storeClient: pool,
      storeType: 'pool',
      tableName: RATE_LIMIT_TABLE,
      tableCreated: true,
      keyPrefix,
      ...options,
      insuranceLimiter: memory,
    });
  };
  return {
    addressPerMinute: limiter('login-address-minute', throttleLimits.addressPerMinute),
    addressPerHour: limiter('login-address-hour', throttleLimits.addressPerHour),
    passwordLock: limiter('login-password', throttleLimits.passwordLock),
    identifier: limiter('login-identifier', throttleLimits.identifier),
    cspReports: limiter('csp-report', throttleLimits.cspReports),
  };
}

function limitersFor(db: Db, pool: pg.Pool | undefined, logger: Logger): Promise<Limiters> {
  let limiters = limitersByDb.get(db);
  if (!limiters) {
    limiters = makeLimiters(pool, logger);
    limitersByDb.set(db, limiters);
  }
  return limiters;
}

/** One key per address and identifier, hashed: the store never holds a login code or login ID. */
function pairKey(address: string, identifier: string): string {
  return createHash('sha256').update(`${address}\n${identifier}`).digest('base64url').slice(0, 32);
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** A count at or over `points` that has not run out yet (the memory store keeps a record until its timer fires). */
function isHeld(held: RateLimiterRes | null | undefined, points: number): held is RateLimiterRes {
  return held !== null && held !== undefined && held.consumedPoints >= points && held.msBeforeNext > 0;
}

export function createLoginThrottle(options: { db: Db; pool: pg.Pool | undefined; logger: Logger }): LoginThrottle {
  const made = limitersFor(options.db, options.pool, options.logger);

  /** Takes a point; the refusal when the limit is spent. Errors other than "spent" never refuse a login. */
  const take = async (limiter: RateLimiterAbstract, key: string, limit: string): Promise<ThrottleRefusal | undefined> => {
    try {
      await limiter.consume(key);
      return undefined;
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        return { code: 'TOO_MANY_REQUESTS', retryAfterSeconds: seconds(rejection.msBeforeNext), limit };
      }
      options.logger.error(`throttle: ${limit} could not be counted`, rejection);
      return undefined;
    }
  };
  const safely = async <T>(what: string, work: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await work();
    } catch (error) {
      options.logger.error(`throttle: ${what} failed`, error);
      return undefined;
    }
  };

  return {
    async admit(address, attempt) {
      const limiters = await made;
      const [minute, hour] = await Promise.all([
        take(limiters.addressPerMinute, address, 'address-minute'),
        take(limiters.addressPerHour, address, 'address-hour'),
      ]);
      if (minute || hour) {
        // The longer wait is the one that tells the truth.
        return [minute, hour].filter((r): r is ThrottleRefusal => r !== undefined).sort((a, b) => b.retryAfterSeconds - a.retryAfterSeconds)[0];
      }
      const key = pairKey(address, attempt.identifier);
      if (attempt.kind === 'password') {
        const held = await safely('reading a password lock', () => limiters.passwordLock.get(key));
        if (isHeld(held, throttleLimits.passwordLock.points)) {
          return { code: 'ACCOUNT_LOCKED', retryAfterSeconds: seconds(held.msBeforeNext), limit: 'password-lock' };
        }
      } else {
        const held = await safely('reading an identifier limit', () => limiters.identifier.get(key));
        if (isHeld(held, throttleLimits.identifier.points)) {
          return { code: 'TOO_MANY_REQUESTS', retryAfterSeconds: seconds(held.msBeforeNext), limit: 'identifier' };
        }
      }
      return undefined;
    },

    async settle(address, attempt, failed) {
      const limiters = await made;
      const key = pairKey(address, attempt.identifier);
      if (!failed) {
        await Promise.all([
          safely('giving a point back', () => limiters.addressPerMinute.reward(address)),
          safely('giving a point back', () => limiters.addressPerHour.reward(address)),
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
