/**
 * Typed query parameters for routes (`validateSearch`): the router parses `?a=1` into numbers
 * and booleans where it can, the contract's schemas take strings, so every value is turned
 * back into its string first; a query that does not fit is an empty one. Routes only type
 * the query: the machine receives it with `location.changed` and decides.
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
