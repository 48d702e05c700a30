/**
 * A school's settings from seed section 3's enumerations, as an administrator changes them
 * (`npm run admin`, server/admin.ts):
 * - the rank display flag of an organisation (1 display, 3 hide): with 3 its pupils' score
 *   reports leave the rank and the score distribution out (`showsRanking`, server/domain/results.ts);
 * - the application mode of a test period (1 personal, 2 group): in group mode the school has
 *   applied and paid, so nobody of it is asked for the exam fee (`paysExamFee`, sitting.ts).
 * Both take effect on the next call of every server process: they are read per request.
 */
import { eq } from 'drizzle-orm';
import { ApplicationMode, DisplayFlag } from '../../contract/enums.ts';
import type { Db } from '../db/client.ts';
import { organizations, schedules } from '../db/schema.ts';

export type SettingResult = { ok: true; id: number; previous: number } | { ok: false; message: string };

/** The words the command line takes, and the values they stand for. */
export const rankDisplayWords = { show: DisplayFlag.DISPLAY, hide: DisplayFlag.HIDE } as const;
export const applicationModeWords = { personal: ApplicationMode.PERSONAL, group: ApplicationMode.GROUP } as const;

export async function setRankDisplay(db: Db, orgCode: string, flag: (typeof rankDisplayWords)[keyof typeof rankDisplayWords]): Promise<SettingResult> {
  const [row] = await db.select({ id: organizations.id, previous: organizations.rankDisplayFlag }).from(organizations).where(eq(organizations.code, orgCode));
  if (!row) return { ok: false, message: `No organisation with the code "${orgCode}".` };
  await db.update(organizations).set({ rankDisplayFlag: flag }).where(eq(organizations.id, row.id));
  return { ok: true, ...row };
}

export async function setApplicationMode(
  db: Db,
  scheduleCode: string,
  mode: (typeof applicationModeWords)[keyof typeof applicationModeWords],
): Promise<SettingResult> {
  const [row] = await db.select({ id: schedules.id, previous: schedules.applicationMode }).from(schedules).where(eq(schedules.scheduleCode, scheduleCode));
  if (!row) return { ok: false, message: `No test period with the schedule code "${scheduleCode}".` };
  await db.update(schedules).set({ applicationMode: mode }).where(eq(schedules.id, row.id));
  return { ok: true, ...row };
}
