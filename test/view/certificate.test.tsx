// @vitest-environment jsdom
/**
 * certificate: name, subject and level, exam date, "has passed", organisation and the
 * certificate number (from the schedule history id), in the current language.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CertificateDocument } from '../../src/screens/certificate/certificate.tsx';
import { certificateNumber } from '../../src/screens/certificate/certificate-number.ts';
import { scoreReportFixture } from '../helpers/score-report-fixture.ts';
import { renderView } from '../helpers/render-view.tsx';

describe('certificate', () => {
  it('certifies the pupil by name, subject, level, date and organisation, with its number', async () => {
    await renderView(<CertificateDocument api={{ report: scoreReportFixture() }} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Certificate of achievement' })).toBeTruthy();
    expect(document.querySelector('[data-item="name"]')!.textContent).toBe('Aiko Tanaka');
    expect(document.querySelector('[data-item="passed"]')!.textContent).toBe('has passed Calculation, Level 3');
    expect(document.querySelector('[data-item="exam-date"]')!.textContent).toBe('10/14/2026');
    expect(document.querySelector('[data-item="organization"]')!.textContent).toBe('Sakura Elementary School');
    expect(document.querySelector('[data-item="certificate-number"]')!.textContent).toBe(certificateNumber(4217, '2026-10-14T01:30:00.000Z'));
  });

  it('is written in the current language', async () => {
    await renderView(<CertificateDocument api={{ report: scoreReportFixture() }} />, { language: 'ja' });
    expect(document.querySelector('[data-item="exam-date"]')!.textContent).toBe('2026年10月14日');
    expect(screen.queryByText('Certificate of achievement')).toBeNull();
  });

  it('numbers certificates by sitting, with a check digit', () => {
    expect(certificateNumber(4217, '2026-10-14T01:30:00.000Z')).toMatch(/^GR-2026-00004217-\d$/);
    expect(certificateNumber(4217, '2026-10-14T01:30:00.000Z')).not.toBe(certificateNumber(4218, '2026-10-14T01:30:00.000Z'));
  });
});
