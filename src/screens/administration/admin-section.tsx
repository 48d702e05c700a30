/**
 * A section of the administrator's console: its heading, named by `id` (the section's tables and
 * landmarks point at it), with `actions` beside it when given (a "Refresh", an "Add"), then the
 * section itself.
 */
import type { ReactNode } from 'react';
import { PageHeading } from '../../components/page/page.tsx';
import styles from './administration.module.css';

export function AdminSection({ id, title, actions, children }: { id: string; title: ReactNode; actions?: ReactNode; children: ReactNode }) {
  const heading = <PageHeading id={id}>{title}</PageHeading>;
  return (
    <section aria-labelledby={id} className={styles.section}>
      {actions === undefined ? (
        heading
      ) : (
        <div className={styles.titleRow}>
          {heading}
          {actions}
        </div>
      )}
      {children}
    </section>
  );
}
