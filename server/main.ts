/**
 * The Gradus server process: opens the database (migrations, then the idempotent demo seed),
 * serves the API under /api and the built client from dist/, and closes the database cleanly
 * on SIGINT/SIGTERM (PGlite only persists when closed). Needs no network beyond its own port.
 *
 * Two ways in:
 * - `node server/main.ts` (what `npm start` runs after building the client), configured by
 *   env: PORT (default 3000), DATABASE_URL (PostgreSQL; otherwise PGlite), DATA_DIR (PGlite's
 *   base directory, default ./data, database in <DATA_DIR>/pglite), UPLOAD_WINDOW_HOURS
 *   (default 24), GRADUS_CLOCK_CONTROL=1 (tests only: POST /api/test/clock moves the server's
 *   clock). Prints the URL and the demo logins.
 * - The results jobs (server/jobs/) run in the process every 15 000 ms; `close()` stops them.
 * - Logs are JSON lines on stdout (pino, LOG_LEVEL); TRUST_PROXY, HSTS_MAX_AGE, PUBLIC_ORIGIN and
 *   CSP_FRAME_SRC shape the security headers and throttling (server/security/settings.ts);
 *   METRICS_PORT serves GET /metrics on 127.0.0.1 (server/observability/metrics-routes.ts).
 * - `startServer(options)` in-process, for the end-to-end harness: `port: 0` picks a free
 *   port, `memory: true` keeps PGlite in memory, and a `clock` from `createFakeClock()`
 *   (server/clock.ts) lets the harness move the server's time. Returns the URL and `close()`.
 * Running twice on one data directory reuses the data; the seed adds nothing twice.
 */
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createApp } from './app.ts';
import { createOffsetClock, systemClock, type Clock } from './clock.ts';
import { configFromEnv, defaultSettings, hoursToMs, paymentSettingsFromEnv, type AppSettings } from './config.ts';
import { closeSharedRenderer } from './documents/renderer.ts';
import { DataDirectoryInUseError, openDatabase, type Database } from './db/client.ts';
import { serveClient } from './http/client-files.ts';
import { consoleLogger, type Logger } from './logger.ts';
import { createMetrics } from './observability/metrics.ts';
import { startMetricsServer, type MetricsServer } from './observability/metrics-routes.ts';
import { partnerGatewaysFromEnv } from './partners/gateway.ts';
import { startJobRunner } from './jobs/runner.ts';
import { loadDemoAccounts } from './seed/demo-accounts.ts';
import { loadResultsAccounts } from './seed/results-demo.ts';
import { loadStaffAccounts } from './seed/staff-accounts.ts';
import { seedDemoData } from './seed/seed.ts';
import { securitySettingsFromEnv } from './security/settings.ts';
import { oidcSettingsFromEnv } from './sso/settings.ts';

export type StartServerOptions = {
  /** Default 3000; 0 picks a free port (see `RunningServer.port`). */
  port?: number;
  /** Default: all interfaces, so lab terminals on the network can reach it. */
  hostname?: string;
  /** PostgreSQL connection string; when set, PGlite is not used. */
  databaseUrl?: string;
  /** PGlite's base directory (default ./data). */
  dataDir?: string;
  /** PGlite in memory: nothing persists (tests, e2e). */
  memory?: boolean;
  /** Default: the system clock. */
  clock?: Clock;
  /** Default: console. */
  logger?: Logger;
  /** Default 24. */
  uploadWindowHours?: number;
  /** The built client (default <repo>/dist). */
  distDir?: string;
  /** Write the demo data (default true). */
  seed?: boolean;
  /** Generic OpenID Connect single sign-on (default: off; env OIDC_*, server/sso/settings.ts). */
  oidc?: AppSettings['oidc'];
  /** Partner token checks (default: none; env PARTNER_*, server/partners/gateway.ts). */
  partners?: AppSettings['partners'];
  /** The whole service in maintenance (env MAINTENANCE=1; default off). */
  maintenance?: boolean;
  /** What GET /api/client-config answers (env PARTNER_LOGOUT_URL_*, EMBED_TARGET_ORIGIN, OIDC_ISSUER). */
  clientConfig?: AppSettings['clientConfig'];
  /** POST /api/test/clock moves the clock (env GRADUS_CLOCK_CONTROL=1; default off). Without `clock`, the system clock made movable. */
  clockControl?: boolean;
  /** Run the results jobs every 15 000 ms in this process (default true). */
  runJobs?: boolean;
  /** Payment provider and prices (env ADYEN_*, *_USD_CENTS; default: the demo provider at the default prices). */
  payments?: AppSettings['payments'];
  /** Trusted proxies, HSTS, public origin, CSP frame sources (env TRUST_PROXY, HSTS_MAX_AGE, PUBLIC_ORIGIN, CSP_FRAME_SRC). */
  security?: AppSettings['security'];
  /** Serve GET /metrics on 127.0.0.1:<port> without a token (env METRICS_PORT; 0 picks a free port; default: none). */
  metricsPort?: number;
};

export type RunningServer = {
  /** e.g. http://localhost:3000 */
  url: string;
  port: number;
  /** The METRICS_PORT listener's port, when there is one. */
  metricsPort?: number;
  database: Database;
  clock: Clock;
  close(): Promise<void>;
};

