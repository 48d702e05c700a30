/**
 * A score report as GET /score-report/results answers it, for view and model tests: every item of
 * seed section 2 "Score report content" filled in.
 */
import * as v from 'valibot';
import { ScoreReportSchema, type ScoreReport } from '../../contract/results.ts';

export function scoreReportFixture(overrides: Partial<ScoreReport> = {}): ScoreReport {
  const report: ScoreReport = {
    schedule_history_id: 4217,
    examinee: { name: 'Aiko Tanaka', age: 11, grade_id: 5, region: 'JP', organization_name: 'Sakura Elementary School' },
    exam: {
      subject: { id: 2, name: 'Calculation' },
      level: { id: 3, name: 'Level 3', order: 3 },
      title: 'Calculation Level 3',
      exam_date: '2026-10-14T01:30:00.000Z',
    },
    result: {
      score: 78,
      max_score: 100,
      pass_score: 60,
      passed: true,
      correct_count: 31,
      question_count: 40,
      correct_rate: 77.5,
      rating: 'B',
    },
    rank: { status: 'complete', position: 12, total: 148 },
    distribution: [
      { score: 40, count: 6 },
      { score: 50, count: 14 },
      { score: 60, count: 31 },
      { score: 70, count: 42 },
      { score: 78, count: 20 },
      { score: 90, count: 35 },
    ],
    units: [
      { unit: 'Addition', question_count: 10, correct_count: 9, correct_rate: 90, average_all: 81.3, average_organization: 84.2 },
      { unit: 'Fractions', question_count: 10, correct_count: 6, correct_rate: 60, average_all: 55.1, average_organization: 58.4 },
      { unit: 'Word problems', question_count: 20, correct_count: 16, correct_rate: 80, average_all: null, average_organization: null },
    ],
    wrong_answer_example: {
      question_number: 14,
      unit: 'Fractions',
      type: 'number',
      prompt: 'Work out \\(\\frac{1}{2} + \\frac{1}{4}\\)',
      math: true,
      given: '2/6',
      correct: '3/4',
    },
    certificate_available: true,
    viewable_until: '2028-10-14T01:30:00.000Z',
    server_time: '2026-11-22T09:00:00.000Z',
    ...overrides,
  };
  // The fixture must be what the server may send.
  return v.parse(ScoreReportSchema, report);
}
