/**
 * The on-screen number keypad: a read-only display labelled "Your answer" and large keys, the
 * digits and only the keys the question allows ("−" toggles the sign, "." decimal, "/"
 * fraction), Backspace and Clear. The physical keyboard's digits and those signs work too,
 * wherever the focus is in the question. `onValue` gets the contract's normalised value each
 * time the draft becomes a complete number different from the last one handed over; an
 * unfinished draft ("3/", "2.") stays here, with a hint that it is not saved yet.
 *
 * Numbers read left to right in every language: the display and the keys are dir="ltr". The
 * keys and the display show the language's digits and decimal separator (Arabic-Indic and "٫"
 * for ar-nu-arab); what the keypad hands over, and so what is sent to the server, is always
 * ASCII with ".".
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState } from 'react';
import { decimalSeparatorOf, localizeDigits } from '../../i18n/format.ts';
import { useLanguage } from '../../i18n/language-context.tsx';
import { displayOf, keyFromKeyboard, pressKey, valueOf, type KeypadKey, type KeypadOptions } from './keypad-value.ts';
import styles from './keypad.module.css';

export interface KeypadProps {
  options: KeypadOptions;
  /** The value last saved for this question ("" when none). */
  value: string;
  disabled: boolean;
  onValue(value: string): void;
}

export function Keypad({ options, value, disabled, onValue }: KeypadProps) {
  const { t } = useLingui();
  const { language } = useLanguage();
  const displayId = useId();
  const hintId = useId();
  const [draft, setDraft] = useState(value);
  // Key presses can come faster than renders: the draft of record is the ref.
  const current = useRef(value);
  const handedOver = useRef(value);
  const root = useRef<HTMLDivElement>(null);

  const press = (key: KeypadKey) => {
    if (disabled) return;
    const next = pressKey(current.current, key, options);
    current.current = next;
    setDraft(next);
    const complete = valueOf(next);
    if (complete !== null && complete !== handedOver.current) {
      handedOver.current = complete;
      onValue(complete);
    }
  };

  // The physical keyboard: anywhere in the question (the heading has the focus first), never
  // in a dialog or another text field.
  const latestPress = useRef(press);
  useEffect(() => {
    latestPress.current = press;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
      const target = event.target as HTMLElement | null;
      const question = root.current?.closest('section') ?? root.current;
      const inQuestion = target === document.body || (target !== null && question?.contains(target));
      if (!inQuestion) return;
      const key = keyFromKeyboard(event.key);
      if (!key) return;
      event.preventDefault();
      latestPress.current(key);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  const incomplete = draft !== '' && valueOf(draft) === null;
  const digitRows: KeypadKey[][] = [
    ['7', '8', '9'],
    ['4', '5', '6'],
    ['1', '2', '3'],
  ];
  const extraKeys: { key: KeypadKey; label: string; name: string }[] = [];
  if (options.negative) extraKeys.push({ key: 'minus', label: '−', name: t`Minus` });
  if (options.decimal) extraKeys.push({ key: 'point', label: decimalSeparatorOf(language), name: t`Decimal point` });
  if (options.fraction) extraKeys.push({ key: 'slash', label: '/', name: t`Fraction bar` });

  return (
    <div ref={root} className={styles.keypad}>
      <div className="field">
        <label htmlFor={displayId} className="field-label">
          <Trans>Your answer</Trans>
        </label>
        <input
          id={displayId}
          className={`input ${styles.display}`}
          type="text"
          readOnly
          inputMode="none"
          dir="ltr"
          value={displayOf(draft, language)}
          aria-describedby={incomplete ? hintId : undefined}
          disabled={disabled}
        />
        {incomplete && (
          <p id={hintId} className={styles.hint} aria-live="polite">
            <Trans>Finish the number: it is not saved yet.</Trans>
          </p>
        )}
      </div>
      <div className={styles.keys} role="group" aria-label={t`Number keypad`} dir="ltr">
        {digitRows.flat().map((digit) => (
          <KeyButton key={digit} label={localizeDigits(digit, language)} disabled={disabled} onPress={() => press(digit)} />
        ))}
        <KeyButton label={localizeDigits('0', language)} disabled={disabled} onPress={() => press('0')} />
        {extraKeys.map(({ key, label, name }) => (
          <KeyButton key={key} label={label} name={name} disabled={disabled} onPress={() => press(key)} />
        ))}
        <KeyButton label="⌫" name={t`Backspace`} disabled={disabled} onPress={() => press('backspace')} />
        <KeyButton label={t`Clear`} disabled={disabled} wide onPress={() => press('clear')} />
      </div>
    </div>
  );
}

function KeyButton({ label, name, disabled, wide, onPress }: { label: string; name?: string; disabled: boolean; wide?: boolean; onPress(): void }) {
  return (
    <button
      type="button"
      className={styles.key}
      data-wide={wide || undefined}
      aria-label={name}
      disabled={disabled}
      onClick={onPress}
    >
      <span aria-hidden={name ? true : undefined}>{label}</span>
    </button>
  );
}
