/**
 * Types of the retry machine: one call, tried again on network failures (seed sections 4, 7).
 */
import type { FailureCode } from '../shared/ports.ts';

/**
 * checkConnection: after the window, "Check your internet connection" with OK, which closes
 * (the call fails). autoConnect: after the window, the same message with Retry, which re-runs
 * the failed call. (The seed's "reconnects without a message" is the exam's background answer
 * save: see retry.machine.ts.)
 */
export type RetryVariant = 'checkConnection' | 'autoConnect';

export interface RetryInput {
  variant: RetryVariant;
  /** What the call is given, every time it runs. */
  input: unknown;
  /** Total time the backoff may wait before the dialog asks the pupil (ms). */
  windowMs?: number;
}

export interface RetryContext {
  /** Which dialog, if any, the pupil sees. */
  variant: RetryVariant;
  /** The call's input. */
  input: unknown;
  /** Total backoff window in ms. */
  windowMs: number;
  /** Failed attempts since the last start or Retry; numbers the backoff delay. */
  attempt: number;
  /** Backoff already waited since the last start or Retry, in ms. */
  waitedMs: number;
  /** The last failure, or null before any. */
  error: FailureCode | null;
  /** What the machine ends with. */
  result: RetryOutput | null;
}

export type RetryEvent =
  /** Retry pressed, or the browser reports it is online again: call now. */
  | { type: 'retry.requested' }
  | { type: 'connection.restored' }
  /** OK pressed on "Check your internet connection". */
  | { type: 'dialog.closed' };

/** The machine's output: the call's value, or why it failed for good. */
export type RetryOutput = { ok: true; value: unknown } | { ok: false; error: FailureCode };
