/**
 * What a schedule history has paid for, read by the testing menu, the results and the documents
 * (server/domain/payments/ writes it). One function so that every reader agrees:
 *
 * - an item is paid when it has a row in `purchases` (granted once, whatever the checkouts);
 * - an item is PENDING (seed section 4, PENDING 1) while a checkout containing it is open: opened
 *   and neither paid nor ended (refused, cancelled, failed, superseded or past its expiry); the
 *   testing menu shows it as "payment not completed". Else NOT_PAID;
 * - result payment status (seed section 4): NOT_PAID 0, PAID_ALL 1 (result sheet and
 *   certificate), PAID_PART 2 (one of them).
 */
import { and, eq, gt } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { PaymentStatus, ResultPaymentStatus } from '../../contract/payments.ts';
import { paymentItems, payments, purchases, type PaymentKind } from '../db/schema.ts';

export type Owned = {
  /** NOT_PAID 0, PENDING 1, PAID 2, per item. */
  items: Record<PaymentKind, 0 | 1 | 2>;
  examFee: 0 | 1 | 2;
  /** NOT_PAID 0, PAID_ALL 1, PAID_PART 2. */
  result: 0 | 1 | 2;
};

/**
 * What the sitting owns. With `now`, an open checkout past its expiry no longer counts as PENDING
 * (it is written back to NOT_PAID the next time a checkout of the sitting is opened); without it,
 * only PAID matters to the caller.
 */
export async function ownedBy(db: Db, scheduleHistoryId: number, now?: Date): Promise<Owned> {
  const paid = await db
    .select({ kind: purchases.kind })
    .from(purchases)
    .where(eq(purchases.scheduleHistoryId, scheduleHistoryId));
  const pending = await db
    .select({ kind: paymentItems.kind })
    .from(paymentItems)
    .innerJoin(payments, eq(payments.id, paymentItems.paymentId))
    .where(
      and(
        eq(payments.scheduleHistoryId, scheduleHistoryId),
        eq(payments.status, PaymentStatus.PENDING),
        now === undefined ? undefined : gt(payments.expiresAt, now),
      ),
    );
  const statusOf = (kind: PaymentKind): 0 | 1 | 2 =>
    paid.some((p) => p.kind === kind) ? 2 : pending.some((p) => p.kind === kind) ? 1 : 0;
  const items = { exam_fee: statusOf('exam_fee'), result_sheet: statusOf('result_sheet'), certificate: statusOf('certificate') };
  const paidParts = (items.result_sheet === 2 ? 1 : 0) + (items.certificate === 2 ? 1 : 0);
  return {
    items,
    examFee: items.exam_fee,
    result: paidParts === 2 ? ResultPaymentStatus.PAID_ALL : paidParts === 1 ? ResultPaymentStatus.PAID_PART : ResultPaymentStatus.NOT_PAID,
  };
}
