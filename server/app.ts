/**
 * The API as a Hono app: `createApp({ db, clock, logger, settings })`. All routes live under
 * `/api`; every error is the contract's ErrorBody with a contract code (server/http/errors.ts);
 * anything unexpected is a 500 GENERIC_ERROR without details (those go to the logger).
 * The app holds no state of its own: any number of them can serve one database.
 */
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { systemClock, type Clock } from './clock.ts';
import { defaultSettings, type AppSettings } from './config.ts';
import type { Db } from './db/client.ts';
import { documentRoutes, type DocumentRouteOptions } from './documents/routes.ts';
import { DomainError } from './domain/errors.ts';
import type { AppDeps, AppEnv } from './http/env.ts';
import { domainErrorResponse, errorResponse, RequestError } from './http/errors.ts';
import { apiProduces, negotiate } from './http/negotiation.ts';
import { maintenanceCheck } from './domain/maintenance.ts';
import { limitBody, recordExamContact, refuseDuringMaintenance, requestContext } from './http/middleware.ts';
import { consoleLogger, type Logger } from './logger.ts';
import { observeRequests } from './observability/http.ts';
import { createMetrics, poolOf, type Metrics } from './observability/metrics.ts';
import { metricsRoutes } from './observability/metrics-routes.ts';
import { adminRoutes } from './routes/admin.ts';
import { authRoutes } from './routes/auth.ts';
import { EXAM_IMPORT_PATH, examImportRoutes } from './routes/exam-imports.ts';
import { examRoutes } from './routes/exam.ts';
import { exportRoutes } from './routes/exports.ts';
import { healthRoutes } from './routes/health.ts';
import { importRoutes, isRosterImportPath } from './routes/imports.ts';
import { pageRoutes } from './routes/pages.ts';
import { presenceRoutes } from './routes/presence.ts';
import { ADYEN_WEBHOOK_PATH, paymentRoutes } from './routes/payments.ts';
import { resultRoutes } from './routes/results.ts';
import { sessionRoutes } from './routes/session.ts';
import { ssoRoutes } from './routes/sso.ts';
import { staffRoutes } from './routes/staff.ts';
import { testClockRoutes } from './routes/test-clock.ts';
import { tutorialRoutes } from './routes/tutorial.ts';
import { cspReportRoutes } from './security/csp-report.ts';
import { securityHeaders } from './security/headers.ts';
import { guardLogin, loginPaths } from './security/login-guard.ts';
import { createLoginThrottle } from './security/throttle.ts';

export type CreateAppOptions = {
  db: Db;
  clock?: Clock;
  logger?: Logger;
  settings?: Partial<AppSettings>;
  /** Where the app counts (default: its own); main.ts shares it with the METRICS_PORT listener. */
  metrics?: Metrics;
  /** How the PDFs are printed when one is missing (default: the shared Chromium; tests: a fake). */
  documents?: DocumentRouteOptions;
};

export function createApp(options: CreateAppOptions): Hono<AppEnv> {
  const deps: AppDeps = {
    db: options.db,
    clock: options.clock ?? systemClock,
    logger: options.logger ?? consoleLogger,
    settings: { ...defaultSettings, ...options.settings },
  };
  // Metrics, login throttling (shared by every app on this database), security headers.
  const security = deps.settings.security;
  const metrics = options.metrics ?? createMetrics(deps);
  const throttle = createLoginThrottle({ db: deps.db, pool: poolOf(deps.db), logger: deps.logger });

  const api = new Hono<AppEnv>();
  const bodyLimit = limitBody({
    maxSize: deps.settings.maxBodyBytes,
    onError: () => {
      throw new RequestError(400, 'VALIDATION_ERROR', 'The request body is too large.');
    },
  });
  // The exam import takes packages of up to 20 MB, the roster imports files of 10 MB: their routes set their own limits.
  api.use((c, next) => (c.req.path === `/api${EXAM_IMPORT_PATH}` || isRosterImportPath(c.req.path) ? next() : bodyLimit(c, next)));
  api.use(requestContext(deps));
  // Seed section 8's 406: an Accept the call cannot answer is refused before any work.
  api.use(negotiate(apiProduces([ADYEN_WEBHOOK_PATH, '/metrics', '/csp-report', '/test/csp-reports', '/sso'])));
  const isDuringMaintenance = maintenanceCheck(deps.db, deps.clock, {
    always: deps.settings.maintenance,
    refreshMs: deps.settings.maintenanceRefreshMs,
  });
  // Adyen's webhook too: a payment made before the window must still be recorded during it.
  // Operators read /metrics (staff token) and browsers send CSP reports during maintenance too.
  api.use(refuseDuringMaintenance(isDuringMaintenance, ['/health', '/client-config', '/csp-report', '/metrics', ADYEN_WEBHOOK_PATH]));
  // Every way in is throttled by client address and by address + identifier (server/security/throttle.ts).
  for (const [path, loginPath] of Object.entries(loginPaths)) api.use(path, guardLogin(loginPath, { throttle, metrics, security }));
  // Any successful exam call is contact for the proctor roster (the heartbeat records its own).
  api.use('/exam/*', recordExamContact(deps));
  // Hono tries the routes in this order.
  const routeGroups = [
    healthRoutes(deps), pageRoutes(deps), authRoutes(deps), sessionRoutes(deps), examRoutes(deps), presenceRoutes(deps),
    adminRoutes(deps), examImportRoutes(deps), importRoutes(deps), staffRoutes(deps), ssoRoutes(deps),
    documentRoutes(deps, options.documents), exportRoutes(deps), resultRoutes(deps), tutorialRoutes(deps),
    testClockRoutes(deps), paymentRoutes(deps), cspReportRoutes(deps, { metrics, throttle, security }), metricsRoutes(deps, metrics),
  ];
  for (const routes of routeGroups) api.route('/', routes);
  api.all('*', () => {
    throw new DomainError('NOT_FOUND', 'No such API route.');
  });

  const app = new Hono<AppEnv>();
  app.use(observeRequests({ logger: deps.logger, metrics, security }));
  app.use(securityHeaders({ security, embedTargetOrigin: deps.settings.clientConfig.embedTargetOrigin }));
  app.route('/api', api);

  app.onError((error, c) => {
    const now = c.get('now') ?? deps.clock.now();
    if (error instanceof DomainError) return domainErrorResponse(c, error, now);
    if (error instanceof HTTPException && error.status < 500) {
      return domainErrorResponse(c, new RequestError(400, 'VALIDATION_ERROR', 'The request could not be read.'), now);
    }
    deps.logger.error(`${c.req.method} ${c.req.path} failed`, error);
    return errorResponse(c, 'GENERIC_ERROR', now);
  });
  app.notFound((c) => errorResponse(c, 'NOT_FOUND', c.get('now') ?? deps.clock.now()));

  return app;
}
