/**
 * The payment screens bound to their payment actors (machines/payment/payment.connect.ts decides
 * what they show and which events they may send): pay-exam-fee to the session's child `payment`
 * (`feePayment`), whose Back and Continue go to the session; pay-exam-result to the results'
 * child `payment` (`resultPayment`), whose Back and Continue go to the results. Until the payment
 * runs (its owner is about to start it), the screen shows its loading phase.
 */
import { useSelector } from '@xstate/react';
import { connect } from '../../../machines/payment/payment.connect.ts';
import { PaymentScreen } from '../../screens/payment/payment.tsx';
import { useSystemActor } from '../actors.ts';
import { useResults } from './use-results.ts';

export function ConnectedPayExamFee() {
  const session = useSystemActor('session');
  const payment = useSystemActor('feePayment');
  const snapshot = useSelector(payment, (current) => current);
  const api = connect(snapshot, (event) => payment?.send(event), (event) => session?.send(event), 'exam_fee');
  return <PaymentScreen api={api} />;
}

export function ConnectedPayExamResult() {
  const { paymentOwner } = useResults();
  const payment = useSystemActor('resultPayment');
  const snapshot = useSelector(payment, (current) => current);
  const api = connect(snapshot, (event) => payment?.send(event), paymentOwner, 'result_fee');
  return <PaymentScreen api={api} />;
}
