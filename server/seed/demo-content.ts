/**
 * The demo organisations, their classrooms and test periods, the subjects and levels, and the
 * exam papers (from server/seed/content/, one module per subject, with their correct answers).
 * Plain data; server/seed/seed.ts writes it.
 */
import type { OrganizationCategory } from '../db/schema.ts';
import { calculationExams, calculationUnits } from './content/calculation.ts';
import { englishExams, englishUnits } from './content/english.ts';
import { japaneseExams, japaneseUnits } from './content/japanese.ts';
import { programmingExams, programmingUnits } from './content/programming.ts';
import type { ContentExam, ContentQuestion } from './content/types.ts';
import type { DemoScenario } from './demo-accounts.ts';

export const demoOrganization = {
  code: 'GRADUS-DEMO',
  name: 'Gradus Demo Primary School',
  category: 'SCHOOL' as OrganizationCategory,
  /** 1: schedule history login, by login code (seed section 3). */
  loginMethod: 1,
  enableModeStep: false,
};

/**
 * The other demo organisations, one per way in or refusal that depends on the organisation
 * (login method, step mode, foreign payment, disabled).
 */
export const otherDemoOrganizations = [
  { code: 'GRADUS-ABROAD', name: 'Gradus International Learners', category: 'FOREIGN', loginMethod: 1, enableModeStep: false, foreignPaymentMethod: true, disabled: false },
  { code: 'GRADUS-HOME', name: 'Gradus Home Learners', category: 'OUTSIDE_SCHOOL', loginMethod: 3, enableModeStep: false, foreignPaymentMethod: false, disabled: false },
  { code: 'GRADUS-STEPS', name: 'Gradus Step Club', category: 'OUTSIDE_SCHOOL', loginMethod: 3, enableModeStep: true, foreignPaymentMethod: false, disabled: false },
  { code: 'GRADUS-OAUTH', name: 'Gradus Single Sign-On School', category: 'SCHOOL', loginMethod: 2, enableModeStep: false, foreignPaymentMethod: false, disabled: false },
  { code: 'GRADUS-CLOSED', name: 'Gradus Closed Academy', category: 'SCHOOL', loginMethod: 1, enableModeStep: false, foreignPaymentMethod: false, disabled: true },
] as const satisfies readonly {
  code: string;
  name: string;
  category: OrganizationCategory;
  loginMethod: number;
  enableModeStep: boolean;
  foreignPaymentMethod: boolean;
  disabled: boolean;
}[];

export const demoVenues = [
  { key: 'lab-1', name: 'Computer Lab 1', disabled: false },
  { key: 'lab-2', name: 'Computer Lab 2 (closed for repairs)', disabled: true },
] as const;
export type DemoVenueKey = (typeof demoVenues)[number]['key'];

const OPEN = { startsAt: '2026-01-01T00:00:00.000Z', endsAt: '2030-12-31T23:59:59.000Z' } as const;

export type DemoSchedule = {
  code: string;
  /** The organisation's code (default the demo school, GRADUS-DEMO). */
  org?: string;
  /** A classroom of the demo school, or none. */
  venue?: DemoVenueKey;
  startsAt: string;
  endsAt: string;
  suspendedFrom?: string;
  suspendedUntil?: string;
  /** Personal or group mode (seed section 3): 1 personal (default), 2 group, the school settled the exam fee. */
  applicationMode?: 1 | 2;
};

export const demoSchedules = [
  // Open for years, so a fresh checkout works without touching the clock.
  { code: 'DEMO-2026', venue: 'lab-1', ...OPEN },
  { code: 'DEMO-LAB2', venue: 'lab-2', ...OPEN },
  { code: 'DEMO-2099', venue: 'lab-1', startsAt: '2099-01-01T00:00:00.000Z', endsAt: '2099-12-31T23:59:59.000Z' },
  { code: 'DEMO-2025', venue: 'lab-1', startsAt: '2025-01-01T00:00:00.000Z', endsAt: '2025-12-31T23:59:59.000Z' },
  // Suspended for the whole period: SCHEDULE_SUSPENSION_TIME.
  { code: 'DEMO-PAUSED', venue: 'lab-1', ...OPEN, suspendedFrom: OPEN.startsAt, suspendedUntil: OPEN.endsAt },
  { code: 'ABROAD-2026', org: 'GRADUS-ABROAD', ...OPEN },
  // Applied for by the school as a group: its pupils are not asked for the exam fee.
  { code: 'ABROAD-GROUP', org: 'GRADUS-ABROAD', ...OPEN, applicationMode: 2 },
  { code: 'HOME-2026', org: 'GRADUS-HOME', ...OPEN },
  { code: 'STEPS-2026', org: 'GRADUS-STEPS', ...OPEN },
  { code: 'OAUTH-2026', org: 'GRADUS-OAUTH', ...OPEN },
  { code: 'CLOSED-2026', org: 'GRADUS-CLOSED', ...OPEN },
] as const satisfies readonly DemoSchedule[];
export type DemoScheduleCode = (typeof demoSchedules)[number]['code'];

/** Which test period a demo account is booked into when demo-accounts.json names none, by its scenario. */
export const scheduleForScenario: Partial<Record<DemoScenario, DemoScheduleCode>> = {
  journey: 'DEMO-2026',
  completed: 'DEMO-2026',
  'disabled-classroom': 'DEMO-LAB2',
  'not-yet-open': 'DEMO-2099',
  expired: 'DEMO-2026',
  cancelled: 'DEMO-2026',
  subject: 'DEMO-2026',
  'time-out': 'DEMO-2026',
};

/** Subjects by the seed's ids (section 1). */
export const demoSubjects = [
  { id: 1, name: 'English (vocabulary)' },
  { id: 2, name: 'Calculation' },
  { id: 3, name: 'Japanese (kanji and vocabulary)' },
  { id: 6, name: 'Visual Programming' },
] as const;

/**
 * Three levels of each subject (level 1, 2, 3: grades 1-3, 3-5 and 6-9, roughly), level by level
 * (the order they are inserted in, so their ids: every subject's level 1 first).
 */
export const demoLevels = ([1, 2, 3] as const).flatMap((position) =>
  demoSubjects.map((subject) => ({ subjectId: subject.id, position, name: `Level ${position}` })),
);

export type DemoQuestion = ContentQuestion;
export type DemoExam = ContentExam;

/** Every exam paper: one module per subject under server/seed/content/. */
export const demoExams: DemoExam[] = [...englishExams, ...calculationExams, ...japaneseExams, ...programmingExams];

/** The units of each subject (per-unit analysis); every question names one of its subject's. */
export const unitsBySubject: Record<DemoExam['subjectId'], readonly string[]> = {
  1: englishUnits,
  2: calculationUnits,
  3: japaneseUnits,
  6: programmingUnits,
};

/**
 * Short sittings for the time-out demos (demo-accounts.json, scenario `time-out`, by `exam_code`):
 * a copy of a level's paper with a one-minute limit, so the clock can run out during an
 * end-to-end test (test/e2e/time-out.e2e.ts). Booked by nobody else: every other pupil of the
 * level keeps the regular 40-minute paper, and the level's regular exam stays the one in
 * `demoExams`.
 */
export const demoShortExams: DemoExam[] = [
  {
    ...englishExams.find((exam) => exam.code === 'EN-1')!,
    code: 'EN-1-TIMEOUT',
    title: 'English vocabulary, level 1 (one-minute sitting for the time-out demo)',
    timeLimitSeconds: 60,
  },
];
