/**
 * Payment not completed, in real Chromium against the production build and the real server: an
 * opened, unfinished checkout is PENDING (seed section 4, payment status 1), the testing menu
 * shows the seed's "payment not completed", and the provider's redirect back (the returnUrl the
 * server gave the provider, with our reference, plus Adyen's `sessionId` and `redirectResult`)
 * lands on the payment screen's confirmation, not on the start of the app.
 *
 * A my-page pupil of the results demo (server/seed/results-accounts.json, scenario "journey")
 * logs in on the school's page, opens the exam fee's checkout (the demo provider's panel),
 * leaves it with the browser's Back button: the menu says "Payment not completed" and the
 * server answers PENDING. The card is then authorised at the provider (the demo provider's
 * complete call stands in for the bank page and its webhook), and the browser comes back on the
 * return URL: the app starts afresh there, confirms the checkout with the server and says
 * "Payment complete"; the menu then says "Fee paid" and the test can be taken.
 */
import type { Page, Request, Response } from 'playwright-core';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import type { ResultsAccount } from '../../server/seed/results-demo.ts';
import { PaymentSessionSchema, PaymentStatusResponseSchema } from '../../contract/payments.ts';
import { ApplicationMode } from '../../contract/enums.ts';
import { ChoosePageStatusSchema } from '../../contract/results.ts';
import { baseUrl, expectPath, screenText, seeScreen, useKiosk } from '../helpers/e2e-browser.ts';
import { takeResultsJourneyPupil } from '../helpers/e2e-demo-accounts.ts';

const kiosk = useKiosk();

function step(what: string): void {
  console.log(`[payment-pending] ${what}`);
}

const apiPath = (url: string) => new URL(url).pathname.replace(/^\/api/, '');
const isApi = (method: string, pathname: string) => (response: Response) =>
  response.request().method() === method && apiPath(response.url()) === pathname;

/** The Examinee-Token the app sends, read from the next API request it makes. */
async function tokenOf(page: Page): Promise<string> {
  const request = await page.waitForRequest((r: Request) => r.url().includes('/api/') && Boolean(r.headers()['authorization']));
  return (request.headers()['authorization'] ?? '').replace(/^Bearer /, '');
}

