// @vitest-environment jsdom
/**
 * Unit names in the pupil's language (src/i18n/units.ts): every unit of the seed's exam content
 * (server/seed/demo/exams/, sent by the server under its English seed name) has a message, and every
 * one of the 23 catalogs translates each of them; the score report names the units in its table,
 * its chart and its wrong-answer example in the pupil's language, and a unit this build does not
 * know stays as the server sent it.
 */
import { setupI18n } from '@lingui/core';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { catalogKeys, languages } from '../../contract/languages.ts';
import { unitsBySubject } from '../../server/seed/demo-content.ts';
import { loadCatalog } from '../../src/i18n/catalog.ts';
import { unitName, unitNames } from '../../src/i18n/units.ts';
import { ScoreReportScreen } from '../../src/screens/score-report/score-report.tsx';
import { renderView } from '../helpers/render-view.tsx';
import { scoreReportFixture } from '../helpers/score-report-fixture.ts';

const seedUnits = Object.values(unitsBySubject).flat();

describe('unit names', () => {
  it('has a message for every unit of the seed content, and no other', () => {
    expect(seedUnits).toHaveLength(24);
    expect(Object.keys(unitNames).sort()).toEqual([...seedUnits].sort());
  });

  it.each(catalogKeys)('%s translates every unit', async (key) => {
    const messages = await loadCatalog(key);
    const i18n = setupI18n({ locale: languages[key].tag, messages: { [languages[key].tag]: messages } });
    for (const unit of seedUnits) {
      const id = unitNames[unit]!.id!;
      expect(messages[id], `${key}: ${unit}`).toBeDefined();
      expect(unitName(i18n, unit).trim(), `${key}: ${unit}`).not.toBe('');
    }
    const translated = seedUnits.filter((unit) => unitName(i18n, unit) !== unit);
    // English keeps the seed's names; every other language has its own for (nearly) all of them
    // (French "addition" or Spanish "variables" are the same word).
    if (key === 'en' || key === 'en-gb') expect(translated).toEqual([]);
    else expect(translated.length, key).toBeGreaterThanOrEqual(seedUnits.length - 6);
  });

  it('keeps a unit this build does not know as the server sent it', async () => {
    const messages = await loadCatalog('ja');
    const i18n = setupI18n({ locale: 'ja', messages: { ja: messages } });
    expect(unitName(i18n, 'fractions')).toBe('分数');
    expect(unitName(i18n, 'word problems')).toBe('word problems');
    expect(unitName(i18n, 'constructor')).toBe('constructor');
  });
});

describe('score report: units in the pupil\'s language', () => {
  it('names the units of the table, the chart and the wrong-answer example in Japanese', async () => {
    const report = scoreReportFixture({
      units: [
        { unit: 'addition', question_count: 10, correct_count: 9, correct_rate: 90, average_all: 81.3, average_organization: 84.2 },
        { unit: 'fractions', question_count: 10, correct_count: 6, correct_rate: 60, average_all: 55.1, average_organization: 58.4 },
        { unit: 'word problems', question_count: 20, correct_count: 16, correct_rate: 80, average_all: null, average_organization: null },
      ],
      wrong_answer_example: { ...scoreReportFixture().wrong_answer_example!, unit: 'fractions' },
    });
    await renderView(
      <ScoreReportScreen api={{ variant: 'print', status: 'ready', report: report, error: null }} />,
      { language: 'ja' },
    );
    const table = document.querySelector('[data-item="units"] table') as HTMLElement;
    expect(within(table).getAllByRole('rowheader').map((th) => th.textContent)).toEqual(['たし算', '分数', 'word problems']);
    const chart = document.querySelector('svg[data-chart="units"]') as SVGElement;
    expect(chart.textContent).toContain('たし算');
    expect(chart.textContent).toContain('分数');
    expect(chart.textContent).not.toMatch(/addition|fractions/);
    // The unit is the content's own text, isolated in a <bdi> inside the sentence that names the question.
    expect(screen.getByText('分数', { selector: 'p bdi' }).closest('p')?.textContent).toMatch(/14.*分数/);
    expect(document.body.textContent).not.toMatch(/\baddition\b|\bfractions\b/);
  });
});
