/**
 * What every API handler can reach: the dependencies of the app and, per request, the instant
 * it is handled at (read once from the clock), the parsed client headers and, after
 * authentication, the caller.
 */
import type { Clock } from '../clock.ts';
import type { AppSettings } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { StaffPrincipal } from '../domain/staff.ts';
import type { Principal } from '../domain/tokens.ts';
import type { Logger } from '../logger.ts';

export type AppDeps = {
  db: Db;
  clock: Clock;
  logger: Logger;
  settings: AppSettings;
};

/** The client headers of seed section 7, parsed (server/http/request-context.ts). */
export type ClientHeaders = {
  authorization: string | undefined;
  /** The first language of Accept-Language, if any. */
  acceptLanguage: string | undefined;
  locale: string | undefined;
  deviceToken: string | undefined;
};

export type AppEnv = {
  Variables: {
    now: Date;
    headers: ClientHeaders;
    principal: Principal;
    /** The staff member of an /admin call (requireStaff). */
    staff: StaffPrincipal;
  };
};
