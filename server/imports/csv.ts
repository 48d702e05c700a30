/**
 * Reading a roster file: bytes to records of named, trimmed cells, or the refusal of the whole
 * file. Promises:
 * - A file over MAX_ROSTER_FILE_BYTES is refused before a single byte is decoded ('too_large').
 * - Only UTF-8 is read (with or without a byte order mark); any byte sequence that is not UTF-8
 *   (a Latin-1 or UTF-16 export) or a NUL character is refused ('encoding'), never guessed at.
 * - The delimiter is what the header line uses: `;` (Excel in many locales) when the header has
 *   more semicolons than commas outside quotes, else `,`. Quoted cells may hold delimiters,
 *   quotes ("") and line breaks (csv-parse does the parsing).
 * - Header names are matched in any case and without surrounding spaces; a missing required
 *   column, an unknown column and a column named twice are refused on row 1.
 * - Rows are numbered as a spreadsheet shows them: the header is row 1, an empty line is a row
 *   (skipped), a cell with a line break inside quotes stays in its row.
 */
import { parse } from 'csv-parse/sync';
import { MAX_ROSTER_FILE_BYTES, type ImportProblem } from '../../contract/imports.ts';

export type CsvColumns = { required: readonly string[]; optional: readonly string[] };

/** A data row: its spreadsheet row number and the cells of the columns the file has. */
export type CsvRecord = { row: number; cells: Record<string, string> };

export type CsvRefusal = { row: number | null; problems: ImportProblem[] };

export type CsvTable =
  | { ok: true; columns: ReadonlySet<string>; records: CsvRecord[] }
  | { ok: false; refusal: CsvRefusal };

const refuse = (row: number | null, ...problems: ImportProblem[]): CsvTable => ({ ok: false, refusal: { row, problems } });

/** Decodes, parses and checks the header of a roster file with these columns. */
export function readCsv(bytes: Uint8Array, columns: CsvColumns): CsvTable {
  if (bytes.byteLength > MAX_ROSTER_FILE_BYTES) return refuse(null, { column: null, reason: 'too_large', value: String(bytes.byteLength) });
  let text: string;
  try {
    // fatal: a byte sequence that is not UTF-8 throws; the BOM, if any, is dropped.
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return refuse(null, { column: null, reason: 'encoding' });
  }
  // UTF-16 of ASCII text is valid UTF-8 with a NUL every other byte; PostgreSQL stores no NUL.
  if (text.includes('\u0000')) return refuse(null, { column: null, reason: 'encoding' });
  if (text.trim() === '') return refuse(null, { column: null, reason: 'empty_file' });

  let rows: string[][];
  try {
    rows = parse(text, { delimiter: delimiterOf(text), relax_column_count: true, record_delimiter: ['\r\n', '\n', '\r'] });
  } catch (error) {
    const line = typeof error === 'object' && error !== null && 'lines' in error && typeof error.lines === 'number' ? error.lines : null;
    return refuse(line, { column: null, reason: 'invalid' });
  }

  const headerIndex = rows.findIndex((cells) => !isBlank(cells));
  const header = (rows[headerIndex] ?? []).map((name) => name.trim().toLowerCase());
  const headerRow = headerIndex + 1;
  const known = new Set([...columns.required, ...columns.optional]);
  const problems: ImportProblem[] = [];
  const seen = new Set<string>();
  for (const name of header) {
    if (name === '') continue;
    if (!known.has(name)) problems.push({ column: name, reason: 'unknown_column' });
    else if (seen.has(name)) problems.push({ column: name, reason: 'duplicate_column' });
    seen.add(name);
  }
  for (const name of columns.required) if (!seen.has(name)) problems.push({ column: name, reason: 'missing_column' });
  if (problems.length > 0) return refuse(headerRow, ...problems);

  const records: CsvRecord[] = [];
  for (let index = headerIndex + 1; index < rows.length; index++) {
    const cells = rows[index]!;
    if (isBlank(cells)) continue;
    const record: Record<string, string> = {};
    header.forEach((name, column) => {
      if (name !== '') record[name] = (cells[column] ?? '').trim();
    });
    // Cells past the header's last column: kept under no name, so the row can be refused.
    const extra = cells.slice(header.length).filter((cell) => cell.trim() !== '');
    if (extra.length > 0) record[EXTRA_CELLS] = extra.join(' ');
    records.push({ row: index + 1, cells: record });
  }
  return { ok: true, columns: seen, records };
}

/** The key under which a record keeps cells beyond the header (refused as 'invalid'). */
export const EXTRA_CELLS = '';

function isBlank(cells: readonly string[]): boolean {
  return cells.every((cell) => cell.trim() === '');
}

/** `;` when the header line has more semicolons than commas outside quotes, else `,`. */
export function delimiterOf(text: string): ',' | ';' {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) {
      if (commas + semicolons > 0) break;
    } else if (!quoted && ch === ',') commas++;
    else if (!quoted && ch === ';') semicolons++;
  }
  return semicolons > commas ? ';' : ',';
}
