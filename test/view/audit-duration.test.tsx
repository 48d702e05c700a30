// @vitest-environment jsdom
/**
 * The audit trail says a time credit to the second, in the language's own unit words: a 98 s
 * outage credit is "1 minute, 38 seconds", never rounded to "2 minutes".
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { AuditEntry } from '../../contract/admin.ts';
import { formatDuration } from '../../src/i18n/format.ts';
import { AuditLog } from '../../src/screens/proctor/audit-log.tsx';
import { renderView } from '../helpers/render-view.tsx';

function credit(id: number, action: 'outage_credit' | 'maintenance_credit', seconds: number): AuditEntry {
  return {
    id,
    at: `2026-11-22T09:0${id}:00.000Z`,
    actor: 'system',
    staff_name: null,
    action,
    examinee_name: 'Aiko Tanaka',
    schedule_history_id: 7,
    detail: { seconds },
    reason: 'The server did not answer.',
  };
}

function audit(entries: AuditEntry[]) {
  return { status: 'ready' as const, entries, failure: null, scheduleName: 'Spring test 2026', close: vi.fn(), retry: vi.fn() };
}

function whatOf(action: string): string {
  const row = document.querySelector(`tr[data-action="${action}"]`);
  if (!row) throw new Error(`no ${action} row`);
  return within(row as HTMLElement).getAllByRole('cell')[2]!.textContent ?? '';
}

describe('audit durations', () => {
  it('a 98 s outage credit is 1 minute 38 seconds, a whole two minutes of maintenance is 2 minutes', async () => {
    await renderView(<AuditLog audit={audit([credit(1, 'outage_credit', 98), credit(2, 'maintenance_credit', 120)])} />);
    expect(screen.getByRole('table')).toBeTruthy();
    expect(whatOf('outage_credit')).toBe('1 minute, 38 seconds credited for a server outage');
    expect(whatOf('maintenance_credit')).toBe('2 minutes credited for maintenance');
  });

  it('in Arabic with Arabic-Indic digits, from the ar catalog', async () => {
    await renderView(<AuditLog audit={audit([credit(1, 'outage_credit', 98)])} />, { language: 'ar-nu-arab' });
    const what = whatOf('outage_credit');
    expect(what).toContain(formatDuration(98, 'ar-nu-arab'));
    expect(what).toContain('٣٨');
    expect(what).toContain('انقطاع الخادم');
  });

  it('formatDuration leaves out a zero part and says seconds alone', () => {
    expect(formatDuration(38, 'en')).toBe('38 seconds');
    expect(formatDuration(0, 'en')).toBe('0 seconds');
    expect(formatDuration(60, 'de')).toBe('1 Minute');
  });
});
