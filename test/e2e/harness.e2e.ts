/**
 * The end-to-end harness itself: the real server answers, and Chromium opens the production
 * build it serves. When these fail, the journey's failures are about the setup, not the app.
 */
import * as v from 'valibot';
import { expect, test } from 'vitest';
import { HealthResponseSchema } from '../../contract/http.ts';
import { baseUrl, openKiosk, useKiosk } from '../helpers/e2e-browser.ts';

const kiosk = useKiosk();

test('the server answers GET /api/health as the contract says', async () => {
  const response = await fetch(`${baseUrl()}/api/health`);
  expect(response.status).toBe(200);
  const body = v.parse(HealthResponseSchema, await response.json());
  expect(Math.abs(Date.parse(body.server_time) - Date.now())).toBeLessThan(60_000);
});

test('Chromium opens the production build on a deep link, titled Gradus', async () => {
  const page = kiosk.page;
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await openKiosk(page, '/exam-tutorial');
  expect(await page.locator('script[type="module"][src*="/assets/"]').count()).toBeGreaterThan(0);
  await expect.poll(() => page.title()).toContain('Gradus');
  expect(errors).toEqual([]);
});
