/**
 * The browser's AdminPort (machines/proctor/proctor.types.ts) over ofetch: the staff calls under
 * /api/admin, for the proctor page. The machine's actors parse every answer with the contract's
 * schemas (machines/proctor/proctor.actors.ts); this only carries requests.
 *
 * Promises: the same API base, 60 000 ms time-out and language headers as the pupil's client
 * (src/api/client.ts); `Authorization: Bearer` with the STAFF token the request names, and never
 * the pupil's Examinee-Token or device token; If-None-Match when the request holds an ETag, with
 * the browser's HTTP cache bypassed so a 304 reaches the machine as a 304. Any answer, whatever
 * its status, resolves; no answer rejects with ApiFailure NETWORK_ERROR, a late one with TIMEOUT.
 */
import { ofetch } from 'ofetch';
import type { AdminPort, AdminResponse } from '../../machines/proctor/proctor.types.ts';
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

export function createAdminClient(options: AdminClientOptions): AdminPort {
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

  return {
    async send(request): Promise<AdminResponse> {
      const language = getLanguage();
      const headers: Record<string, string> = {
        [headerNames.acceptLanguage]: languages[language].tag,
        [headerNames.locale]: catalogOf(language),
      };
      if (request.token) headers[headerNames.authorization] = `Bearer ${request.token}`;
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
