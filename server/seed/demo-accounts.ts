/**
 * Reads server/seed/demo-accounts.json, the one list of demo pupils: the seed creates them,
 * the README shows them, and tests log in with them. Validated on read, so a typo in the file
 * fails loudly instead of seeding a pupil nobody can log in as.
 */
import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { ErrorCodeSchema, LoginCodeSchema, SubjectIdSchema } from '../../src/shared/contract.ts';

export const demoScenarios = ['journey', 'completed', 'disabled-classroom', 'not-yet-open'] as const;
export type DemoScenario = (typeof demoScenarios)[number];

export const DemoAccountSchema = v.strictObject({
  /** Normalised login code (XXXX-XXXX-XXXX). */
  login_code: v.pipe(
    LoginCodeSchema,
    v.regex(/^[^-]{4}-[^-]{4}-[^-]{4}$/),
  ),
  name: v.pipe(v.string(), v.nonEmpty()),
  grade_id: v.nullable(v.union([v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(12)), v.literal(99)])),
  subject: SubjectIdSchema,
  /** The level's position within its subject (level 1, 2, ...). */
  level: v.pipe(v.number(), v.integer(), v.minValue(1)),
  /** What the account is for; decides its schedule and starting status in the seed. */
  scenario: v.picklist(demoScenarios),
  purpose: v.string(),
  /** The code login answers with for this account, or null when login succeeds. */
  login_refused_with: v.nullable(ErrorCodeSchema),
});
export type DemoAccount = v.InferOutput<typeof DemoAccountSchema>;

export const demoAccountsFile = new URL('./demo-accounts.json', import.meta.url);

export function loadDemoAccounts(): DemoAccount[] {
  const raw: unknown = JSON.parse(readFileSync(demoAccountsFile, 'utf8'));
  const accounts = v.parse(v.array(DemoAccountSchema), raw);
  const codes = new Set(accounts.map((a) => a.login_code));
  if (codes.size !== accounts.length) throw new Error('demo-accounts.json: duplicate login codes');
  return accounts;
}
