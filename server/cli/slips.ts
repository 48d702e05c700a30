/**
 * `npm run admin -- slips <schedule code> [--venue <venue name or id>] --out <file.pdf>`: the
 * login slips of a test period, or of one of its classrooms, as a PDF (A4, 8 slips a page),
 * printed by the same Chromium as the score report, audited (slips_print, no staff member: the
 * command line).
 *
 * No server needs to run: the command starts the app in this process on a free loopback port
 * (server/main.ts `startServer`: the built client from dist/, the database of DATABASE_URL or
 * PGlite under DATA_DIR, no demo seed, no jobs) for the time of the print, and Chromium prints
 * its print route (/login-slips/<code>) from there. It needs:
 * - the built app: `npm run build` (dist/index.html);
 * - Chromium (CHROMIUM_PATH, else /usr/bin/chromium, else chromium on PATH);
 * - PUBLIC_ORIGIN, the address pupils reach Gradus at, printed on every slip with /login-code;
 *   without it, http://localhost:<PORT> (a warning says so).
 * A PGlite directory a running server holds is refused (print from the console then).
 * Exit 0 written, 1 unknown test period or classroom, no build, Chromium missing or database in
 * use, 2 usage.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { configFromEnv } from '../config.ts';
import { DataDirectoryInUseError } from '../db/client.ts';
import { createChromiumRenderer } from '../documents/renderer.ts';
import { DomainError } from '../domain/errors.ts';
import { loginSlips, grantSlipsPrint, loginUrlOf } from '../exports/slips.ts';
import { exportScope } from '../exports/scope.ts';
import type { Logger } from '../logger.ts';
import { defaultDistDir, startServer, type RunningServer } from '../main.ts';
import { defaultSecuritySettings } from '../security/settings.ts';
import { exportArgsOf } from './export-options.ts';
import type { CliIo } from './export-results.ts';

export const slipsUsage = 'npm run admin -- slips <schedule code> [--venue <venue name or id>] --out <file.pdf>';

export async function runSlips(args: readonly string[], io: CliIo & { distDir?: string }): Promise<number> {
  const parsed = exportArgsOf(args);
  if (!parsed) {
    io.err(`Usage: ${slipsUsage}`);
    return 2;
  }
  const env = io.env ?? process.env;
  const config = configFromEnv(env);
  const distDir = io.distDir ?? defaultDistDir;
  if (!existsSync(path.join(distDir, 'index.html'))) {
    io.err(`Nothing was printed: the app is not built (${distDir}/index.html is missing). Run \`npm run build\` first.`);
    return 1;
  }
  const publicOrigin = env.PUBLIC_ORIGIN ? new URL(env.PUBLIC_ORIGIN).origin : undefined;
  if (!publicOrigin) io.err(`PUBLIC_ORIGIN is not set: the slips say http://localhost:${config.port}/login-code. Set it to the address pupils reach Gradus at.`);
  // The server's request lines stay quiet; its failures are told.
  const logger: Logger = { info: () => undefined, error: (line, error) => io.err(error instanceof Error ? `${line}: ${error.message}` : line) };

  let running: RunningServer;
  try {
    running = await startServer({
      port: 0,
      hostname: '127.0.0.1',
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      distDir,
      seed: false,
      runJobs: false,
      logger,
      security: { ...defaultSecuritySettings, publicOrigin: publicOrigin ?? `http://localhost:${config.port}` },
    });
  } catch (error) {
    if (!(error instanceof DataDirectoryInUseError)) throw error;
    io.err(`Nothing was printed. ${error.message}`);
    return 1;
  }
  const renderer = createChromiumRenderer({ logger, executablePath: env.CHROMIUM_PATH || undefined, slots: 1 });
  try {
    const { db } = running.database;
    const scope = await exportScope(db, parsed.scheduleCode, parsed.venue);
    const data = await loginSlips(db, scope, loginUrlOf(publicOrigin ?? `http://localhost:${config.port}`));
    const token = await grantSlipsPrint(db, { scope, staffId: null, now: running.clock.now(), slips: data.slips.length });
    const search = new URLSearchParams({ token, ...(scope.venue ? { venue: String(scope.venue.id) } : {}) });
    const pdf = await renderer.render({
      url: `http://127.0.0.1:${running.port}/login-slips/${encodeURIComponent(scope.schedule.code)}?${search}`,
      landscape: false,
      browserLocale: 'en',
    });
    await writeFile(parsed.out, pdf);
    const place = scope.venue ? `, classroom "${scope.venue.name}"` : '';
    io.out(`Wrote ${data.slips.length} login slip(s) of test period "${scope.schedule.code}" (${scope.school.name}${place}) to ${parsed.out}.`);
    return 0;
  } catch (error) {
    if (error instanceof DomainError && (error.code === 'NOT_FOUND' || error.code === 'DOCUMENT_UNAVAILABLE')) {
      io.err(`Nothing was printed. ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await renderer.close();
    await running.close();
  }
}
