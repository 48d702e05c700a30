/**
 * A CSV file for spreadsheet programs (RFC 4180; no CSV writer is among our dependencies, and
 * this is the whole of it): UTF-8 with a byte order mark, so Excel reads every script; CRLF line
 * ends; a field is quoted when it holds a comma, a quote or a line break, its quotes doubled.
 *
 * Formula injection (OWASP "CSV Injection"): a cell that begins with `=`, `+`, `-`, `@`, a tab
 * or a carriage return would be run as a formula by a spreadsheet program; it gets a single
 * quote in front, which makes it text. Numbers we write ourselves (a score, a negative never)
 * are given as numbers and never touched.
 */

export type CsvCell = string | number | null;

const BOM = '\uFEFF';
const formulaStart = /^[=+\-@\t\r]/;

/** A text cell made safe for a spreadsheet program: a leading formula character is quoted away. */
export function neutralise(text: string): string {
  return formulaStart.test(text) ? `'${text}` : text;
}

function field(cell: CsvCell): string {
  if (cell === null) return '';
  const text = typeof cell === 'number' ? String(cell) : neutralise(cell);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The whole file: BOM, header, rows, each line ended by CRLF. */
export function writeCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  const lines = [header, ...rows].map((row) => row.map(field).join(','));
  return `${BOM}${lines.map((line) => `${line}\r\n`).join('')}`;
}
