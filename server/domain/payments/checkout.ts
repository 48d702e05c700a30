/**
 * Checkouts: what a sitting can buy (the payment settings), opening a checkout for it, its
 * status, and the demo provider's outcome.
 *
 * Promises:
 * - a caller only sees their own sittings and checkouts (NOT_FOUND otherwise);
 * - the exam fee is sold only for a sitting that pays it online and is not started; result
 *   items only once the result is released (finished, and one week passed: seed section 9),
 *   the certificate only for a passed result (NOT_PASSED);
 * - a checkout is PENDING (status 1, seed section 4) from the moment it is opened until it is
 *   paid (PAID 2) or ends without payment (NOT_PAID 0: refused, cancelled, failed, superseded,
 *   or expired), so an opened, unfinished checkout shows on the testing menu as "payment not
 *   completed"; a pending item can be paid again (the same checkout is resumed);
 * - one open checkout per item: under a row lock on the schedule history, a request for items
 *   an open, unexpired checkout already holds gets that checkout again (200), so two tabs or a
 *   double click share one checkout and one charge; a request for a different set of items
 *   supersedes the overlapping open checkouts (they expire) before the new one is made (201);
 *   open checkouts past their expiry are written back to NOT_PAID (expired) there too;
 * - the URL the provider sends the shopper back to (Adyen's returnUrl) is the browser's
 *   return_url with our `reference` added, so the payment screen that opens after a redirect
 *   knows which checkout to confirm;
 * - nothing already purchased is sold again (ALREADY_PAID when every asked item is owned);
 * - without a provider (a deployment with no Adyen and no demo) the settings still say what is
 *   owned (provider null), and a checkout of anything still to pay is refused
 *   (PAYMENT_UNAVAILABLE) after the sitting's own refusals, so nothing is ever "paid" for free;
 * - a provider that fails leaves nothing behind (PAYMENT_ERROR, the transaction is undone).
 */
import { randomUUID } from 'node:crypto';
import { and, eq, gt, inArray, lte } from 'drizzle-orm';
import { ScheduleHistoryStatus } from '../../../contract/enums.ts';
import {
  PaymentStatus,
  type DemoPaymentCompleteRequest,
  type PaymentKind,
  type PaymentLine,
  type PaymentOutcome,
  type PaymentSession,
  type ResultItemKind,
} from '../../../contract/payments.ts';
import type { Db, Tx } from '../../db/client.ts';
import { paymentItems, payments, results, scheduleHistories } from '../../db/schema.ts';
import type { Logger } from '../../logger.ts';
import { DomainError } from '../errors.ts';
import { ownedBy, type Owned } from '../purchases.ts';
import { resultAvailability as availabilityOf } from '../../../machines/schedule-history/schedule-history.selectors.ts';
import { loadOwnSitting, ownSittings, paysExamFee, type Sitting } from '../sitting.ts';
import type { Principal } from '../tokens.ts';
import { grantPayment, itemKindsOf, lockPayment, recordFailure, type PaymentRow } from './grant.ts';
import type { PaymentProvider } from './provider.ts';
import type { PaymentSettings } from './settings.ts';

/** `provider` null: no payment provider on this server (PaymentSettings.demo false, no Adyen). */
export type PaymentDeps = { db: Db; settings: PaymentSettings; provider: PaymentProvider | null; logger: Logger };

type Purpose = 'exam_fee' | 'result_fee';

async function hasPassed(tx: Tx, scheduleHistoryId: number): Promise<boolean> {
  const [row] = await tx.select({ passed: results.passed }).from(results).where(eq(results.scheduleHistoryId, scheduleHistoryId));
  return row?.passed === true;
}

function line(kind: PaymentKind, settings: PaymentSettings, status: 0 | 1 | 2, available: boolean): PaymentLine {
  const unit = settings.prices[kind];
  return { kind, quantity: 1, unit_price_minor: unit, total_minor: unit, status, available };
}

