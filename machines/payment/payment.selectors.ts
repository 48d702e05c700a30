/**
 * Snapshot of the payment machine to what the payment screen shows (src/screens/payment/):
 * `viewOf(snapshot): PaymentView`. Pure; the screen decides nothing else.
 */
import type { SnapshotFrom } from 'xstate';
import { PaymentStatus } from '../../contract/payments.ts';
import type { paymentMachine } from './payment.machine.ts';
import { canCheckout, chosenLines } from './payment.rules.ts';
import type { PaymentPhase, PaymentView } from './payment.types.ts';

export type PaymentSnapshot = SnapshotFrom<typeof paymentMachine>;

/** The phases that are the machine's top states by name, in the order they are tried; any other state is choosing. */
const statePhases = ['loading', 'loadFailed', 'startingCheckout', 'checkout', 'returning', 'confirming', 'declined', 'paid'] as const satisfies readonly PaymentPhase[];

function phaseOf(snapshot: PaymentSnapshot): PaymentPhase {
  return statePhases.find((phase) => snapshot.matches(phase)) ?? 'choosing';
}

export function viewOf(snapshot: PaymentSnapshot): PaymentView {
  const { context } = snapshot;
  const phase = phaseOf(snapshot);
  const open = phase === 'checkout' || phase === 'confirming';
  return {
    phase,
    purpose: context.purpose,
    provider: context.setting?.provider ?? null,
    adyen: context.setting?.adyen ?? null,
    items: context.items,
    selected: context.selected,
    totalMinor: chosenLines(context).reduce((sum, line) => sum + line.total_minor, 0),
    termsAccepted: context.termsAccepted,
    canCheckout: phase === 'choosing' && canCheckout(context),
    // Kept once paid: a paid view with no checkout of this visit was paid before (already paid).
    session: open || phase === 'paid' ? context.session : null,
    redirect:
      phase === 'returning' && context.returning?.sessionId && context.returning.redirectResult
        ? { sessionId: context.returning.sessionId, redirectResult: context.returning.redirectResult }
        : null,
    // The server confirmed a checkout here (this visit, or the one the redirect came back for).
    justPaid: phase === 'paid' && context.checkoutStatus?.status === PaymentStatus.PAID,
    paymentStatus: context.paymentStatus,
    failure: phase === 'declined' || phase === 'loadFailed' ? context.failure : null,
  };
}
