/**
 * A GET about the caller's own sitting, named by ?schedule_history_id= (the payment settings,
 * the testing menu, the results): the query read with its contract schema, the domain's answer
 * with the server's time, 200. Whose sitting it is, and whether it may be read, the domain decides.
 */
import { callerLanguages, type CallerLanguages } from '../domain/exam-titles.ts';
import type { Context } from 'hono';
import type * as v from 'valibot';
import type { Principal } from '../domain/tokens.ts';
import type { AppEnv } from './env.ts';
import { parseWith } from './validate.ts';

/** `read` answers the contract's response without its server_time (the domain's `WithoutServerTime<…>`). */
export function sittingRead<Q extends { schedule_history_id?: number | undefined }>(
  schema: v.GenericSchema<unknown, Q>,
  /** `wanted`: the caller's languages, for what content names in several (an exam's title). */
  read: (principal: Principal, scheduleHistoryId: Q['schedule_history_id'], now: Date, wanted: CallerLanguages) => Promise<object>,
) {
  return async (c: Context<AppEnv>) => {
    const now = c.get('now');
    const query = parseWith(schema, c.req.query(), 'query');
    const answer = await read(c.get('principal'), query.schedule_history_id, now, callerLanguages(c.get('headers')));
    return c.json({ ...answer, server_time: now.toISOString() }, 200);
  };
}
