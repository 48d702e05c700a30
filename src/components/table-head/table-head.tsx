/**
 * A table's column headings: one row in `<thead>`, each heading a `<th scope="col">`, so a
 * screen reader names every cell by its column. The exam list and the score report's tables
 * write their headings as a list of words instead of one `<th>` block each.
 */
import type { ReactNode } from 'react';

export function TableHead({ columns }: { columns: readonly ReactNode[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column, index) => (
          // The columns never move: their place is their key.
          <th key={index} scope="col">
            {column}
          </th>
        ))}
      </tr>
    </thead>
  );
}
