/**
 * The Gradus server process: opens the database (migrations, then, for the demo, the idempotent demo seed),
 * serves the API under /api and the built client from dist/, and closes the database cleanly
 * on SIGINT/SIGTERM (PGlite only persists when closed). Needs no network beyond its own port.
 *
 * Two ways in:
 * - `node server/main.ts` (what `npm start` runs after building the client), configured by
 *   env: PORT (default 3000), DATABASE_URL (PostgreSQL; otherwise PGlite), DATA_DIR (PGlite's
 *   base directory, default ./data, database in <DATA_DIR>/pglite), UPLOAD_WINDOW_HOURS
 *   (default 24), GRADUS_CLOCK_CONTROL=1 (tests only: POST /api/test/clock moves the server's
 *   clock), GRADUS_DEMO (on|off). Prints the URL, and the demo logins when the demo is on.
 *   The demo data is loaded only for the demo: with no DATABASE_URL (PGlite), or with
 *   GRADUS_DEMO=on; a deployment (DATABASE_URL set, or GRADUS_DEMO=off) starts empty and never
 *   gets a demo account (server/config.ts `demoWanted`). The log says which at start.
 *   On PostgreSQL it is a cluster (node:cluster): a primary that loads none of the API and
 *   WEB_CONCURRENCY workers (default: one per core; server/config.ts `apiProcessCount`), each a
 *   whole server on the shared port; see `runPrimary`. On PGlite, always this one process: its
 *   data directory belongs to one process (server/db/client.ts).
 * - The results jobs (server/jobs/) run in the process every 15 000 ms; `close()` stops them.
 * - Logs are JSON lines on stdout (pino, LOG_LEVEL); TRUST_PROXY, HSTS_MAX_AGE, PUBLIC_ORIGIN and
 *   CSP_FRAME_SRC shape the security headers and throttling (server/security/settings.ts);
 *   METRICS_PORT serves GET /metrics on 127.0.0.1 (server/observability/metrics-routes.ts).
 * - `startServer(options)` in-process, for the end-to-end harness: `port: 0` picks a free
 *   port, `memory: true` keeps PGlite in memory, and a `clock` from `createFakeClock()`
 *   (server/clock.ts) lets the harness move the server's time. Returns the URL and `close()`.
 * Running twice on one data directory reuses the data; the seed adds nothing twice.
 */
import cluster, { type Worker } from 'node:cluster';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import { ROSTER_POLL_MS } from '../contract/admin.ts';
import { PRESENCE_INTERVAL_MS } from '../contract/presence.ts';
import { createOffsetClock, systemClock, type Clock } from './clock.ts';
import { apiProcessCount, configFromEnv, defaultSettings, hoursToMs, paymentSettingsFromEnv, type AppSettings, type ServerConfig } from './config.ts';
import type { Database } from './db/client.ts';
import type { AppEnv } from './http/env.ts';
import { consoleLogger, type LogFields, type Logger } from './logger.ts';
import type { MetricsServer } from './observability/metrics-routes.ts';
import { partnerGatewaysFromEnv } from './partners/gateway.ts';
import { securitySettingsFromEnv } from './security/settings.ts';
import { oidcSettingsFromEnv } from './sso/settings.ts';

