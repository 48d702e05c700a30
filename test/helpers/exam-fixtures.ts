/**
 * Example data for view tests: exam details and questions as the contract shapes them.
 */
import type { ExamDetails, Question } from '../../contract/exam.ts';

export const examDetails: ExamDetails = {
  schedule_history_id: 42,
  examinee_name: 'Aiko Tanaka',
  subject: { id: 1, name: 'English' },
  level: { id: 3, name: 'Level 3' },
  exam: { id: 7, title: 'English level 3', question_count: 3, time_limit_seconds: 2400 },
  status: 0,
  started_at: null,
  deadline_at: null,
  server_time: '2026-11-22T09:00:00.000Z',
};

export const questions: Question[] = [
  {
    id: 101,
    number: 1,
    type: 'single_choice',
    prompt: 'Which word means "big"?',
    choices: [
      { id: 'a', label: 'large' },
      { id: 'b', label: 'small' },
      { id: 'c', label: 'quiet' },
    ],
  },
  { id: 102, number: 2, type: 'text', prompt: 'Write the opposite of "hot".', choices: [] },
  {
    id: 103,
    number: 3,
    type: 'single_choice',
    prompt: 'Choose the colour of the sky on a clear day.',
    choices: [
      { id: 'a', label: 'green' },
      { id: 'b', label: 'blue' },
    ],
  },
];
