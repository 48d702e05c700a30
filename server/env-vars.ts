/**
 * Reading environment variables with a valibot schema (server/config.ts, the security, payment
 * and single sign-on settings): an empty value counts as unset, and a bad value stops the start
 * with a message naming each variable ("Invalid environment: …"), rather than running with a
 * surprise.
 */
import * as v from 'valibot';

export type EnvVars = Record<string, string | undefined>;

/** The variables set to something; an empty value counts as unset. */
export function presentEnv(env: EnvVars): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''));
}

/** The environment read with `schema`, or an error naming every bad variable. */
export function parseEnv<TSchema extends v.GenericSchema>(schema: TSchema, env: EnvVars): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, presentEnv(env));
  if (!result.success) throw new Error(`Invalid environment: ${result.issues.map((i) => i.message).join('; ')}`);
  return result.output;
}
