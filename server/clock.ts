/**
 * The server's one clock. Every rule that depends on time (schedule windows, the exam
 * deadline, the upload window, token expiry, `server_time`) reads it through `Clock`, so
 * tests and the end-to-end harness can replace it with a fake they move by hand.
 */

export type Clock = {
  now(): Date;
};

export const systemClock: Clock = {
  now: () => new Date(),
};

/** A clock that stands still until told otherwise. */
export type FakeClock = Clock & {
  /** Moves the clock to an instant (a Date or an ISO 8601 string). */
  set(instant: Date | string): void;
  /** Moves the clock forward by some milliseconds. */
  advance(ms: number): void;
};

export function createFakeClock(start: Date | string = '2026-06-01T09:00:00.000Z'): FakeClock {
  let current = toTime(start);
  return {
    now: () => new Date(current),
    set(instant) {
      current = toTime(instant);
    },
    advance(ms) {
      current += ms;
    },
  };
}

function toTime(instant: Date | string): number {
  const time = new Date(instant).getTime();
  if (Number.isNaN(time)) throw new RangeError(`Not an instant: ${String(instant)}`);
  return time;
}

/**
 * The system clock shifted by an offset that can be moved (`set`, `advance`): the clock of a
 * server started with GRADUS_CLOCK_CONTROL=1, so an end-to-end test can wait a week in a
 * second (POST /api/test/clock). Time keeps running from wherever it was moved to.
 */
export function createOffsetClock(base: Clock = systemClock): FakeClock {
  let offset = 0;
  return {
    now: () => new Date(base.now().getTime() + offset),
    set(instant) {
      offset = toTime(instant) - base.now().getTime();
    },
    advance(ms) {
      offset += ms;
    },
  };
}

/** Whether a clock can be moved (a fake or offset clock). */
export function isMovableClock(clock: Clock): clock is FakeClock {
  const candidate = clock as Partial<FakeClock>;
  return typeof candidate.set === 'function' && typeof candidate.advance === 'function';
}
