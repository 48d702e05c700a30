/**
 * The exam clock on screen. The deadline is fixed on the server when Start is pressed and
 * given in the server's clock; `clockOffsetMs` is server minus local, so the time left is
 * deadlineAt − (Date.now() + clockOffsetMs). Seconds are rounded up: the timer reads 40:00 at
 * the start and reaches 00:00 exactly at the deadline, never below.
 *
 * Never above the time limit either: the offset is measured when a response arrives, so it
 * lags the server by the response's travel time, and the ticking clock may be up to one tick
 * old; either would otherwise show 40:01 right after Start.
 */
import { useEffect, useState } from 'react';

/** Whole seconds left before the deadline, between 0 and the time limit. */
export function secondsLeft(deadlineAt: number, clockOffsetMs: number, localNow: number, limitSeconds = Infinity): number {
  return Math.min(limitSeconds, Math.max(0, Math.ceil((deadlineAt - (localNow + clockOffsetMs)) / 1000)));
}

/** The local clock, re-read every `intervalMs` while enabled (display only: the machine decides when time is up). */
export function useNow(intervalMs: number, enabled = true): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!enabled) return;
    const tick = () => setNow(Date.now());
    tick();
    const id = setInterval(tick, intervalMs);
    return () => clearInterval(id);
  }, [intervalMs, enabled]);
  return now;
}

/** Seconds left of the exam, ticking four times a second; null when there is no deadline. */
export function useSecondsLeft(deadlineAt: number | null, clockOffsetMs: number, limitSeconds = Infinity): number | null {
  const now = useNow(250, deadlineAt !== null);
  return deadlineAt === null ? null : secondsLeft(deadlineAt, clockOffsetMs, now, limitSeconds);
}
