/**
 * The address bar keeps what was typed (src/app/router.ts). A schedule's login page, printed
 * on the lab's sheet as `/login?schedule_code=DEMO-2026&login_type=1&venue_id=1&org_code=...`,
 * stays that address: the router never rewrites its numbers as JSON (`login_type=%221%22`),
 * every lookup names the venue and school typed, and a reload keeps the address as typed.
 */
import type { Page, Request } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { useKiosk } from '../helpers/e2e-browser.ts';

const kiosk = useKiosk();

const schedulePage = '/login?schedule_code=DEMO-2026&login_type=1&venue_id=1&org_code=GRADUS-DEMO';

/** The query of every GET /api/schedule the page sends, as key=value records. */
function scheduleQueries(page: Page): Record<string, string>[] {
  const queries: Record<string, string>[] = [];
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname.endsWith('/api/schedule')) queries.push(Object.fromEntries(url.searchParams));
  });
  return queries;
}

/** Loads the page and waits until the login form shows the schedule's venue. */
async function openSchedulePage(page: Page, load: () => Promise<unknown>): Promise<void> {
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/api/schedule'));
  await load();
  await answered;
  await page.getByRole('heading', { name: 'Log in', exact: true }).waitFor();
  await page.getByText('Computer Lab 1').waitFor();
}

describe('a schedule login page typed into the address bar', () => {
  test('keeps its address, and its venue and school, through a reload', async () => {
    const { page } = kiosk;
    const queries = scheduleQueries(page);

    await openSchedulePage(page, () => page.goto(schedulePage));
    const url = new URL(page.url());
    expect(`${url.pathname}${url.search}`).not.toContain('%22');
    expect(url.searchParams.get('login_type')).toBe('1');
    expect(url.searchParams.get('venue_id')).toBe('1');

    await openSchedulePage(page, () => page.reload());
    expect(new URL(page.url()).searchParams.get('venue_id')).toBe('1');

    // Every lookup the page made named the venue and the school it was typed with.
    expect(queries.length).toBeGreaterThanOrEqual(2);
    for (const query of queries) {
      expect(query).toMatchObject({ schedule_code: 'DEMO-2026', login_type: '1', venue_id: '1', org_code: 'GRADUS-DEMO' });
    }
  });
});
