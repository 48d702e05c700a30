/**
 * Reads server/seed/staff-accounts.json, the one list of demo proctors (one per demo
 * organisation): the seed creates them, docs/demo.md shows them, and tests log in with them.
 * Validated on read, so a typo fails loudly. `login_refused_with` is the code the staff login
 * answers with (a proctor of a disabled organisation), or null when it succeeds.
 */
import { readFileSync } from 'node:fs';
import * as v from 'valibot';

export const StaffAccountSchema = v.strictObject({
  org_code: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/)),
  login_id: v.pipe(v.string(), v.regex(/^[a-z0-9._-]{3,64}$/)),
  password: v.pipe(v.string(), v.minLength(8)),
  name: v.pipe(v.string(), v.nonEmpty()),
  purpose: v.string(),
  login_refused_with: v.nullable(v.picklist(['DISABLED_ORGANIZATION'])),
});
export type StaffAccount = v.InferOutput<typeof StaffAccountSchema>;

export const staffAccountsFile = new URL('./staff-accounts.json', import.meta.url);

export function loadStaffAccounts(): StaffAccount[] {
  const raw: unknown = JSON.parse(readFileSync(staffAccountsFile, 'utf8'));
  const accounts = v.parse(v.array(StaffAccountSchema), raw);
  const keys = new Set(accounts.map((a) => `${a.org_code}/${a.login_id}`));
  if (keys.size !== accounts.length) throw new Error('staff-accounts.json: duplicate login IDs within an organisation');
  return accounts;
}
