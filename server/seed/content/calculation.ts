/**
 * Subject 2, Calculation: three levels, from grades 1-2 (level 1: whole numbers to 100) through
 * grades 3-5 (level 2: larger numbers, simple decimals and fractions) to grades 6-9 (level 3:
 * negative numbers, fractions, decimals, percentages, order of operations). Number answers are
 * typed on the keypad with only the keys the level needs. Original questions.
 */
import { choice, FORTY_MINUTES, number, type ContentExam } from './types.ts';

export const calculationUnits = [
  'addition',
  'subtraction',
  'multiplication',
  'division',
  'place value',
  'fractions',
  'decimals',
  'percentages',
  'negative numbers',
  'order of operations',
] as const;

const math = { math: true } as const;
const decimal = { decimal: true } as const;
const fraction = { fraction: true } as const;
const signed = { negative: true } as const;
const all = { negative: true, decimal: true, fraction: true } as const;

export const calculationExams: ContentExam[] = [
  {
    code: 'CALC-1',
    subjectId: 2,
    level: 1,
    title: 'Calculation, level 1',
    timeLimitSeconds: FORTY_MINUTES,
    questions: [
      number('addition', '7 + 5 = ?', '12'),
      number('subtraction', '15 − 8 = ?', '7'),
      choice('place value', 'Which number is the largest?', 'b', ['19', '91', '9', '41']),
      number('multiplication', '3 × 4 = ?', '12'),
      choice('fractions', 'What is half of 10?', 'b', ['2', '5', '8', '20']),
      number('addition', 'What number comes next? 2, 4, 6, …', '8'),
      number('addition', '9 + 6 = ?', '15'),
      number('subtraction', '20 − 4 = ?', '16'),
      choice('addition', 'Which sum equals 10?', 'b', ['4 + 5', '3 + 7', '6 + 5', '2 + 9']),
      number('addition', '\\(14 + 5 = ?\\)', '19', {}, math),
      number('subtraction', 'Mia has 12 stickers. She gives away 5. How many stickers does she have left?', '7'),
      number('multiplication', '2 × 5 = ?', '10'),
      choice('place value', 'What is the value of the 4 in 47?', 'b', ['4', '40', '400', '47']),
      number('addition', 'Tom has 8 marbles and finds 7 more. How many marbles does he have now?', '15'),
      number('subtraction', '\\(17 - 9 = ?\\)', '8', {}, math),
      number('multiplication', '5 × 3 = ?', '15'),
      choice('fractions', 'A pizza is cut into 4 equal pieces. What is one piece called?', 'c', ['a half', 'a third', 'a quarter', 'a whole']),
      number('addition', '30 + 40 = ?', '70'),
      number('subtraction', '50 − 20 = ?', '30'),
      number('place value', 'How many tens are there in 60?', '6'),
    ],
  },
  {
    code: 'CALC-2',
    subjectId: 2,
    level: 2,
    title: 'Calculation, level 2',
    timeLimitSeconds: FORTY_MINUTES,
    questions: [
      number('addition', '36 + 47 = ?', '83'),
      number('multiplication', '6 × 7 = ?', '42'),
      choice('place value', 'Which is the same as 3 tens and 4 ones?', 'c', ['304', '43', '34', '7']),
      number('division', '56 ÷ 8 = ?', '7'),
      number('subtraction', '100 − 37 = ?', '63'),
      number('multiplication', '\\(12 \\times 4 = ?\\)', '48', {}, math),
      number('division', '\\(72 \\div 9 = ?\\)', '8', {}, math),
      number('fractions', '\\(\\frac{1}{5} + \\frac{2}{5} = ?\\)', '3/5', fraction, math),
      number('decimals', '0.5 + 0.3 = ?', '0.8', decimal),
      choice('fractions', 'Which fraction is the same as \\(\\frac{1}{2}\\)?', 'b', ['\\(\\frac{2}{3}\\)', '\\(\\frac{3}{6}\\)', '\\(\\frac{1}{4}\\)', '\\(\\frac{2}{5}\\)'], math),
      number('multiplication', 'A box holds 8 pencils. How many pencils are there in 7 boxes?', '56'),
      number('decimals', '2.5 + 1.5 = ?', '4', decimal),
      number('division', '45 ÷ 5 = ?', '9'),
      choice('place value', 'Round 68 to the nearest ten.', 'c', ['60', '65', '70', '80']),
      number('fractions', 'What is \\(\\frac{1}{4}\\) of 20?', '5', {}, math),
      number('subtraction', '305 − 128 = ?', '177'),
      number('addition', '249 + 386 = ?', '635'),
      number('decimals', '3.6 − 1.2 = ?', '2.4', decimal),
      choice('multiplication', 'Which number is equal to 6 × 8?', 'b', ['42', '48', '54', '56']),
      number('fractions', '\\(\\frac{5}{8} - \\frac{2}{8} = ?\\)', '3/8', fraction, math),
    ],
  },
  {
    code: 'CALC-3',
    subjectId: 2,
    level: 3,
    title: 'Calculation, level 3',
    timeLimitSeconds: FORTY_MINUTES,
    questions: [
      number('negative numbers', '3 − 8 = ?', '-5', signed),
      number('negative numbers', '\\(-4 + 10 = ?\\)', '6', signed, math),
      number('negative numbers', '\\(-3 \\times 5 = ?\\)', '-15', signed, math),
      number('negative numbers', '\\(-12 \\div (-4) = ?\\)', '3', signed, math),
      number('fractions', '\\(\\frac{3}{4} + \\frac{1}{8} = ?\\)', '7/8', all, math),
      number('fractions', '\\(\\frac{2}{3} \\times \\frac{3}{5} = ?\\)', '2/5', all, math),
      number('fractions', '\\(\\frac{5}{6} - \\frac{1}{3} = ?\\)', '1/2', all, math),
      number('decimals', '\\(0.6 \\times 0.5 = ?\\)', '0.3', all, math),
      number('decimals', '\\(4.2 \\div 0.7 = ?\\)', '6', all, math),
      choice('negative numbers', 'Which number is the smallest?', 'b', ['−2', '−7', '0', '3']),
      number('decimals', 'Write \\(\\frac{3}{5}\\) as a decimal.', '0.6', { negative: true, decimal: true }, math),
      number('fractions', '\\(\\frac{1}{2} + \\frac{1}{4} = ?\\)', '3/4', all, math),
      number('negative numbers', 'The temperature was 5 °C in the evening and fell by 9 degrees in the night. What was the temperature then, in °C?', '-4', all),
      number('percentages', 'What is 25% of 80?', '20', all),
      number('order of operations', '\\(3 + 4 \\times 5 = ?\\)', '23', all, math),
      choice('fractions', 'Which fraction is the largest?', 'c', ['\\(\\frac{3}{5}\\)', '\\(\\frac{5}{8}\\)', '\\(\\frac{2}{3}\\)', '\\(\\frac{7}{12}\\)'], math),
      number('negative numbers', '\\((-6)^2 = ?\\)', '36', all, math),
      number('decimals', '1.25 + 2.8 = ?', '4.05', all),
      number('fractions', '\\(1\\frac{1}{2} + \\frac{3}{4} = ?\\)', '9/4', all, math),
      number('order of operations', '\\(2 \\times (-3) + 10 = ?\\)', '4', all, math),
    ],
  },
];
