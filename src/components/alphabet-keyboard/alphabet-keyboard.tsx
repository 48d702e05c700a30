/**
 * The on-screen alphabet keyboard (seed: alphabets_keyboard_flag) for typed English answers
 * on tablets and for pupils who do not know a physical keyboard yet: the letters A–Z in
 * keyboard rows, Space, Backspace and the "ABC/abc" key for capital letters. Whether it types
 * capitals (mode_upper_case_flag) is the exam machine's: `capitals` comes in, the key only asks
 * to switch (`onToggleCapitals`). A question written in capital letters (`upperCaseOnly`) types
 * capitals only, and the key is locked.
 *
 * One Tab stop: the arrow keys move between the keys (a roving tabindex), Home/End to the
 * row's ends, Enter or Space presses. Each key is a button with an accessible name. Latin
 * letters keep their left-to-right layout in Arabic too (dir="ltr").
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState, type KeyboardEvent } from 'react';
import styles from './alphabet-keyboard.module.css';

export type AlphabetKey = { kind: 'letter'; letter: string } | { kind: 'space' } | { kind: 'backspace' } | { kind: 'shift' };

const LETTER_ROWS = ['QWERTYUIOP', 'ASDFGHJKL', 'ZXCVBNM'];

export interface AlphabetKeyboardProps {
  /** The question is written in capital letters: capitals only, the "ABC" key locked. */
  upperCaseOnly: boolean;
  /** The pupil switched to capital letters (mode_upper_case_flag). */
  capitals: boolean;
  /** The "ABC/abc" key: asks to switch between capital and small letters. */
  onToggleCapitals(): void;
  /** The element's id (the show/hide button controls it). */
  id?: string;
  disabled: boolean;
  /** A letter (in the case shown) or a space to add. */
  onInsert(text: string): void;
  onBackspace(): void;
}

export function AlphabetKeyboard({ upperCaseOnly, capitals, onToggleCapitals, id: elementId, disabled, onInsert, onBackspace }: AlphabetKeyboardProps) {
  const { t } = useLingui();
  const shown = upperCaseOnly || capitals;
  const [focused, setFocused] = useState<[number, number]>([0, 0]);
  const keyRefs = useRef(new Map<string, HTMLButtonElement>());

  const rows: AlphabetKey[][] = [
    ...LETTER_ROWS.map((row) => [...row].map((letter): AlphabetKey => ({ kind: 'letter', letter }))),
    [{ kind: 'shift' }, { kind: 'space' }, { kind: 'backspace' }],
  ];

  const focusKey = (row: number, column: number) => {
    const r = Math.max(0, Math.min(rows.length - 1, row));
    const c = Math.max(0, Math.min(rows[r]!.length - 1, column));
    setFocused([r, c]);
    keyRefs.current.get(`${r}:${c}`)?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, row: number, column: number) => {
    // Rows differ in length: Up and Down keep the position in proportion.
    const across = (to: number) => Math.round((column / Math.max(1, rows[row]!.length - 1)) * (rows[to]!.length - 1));
    const moves: Record<string, () => void> = {
      ArrowLeft: () => focusKey(row, column - 1),
      ArrowRight: () => focusKey(row, column + 1),
      ArrowUp: () => focusKey(row - 1, across(Math.max(0, row - 1))),
      ArrowDown: () => focusKey(row + 1, across(Math.min(rows.length - 1, row + 1))),
      Home: () => focusKey(row, 0),
      End: () => focusKey(row, rows[row]!.length - 1),
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    move();
  };

  const press = (key: AlphabetKey) => {
    if (disabled) return;
    if (key.kind === 'letter') onInsert(shown ? key.letter : key.letter.toLowerCase());
    else if (key.kind === 'space') onInsert(' ');
    else if (key.kind === 'backspace') onBackspace();
    else if (!upperCaseOnly) onToggleCapitals();
  };

  const [focusRow, focusColumn] = focused;
  return (
    <div id={elementId} className={styles.keyboard} role="group" aria-label={t`Alphabet keyboard`} dir="ltr">
      {rows.map((row, r) => (
        <div key={r} className={styles.row}>
          {row.map((key, c) => {
            const id = `${r}:${c}`;
            const common = {
              ref: (element: HTMLButtonElement | null) => {
                if (element) keyRefs.current.set(id, element);
                else keyRefs.current.delete(id);
              },
              type: 'button' as const,
              tabIndex: r === focusRow && c === focusColumn ? 0 : -1,
              disabled,
              // Keeps the caret in the answer box when a key is clicked or tapped.
              onMouseDown: (event: React.MouseEvent) => event.preventDefault(),
              onClick: () => press(key),
              onFocus: () => setFocused([r, c]),
              onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => onKeyDown(event, r, c),
            };
            if (key.kind === 'letter') {
              const letter = shown ? key.letter : key.letter.toLowerCase();
              return (
                <button key={id} {...common} className={styles.key}>
                  {letter}
                </button>
              );
            }
            if (key.kind === 'space') {
              return (
                <button key={id} {...common} className={styles.key} data-kind="space">
                  <Trans>Space</Trans>
                </button>
              );
            }
            if (key.kind === 'backspace') {
              return (
                <button key={id} {...common} className={styles.key} data-kind="wide" aria-label={t`Backspace`}>
                  <span aria-hidden="true">⌫</span>
                </button>
              );
            }
            return (
              <button
                key={id}
                {...common}
                className={styles.key}
                data-kind="wide"
                aria-pressed={shown}
                aria-disabled={upperCaseOnly || undefined}
                aria-label={t`Capital letters`}
                title={upperCaseOnly ? t`This answer is written in capital letters.` : undefined}
              >
                <span aria-hidden="true">{shown ? 'ABC' : 'abc'}</span>
              </button>
            );
          })}
        </div>
      ))}
      {upperCaseOnly && (
        <p className={styles.note}>
          <Trans>This answer is written in capital letters.</Trans>
        </p>
      )}
    </div>
  );
}
