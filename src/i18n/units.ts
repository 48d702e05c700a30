/**
 * Unit names (the score report's per-unit analysis and the unit of its wrong-answer example) in the
 * pupil's language, picked by the name the server sends: each unit's seed name
 * (server/seed/demo/exams/, in English, the key of result_units and unit_statistics), as subject
 * names are picked by id (subjects.ts). A unit this build does not know keeps the name the server
 * sent. Each message's context names its subject, so a translator knows "variables" is
 * programming and "particles" Japanese grammar.
 */
import { msg } from '@lingui/core/macro';
import type { I18n, MessageDescriptor } from '@lingui/core';

export const unitNames: Readonly<Record<string, MessageDescriptor>> = {
  // English (vocabulary)
  animals: msg({ message: 'animals', context: 'unit of English (vocabulary)' }),
  opposites: msg({ message: 'opposites', context: 'unit of English (vocabulary)' }),
  'daily life': msg({ message: 'daily life', context: 'unit of English (vocabulary)' }),
  spelling: msg({ message: 'spelling', context: 'unit of English (vocabulary)' }),
  'word meaning': msg({ message: 'word meaning', context: 'unit of English (vocabulary)' }),
  // Calculation
  addition: msg({ message: 'addition', context: 'unit of Calculation' }),
  subtraction: msg({ message: 'subtraction', context: 'unit of Calculation' }),
  multiplication: msg({ message: 'multiplication', context: 'unit of Calculation' }),
  division: msg({ message: 'division', context: 'unit of Calculation' }),
  'place value': msg({ message: 'place value', context: 'unit of Calculation' }),
  fractions: msg({ message: 'fractions', context: 'unit of Calculation' }),
  decimals: msg({ message: 'decimals', context: 'unit of Calculation' }),
  percentages: msg({ message: 'percentages', context: 'unit of Calculation' }),
  'negative numbers': msg({ message: 'negative numbers', context: 'unit of Calculation' }),
  'order of operations': msg({ message: 'order of operations', context: 'unit of Calculation' }),
  // Japanese (kanji and vocabulary)
  'kanji reading': msg({ message: 'kanji reading', context: 'unit of Japanese (kanji and vocabulary)' }),
  'kanji writing': msg({ message: 'kanji writing', context: 'unit of Japanese (kanji and vocabulary)' }),
  vocabulary: msg({ message: 'vocabulary', context: 'unit of Japanese (kanji and vocabulary)' }),
  particles: msg({ message: 'particles', context: 'unit of Japanese (kanji and vocabulary)' }),
  // Visual Programming
  sequences: msg({ message: 'sequences', context: 'unit of Visual Programming' }),
  loops: msg({ message: 'loops', context: 'unit of Visual Programming' }),
  events: msg({ message: 'events', context: 'unit of Visual Programming' }),
  conditions: msg({ message: 'conditions', context: 'unit of Visual Programming' }),
  variables: msg({ message: 'variables', context: 'unit of Visual Programming' }),
};

export function unitName(i18n: I18n, unit: string): string {
  const descriptor = Object.hasOwn(unitNames, unit) ? unitNames[unit] : undefined;
  return descriptor ? i18n._(descriptor) : unit;
}
