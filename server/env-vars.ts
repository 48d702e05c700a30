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

/**
 * A whole number of at most `digits` digits (`what` says what it counts, for the message), from
 * `min` (default 0) to `max`.
 */
export function wholeNumber(name: string, { digits, what, min = 0, max }: { digits: number; what: string; min?: number; max: number }) {
  return v.pipe(
    v.string(),
    v.regex(new RegExp(`^\\d{1,${digits}}$`), `${name} must be ${what}`),
    v.transform(Number),
    v.minValue(min, `${name} must be at least ${min}`),
    v.maxValue(max, `${name} must be at most ${max}`),
  );
}

/** An http(s) URL. */
export function httpUrl(name: string) {
  return v.pipe(
    v.string(),
    v.url(`${name} must be a URL`),
    v.check((s) => /^https?:\/\//i.test(s), `${name} must be an http(s) URL`),
  );
}
