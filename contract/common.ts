/**
 * Shared pieces of the wire contract: timestamps on the wire and the server clock every time-dependent response carries.
 *
 * Part of the wire contract (contract/): valibot schemas the server validates requests with and
 * the client validates responses with. Imports nothing of server/, machines/ or src/.
 * Erasable TypeScript only: the server imports it directly under Node's type stripping.
 */
import * as v from 'valibot';

/** Every response that depends on time carries the server's clock (ISO 8601, UTC). */
export const serverTime = { server_time: v.pipe(v.string(), v.isoTimestamp()) };

export const isoTimestamp = v.pipe(v.string(), v.isoTimestamp());
