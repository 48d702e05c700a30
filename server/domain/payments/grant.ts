/**
 * Turning a checkout into what the pupil owns. A checkout is marked PAID with the provider's
 * reference of the authorisation, and each of its items is granted by one row in `purchases`
 * (primary key: sitting and item), so an item is granted once, whatever happens: a second
 * checkout that got through for an already purchased item (two tabs both paid) stays PAID
 * with its psp reference, for a refund, and is logged; it grants nothing.
 */
import { and, eq, ne } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { paymentItems, payments, purchases, type PaymentKind } from '../../db/schema.ts';
import { enqueueDocuments } from '../../documents/store.ts';
import type { Logger } from '../../logger.ts';
import { PaymentStatus } from '../../../contract/payments.ts';

export type PaymentRow = typeof payments.$inferSelect;

/** The checkout with this reference, locked for the change that follows; undefined if none. */
export async function lockPayment(tx: Tx, reference: string): Promise<PaymentRow | undefined> {
  const [row] = await tx.select().from(payments).where(eq(payments.reference, reference)).limit(1).for('update');
  return row;
}

export async function itemKindsOf(tx: Tx, paymentId: number): Promise<PaymentKind[]> {
  const rows = await tx.select({ kind: paymentItems.kind }).from(paymentItems).where(eq(paymentItems.paymentId, paymentId));
  return rows.map((r) => r.kind);
}

/**
 * Marks the (locked) checkout PAID and grants its items once. Returns the items granted now
 * (empty when each was owned already). Call inside a transaction.
 */
export async function grantPayment(
  tx: Tx,
  payment: PaymentRow,
  pspReference: string,
  now: Date,
  logger: Logger,
): Promise<PaymentKind[]> {
  if (payment.status === PaymentStatus.PAID) {
    if (payment.pspReference !== pspReference) {
      logger.error(
        `payment ${payment.reference} was authorised again (psp ${pspReference}; paid by ${payment.pspReference ?? 'unknown'}): refund ${pspReference}`,
      );
    }
    return [];
  }
  await tx
    .update(payments)
    .set({ status: PaymentStatus.PAID, outcome: 'authorised', pspReference, updatedAt: now })
    .where(eq(payments.id, payment.id));
  const kinds = await itemKindsOf(tx, payment.id);
  const granted: PaymentKind[] = [];
  for (const kind of kinds) {
    const inserted = await tx
      .insert(purchases)
      .values({ scheduleHistoryId: payment.scheduleHistoryId, kind, paymentId: payment.id, paidAt: now })
      .onConflictDoNothing()
      .returning({ kind: purchases.kind });
    if (inserted.length > 0) granted.push(kind);
  }
  // A document bought after the release is printed now (the job prints nothing before it).
  if (granted.includes('result_sheet') || granted.includes('certificate')) await enqueueDocuments(tx, payment.scheduleHistoryId, now);
  const twice = kinds.filter((kind) => !granted.includes(kind));
  if (twice.length > 0) {
    logger.error(
      `payment ${payment.reference} (psp ${pspReference}) paid ${twice.join(', ')} of schedule history ${payment.scheduleHistoryId} a second time: not granted again, refund due`,
    );
  }
  return granted;
}

/** Records a refusal, cancellation or error on an unpaid checkout (a paid one never goes back). */
export async function recordFailure(
  tx: Tx,
  payment: PaymentRow,
  outcome: 'refused' | 'cancelled' | 'error',
  now: Date,
): Promise<void> {
  await tx
    .update(payments)
    .set({ status: PaymentStatus.NOT_PAID, outcome, updatedAt: now })
    .where(and(eq(payments.id, payment.id), ne(payments.status, PaymentStatus.PAID)));
}
