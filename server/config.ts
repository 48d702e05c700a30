/**
 * Settings of the API and of the process, with their defaults, and the reading of the
 * environment: PORT, DATABASE_URL, DATA_DIR, UPLOAD_WINDOW_HOURS. A bad value stops the start
 * with a message naming the variable, rather than running with a surprise.
 */
import * as v from 'valibot';

const HOUR_MS = 3_600_000;

/** What the API's rules need to know. */
export type AppSettings = {
  /** How long after the deadline answers given before it are still accepted (flagged late). */
  uploadWindowMs: number;
  /** How long a login token lives. */
  tokenTtlMs: number;
  /** The largest request body accepted. */
  maxBodyBytes: number;
};

export const defaultSettings: AppSettings = {
  uploadWindowMs: 24 * HOUR_MS,
  tokenTtlMs: 12 * HOUR_MS,
  maxBodyBytes: 16 * 1024,
};

export type ServerConfig = {
  port: number;
  databaseUrl: string | undefined;
  dataDir: string;
  uploadWindowHours: number;
};

const EnvSchema = v.object({
  PORT: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,5}$/, 'PORT must be a port number'),
      v.transform(Number),
      v.maxValue(65535, 'PORT must be at most 65535'),
    ),
    '3000',
  ),
  DATABASE_URL: v.optional(v.pipe(v.string(), v.regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL'))),
  DATA_DIR: v.optional(v.pipe(v.string(), v.nonEmpty('DATA_DIR must not be empty')), './data'),
  UPLOAD_WINDOW_HOURS: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+(\.\d+)?$/, 'UPLOAD_WINDOW_HOURS must be a number of hours'),
      v.transform(Number),
      v.maxValue(24 * 30, 'UPLOAD_WINDOW_HOURS must be at most 720'),
    ),
    '24',
  ),
});

export function configFromEnv(env: Record<string, string | undefined> = process.env): ServerConfig {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = v.safeParse(EnvSchema, present);
  if (!result.success) {
    throw new Error(`Invalid environment: ${result.issues.map((i) => i.message).join('; ')}`);
  }
  const { PORT, DATABASE_URL, DATA_DIR, UPLOAD_WINDOW_HOURS } = result.output;
  return { port: PORT, databaseUrl: DATABASE_URL, dataDir: DATA_DIR, uploadWindowHours: UPLOAD_WINDOW_HOURS };
}

export function hoursToMs(hours: number): number {
  return Math.round(hours * HOUR_MS);
}
