/**
 * The subjects of seed section 1, by their fixed ids, with the English names the database keeps
 * (the browser shows its own translated name by id, src/i18n/subjects.ts). The one list: the demo
 * seed inserts it, the exam format accepts exactly these ids, and an exam import into a
 * deployment that starts empty creates a subject from it when its first exam comes in.
 */
import { SubjectId } from '../../contract/enums.ts';

export const subjectList = [
  { id: SubjectId.ENGLISH, name: 'English (vocabulary)' },
  { id: SubjectId.CALCULATION, name: 'Calculation' },
  { id: SubjectId.JAPANESE, name: 'Japanese (kanji and vocabulary)' },
  { id: SubjectId.VISUAL_PROGRAMMING, name: 'Visual Programming' },
] as const;

export type KnownSubjectId = (typeof subjectList)[number]['id'];

export const subjectIds = subjectList.map((subject) => subject.id);

/** The English name of a subject of the list. */
export function subjectName(id: KnownSubjectId): string {
  return subjectList.find((subject) => subject.id === id)!.name;
}
