/**
 * The payment items' names (seed section 3: exam fee, result sheet, certificate), picked by kind
 * on the payment and purchased-result screens.
 */
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { PaymentKind } from '../../../contract/payments.ts';

export const itemNames: Record<PaymentKind, MessageDescriptor> = {
  exam_fee: msg`Exam fee`,
  result_sheet: msg`Result sheet`,
  certificate: msg`Certificate`,
};
