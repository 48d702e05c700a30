/**
 * The payment screens (pay-exam-fee, pay-exam-result) wired to the kiosk machine: the session's
 * payment child decides what they show. Until that child has started, the screen shows its
 * loading phase.
 */
import type { PaymentPurpose, PaymentView } from '../../../machines/payment/payment.types.ts';
import { PaymentScreen } from '../../screens/payment/payment.tsx';
import { useScreen } from '../kiosk-bindings.ts';

function loadingView(purpose: PaymentPurpose): PaymentView {
  return {
    phase: 'loading',
    purpose,
    provider: null,
    adyen: null,
    items: [],
    selected: [],
    totalMinor: 0,
    termsAccepted: false,
    canCheckout: false,
    session: null,
    redirect: null,
    justPaid: false,
    paymentStatus: 0,
    failure: null,
  };
}

export function ConnectedPayExamFee() {
  const { view, ...props } = useScreen('pay-exam-fee');
  return <PaymentScreen {...props} view={view ?? loadingView('exam_fee')} />;
}

export function ConnectedPayExamResult() {
  const { view, ...props } = useScreen('pay-exam-result');
  return <PaymentScreen {...props} view={view ?? loadingView('result_fee')} />;
}
