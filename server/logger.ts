/**
 * The injectable logger: one line per request from the request log, and unexpected errors.
 * `consoleLogger` is pino writing one JSON object per line to stdout (level from LOG_LEVEL:
 * fatal, error, warn, info (default), debug, trace or silent); `createLogger` makes one on any
 * stream; `silentLogger` is for tests.
 *
 * Never a secret in a log line: messages name routes and ids, not bodies or headers, and the
 * fields below are replaced by "[redacted]" wherever a caller passes them (pino's redaction,
 * at the top level and one level down: `password`, `body.password`, ...). A line whose fields
 * are all plain values (no object, so nothing one level down) under names that are none of
 * those, as the request log's are, has nothing to redact: it is written without walking the
 * redaction paths (the same JSON, without the pass over every path).
 *
 * Such a line (every request's) is also serialized without pino: one JSON.stringify of the
 * same object, in pino's order (level, time, pid, service, the fields, msg), written to the
 * same destination as pino's own lines (`plainLine`): byte for byte what pino writes, for about
 * a third less CPU per line (test/api/observability.test.ts compares the two).
 *
 * On stdout the lines are written synchronously: a request's line is out before its answer
 * leaves (whoever reads the log sees every answered request; nothing is lost in a crash).
 */
import pino from 'pino';

/** Structured fields of one line (snake_case keys: `req_id`, `route`, `sitting_id`...). */
export type LogFields = Record<string, unknown>;

export type Logger = {
  info(line: string, fields?: LogFields): void;
  error(line: string, error?: unknown, fields?: LogFields): void;
};

/** Keys that may hold a credential: never written, whoever logs them. */
const secretKeys = [
  'password',
  'login_code',
  'loginCode',
  'token',
  'access_token',
  'accessToken',
  'authorization',
  'cookie',
  'apiKey',
  'hmacKey',
];
export const redactedPaths = [
  ...secretKeys,
  ...secretKeys.map((key) => `*.${key}`),
  ...secretKeys.map((key) => `*.headers.${key}`),
  '*.headers["x-api-key"]',
  'err.config.headers',
];

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/** LOG_LEVEL, checked: a typo stops the start with a message rather than logging nothing. */
export function logLevelFromEnv(env: Record<string, string | undefined> = process.env): LogLevel {
  const level = env.LOG_LEVEL?.trim().toLowerCase() || 'info';
  if (!(logLevels as readonly string[]).includes(level)) {
    throw new Error(`Invalid environment: LOG_LEVEL must be one of ${logLevels.join(', ')}`);
  }
  return level as LogLevel;
}

const secretKeySet = new Set(secretKeys);

/**
 * Whether redaction could change these fields: a name it redacts at the top level, or any
 * object (a path one level down, or the `err.config.headers` of an error, lives in one).
 */
function mayHoldSecrets(fields: LogFields): boolean {
  for (const key in fields) {
    if (secretKeySet.has(key)) return true;
    const value = fields[key];
    if (typeof value === 'object' && value !== null) return true;
  }
  return false;
}

/**
 * Keys pino writes itself: a field of one of these names goes through pino (it orders and
 * repeats them its own way), as does a name that starts with a digit (JSON.stringify would put
 * an integer-like key before pino's own).
 */
/** The service name on every line (pino's `base`, and `plainLine`'s). */
const SERVICE = 'gradus';

const ownKeys = new Set(['level', 'time', 'pid', 'hostname', 'service', 'msg']);

/**
 * Whether pino's line for these fields is `plainLine`'s: every value a string, a finite or
 * non-finite number, a boolean, null or undefined (JSON.stringify writes those as pino does),
 * and no name pino writes itself or that starts with a digit.
 */
function isPlain(fields: LogFields): boolean {
  for (const key in fields) {
    const first = key.charCodeAt(0);
    if (ownKeys.has(key) || (first >= 48 && first <= 57)) return false;
    const value = fields[key];
    const type = typeof value;
    if (type !== 'string' && type !== 'number' && type !== 'boolean' && value !== null && value !== undefined) return false;
  }
  return true;
}

/** pino's line (level as label, ISO time, base pid and service) for plain fields (isPlain), newline included. */
export function plainLine(level: string, msg: string, fields: LogFields): string {
  const line: LogFields = { level, time: new Date().toISOString(), pid: process.pid, service: SERVICE };
  for (const key in fields) line[key] = fields[key];
  line.msg = msg;
  return `${JSON.stringify(line)}\n`;
}

/** A pino logger behind the Logger interface, writing JSON lines to `destination` (default stdout). */
export function createLogger(options: { level?: LogLevel; destination?: pino.DestinationStream } = {}): Logger {
  const destination = options.destination ?? pino.destination({ dest: 1, sync: true });
  const settings: pino.LoggerOptions = {
    level: options.level ?? 'info',
    base: { pid: process.pid, service: SERVICE },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
  const redacting = pino({ ...settings, redact: { paths: redactedPaths, censor: '[redacted]' } }, destination);
  // The same lines without the redaction pass, for fields it could not change (mayHoldSecrets).
  const plain = pino(settings, destination);
  const infoEnabled = plain.isLevelEnabled('info');
  return {
    info: (line, fields) => {
      if (fields === undefined) plain.info(line);
      else if (mayHoldSecrets(fields)) redacting.info(fields, line);
      else if (infoEnabled && isPlain(fields)) destination.write(plainLine('info', line, fields));
      else plain.info(fields, line);
    },
    error: (line, error, fields) => redacting.error(error === undefined ? (fields ?? {}) : { ...fields, err: error }, line),
  };
}

let processLogger: Logger | undefined;
/** The process's logger: JSON lines on stdout at LOG_LEVEL (made on first use, so a bad LOG_LEVEL fails the start, not an import). */
export const consoleLogger: Logger = {
  info: (line, fields) => (processLogger ??= createLogger({ level: logLevelFromEnv() })).info(line, fields),
  error: (line, error, fields) => (processLogger ??= createLogger({ level: logLevelFromEnv() })).error(line, error, fields),
};

export const silentLogger: Logger = {
  info: () => {},
  error: () => {},
};