export const defaultDistDir = fileURLToPath(new URL('../dist', import.meta.url));

export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? consoleLogger;
  const clock = options.clock ?? (options.clockControl === true ? createOffsetClock() : systemClock);
  const database = await openDatabase({
    databaseUrl: options.databaseUrl,
    dataDir: options.dataDir,
    memory: options.memory,
    prepare: options.seed === false ? undefined : async (db) => void (await seedDemoData(db, undefined, clock.now())),
    onPoolError: (error) => logger.error('PostgreSQL connection error', error),
  });

  const metrics = createMetrics({ db: database.db, clock, logger });
  const app = createApp({
    db: database.db,
    clock,
    logger,
    metrics,
    settings: {
      uploadWindowMs:
        options.uploadWindowHours === undefined ? defaultSettings.uploadWindowMs : hoursToMs(options.uploadWindowHours),
      oidc: options.oidc,
      partners: options.partners ?? {},
      maintenance: options.maintenance ?? false,
      clientConfig: options.clientConfig ?? defaultSettings.clientConfig,
      clockControl: options.clockControl ?? false,
      payments: options.payments ?? defaultSettings.payments,
      security: options.security ?? defaultSettings.security,
    },
  });
  const uploadWindowMs =
    options.uploadWindowHours === undefined ? defaultSettings.uploadWindowMs : hoursToMs(options.uploadWindowHours);
  const jobRunner = options.runJobs === false ? undefined : startJobRunner({ db: database.db, clock, logger, uploadWindowMs });
  serveClient(app, options.distDir ?? defaultDistDir);

  let server: ReturnType<typeof serve>;
  try {
    server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
      const s = serve({ fetch: app.fetch, port: options.port ?? 3000, hostname: options.hostname }, () => resolve(s));
      s.once('error', reject);
    });
  } catch (error) {
    await jobRunner?.stop();
    await database.close();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  let metricsServer: MetricsServer | undefined;
  if (options.metricsPort !== undefined) {
    try {
      metricsServer = await startMetricsServer(metrics, options.metricsPort);
    } catch (error) {
      server.close();
      await jobRunner?.stop();
      await database.close();
      throw error;
    }
  }

  let closing: Promise<void> | undefined;
  return {
    url: `http://localhost:${port}`,
    port,
    ...(metricsServer ? { metricsPort: metricsServer.port } : {}),
    database,
    clock,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Keep-alive connections of browsers would hold close() open.
          if ('closeAllConnections' in server) server.closeAllConnections();
        });
        await metricsServer?.close();
        await jobRunner?.stop();
        await closeSharedRenderer();
        await database.close();
      })();
      return closing;
    },
  };
}

async function main(): Promise<void> {
  const config = configFromEnv();
  const { security, metricsPort } = securitySettingsFromEnv(process.env);
  const running = await startServer({
    port: config.port,
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    uploadWindowHours: config.uploadWindowHours,
    oidc: oidcSettingsFromEnv(process.env, config.port),
    partners: partnerGatewaysFromEnv(process.env, consoleLogger),
    maintenance: config.maintenance,
    clientConfig: config.clientConfig,
    clockControl: config.clockControl,
    payments: paymentSettingsFromEnv(process.env),
    security,
    metricsPort,
  });

  consoleLogger.info('started', {
    url: running.url,
    database: running.database.driver,
    ...(running.metricsPort === undefined ? {} : { metrics: `http://127.0.0.1:${running.metricsPort}/metrics` }),
  });
  // For the person who typed `npm start`: where to go and the demo logins (public demo data, README).
  console.log(`Gradus is running at ${running.url}  (database: ${running.database.driver}, ${running.database.location})`);
  console.log('Demo logins (login code, or login ID / password @ organisation; pupil; what for):');
  for (const account of loadDemoAccounts()) {
    const way =
      account.login_type === 0 ? account.login_code : `${account.login_id} / ${account.password} @ ${account.org_code}`;
    console.log(`  ${way.padEnd(40)}  ${account.name.padEnd(18)}  ${account.purpose}`);
  }
  console.log('Results demo logins (login ID / password, my-page pupils; server/seed/results-accounts.json):');
  for (const account of loadResultsAccounts()) {
    console.log(`  ${`${account.login_id} / ${account.password}`.padEnd(40)}  ${account.name.padEnd(18)}  ${account.shows}`);
  }
  console.log(`Proctor console at ${running.url}/proctor (organisation code, login ID / password; server/seed/staff-accounts.json):`);
  for (const account of loadStaffAccounts()) {
    console.log(`  ${`${account.org_code}  ${account.login_id} / ${account.password}`.padEnd(40)}  ${account.name.padEnd(18)}  ${account.purpose}`);
  }

  const shutdown = (signal: string) => {
    consoleLogger.info(`${signal}: closing the database and stopping.`);
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        consoleLogger.error('Shutdown failed', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

if (import.meta.main) {
  main().catch((error: unknown) => {
    // A data directory held by another process is an operator's mistake, not a crash: say only what to do.
    console.error(error instanceof DataDirectoryInUseError ? `gradus: ${error.message}` : error);
    process.exit(1);
  });
}
