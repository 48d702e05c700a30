/**
 * Serves the built client (Vite's dist/) beside the API, for `npm start`:
 * - /assets/* are content-hashed: cached for a year, immutable; a missing one is a plain 404;
 * - other files as they are, revalidated on every use;
 * - any other GET is a client-side route (/start, /login-code...): index.html, never cached,
 *   so a reload on any screen works and a new release is picked up at once.
 * /api is never touched here: its unknown routes are JSON 404s from the API itself.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono, MiddlewareHandler } from 'hono';
import type { AppEnv } from './env.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

export function serveClient(app: Hono<AppEnv>, distDir: string): void {
  const root = path.resolve(distDir);
  if (!existsSync(path.join(root, 'index.html'))) {
    app.get('*', (c) => c.text('The client is not built yet: run `npm run build`, then start the server again.', 503));
    return;
  }
  const files = serveStatic({ root });
  const indexHtml = serveStatic({ root, path: 'index.html' });

  const withCacheControl =
    (value: string, handler: MiddlewareHandler): MiddlewareHandler =>
    async (c, next) => {
      c.header('Cache-Control', value);
      return handler(c, next);
    };

  const notFound: MiddlewareHandler = async (c) => {
    c.header('Cache-Control', REVALIDATE);
    return c.text('Not found', 404);
  };
  app.get('/assets/*', withCacheControl(IMMUTABLE, files), notFound);
  app.get('*', withCacheControl(REVALIDATE, files), withCacheControl(REVALIDATE, indexHtml), notFound);
}
