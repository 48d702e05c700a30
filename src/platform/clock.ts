/**
 * The local clock as a screen reads it: `useNow(intervalMs, enabled)` re-reads Date.now() every
 * `intervalMs` while enabled. For display only (the exam header's timer, the proctor's "last
 * seen"): the machines decide when time is up, on their own clock.
 */
import { useEffect, useState } from 'react';

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