/** Why the exam fee cannot be bought for this sitting now, if it cannot. */
function examFeeRefusal(sitting: Sitting, owned: Owned): DomainError | undefined {
  // Group mode (seed section 3): the school applied and settled the fee; nothing to sell the pupil.
  if (!paysExamFee(sitting)) return new DomainError('NOT_FOUND', 'This exam has no fee to pay online.');
  if (owned.items.exam_fee === PaymentStatus.PAID) return new DomainError('ALREADY_PAID', 'The exam fee is paid.');
  const status = sitting.history.status;
  if (status === ScheduleHistoryStatus.PENDING) return undefined;
  if (status === ScheduleHistoryStatus.CANCELED_PENDING || status === ScheduleHistoryStatus.CANCELED_COMPLETED) {
    return new DomainError('ER_SCHEDULE_HISTORY_CANCELLED');
  }
  if (status === ScheduleHistoryStatus.EXPIRED) return new DomainError('EXPIRED');
  return new DomainError('ER_SCHEDULE_HISTORY_COMPLETED', 'The exam has been started: its fee can no longer be paid.');
}

function settingCommon(deps: PaymentDeps, scheduleHistoryId: number) {
  return {
    schedule_history_id: scheduleHistoryId,
    provider: deps.provider?.name ?? null,
    currency: 'USD' as const,
    adyen: deps.provider?.clientSettings ?? null,
  };
}

/** GET /get-setting-payment-for-exam */
export async function examPaymentSetting(deps: PaymentDeps, principal: Principal, scheduleHistoryId: number, now: Date) {
  const sitting = await loadOwnSitting(deps.db, principal, scheduleHistoryId);
  const owned = await ownedBy(deps.db, scheduleHistoryId, now);
  // A pending fee (an unfinished checkout) can be paid: the open checkout is resumed.
  const available = examFeeRefusal(sitting, owned) === undefined;
  return {
    ...settingCommon(deps, scheduleHistoryId),
    items: [line('exam_fee', deps.settings, owned.items.exam_fee, available)],
    payment_status: owned.examFee,
  };
}

/** What of the result items can be bought: RESULT_NOT_RELEASED before the release. */
async function resultAvailability(tx: Tx, sitting: Sitting, now: Date) {
  // The shared rule (machines/schedule-history): a week after the exam, scored, within two years.
  const availability = availabilityOf({ status: sitting.history.status, finishedAt: sitting.history.finishedAt, now });
  if (availability === 'expired') throw new DomainError('RESULT_VIEW_EXPIRED', 'Results can be viewed for two years after the exam.');
  if (availability !== 'viewable') {
    throw new DomainError('RESULT_NOT_RELEASED', 'Results can be viewed one week after the exam.');
  }
  return { passed: await hasPassed(tx, sitting.history.id) };
}

/** GET /get-setting-payment-for-result */
export async function resultPaymentSetting(deps: PaymentDeps, principal: Principal, scheduleHistoryId: number, now: Date) {
  const sitting = await loadOwnSitting(deps.db, principal, scheduleHistoryId);
  const { passed } = await resultAvailability(deps.db, sitting, now);
  const owned = await ownedBy(deps.db, scheduleHistoryId, now);
  const unpaid = (kind: ResultItemKind) => owned.items[kind] !== PaymentStatus.PAID;
  return {
    ...settingCommon(deps, scheduleHistoryId),
    items: [
      line('result_sheet', deps.settings, owned.items.result_sheet, unpaid('result_sheet')),
      line('certificate', deps.settings, owned.items.certificate, passed && unpaid('certificate')),
    ],
    result_payment_status: owned.result,
  };
}

export type CheckoutRequest = {
  scheduleHistoryId: number;
  returnUrl: string;
  shopperLocale: string | undefined;
};

export type OpenedCheckout = { created: boolean; session: Omit<PaymentSession, 'server_time'> };

/** POST /payment/adyen/sessions/exam-fee */
export function openExamFeeCheckout(deps: PaymentDeps, principal: Principal, request: CheckoutRequest, now: Date) {
  return openCheckout(deps, principal, request, now, 'exam_fee', async (_tx, sitting, owned) => {
    const refusal = examFeeRefusal(sitting, owned);
    if (refusal) throw refusal;
    return ['exam_fee'];
  });
}

/** POST /payment/adyen/sessions/result-fee */
export function openResultFeeCheckout(
  deps: PaymentDeps,
  principal: Principal,
  request: CheckoutRequest & { items: ResultItemKind[] },
  now: Date,
) {
  return openCheckout(deps, principal, request, now, 'result_fee', async (tx, sitting) => {
    const { passed } = await resultAvailability(tx, sitting, now);
    if (request.items.includes('certificate') && !passed) {
      throw new DomainError('NOT_PASSED', 'A certificate is issued only for a passed result.');
    }
    return request.items;
  });
}

