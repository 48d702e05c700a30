/**
 * The demo organisations, their classrooms and test periods, the subjects and levels, and the
 * exam papers with their questions and correct answers. Plain data; server/seed/seed.ts
 * writes it. Questions are original, written for children at levels 1 and 2.
 */
import type { OrganizationCategory, QuestionChoice } from '../db/schema.ts';
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
};

/** Subjects by the seed's ids (section 1). */
export const demoSubjects = [
  { id: 1, name: 'English (vocabulary)' },
  { id: 2, name: 'Calculation' },
  { id: 3, name: 'Japanese (kanji and vocabulary)' },
  { id: 6, name: 'Visual Programming' },
] as const;

export const demoLevels = [
  { subjectId: 1, position: 1, name: 'Level 1' },
  { subjectId: 2, position: 1, name: 'Level 1' },
  { subjectId: 3, position: 1, name: 'Level 1' },
  { subjectId: 6, position: 1, name: 'Level 1' },
  { subjectId: 1, position: 2, name: 'Level 2' },
  { subjectId: 2, position: 2, name: 'Level 2' },
] as const;

export type DemoQuestion = {
  type: 'single_choice' | 'text';
  prompt: string;
  choices: QuestionChoice[];
  correctAnswer: string;
  unit: string;
};

export type DemoExam = {
  code: string;
  subjectId: 1 | 2 | 3 | 6;
  level: number;
  title: string;
  timeLimitSeconds: number;
  questions: DemoQuestion[];
};

const choices = (...labels: string[]): QuestionChoice[] =>
  labels.map((label, i) => ({ id: String.fromCharCode(97 + i), label }));

/** 40 minutes (seed section 9). */
const FORTY_MINUTES = 2400;

export const demoExams: DemoExam[] = [
  {
    code: 'EN-1',
    subjectId: 1,
    level: 1,
    title: 'English vocabulary, level 1',
    timeLimitSeconds: FORTY_MINUTES,
    questions: [
      {
        type: 'single_choice',
        prompt: 'Choose the word that means a baby dog.',
        choices: choices('kitten', 'puppy', 'calf', 'chick'),
        correctAnswer: 'b',
        unit: 'animals',
      },
      { type: 'text', prompt: "Type the opposite of 'hot'.", choices: [], correctAnswer: 'cold', unit: 'opposites' },
      {
        type: 'single_choice',
        prompt: 'Which one is a colour?',
        choices: choices('table', 'green', 'run', 'happy'),
        correctAnswer: 'b',
        unit: 'colours',
      },
      { type: 'text', prompt: 'Type the number 3 as a word.', choices: [], correctAnswer: 'three', unit: 'numbers' },
      {
        type: 'single_choice',
        prompt: 'What do you wear on your feet?',
        choices: choices('gloves', 'a hat', 'shoes', 'a scarf'),
        correctAnswer: 'c',
        unit: 'clothes',
      },
      { type: 'text', prompt: "Type the opposite of 'up'.", choices: [], correctAnswer: 'down', unit: 'opposites' },
      {
        type: 'single_choice',
        prompt: "Which animal says 'moo'?",
        choices: choices('a duck', 'a cat', 'a sheep', 'a cow'),
        correctAnswer: 'd',
        unit: 'animals',
      },
      {
        type: 'text',
        prompt: 'Type the day that comes after Monday.',
        choices: [],
        correctAnswer: 'Tuesday',
        unit: 'time',
      },
    ],
  },
  {
    code: 'CALC-1',
    subjectId: 2,
    level: 1,
    title: 'Calculation, level 1',
    timeLimitSeconds: FORTY_MINUTES,
    questions: [
      { type: 'text', prompt: '7 + 5 = ?', choices: [], correctAnswer: '12', unit: 'addition' },
      { type: 'text', prompt: '15 − 8 = ?', choices: [], correctAnswer: '7', unit: 'subtraction' },
      {
        type: 'single_choice',
        prompt: 'Which number is the largest?',
        choices: choices('19', '91', '9', '41'),
        correctAnswer: 'b',
        unit: 'place value',
      },
      { type: 'text', prompt: '3 × 4 = ?', choices: [], correctAnswer: '12', unit: 'multiplication' },
      {
        type: 'single_choice',
        prompt: 'What is half of 10?',
        choices: choices('2', '5', '8', '20'),
        correctAnswer: 'b',
        unit: 'fractions',
      },
      {
        type: 'text',
        prompt: 'What number comes next? 2, 4, 6, …',
        choices: [],
        correctAnswer: '8',
        unit: 'patterns',
      },
    ],
  },
  {
    code: 'EN-2',
    subjectId: 1,
    level: 2,
    title: 'English vocabulary, level 2',
    timeLimitSeconds: FORTY_MINUTES,
    questions: [
      {
        type: 'single_choice',
        prompt: 'Which word means very big?',
        choices: choices('tiny', 'huge', 'quiet', 'early'),
        correctAnswer: 'b',
        unit: 'adjectives',
      },
      { type: 'text', prompt: "Type the plural of 'child'.", choices: [], correctAnswer: 'children', unit: 'plurals' },
      {
        type: 'single_choice',
        prompt: 'Where do you borrow books?',
        choices: choices('a bakery', 'a library', 'a garage', 'a farm'),
        correctAnswer: 'b',
        unit: 'places',
      },
      { type: 'text', prompt: "Type the opposite of 'early'.", choices: [], correctAnswer: 'late', unit: 'opposites' },
    ],
  },
  {
    code: 'CALC-2',
    subjectId: 2,
    level: 2,
    title: 'Calculation, level 2',
    timeLimitSeconds: FORTY_MINUTES,
    questions: [
      { type: 'text', prompt: '36 + 47 = ?', choices: [], correctAnswer: '83', unit: 'addition' },
      { type: 'text', prompt: '6 × 7 = ?', choices: [], correctAnswer: '42', unit: 'multiplication' },
      {
        type: 'single_choice',
        prompt: 'Which is the same as 3 tens and 4 ones?',
        choices: choices('304', '43', '34', '7'),
        correctAnswer: 'c',
        unit: 'place value',
      },
      { type: 'text', prompt: '56 ÷ 8 = ?', choices: [], correctAnswer: '7', unit: 'division' },
    ],
  },
];
