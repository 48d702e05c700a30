// @vitest-environment jsdom
/**
 * The address bar keeps the query as it was typed (src/app/router.ts). A login page's address
 * from a schedule sheet, `/login?schedule_code=DEMO-2026&login_type=1&venue_id=1`, once read by
 * its route (whose `validateSearch` hands the machine strings), must be written back the same,
 * not in the router's default JSON serialisation (`login_type=%221%22&venue_id=%221%22`), which
 * would be judged again and lose the venue and the school.
 */
import { createMemoryHistory } from '@tanstack/react-router';
import { describe, expect, it } from 'vitest';
import { createAppRouter, stringifyPlainSearch } from '../../src/app/router.ts';

/** What the router's Transitioner writes back on mount (replace) when it differs from the URL. */
async function canonicalHref(href: string): Promise<string> {
  const router = createAppRouter({ history: createMemoryHistory({ initialEntries: [href] }) });
  await router.load();
  // The route's validated query (validateSearch: strings), as the Transitioner builds it.
  const search = router.state.matches.at(-1)?.search ?? {};
  return router.buildLocation({ to: router.state.location.pathname, search }).href;
}

describe('the query in the address bar', () => {
  it('keeps the numbers of a schedule login page as typed', async () => {
    const href = '/login?schedule_code=DEMO-2026&login_type=1&venue_id=1&org_code=GRADUS-DEMO';
    const canonical = await canonicalHref(href);
    expect(canonical).not.toContain('%22');
    expect(new URLSearchParams(canonical.split('?')[1]).get('venue_id')).toBe('1');
    expect(new URLSearchParams(canonical.split('?')[1]).get('login_type')).toBe('1');
  });

  it('keeps an /oauth error report as typed', async () => {
    const canonical = await canonicalHref('/oauth?error=1&errorCode=disabled_org&schoolId=GRADUS-OAUTH');
    expect(canonical).toBe('/oauth?error=1&errorCode=disabled_org&schoolId=GRADUS-OAUTH');
  });

  it('gives the routes every value as the string that was typed', async () => {
    const router = createAppRouter({ history: createMemoryHistory({ initialEntries: ['/login?org_code=12345&logout=true'] }) });
    await router.load();
    expect(router.state.location.search).toEqual({ org_code: '12345', logout: 'true' });
    expect(router.state.matches.at(-1)?.search).toEqual({ org_code: '12345', logout: 'true' });
  });

  it('writes plain text, skipping empty values', () => {
    expect(stringifyPlainSearch({ a: '1', b: 2, c: true, d: undefined, e: null, f: 'x y' })).toBe('?a=1&b=2&c=true&f=x+y');
    expect(stringifyPlainSearch({})).toBe('');
  });
});
