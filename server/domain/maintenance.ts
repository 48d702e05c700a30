/**
 * Whether the service is in maintenance (seed section 8: every call is answered 401
 * DURING_MAINTENANCE). Two sources: a whole-service switch (env MAINTENANCE=1) and the
 * maintenance_windows table. The windows are read at most once per `refreshMs` of the clock
 * per process (every call would otherwise cost a query); whether `now` is inside one is decided
 * on every call, on the injectable clock.
 */
import { asc, gt } from 'drizzle-orm';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/client.ts';
import { maintenanceWindows } from '../db/schema.ts';

type Window = { startsAt: Date; endsAt: Date };

export type MaintenanceCheck = (now: Date) => Promise<boolean>;

export function maintenanceCheck(db: Db, clock: Clock, options: { always: boolean; refreshMs: number }): MaintenanceCheck {
  let windows: Window[] = [];
  let loadedAt: number | undefined;
  let loading: Promise<Window[]> | undefined;

  const load = async (now: Date) => {
    const rows = await db
      .select({ startsAt: maintenanceWindows.startsAt, endsAt: maintenanceWindows.endsAt })
      .from(maintenanceWindows)
      .where(gt(maintenanceWindows.endsAt, now))
      .orderBy(asc(maintenanceWindows.startsAt));
    return rows;
  };

  return async (now) => {
    if (options.always) return true;
    const t = clock.now().getTime();
    if (loadedAt === undefined || t - loadedAt >= options.refreshMs || t < loadedAt) {
      loading ??= load(now).finally(() => {
        loading = undefined;
      });
      windows = await loading;
      loadedAt = t;
    }
    return windows.some((w) => w.startsAt <= now && now < w.endsAt);
  };
}