/** A call of the pupil's own, outside the browser (what the provider's side does, and the checks). */
async function api(pathname: string, token: string, body?: unknown): Promise<globalThis.Response> {
  return fetch(`${baseUrl()}/api${pathname}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      'X-Device-Token': 'e2e-payment-pending-terminal',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function logInOnSchoolPage(page: Page, pupil: ResultsAccount): Promise<void> {
  await page.goto(`/login?org_code=${encodeURIComponent(pupil.org_code)}`);
  await page.getByRole('heading', { name: /^Log in/ }).first().waitFor();
  await page.getByRole('textbox', { name: 'Login ID' }).fill(pupil.login_id);
  await page.getByLabel('Password', { exact: true }).fill(pupil.password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
}

/** The basic information (register once, or acknowledge), then the menu. */
async function passBasicInformation(page: Page, pupil: ResultsAccount): Promise<void> {
  const basic = page.getByRole('heading', { name: 'Your basic information' }).first();
  const menu = page.getByRole('heading', { name: 'Menu', exact: true }).first();
  await basic.or(menu).first().waitFor();
  if (await menu.isVisible()) return;
  if (await page.getByRole('textbox', { name: 'Name' }).isVisible()) {
    await page.getByRole('textbox', { name: 'Name' }).fill(pupil.name);
    await page.getByLabel('Grade', { exact: true }).selectOption({ index: 3 });
    await page.getByRole('textbox', { name: 'Email' }).fill(`${pupil.login_id}@example.com`);
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await page.getByRole('button', { name: 'Register', exact: true }).click();
  } else {
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
  }
}

async function seeMenu(page: Page): Promise<void> {
  await seeScreen(page, 'Menu');
  await page.getByRole('heading', { name: 'Exam fee', exact: true }).waitFor();
}

async function agreeToTerms(page: Page): Promise<void> {
  const terms = page.getByRole('region', { name: 'Payment terms' });
  await terms.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await page.getByRole('checkbox', { name: 'I have read and agree to the payment terms' }).check();
}

/** What has focus: never <body> after the pupil pressed something (keyboard access). */
const focused = (page: Page) =>
  page.evaluate(() => (document.activeElement === document.body ? 'BODY' : (document.activeElement?.textContent ?? '').trim()));

describe('payment not completed', () => {
  test('an opened, unfinished checkout is PENDING on the menu; the redirect back lands on the confirmation', async () => {
    const page = kiosk.page;
    const pupil = takeResultsJourneyPupil();
    step(`pupil ${pupil.login_id} of ${pupil.org_code}`);

    step('1. log in on the school page; the menu offers "Pay fee"');
    const token = tokenOf(page);
    await logInOnSchoolPage(page, pupil);
    await passBasicInformation(page, pupil);
    const examToken = await token;
    await seeMenu(page);
    await page.getByRole('button', { name: 'Pay fee', exact: true }).waitFor();

    step('2. open the checkout: Pay, the demo provider\'s panel');
    await page.getByRole('button', { name: 'Pay fee', exact: true }).click();
    await seeScreen(page, 'Pay the exam fee');
    await agreeToTerms(page);
    const opened = page.waitForResponse(isApi('POST', '/payment/adyen/sessions/exam-fee'));
    await page.getByRole('button', { name: /^Pay\s/ }).click();
    const openedResponse = await opened;
    expect(openedResponse.status()).toBe(201);
    const session = v.parse(PaymentSessionSchema, await openedResponse.json());
    const returnUrl = (openedResponse.request().postDataJSON() as { return_url: string; schedule_history_id: number }).return_url;
    const scheduleHistoryId = (openedResponse.request().postDataJSON() as { schedule_history_id: number }).schedule_history_id;
    expect(new URL(returnUrl).pathname).toBe('/pay-exam-fee');
    await page.getByRole('region', { name: 'Demo payment — no real card is charged' }).waitFor();
    // The pressed Pay went away with the form: focus is on the checkout, not on <body>.
    expect(await focused(page)).not.toBe('BODY');
    const pending = v.parse(PaymentStatusResponseSchema, await (await api(`/payment/status?reference=${session.reference}`, examToken)).json());
    expect(pending).toMatchObject({ status: 1, outcome: 'open', kinds: ['exam_fee'] });
    step(`   checkout ${session.reference} is PENDING (1) on the server`);

    step('3. leave it with the browser\'s Back button: the menu says "Payment not completed"');
    const menuLoaded = page.waitForResponse(isApi('GET', '/get-status-choose-page'));
    await page.goBack();
    const menuStatus = v.parse(ChoosePageStatusSchema, await (await menuLoaded).json());
    expect(menuStatus.exam_fee).toEqual({ required: true, status: 1, application_mode: ApplicationMode.PERSONAL });
    await seeMenu(page);
    await page.getByText('Payment not completed', { exact: true }).waitFor();
    expect(await screenText(page)).toContain('The payment has not gone through yet.');
    await page.getByRole('button', { name: 'Go to the payment', exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Take test', exact: true }).isDisabled()).toBe(true);

    step('4. the card is authorised at the provider (its page and its notification), the browser is sent back');
    const authorised = await api('/payment/demo/complete', examToken, { reference: session.reference, outcome: 'authorised' });
    expect(authorised.status).toBe(200);
    // The returnUrl the server gave the provider (our reference added), with what Adyen adds to it.
    const back = new URL(returnUrl);
    back.searchParams.set('reference', session.reference);
    back.searchParams.set('sessionId', 'CS0123456789ABCDEF');
    back.searchParams.set('redirectResult', 'X6XtfGC3!Y3Jg2Zm9e4');
    const confirmed = page.waitForResponse(isApi('GET', '/payment/status'));
    await page.goto(back.toString());

    step('5. the payment screen confirms the checkout: "Payment complete", not the start of the app');
    await seeScreen(page, 'Pay the exam fee');
    const status = v.parse(PaymentStatusResponseSchema, await (await confirmed).json());
    expect(status).toMatchObject({ reference: session.reference, status: 2, outcome: 'paid' });
    await page.getByRole('status').filter({ hasText: 'Payment complete. Thank you.' }).waitFor();
    await expectPath(page, '/pay-exam-fee');
    expect(await screenText(page)).not.toContain('Log in');

    step('6. on to the menu: "Fee paid", the test can be taken');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await seeMenu(page);
    await page.getByText('Fee paid', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Take test', exact: true }).isDisabled()).toBe(false);
    const after = v.parse(ChoosePageStatusSchema, await (await api(`/get-status-choose-page?schedule_history_id=${scheduleHistoryId}`, examToken)).json());
    expect(after.exam_fee).toEqual({ required: true, status: 2, application_mode: ApplicationMode.PERSONAL });
  });
});
