/**
 * A table of the administrator's console: a focusable region named by its section's heading
 * (`labelledBy`), which scrolls sideways on a narrow screen, around a table with one heading per
 * column and the caller's rows.
 */
import type { ReactNode } from 'react';
import { TableHead } from '../../components/table-head/table-head.tsx';
import styles from './administration.module.css';

export function AdminTable({ labelledBy, columns, children }: { labelledBy: string; columns: readonly ReactNode[]; children: ReactNode }) {
  return (
    <div className={styles.tableFrame} role="region" aria-labelledby={labelledBy} tabIndex={0}>
      <table className={styles.table}>
        <TableHead columns={columns} />
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
