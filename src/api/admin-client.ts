/**
 * The browser's AdminPort (machines/proctor/proctor.types.ts) over ofetch: the staff calls under
 * /api/admin, for the proctor page and the administrator's console, with the console's file calls
 * (FilePort: an import file's bytes sent raw with its Content-Type, a document fetched as a Blob
 * with the file name of its Content-Disposition). The machines' actors parse every answer with
 * valibot (machines/proctor/proctor.actors.ts, machines/administration/administration.actors.ts);
 * this only carries requests.
 *
 * Promises: the same API base, 60 000 ms time-out and language headers as the pupil's client
 * (src/api/client.ts); `Authorization: Bearer` with the STAFF token the request names, and never
 * the pupil's Examinee-Token or device token; If-None-Match when the request holds an ETag, with
 * the browser's HTTP cache bypassed so a 304 reaches the machine as a 304. Any answer, whatever
 * its status, resolves; no answer rejects with ApiFailure NETWORK_ERROR, a late one with TIMEOUT.
 */
import { ofetch } from 'ofetch';
import type { AdministrationPort, FileResponse } from '../../machines/administration/administration.types.ts';
import type { AdminResponse } from '../../machines/proctor/proctor.types.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';
import { headerNames } from '../../contract/http.ts';
import { catalogOf, languages, type LanguageKey } from '../../contract/languages.ts';
import { API_TIMEOUT_MS } from './client.ts';

export interface AdminClientOptions {
  /** The API base; same origin `/api` by default. */
  baseURL?: string;
  /** The active interface language. */
  getLanguage(): LanguageKey;
  /** Only tests shorten this. */
  timeoutMs?: number;
}

const notJson = Symbol('not JSON');

function isTimeout(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    if ('name' in e && e.name === 'TimeoutError') return true;
    e = 'cause' in e ? e.cause : undefined;
  }
  return false;
}

/** The file name of a Content-Disposition header (RFC 6266: filename* first), or null. */
export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // A malformed escape: fall back to the plain name.
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(disposition);
  return plain?.[1]?.trim() || null;
}

/** The media type a document path names by its extension. */
function acceptOf(path: string): string {
  if (path.endsWith('.pdf')) return 'application/pdf';
  if (path.endsWith('.csv')) return 'text/csv';
  return '*/*';
}

export function createAdminClient(options: AdminClientOptions): AdministrationPort {
  const { baseURL = '/api', getLanguage, timeoutMs = API_TIMEOUT_MS } = options;
  const client = ofetch.create({
    baseURL,
    timeout: timeoutMs,
    retry: false,
    ignoreResponseError: true,
    parseResponse: (text: string) => {
      if (text === '') return undefined;
      try {
        return JSON.parse(text);
      } catch {
        return notJson;
      }
    },
  });

  function headersFor(token: string | null): Record<string, string> {
    const language = getLanguage();
    const headers: Record<string, string> = {
      [headerNames.acceptLanguage]: languages[language].tag,
      [headerNames.locale]: catalogOf(language),
    };
    if (token) headers[headerNames.authorization] = `Bearer ${token}`;
    return headers;
  }

  // The file calls: their own ofetch without the JSON parsing (a document is bytes).
  const files = ofetch.create({ baseURL, timeout: timeoutMs, retry: false, ignoreResponseError: true });

  async function rawFile(path: string, init: Parameters<typeof files.raw>[1]) {
    try {
      return await files.raw(path, { ...init, cache: 'no-store' });
    } catch (error) {
      if (isTimeout(error)) throw new ApiFailure('TIMEOUT');
      throw new ApiFailure('NETWORK_ERROR');
    }
  }

  function jsonOf(text: string): unknown {
    try {
      return text === '' ? undefined : JSON.parse(text);
    } catch {
      return undefined;
    }
  }

  return {
    async upload(request): Promise<AdminResponse> {
      // The plan comes back as JSON; the API refuses (406) a request that does not accept it.
      const headers = { ...headersFor(request.token), 'Content-Type': request.contentType, Accept: 'application/json' };
      const response = await rawFile(request.path, {
        method: 'POST',
        headers,
        ...(request.query ? { query: request.query } : {}),
        body: request.body,
        responseType: 'text',
      });
      return { status: response.status, body: jsonOf(String(response._data ?? '')), etag: null };
    },

    async download(request): Promise<FileResponse> {
      const response = await rawFile(request.path, {
        method: 'GET',
        // The document's own type, and JSON for the error envelope (the API answers 406 otherwise).
        headers: { ...headersFor(request.token), Accept: `${acceptOf(request.path)}, application/json;q=0.5` },
        ...(request.query ? { query: request.query } : {}),
        responseType: 'blob',
      });
      const blob = response._data instanceof Blob ? response._data : null;
      const ok = response.status >= 200 && response.status <= 299;
      return {
        status: response.status,
        blob: ok ? blob : null,
        body: ok || !blob ? undefined : jsonOf(await blob.text()),
        etag: null,
        fileName: fileNameOf(response.headers.get('content-disposition')),
      };
    },

    async send(request): Promise<AdminResponse> {
      const headers = headersFor(request.token);
      if (request.ifNoneMatch) headers['If-None-Match'] = request.ifNoneMatch;
      let response;
      try {
        response = await client.raw(request.path, {
          method: request.method,
          headers,
          ...(request.query ? { query: request.query } : {}),
          ...(request.body === undefined ? {} : { body: request.body as Record<string, unknown> }),
          // The roster's 304 must reach the machine, not be answered from (or turned into 200 by) the HTTP cache.
          cache: 'no-store',
        });
      } catch (error) {
        if (isTimeout(error)) throw new ApiFailure('TIMEOUT');
        throw new ApiFailure('NETWORK_ERROR');
      }
      const body = response._data === notJson ? undefined : (response._data as unknown);
      return { status: response.status, body, etag: response.headers.get('etag') };
    },
  };
}
