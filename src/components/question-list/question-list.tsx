/**
 * The question list overview (question_list_flag): every question as a button that jumps to
 * it, each saying in text and with an icon whether it is answered, not answered, or flagged
 * for review; the current question is marked with aria-current. A plain list of buttons, so
 * Tab and Enter/Space reach every question with the keyboard alone.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { CheckIcon, CircleIcon, WarningIcon } from '../icon/icons.tsx';
import styles from './question-list.module.css';

export interface QuestionListItem {
  id: number;
  answered: boolean;
  flagged: boolean;
}

export interface QuestionListProps {
  items: QuestionListItem[];
  /** 0-based index of the question on screen. */
  current: number;
  disabled?: boolean;
  onSelect(index: number): void;
}

export function QuestionList({ items, current, disabled = false, onSelect }: QuestionListProps) {
  const { t } = useLingui();
  return (
    <nav className={styles.panel} aria-label={t`Question list`} id="question-list">
      <ol className={styles.list}>
        {items.map((item, index) => {
          const number = index + 1;
          const state = item.flagged ? 'flagged' : item.answered ? 'answered' : 'unanswered';
          return (
            <li key={item.id}>
              <button
                type="button"
                className={styles.item}
                data-state={state}
                data-answered={item.answered || undefined}
                aria-current={index === current ? 'step' : undefined}
                disabled={disabled}
                onClick={() => onSelect(index)}
              >
                <span className={styles.number}>{number}</span>
                <span className={styles.icon} aria-hidden="true">
                  {item.flagged ? <WarningIcon /> : item.answered ? <CheckIcon /> : <CircleIcon />}
                </span>
                <span className={styles.label}>
                  {item.answered ? <Trans>Answered</Trans> : <Trans>Not answered</Trans>}
                  {item.flagged && (
                    <>
                      {', '}
                      <Trans>Flagged for review</Trans>
                    </>
                  )}
                </span>
              </button>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
