// @vitest-environment jsdom
/**
 * examinee-info: the registered details (grade 99 as Other), that they cannot be changed, and
 * Continue.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ExamineeInfoScreen } from '../../src/screens/examinee-info/examinee-info.tsx';
import { renderView } from '../helpers/render-view.tsx';
import { infoApi } from '../helpers/session-fixtures.ts';

describe('examinee-info', () => {
  it('shows name, grade and email, and says they cannot be changed', async () => {
    await renderView(<ExamineeInfoScreen api={infoApi({ examinee_name: 'Aiko Tanaka', grade_id: 7, email: 'aiko@example.com' }, vi.fn())} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Your basic information' })).toBeTruthy();
    expect(screen.getAllByRole('term').map((t) => t.textContent)).toEqual(['Name', 'Grade', 'Email']);
    expect(screen.getAllByRole('definition').map((d) => d.textContent)).toEqual(['Aiko Tanaka', 'Grade 7', 'aiko@example.com']);
    expect(screen.getByText(/cannot be changed/)).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('shows grade 99 as Other', async () => {
    await renderView(<ExamineeInfoScreen api={infoApi({ examinee_name: 'Sam', grade_id: 99, email: 'sam@example.com' }, vi.fn())} />);
    expect(screen.getAllByRole('definition')[1]?.textContent).toBe('Other');
  });

  it('goes on with Continue', async () => {
    const onContinue = vi.fn();
    const { user } = await renderView(<ExamineeInfoScreen api={infoApi({ examinee_name: 'Sam', grade_id: 1, email: 'sam@example.com' }, onContinue)} />);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(onContinue).toHaveBeenCalledOnce();
  });

  it('shows Arabic grades with Arabic digits in the ar-nu-arab variant', async () => {
    await renderView(<ExamineeInfoScreen api={infoApi({ examinee_name: 'Sam', grade_id: 12, email: 'sam@example.com' }, vi.fn())} />, {
      language: 'ar-nu-arab',
    });
    expect(screen.getAllByRole('definition')[1]?.textContent).toContain('١٢');
  });
});
