/**
 * The injectable logger: one line per request from the request log, and unexpected errors.
 * `consoleLogger` writes to stdout/stderr; `silentLogger` is for tests.
 */

export type Logger = {
  info(line: string): void;
  error(line: string, error?: unknown): void;
};

export const consoleLogger: Logger = {
  info: (line) => console.log(line),
  error: (line, error) => (error === undefined ? console.error(line) : console.error(line, error)),
};

export const silentLogger: Logger = {
  info: () => {},
  error: () => {},
};