async function openCheckout(
  deps: PaymentDeps,
  principal: Principal,
  request: CheckoutRequest,
  now: Date,
  purpose: Purpose,
  itemsToBuy: (tx: Tx, sitting: Sitting, owned: Owned) => Promise<PaymentKind[]>,
): Promise<OpenedCheckout> {
  const { settings, provider } = deps;
  return deps.db.transaction(async (tx) => {
    // The lock serialises every checkout of this sitting: two requests never both see "none open".
    const sitting = await loadOwnSitting(tx, principal, request.scheduleHistoryId, 'update');
    // Abandoned checkouts (open past their expiry) are no longer pending: NOT_PAID, expired.
    await tx
      .update(payments)
      .set({ outcome: 'expired', status: PaymentStatus.NOT_PAID, updatedAt: now })
      .where(
        and(
          eq(payments.scheduleHistoryId, sitting.history.id),
          eq(payments.outcome, 'open'),
          eq(payments.status, PaymentStatus.PENDING),
          lte(payments.expiresAt, now),
        ),
      );
    const owned = await ownedBy(tx as Db, sitting.history.id, now);
    const asked = await itemsToBuy(tx, sitting, owned);
    const kinds = asked.filter((kind) => owned.items[kind] !== PaymentStatus.PAID).sort();
    if (kinds.length === 0) throw new DomainError('ALREADY_PAID', 'Every item asked for is paid already.');
    if (!provider) throw new DomainError('PAYMENT_UNAVAILABLE', 'No payment provider is configured on this server: nothing can be paid online.');

    const open = await openCheckoutsOf(tx, sitting.history.id, purpose, now);
    const same = open.find((c) => c.payment.provider === provider.name && sameKinds(c.kinds, kinds));
    if (same) return { created: false, session: sessionOf(same.payment, same.items) };
    const overlapping = open.filter((c) => c.kinds.some((kind) => kinds.includes(kind))).map((c) => c.payment.id);
    if (overlapping.length > 0) {
      // Superseded: no longer pending; its items are NOT_PAID until the new checkout is paid.
      await tx
        .update(payments)
        .set({ outcome: 'expired', status: PaymentStatus.NOT_PAID, updatedAt: now })
        .where(inArray(payments.id, overlapping));
    }

    const reference = `GR-${randomUUID()}`;
    const lines = kinds.map((kind) => ({ kind, quantity: 1, unitPriceMinor: settings.prices[kind], totalMinor: settings.prices[kind] }));
    const amountMinor = lines.reduce((sum, l) => sum + l.totalMinor, 0);
    const expiresAt = new Date(now.getTime() + settings.checkoutTtlMs);
    let providerSession;
    try {
      providerSession = await provider.createSession({
        reference,
        amountMinor,
        currency: 'USD',
        lines,
        returnUrl: returnUrlFor(request.returnUrl, reference),
        shopperLocale: request.shopperLocale,
        expiresAt,
      });
    } catch (error) {
      deps.logger.error(`${provider.name}: opening a session for ${reference} failed`, error);
      throw new DomainError('PAYMENT_ERROR', 'The payment provider could not open a checkout. Try again.');
    }
    const [payment] = await tx
      .insert(payments)
      .values({
        reference,
        scheduleHistoryId: sitting.history.id,
        purpose,
        // Opened and not completed: PENDING until the provider's outcome (seed section 4).
        status: PaymentStatus.PENDING,
        amountMinor,
        provider: provider.name,
        providerSessionId: providerSession?.id ?? null,
        providerSessionData: providerSession?.sessionData ?? null,
        expiresAt,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const items = await tx
      .insert(paymentItems)
      .values(lines.map((l) => ({ paymentId: payment!.id, ...l })))
      .returning();
    return { created: true, session: sessionOf(payment!, items) };
  });
}

/**
 * Where the provider sends the shopper back: the browser's return_url (its own payment screen)
 * with our reference, so that screen confirms this checkout after the redirect. Adyen appends
 * its own `sessionId` and `redirectResult` to it.
 */
export function returnUrlFor(returnUrl: string, reference: string): string {
  const url = new URL(returnUrl);
  url.searchParams.set('reference', reference);
  return url.toString();
}

/** Open, unexpired checkouts of a sitting for one purpose, with their items. */
async function openCheckoutsOf(tx: Tx, scheduleHistoryId: number, purpose: Purpose, now: Date) {
  const rows = await tx
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.scheduleHistoryId, scheduleHistoryId),
        eq(payments.purpose, purpose),
        eq(payments.outcome, 'open'),
        eq(payments.status, PaymentStatus.PENDING),
        gt(payments.expiresAt, now),
      ),
    );
  return Promise.all(
    rows.map(async (payment) => {
      const items = await tx.select().from(paymentItems).where(eq(paymentItems.paymentId, payment.id));
      return { payment, items, kinds: items.map((i) => i.kind).sort() };
    }),
  );
}

