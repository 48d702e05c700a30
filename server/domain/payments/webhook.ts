/**
 * Adyen's standard webhook (JSON): `{ live, notificationItems: [{ NotificationRequestItem }] }`.
 *
 * Promises:
 * - every item's HMAC signature is checked with the library's validator before anything is
 *   written; one bad or missing signature and nothing changes (INVALID_SIGNATURE);
 * - each event (pspReference, eventCode) is recorded once in payment_events; a replay is
 *   accepted again and changes nothing;
 * - AUTHORISATION success marks our checkout (merchantReference) PAID and grants its items
 *   once (./grant.ts); a success whose amount is not the checkout's grants nothing; failure
 *   marks an unpaid checkout refused; other event codes are recorded only;
 * - the answer to an accepted notification is the text `[accepted]` (Adyen's requirement).
 */
import * as v from 'valibot';
import type { Types } from '@adyen/api-library';
import type { Db } from '../../db/client.ts';
import { paymentEvents } from '../../db/schema.ts';
import type { Logger } from '../../logger.ts';
import { DomainError } from '../errors.ts';
import { isSignedItem } from './adyen.ts';
import { grantPayment, lockPayment, recordFailure } from './grant.ts';
import type { AdyenSettings } from './settings.ts';

const text = v.pipe(v.string(), v.maxLength(1000));

const NotificationItemSchema = v.object({
  additionalData: v.optional(v.record(v.string(), v.optional(v.string()))),
  amount: v.object({ currency: v.pipe(v.string(), v.maxLength(3)), value: v.pipe(v.number(), v.integer()) }),
  eventCode: v.pipe(v.string(), v.nonEmpty(), v.maxLength(100)),
  eventDate: v.optional(text),
  merchantAccountCode: text,
  merchantReference: text,
  originalReference: v.optional(text),
  paymentMethod: v.optional(text),
  pspReference: v.pipe(v.string(), v.nonEmpty(), v.maxLength(100)),
  reason: v.optional(text),
  success: v.picklist(['true', 'false']),
});

export const AdyenNotificationSchema = v.object({
  live: v.optional(v.string()),
  notificationItems: v.pipe(
    v.array(v.object({ NotificationRequestItem: v.looseObject(NotificationItemSchema.entries) })),
    v.minLength(1),
    v.maxLength(100),
  ),
});
export type AdyenNotification = v.InferOutput<typeof AdyenNotificationSchema>;
type Item = AdyenNotification['notificationItems'][number]['NotificationRequestItem'];

/** Handles one verified notification; throws INVALID_SIGNATURE (and writes nothing) when any item fails. */
export async function handleAdyenNotification(
  db: Db,
  adyen: AdyenSettings,
  notification: AdyenNotification,
  now: Date,
  logger: Logger,
): Promise<void> {
  const items = notification.notificationItems.map((n) => n.NotificationRequestItem);
  // The library's item type declares its enums; the signed fields are the same strings.
  if (!items.every((item) => isSignedItem(item as unknown as Types.notification.NotificationRequestItem, adyen.hmacKey))) {
    throw new DomainError('INVALID_SIGNATURE', 'A notification item is not signed with our HMAC key.');
  }
  for (const item of items) await handleItem(db, adyen, item, now, logger);
}

async function handleItem(db: Db, adyen: AdyenSettings, item: Item, now: Date, logger: Logger): Promise<void> {
  await db.transaction(async (tx) => {
    const recorded = await tx
      .insert(paymentEvents)
      .values({
        provider: 'adyen',
        pspReference: item.pspReference,
        eventCode: item.eventCode,
        merchantReference: item.merchantReference,
        success: item.success === 'true',
        payload: item,
        receivedAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: paymentEvents.id });
    if (recorded.length === 0) return; // a replay: handled the first time
    if (item.eventCode !== 'AUTHORISATION') return;
    if (item.merchantAccountCode !== adyen.merchantAccount) {
      logger.error(`adyen: AUTHORISATION ${item.pspReference} for merchant account ${item.merchantAccountCode} ignored`);
      return;
    }
    const payment = await lockPayment(tx, item.merchantReference);
    if (!payment || payment.provider !== 'adyen') {
      logger.error(`adyen: AUTHORISATION ${item.pspReference} names no checkout of ours (${item.merchantReference})`);
      return;
    }
    if (item.success !== 'true') {
      await recordFailure(tx, payment, 'refused', now);
      return;
    }
    if (item.amount.value !== payment.amountMinor || item.amount.currency !== payment.currency) {
      logger.error(
        `adyen: AUTHORISATION ${item.pspReference} of ${item.amount.value} ${item.amount.currency} does not match checkout ${payment.reference} (${payment.amountMinor} ${payment.currency}): not granted, refund due`,
      );
      await recordFailure(tx, payment, 'error', now);
      return;
    }
    await grantPayment(tx, payment, item.pspReference, now, logger);
  });
}
