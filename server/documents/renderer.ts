/**
 * The PDF renderer: Debian's Chromium driven by playwright-core prints the app's own print route
 * (`/score-report-embed/{id}?token=&locale=&document=`) with `page.pdf()`. Only Chromium shapes
 * all 23 languages correctly (ARCHITECTURE.md, "PDFs").
 *
 * Promises:
 * - Chromium is launched lazily, once per process, on the first document; a failed launch is
 *   logged with what to install and retried on the next request (DOCUMENT_UNAVAILABLE meanwhile);
 * - at most `slots` documents render at once (a small pool; the rest wait their turn); each gets
 *   a fresh browser context, so no storage, token or language leaks from one pupil's document
 *   to the next;
 * - the PDF is taken only once the page set `<html data-document-ready="true">` (fonts, charts
 *   and formulas rendered); a page that reports a failure (`data-document-ready="error"`) turns
 *   into that error code; `close()` (and Playwright's own SIGINT/SIGTERM handling) ends Chromium.
 */
// Loaded on the first document, not at start: playwright-core costs the server's start about a second.
import type { Browser } from 'playwright-core';
import { errorCodes, type ErrorCode } from '../../contract/errors.ts';
import { DomainError } from '../domain/errors.ts';
import type { Logger } from '../logger.ts';
import { chromiumFlags, findChromiumExecutable } from './chromium.ts';

export type DocumentRequest = {
  /** The print route's full URL, token included. */
  url: string;
  /** The certificate is A4 landscape; the score report A4 portrait. */
  landscape: boolean;
  /** BCP 47 tag for the browser context (Accept-Language, Intl's default). */
  browserLocale: string;
};

export interface DocumentRenderer {
  render(request: DocumentRequest): Promise<Uint8Array>;
  close(): Promise<void>;
}

export type RendererOptions = {
  logger: Logger;
  /** CHROMIUM_PATH, else /usr/bin/chromium, else chromium or chromium-browser on PATH. */
  executablePath?: string;
  /** Documents rendered at once (default 2: the machines have two cores). */
  slots?: number;
  /** How long a page may take to become ready (default 30 s). */
  timeoutMs?: number;
};

function unavailable(): DomainError {
  return new DomainError('DOCUMENT_UNAVAILABLE', 'The PDF renderer (Chromium) is not available on this server.');
}

export function createChromiumRenderer(options: RendererOptions): DocumentRenderer {
  const { logger, slots = 2, timeoutMs = 30_000 } = options;
  let browser: Promise<Browser> | undefined;
  let active = 0;
  const waiting: (() => void)[] = [];

  function launch(): Promise<Browser> {
    if (browser) return browser;
    const executablePath = options.executablePath ?? findChromiumExecutable();
    if (!executablePath) {
      logger.error(
        'PDF renderer: Chromium not found (CHROMIUM_PATH, /usr/bin/chromium, chromium on PATH). Install it with `apt-get install chromium` or set CHROMIUM_PATH; PDFs answer DOCUMENT_UNAVAILABLE until then.',
      );
      return Promise.reject(unavailable());
    }
    const launching = import('playwright-core').then(({ chromium }) => chromium.launch({ executablePath, args: chromiumFlags })).then(
      (launched) => {
        // A crashed browser is launched again on the next document.
        launched.on('disconnected', () => {
          if (browser === launching) browser = undefined;
        });
        return launched;
      },
      (error: unknown) => {
        browser = undefined;
        logger.error(`PDF renderer: Chromium at ${executablePath} could not be started; PDFs answer DOCUMENT_UNAVAILABLE.`, error);
        throw unavailable();
      },
    );
    browser = launching;
    return launching;
  }

  async function acquire(): Promise<void> {
    if (active < slots) {
      active += 1;
      return;
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  }

  function release(): void {
    const next = waiting.shift();
    if (next) next();
    else active -= 1;
  }

  return {
    async render(request) {
      const instance = await launch();
      await acquire();
      const context = await instance.newContext({ locale: request.browserLocale, viewport: { width: 1024, height: 1400 } });
      try {
        const page = await context.newPage();
        await page.goto(request.url, { waitUntil: 'load', timeout: timeoutMs });
        const marker = await page.waitForFunction(() => document.documentElement.dataset.documentReady, undefined, { timeout: timeoutMs });
        const ready = await marker.jsonValue();
        if (ready !== 'true') {
          const code = await page.evaluate(() => document.documentElement.dataset.documentError ?? 'GENERIC_ERROR');
          throw new DomainError((errorCodes as readonly string[]).includes(code) ? (code as ErrorCode) : 'GENERIC_ERROR', `The document page failed: ${code}`);
        }
        await page.emulateMedia({ media: 'print' });
        return await page.pdf({ format: 'A4', printBackground: true, landscape: request.landscape, preferCSSPageSize: true });
      } catch (error) {
        if (error instanceof DomainError) throw error;
        logger.error(`PDF renderer: ${new URL(request.url).pathname} could not be printed`, error);
        throw unavailable();
      } finally {
        await context.close().catch(() => undefined);
        release();
      }
    },
    async close() {
      const current = browser;
      browser = undefined;
      if (current) await (await current.catch(() => undefined))?.close();
    },
  };
}

let shared: DocumentRenderer | undefined;

/** The process's one renderer (launched on first use). */
export function sharedRenderer(logger: Logger): DocumentRenderer {
  shared ??= createChromiumRenderer({ logger });
  return shared;
}

/** Ends the process's renderer, if it was ever used (server shutdown). */
export async function closeSharedRenderer(): Promise<void> {
  const current = shared;
  shared = undefined;
  await current?.close();
}