export type StartServerOptions = {
  /** Default 3000; 0 picks a free port (see `RunningServer.port`). */
  port?: number;
  /** Default: all interfaces, so lab terminals on the network can reach it. */
  hostname?: string;
  /** PostgreSQL connection string; when set, PGlite is not used. */
  databaseUrl?: string;
  /** PGlite's base directory, and the stored documents' files in <dataDir>/documents (default ./data). */
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
  /** Write the demo data (default: on PGlite only, as `npm start` with GRADUS_DEMO unset; server/config.ts `demoWanted`). */
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
  /** This process is one worker of a cluster: /api/metrics answers every worker's metrics, via the primary. */
  clusterWorker?: boolean;
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

/** A logger that adds `fields` (the worker's number) to every line. */
function withFields(logger: Logger, fields: LogFields): Logger {
  return {
    info: (line, more) => logger.info(line, { ...fields, ...more }),
    error: (line, error, more) => logger.error(line, error, { ...fields, ...more }),
  };
}

/**
 * The server in this process. Its modules are loaded here, not at the top of the file, so that
 * the primary of a cluster (which only starts and watches the workers) never loads them.
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const [
    { serve },
    { Hono: HonoApp },
    { createApp },
    { closeSharedRenderer, sharedRenderer },
    { documentFiles },
    { openDatabase },
    { serveClient },
    { compressApi },
    { createMetrics },
    { startMetricsServer },
    { startJobRunner },
    { seedDemoData },
  ] = await Promise.all([
    import('@hono/node-server'),
    import('hono'),
    import('./app.ts'),
    import('./documents/renderer.ts'),
    import('./documents/files.ts'),
    import('./db/client.ts'),
    import('./http/client-files.ts'),
    import('./http/compression.ts'),
    import('./observability/metrics.ts'),
    import('./observability/metrics-routes.ts'),
    import('./jobs/runner.ts'),
    import('./seed/seed.ts'),
  ]);
  const logger = options.logger ?? consoleLogger;
  const clock = options.clock ?? (options.clockControl === true ? createOffsetClock() : systemClock);
  const database = await openDatabase({
    databaseUrl: options.databaseUrl,
    dataDir: options.dataDir,
    memory: options.memory,
    prepare: (options.seed ?? options.databaseUrl === undefined) ? async (db) => void (await seedDemoData(db, undefined, clock.now())) : undefined,
    onPoolError: (error) => logger.error('PostgreSQL connection error', error),
  });

  const metrics = createMetrics({ db: database.db, clock, logger, clusterWorker: options.clusterWorker });
  // Stored documents are served as files under the data directory (server/documents/files.ts).
  const documentDirectory = options.memory ? undefined : path.join(options.dataDir ?? './data', 'documents');
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
    ...(documentDirectory === undefined ? {} : { documents: { directory: documentDirectory } }),
  });
  const uploadWindowMs =
    options.uploadWindowHours === undefined ? defaultSettings.uploadWindowMs : hoursToMs(options.uploadWindowHours);
  // The `document` jobs print through this process's Chromium, which reaches this server at
  // PUBLIC_ORIGIN or on its own loopback port (known once it listens; until then they wait).
  let ownOrigin = process.env.PUBLIC_ORIGIN ? new URL(process.env.PUBLIC_ORIGIN).origin : undefined;
  const printing = {
    renderer: sharedRenderer(logger),
    origin: () => ownOrigin,
    ...(documentDirectory === undefined ? {} : { files: documentFiles(documentDirectory) }),
  };
  const jobRunner = options.runJobs === false ? undefined : startJobRunner({ db: database.db, clock, logger, uploadWindowMs, printing });
  serveClient(app, options.distDir ?? defaultDistDir);
  // Large JSON answers of the API go out compressed (server/http/compression.ts); the static
  // files are compressed at build time. In front of the whole app, so it sees the final answer.
  const front: Hono<AppEnv> = new HonoApp<AppEnv>();
  front.use('/api/*', compressApi());
  front.all('*', (c) => app.fetch(c.req.raw, c.env));

  let server: ReturnType<typeof serve>;
  try {
    server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
      const s = serve({ fetch: front.fetch, port: options.port ?? 3000, hostname: options.hostname }, () => resolve(s));
      s.once('error', reject);
      keepIdleConnections(s);
    });
  } catch (error) {
    await jobRunner?.stop();
    await database.close();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  ownOrigin ??= `http://127.0.0.1:${port}`;
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

/**
 * How long an idle keep-alive connection stays open: longer than the gap between two requests
 * of a client that polls (the proctor's roster, the exam's presence beat), so each poll reuses
 * its connection. Node's default, 5 s, is the roster's poll interval: the server would close a
 * connection just as the next poll is sent on it, and that request would meet a reset.
 */
export const IDLE_CONNECTION_MS = Math.max(ROSTER_POLL_MS, PRESENCE_INTERVAL_MS) + 5_000;

function keepIdleConnections(server: ServerType): void {
  if (!('keepAliveTimeout' in server)) return;
  server.keepAliveTimeout = IDLE_CONNECTION_MS;
  // A request's headers get at least as long as an idle connection (Node's rule for the two).
  server.headersTimeout = Math.max(server.headersTimeout, IDLE_CONNECTION_MS + 1_000);
}

/** The options `node server/main.ts` starts with, from the environment. */
function optionsFromEnv(config: ServerConfig): StartServerOptions {
  const { security, metricsPort } = securitySettingsFromEnv(process.env);
  return {
    port: config.port,
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    uploadWindowHours: config.uploadWindowHours,
    oidc: oidcSettingsFromEnv(process.env, config.port),
    partners: partnerGatewaysFromEnv(process.env, consoleLogger),
    maintenance: config.maintenance,
    clientConfig: config.clientConfig,
    clockControl: config.clockControl,
    seed: config.demo,
    payments: paymentSettingsFromEnv(process.env),
    security,
    metricsPort,
  };
}

/**
 * For the person who typed `npm start`: where to go and, when the demo is on, the demo logins
 * (public demo data, README); on a deployment, how to make the first administrator.
 */
async function printBanner(url: string, database: string, demo: boolean): Promise<void> {
  if (!demo) {
    console.log(`Gradus is running at ${url}  (database: ${database}; no demo data)`);
    console.log(`Staff console at ${url}/proctor. The first administrator: npm run admin -- create-staff <login id> --role admin`);
    return;
  }
  const [{ loadDemoAccounts }, { loadResultsAccounts }, { loadStaffAccounts }] = await Promise.all([
    import('./seed/demo-accounts.ts'),
    import('./seed/results-demo.ts'),
    import('./seed/staff-accounts.ts'),
  ]);
  console.log(`Gradus is running at ${url}  (database: ${database})`);
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
  console.log(`Proctor console at ${url}/proctor (organisation code, login ID / password; server/seed/staff-accounts.json):`);
  for (const account of loadStaffAccounts()) {
    console.log(`  ${`${account.org_code}  ${account.login_id} / ${account.password}`.padEnd(40)}  ${account.name.padEnd(18)}  ${account.purpose}`);
  }
}

/** Messages between the primary and its workers (node:cluster IPC). */
type WorkerMessage = { type: 'gradus:ready'; url: string; database: string; location: string };
type PrimaryMessage = { type: 'gradus:shutdown' };
/** '1' for the cluster's first worker: it seeds (when the demo is on: `demoWanted`, the same rule as one process) and prints the banner. */
const SEED_ENV = 'GRADUS_CLUSTER_SEED';
/** How long a worker may take to close (answer the requests in flight, close the pool) before it is killed. */
const WORKER_STOP_MS = 20_000;

/** One server in this process: the whole of `npm start` on PGlite, or one worker of a cluster. */
async function runServer(config: ServerConfig): Promise<void> {
  const worker = cluster.isWorker ? cluster.worker : undefined;
  const logger = worker ? withFields(consoleLogger, { worker: worker.id }) : consoleLogger;
  const running = await startServer({
    ...optionsFromEnv(config),
    logger,
    // Only the demo is seeded (server/config.ts `demoWanted`). In a cluster, the first worker
    // migrates and seeds; the others (and replacements) only migrate (a no-op by then: the
    // migration lock makes them wait for it).
    seed: config.demo && (worker ? process.env[SEED_ENV] === '1' : true),
    clusterWorker: worker !== undefined,
    // METRICS_PORT is the primary's in a cluster (all workers' metrics together).
    metricsPort: worker ? undefined : securitySettingsFromEnv(process.env).metricsPort,
  });
  const announcing = !worker || process.env[SEED_ENV] === '1';
  if (announcing && config.demo && config.databaseUrl !== undefined) {
    logger.info('GRADUS_DEMO=on: the demo organisations, pupils and staff accounts (their passwords are public) are in this PostgreSQL database');
  }
  logger.info('started', {
    url: running.url,
    database: running.database.driver,
    demo: config.demo ? 'on' : 'off',
    ...(running.metricsPort === undefined ? {} : { metrics: `http://127.0.0.1:${running.metricsPort}/metrics` }),
  });

  let stopping = false;
  const shutdown = (reason: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${reason}: closing the database and stopping.`);
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error('Shutdown failed', error);
        process.exit(1);
      },
    );
  };
  // Once each: a second Ctrl-C ends the process at once, as before.
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  if (worker) {
    process.on('message', (message: PrimaryMessage) => {
      if (message?.type === 'gradus:shutdown') shutdown('stop asked by the primary');
    });
    // The primary is gone (killed): never keep serving without it.
    process.on('disconnect', () => shutdown('the primary process is gone'));
    const ready: WorkerMessage = { type: 'gradus:ready', url: running.url, database: running.database.driver, location: running.database.location };
    process.send?.(ready);
    if (process.env[SEED_ENV] === '1') await printBanner(running.url, `${running.database.driver}, ${running.database.location}`, config.demo);
  } else {
    await printBanner(running.url, `${running.database.driver}, ${running.database.location}`, config.demo);
  }
}

/**
 * The primary of a cluster (PostgreSQL, more than one process): forks `count` workers that
 * share the port (node:cluster hands connections round-robin), replaces a worker that dies
 * while serving, stops them all on SIGTERM/SIGINT (each closes its server and pool, then
 * exits; any still running after WORKER_STOP_MS is killed), and serves METRICS_PORT with every
 * worker's metrics added up (server/observability/cluster-metrics.ts). It never opens the
 * database and loads none of the API's modules. A worker that fails before it is ready (a
 * port in use, the database unreachable) stops the whole start with exit code 1.
 */
async function runPrimary(count: number): Promise<void> {
  const logger = withFields(consoleLogger, { worker: 'primary' });
  const { serveClusterMetrics } = await import('./observability/cluster-metrics.ts');
  const metricsPort = securitySettingsFromEnv(process.env).metricsPort;
  const metricsServer = await serveClusterMetrics({ port: metricsPort });
  const ready = new Set<number>();
  let stopping = false;
  let announced = false;
  const recentDeaths: number[] = [];

  const fork = (seed: boolean): Worker => cluster.fork({ [SEED_ENV]: seed ? '1' : '0' });
  const stopAll = (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    logger.info(`stopping ${workers.length} worker(s)`);
    const killer = setTimeout(() => {
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGKILL');
    }, WORKER_STOP_MS);
    killer.unref();
    for (const w of workers) {
      // A worker whose channel is closed already (it is exiting) gets a signal instead.
      if (w.isConnected()) w.send({ type: 'gradus:shutdown' } satisfies PrimaryMessage, undefined, undefined, (error) => error && w.process.kill('SIGTERM'));
      else w.process.kill('SIGTERM');
    }
    const finish = () => {
      void metricsServer?.close().finally(() => process.exit(exitCode));
      if (!metricsServer) process.exit(exitCode);
    };
    if (workers.length === 0) finish();
    else cluster.on('exit', () => Object.keys(cluster.workers ?? {}).length === 0 && finish());
  };

  cluster.on('message', (worker, message: WorkerMessage) => {
    if (message?.type !== 'gradus:ready') return;
    ready.add(worker.id);
    logger.info(`worker ${worker.id} (pid ${worker.process.pid}) ready`, { worker_pid: worker.process.pid });
    if (!announced && ready.size >= count) {
      announced = true;
      logger.info(`all ${count} workers ready`, {
        url: message.url,
        database: message.database,
        workers: count,
        ...(metricsServer ? { metrics: `http://127.0.0.1:${metricsServer.port}/metrics` } : {}),
      });
      console.log(`${count} API processes (WEB_CONCURRENCY) share ${message.location}; stop them all with Ctrl-C or SIGTERM to pid ${process.pid}.`);
    }
  });
  cluster.on('exit', (worker, code, signal) => {
    const wasReady = ready.delete(worker.id);
    if (stopping) return;
    if (!wasReady) {
      logger.error(`worker ${worker.id} stopped before it was ready (exit ${code ?? signal}): not starting`);
      stopAll(1);
      return;
    }
    const now = Date.now();
    recentDeaths.push(now);
    while (recentDeaths.length > 0 && recentDeaths[0]! < now - 60_000) recentDeaths.shift();
    if (recentDeaths.length > count * 3) {
      logger.error(`workers keep dying (${recentDeaths.length} in a minute): stopping`);
      stopAll(1);
      return;
    }
    logger.error(`worker ${worker.id} (pid ${worker.process.pid}) died (exit ${code ?? signal}): starting another`);
    fork(false);
  });
  process.on('SIGINT', () => stopAll(0));
  process.on('SIGTERM', () => stopAll(0));

  logger.info(`starting ${count} API processes`, { workers: count });
  fork(true);
  for (let i = 1; i < count; i++) fork(false);
}

async function main(): Promise<void> {
  const config = configFromEnv();
  if (cluster.isWorker) return runServer(config);
  const { count, ignored } = apiProcessCount(config, availableParallelism());
  if (ignored) {
    consoleLogger.info('WEB_CONCURRENCY is ignored on PGlite: its data directory belongs to one process (set DATABASE_URL for several)');
  }
  if (count > 1) return runPrimary(count);
  return runServer(config);
}

if (import.meta.main) {
  main().catch((error: unknown) => {
    // A data directory held by another process is an operator's mistake, not a crash: say only what to do.
    console.error(error instanceof Error && error.name === 'DataDirectoryInUseError' ? `gradus: ${error.message}` : error);
    process.exit(1);
  });
}
