/**
 * A number answer: the on-screen keypad with the keys the question allows (input kind
 * "keypad"; a question without it gets digits only), handing over the contract's normalised
 * value ("-3", "2.5", "3/4") as soon as it is complete and changed.
 */
import type { AnswerInput } from '../../../../contract/exam.ts';
import { Keypad } from '../../../components/keypad/keypad.tsx';

export interface NumberAnswerProps {
  input: AnswerInput | null | undefined;
  value: string;
  disabled: boolean;
  onAnswer(value: string): void;
}

export function NumberAnswer({ input, value, disabled, onAnswer }: NumberAnswerProps) {
  const options =
    input?.kind === 'keypad'
      ? { negative: input.negative, decimal: input.decimal, fraction: input.fraction }
      : { negative: false, decimal: false, fraction: false };
  return <Keypad options={options} value={value} disabled={disabled} onValue={onAnswer} />;
}
