/**
 * Label/value rows (a <dl> of <div><dt/><dd/></div>): the candidate's details on login-confirm,
 * the registered basic information and its confirmation step, the short result. One component
 * and one style sheet (src/styles/details.module.css), so they stay one look.
 */
import type { HTMLAttributes, ReactNode } from 'react';
import styles from '../../styles/details.module.css';

export function Details({ children }: { children: ReactNode }) {
  return <dl className={styles.details}>{children}</dl>;
}

/** One row: its label, and its value with what the value needs (its own direction, a class). */
export function DetailRow({ label, children, ...value }: { label: ReactNode; children: ReactNode } & Pick<HTMLAttributes<HTMLElement>, 'className' | 'dir'>) {
  return (
    <div className={styles.row}>
      <dt>{label}</dt>
      <dd {...value}>{children}</dd>
    </div>
  );
}

/**
 * One row of a `<dl>` that has its own look (a login slip's facts, a payment's figures, the
 * certificate's facts, the exam's receipt): a plain `<div>` of its term and its value, the value
 * with what it needs (a data-item, a direction, a class).
 */
export function Fact({ term, children, ...value }: { term: ReactNode; children: ReactNode } & HTMLAttributes<HTMLElement>) {
  return (
    <div>
      <dt>{term}</dt>
      <dd {...value}>{children}</dd>
    </div>
  );
}
