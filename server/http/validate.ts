/**
 * Reading requests through the contract's valibot schemas. A body that is not JSON is a 400
 * VALIDATION_ERROR; one that is JSON but breaks the schema is a 422 VALIDATION_ERROR listing
 * each field and whether it was required (missing, null or empty, as seed section 5 defines
 * empty) or invalid. Strings PostgreSQL cannot store (NUL, lone surrogates) are invalid too, so
 * bad input never reaches the database.
 */
import type { Context } from 'hono';
import * as v from 'valibot';
import { DomainError, type FieldIssue } from '../domain/errors.ts';
import { RequestError } from './errors.ts';

export async function readJsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  // No body at all: every required field is reported as required.
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new RequestError(400, 'VALIDATION_ERROR', 'The request body is not valid JSON.');
  }
  // Only an escape (\u0000, \ud800) or a surrogate of the text itself can become such a string
  // (JSON admits no raw NUL): a text with none of them needs no walk over what it parsed to.
  const unstorable = MAY_HOLD_UNSTORABLE.test(text) ? findUnstorableString(body, '', 0) : undefined;
  if (unstorable !== undefined) {
    throw new DomainError('VALIDATION_ERROR', 'The request holds characters that cannot be stored.', [
      { field: unstorable || 'body', rule: 'invalid' },
    ]);
  }
  return body;
}

/** Parses with a contract schema, or throws a VALIDATION_ERROR naming the fields. */
export function parseWith<TSchema extends v.GenericSchema>(
  schema: TSchema,
  input: unknown,
  rootName = 'body',
  fieldName: (path: string) => string = (path) => path,
): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  throw new DomainError('VALIDATION_ERROR', undefined, toFieldIssues(result.issues, rootName, fieldName));
}

function toFieldIssues(
  issues: readonly v.BaseIssue<unknown>[],
  rootName: string,
  fieldName: (path: string) => string,
): FieldIssue[] {
  const byField = new Map<string, FieldIssue>();
  for (const issue of issues) {
    const path = v.getDotPath(issue);
    const field = path ? fieldName(path) : rootName;
    if (byField.has(field)) continue; // the first problem of a field is the one worth telling
    byField.set(field, { field, rule: isEmpty(issue.input) ? 'required' : 'invalid' });
  }
  return [...byField.values()];
}

/** Seed section 5: a value is empty if undefined, null or the empty string. */
function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

// U+0000 and unpaired UTF-16 surrogates: PostgreSQL text cannot hold the one, UTF-8 not the other.
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|\p{Cs}/u;

// A \u escape, NUL, or any UTF-16 surrogate (the halves of a proper pair too: those texts are walked).
// eslint-disable-next-line no-control-regex
const MAY_HOLD_UNSTORABLE = /\\u|[\u0000\ud800-\udfff]/;

/** No contract schema reads deeper than this; what lies below is ignored, never stored. */
const MAX_DEPTH = 16;

/** The dot path of the first string (or key) that cannot be stored, '' for the root, undefined if none. */
function findUnstorableString(value: unknown, path: string, depth: number): string | undefined {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? path : undefined;
  if (depth >= MAX_DEPTH) return undefined;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findUnstorableString(item, path ? `${path}.${i}` : String(i), depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const itemPath = path ? `${path}.${key}` : key;
      if (UNSTORABLE.test(key)) return itemPath;
      const found = findUnstorableString(item, itemPath, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

const TIMESTAMP_PARTS =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z| ?([+-])(\d{2})(?::?(\d{2}))?)$/;

/**
 * An ISO 8601 timestamp (as the contract's isoTimestamp admits it) as an instant, or undefined
 * when it names no real time (2026-02-31, say): the schema checks the form, this the calendar.
 */
export function parseInstant(text: string): Date | undefined {
  const m = TIMESTAMP_PARTS.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, fraction, zone, sign, zh, zm] = m;
  const ms = fraction ? Math.floor(Number(`0${fraction}`) * 1000) : 0;
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
  const check = new Date(utc);
  if (check.getUTCFullYear() !== Number(y) || check.getUTCMonth() !== Number(mo) - 1 || check.getUTCDate() !== Number(d)) {
    return undefined;
  }
  const offsetMinutes = zone === 'Z' ? 0 : (sign === '-' ? -1 : 1) * (Number(zh) * 60 + Number(zm ?? 0));
  return new Date(utc - offsetMinutes * 60_000);
}