function sameKinds(a: readonly PaymentKind[], b: readonly PaymentKind[]): boolean {
  return a.length === b.length && a.every((kind) => b.includes(kind));
}

/** The checkout as the browser gets it: its own lines and amount, as they were charged (not today's prices). */
function sessionOf(payment: PaymentRow, items: (typeof paymentItems.$inferSelect)[]): OpenedCheckout['session'] {
  return {
    reference: payment.reference,
    provider: payment.provider === 'adyen' ? 'adyen' : 'demo',
    currency: 'USD',
    amount_minor: payment.amountMinor,
    items: [...items]
      .sort((a, b) => a.kind.localeCompare(b.kind))
      .map((i) => ({
        kind: i.kind,
        quantity: i.quantity,
        unit_price_minor: i.unitPriceMinor,
        total_minor: i.totalMinor,
        // Each item of an open checkout is pending until the checkout is paid.
        status: PaymentStatus.PENDING,
        available: true,
      })),
    adyen_session:
      payment.providerSessionId && payment.providerSessionData
        ? { id: payment.providerSessionId, session_data: payment.providerSessionData }
        : null,
    expires_at: payment.expiresAt.toISOString(),
  };
}

/**
 * What the browser is told about a checkout: PAID shows as `paid`; an open one is PENDING until
 * its time runs out, then `expired` and NOT_PAID (whether or not that is written back yet).
 */
async function statusOf(
  tx: Tx,
  payment: PaymentRow,
  now: Date,
): Promise<{ reference: string; status: 0 | 1 | 2; outcome: PaymentOutcome; kinds: PaymentKind[] }> {
  let status = payment.status as 0 | 1 | 2;
  let outcome: PaymentOutcome = payment.outcome;
  if (status === PaymentStatus.PAID) outcome = 'paid';
  else if (outcome === 'open' && payment.expiresAt <= now) {
    outcome = 'expired';
    status = PaymentStatus.NOT_PAID;
  }
  return { reference: payment.reference, status, outcome, kinds: (await itemKindsOf(tx, payment.id)).sort() };
}

/** The caller's own checkout (through its sitting), or NOT_FOUND. */
async function ownPayment(tx: Tx, principal: Principal, reference: string, lock: boolean): Promise<PaymentRow> {
  const query = tx
    .select({ payment: payments })
    .from(payments)
    .innerJoin(scheduleHistories, eq(scheduleHistories.id, payments.scheduleHistoryId))
    .where(and(eq(payments.reference, reference), ownSittings(principal)))
    .limit(1);
  const [row] = lock ? await query.for('update', { of: payments }) : await query;
  if (!row) throw new DomainError('NOT_FOUND', 'No such payment.');
  return row.payment;
}

/** GET /payment/status */
export async function paymentStatus(db: Db, principal: Principal, reference: string, now: Date) {
  return statusOf(db, await ownPayment(db, principal, reference, false), now);
}

/**
 * POST /payment/demo/complete: the tester's outcome for an open demo checkout. Asked again (a
 * double click), the checkout's status is answered as it is; nothing changes twice.
 */
export async function completeDemoPayment(deps: PaymentDeps, principal: Principal, body: DemoPaymentCompleteRequest, now: Date) {
  if (deps.provider?.name !== 'demo') throw new DomainError('NOT_FOUND', 'The demo provider is not in use.');
  return deps.db.transaction(async (tx) => {
    const payment = await ownPayment(tx, principal, body.reference, true);
    if (payment.provider !== 'demo') throw new DomainError('NOT_FOUND', 'No such demo payment.');
    if (payment.outcome !== 'open' || payment.status !== PaymentStatus.PENDING || payment.expiresAt <= now) {
      return statusOf(tx, payment, now);
    }
    if (body.outcome === 'authorised') {
      await grantPayment(tx, payment, `DEMO-${payment.reference}`, now, deps.logger);
    } else {
      await recordFailure(tx, payment, body.outcome, now);
    }
    return statusOf(tx, (await lockPayment(tx, payment.reference)) ?? payment, now);
  });
}
