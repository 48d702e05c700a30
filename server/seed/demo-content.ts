/**
 * The demo's subjects and levels, and the exam papers: the exam files of
 * server/seed/demo/exams/ (docs/formats/exam.schema.json, one file per exam, with their correct
 * answers), read and validated by the exam import's own parser when this module loads. Plain data; server/seed/seed.ts writes it (the exams through
 * the exam import), and tests read the papers here to know the right answers.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { subjectList, type KnownSubjectId } from '../domain/subjects.ts';
import { parseExamJson, questionColumns, type ExamDocument, type QuestionColumns } from '../imports/exams/json.ts';

/** Subjects by the seed's ids (section 1). */
export const demoSubjects = subjectList;

/**
 * Three levels of each subject (level 1, 2, 3: grades 1-3, 3-5 and 6-9, roughly), level by level
 * (the order they are inserted in, so their ids: every subject's level 1 first).
 */
export const demoLevels = ([1, 2, 3] as const).flatMap((position) =>
  demoSubjects.map((subject) => ({ subjectId: subject.id, position, name: `Level ${position}` })),
);

/** A question as stored (server/db/schema.ts, questions), its key in scoring's encoding. */
export type DemoQuestion = QuestionColumns;

/** A demo exam paper, read from its file. */
export type DemoExam = {
  code: string;
  subjectId: KnownSubjectId;
  level: number;
  title: string;
  timeLimitSeconds: number;
  passPercent: number;
  questions: DemoQuestion[];
  /** The validated file, as the seed hands it to the exam import. */
  document: ExamDocument;
};

/** The demo's exam files, one per exam (`<code>.json`). */
export const demoExamFolder = path.join(import.meta.dirname, 'demo', 'exams');

/**
 * The short sittings for the time-out demos (demo-accounts.json, scenario `time-out`, by
 * `exam_code`): a copy of a level's paper with a one-minute limit, so the clock can run out during
 * an end-to-end test (test/e2e/time-out.e2e.ts). Booked by nobody else: every other pupil of the
 * level keeps the level's regular paper (`demoExams`).
 */
const shortExamCodes: ReadonlySet<string> = new Set(['EN-1-TIMEOUT']);

/** Every exam file of the folder, validated; a file the import would refuse stops the server. */
function readDemoExams(): DemoExam[] {
  const files = readdirSync(demoExamFolder)
    .filter((name) => name.endsWith('.json'))
    .sort();
  return files.map((name) => {
    const parsed = parseExamJson(readFileSync(path.join(demoExamFolder, name)));
    if (!parsed.ok) throw new Error(`server/seed/demo/exams/${name}: ${JSON.stringify(parsed.problems)}`);
    const exam = parsed.exam;
    if (`${exam.code}.json` !== name) throw new Error(`server/seed/demo/exams/${name}: holds exam ${exam.code}`);
    return {
      code: exam.code,
      subjectId: exam.subject_id,
      level: exam.level.position,
      title: exam.title,
      timeLimitSeconds: exam.time_limit_seconds,
      passPercent: exam.pass_percent,
      questions: exam.questions.map(questionColumns),
      document: exam,
    };
  });
}

const subjectOrder = (id: KnownSubjectId) => subjectList.findIndex((subject) => subject.id === id);
/** Subject by subject in the list's order, level by level: the order the seed brings them in. */
const allDemoExams = readDemoExams().sort((a, b) => subjectOrder(a.subjectId) - subjectOrder(b.subjectId) || a.level - b.level || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));

/** The regular paper of each subject's each level: one per level, every level of `demoLevels`. */
export const demoExams: DemoExam[] = allDemoExams.filter((exam) => !shortExamCodes.has(exam.code));

/** The short sittings (see `shortExamCodes`). */
export const demoShortExams: DemoExam[] = allDemoExams.filter((exam) => shortExamCodes.has(exam.code));

for (const code of shortExamCodes) {
  if (!demoShortExams.some((exam) => exam.code === code)) throw new Error(`server/seed/demo/exams: no file of the short exam ${code}`);
}
for (const level of demoLevels) {
  const papers = demoExams.filter((exam) => exam.subjectId === level.subjectId && exam.level === level.position);
  if (papers.length !== 1) throw new Error(`server/seed/demo/exams: subject ${level.subjectId} level ${level.position} has ${papers.length} regular papers, not one`);
}

/**
 * The units of each subject (per-unit analysis), in the order the papers first name them: every
 * unit a demo question names, so every one the browser must have a name for (src/i18n/units.ts).
 */
export const unitsBySubject: Record<KnownSubjectId, readonly string[]> = { 1: [], 2: [], 3: [], 6: [] };
for (const subject of subjectList) {
  unitsBySubject[subject.id] = [...new Set(demoExams.filter((exam) => exam.subjectId === subject.id).flatMap((exam) => exam.questions.map((q) => q.unit)))];
}
