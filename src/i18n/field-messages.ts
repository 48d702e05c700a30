/**
 * Messages of form fields (seed section 5): "{attribute} is a required field", and the
 * format rules of the fields the journey has.
 */
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';

/** "{attribute} is a required field" with the field's (already translated) label. */
export function requiredFieldMessage(attribute: string): MessageDescriptor {
  return msg`${attribute} is a required field`;
}

export const invalidLoginCodeMessage: MessageDescriptor = msg`A login code is three groups of four letters and numbers, like AC3E-F4GH-J6KM.`;

/** Seed section 5: "Please enter a valid Email address." (the server's INVALID_EMAIL reads the same). */
export const invalidEmailMessage: MessageDescriptor = msg`Please enter a valid Email address.`;

/** A text field longer than the contract allows. */
export const tooLongMessage: MessageDescriptor = msg`This is too long. Please make it shorter.`;
