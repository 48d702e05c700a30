/**
 * The enumerations of seed sections 3 and 4: login types, schedule history statuses, subjects.
 *
 * Part of the wire contract (contract/): valibot schemas the server validates requests with and
 * the client validates responses with. Imports nothing of server/, machines/ or src/.
 * Erasable TypeScript only: the server imports it directly under Node's type stripping.
 */
import * as v from 'valibot';

/** Login types: 0 code, 1 id, 2 school CBT, 3 Mumbai, 4 Philippine, 5 examinee login, 6 Kenya, 7 Egypt. */
export const LoginType = {
  CODE: 0,
  ID: 1,
  SCHOOL_CBT: 2,
  MUMBAI: 3,
  PHILIPPINE: 4,
  EXAMINEE: 5,
  KENYA: 6,
  EGYPT: 7,
} as const;

export const LoginTypeSchema = v.picklist([0, 1, 2, 3, 4, 5, 6, 7]);

/** Schedule history status (seed section 4). */
export const ScheduleHistoryStatus = {
  PENDING: 0,
  COMPLETED: 1,
  CANCELED_PENDING: 2,
  CANCELED_COMPLETED: 3,
  STATISTIC_COMPLETED: 4,
  RESULT_PUBLIC: 5,
  DOING: 6,
  EXPIRED: 7,
  SCORING_COMPLETED: 8,
} as const;

export const ScheduleHistoryStatusSchema = v.picklist([0, 1, 2, 3, 4, 5, 6, 7, 8]);

/** Subjects by id (seed section 1). */
export const SubjectId = { ENGLISH: 1, CALCULATION: 2, JAPANESE: 3, VISUAL_PROGRAMMING: 6 } as const;

export const SubjectIdSchema = v.picklist([1, 2, 3, 6]);

/**
 * Display flags (seed section 3, "Display flags: 1 display, 3 hide"). An organisation's flag says
 * whether its pupils see their rank at the level on the score report (screen and PDF).
 */
export const DisplayFlag = { DISPLAY: 1, HIDE: 3 } as const;

export const DisplayFlagSchema = v.picklist([1, 3]);

/**
 * Personal or group mode of a test period (seed section 3, "Personal or group mode: 1, 2"):
 * PERSONAL, the pupil (or parent) applies and pays the exam fee online; GROUP, the school applied
 * for its pupils as a group and settled the fee, so no pupil of the period is asked for it.
 */
export const ApplicationMode = { PERSONAL: 1, GROUP: 2 } as const;

export const ApplicationModeSchema = v.picklist([1, 2]);
