/**
 * Typed query parameters for routes (`validateSearch`): the router hands every value over as
 * the string that was typed (src/app/router.ts parses and writes the query as plain text) and
 * the contract's schemas take strings; anything else (a value set in code) is turned into its
 * string first. A query that does not fit is an empty one. Routes only type the query: the
 * machine receives it with `location.changed` and decides.
 */
import * as v from 'valibot';

export function searchValidator<S extends v.ObjectSchema<v.ObjectEntries, undefined>>(schema: S) {
  return (raw: Record<string, unknown>): v.InferOutput<S> => {
    const strings = Object.fromEntries(
      Object.entries(raw)
        .filter(([, value]) => value !== undefined && value !== null)
        .map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]),
    );
    const parsed = v.safeParse(schema, strings);
    return (parsed.success ? parsed.output : {}) as v.InferOutput<S>;
  };
}
