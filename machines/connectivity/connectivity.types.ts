/**
 * Types of the connectivity machine (seed section 2 `checking-domain-connection`,
 * section 7 "Health checks are made of the API host, the front host and two math-rendering
 * script files"): the readiness check a lab teacher runs on each terminal before exam day.
 *
 * The machine runs the checks below one after another; each is an actor that asks the edge's
 * ConnectivityPort (src/platform/connectivity.ts in the browser, fakes in tests) for facts and
 * judges them with connectivity.rules.ts into a CheckResult. The view sends the events below
 * and reads ConnectivityApi (connectivity.connect.ts).
 */

/** The checks, in the order they run and the screen lists them. */
export const checkIds = ['api', 'front', 'mathScript', 'mathStyle', 'clock', 'storage', 'offlineShell', 'fonts'] as const;
export type CheckId = (typeof checkIds)[number];

/** What a check concluded: fine, works but should be looked at, or a problem to fix before exam day. */
export type Verdict = 'pass' | 'warning' | 'fail';

/**
 * Why a check concluded what it did, as a code the screen turns into words (and advice):
 * - ok: passed;
 * - slow: answered correctly, but slower than a lab network should be (warning);
 * - unreachable: no answer at all (no network, name not found, refused, blocked by a filter);
 * - httpError: the host answered with an error status (`detail.status`);
 * - unexpectedAnswer: the host answered 2xx with something else than the file (a web filter's
 *   or a captive portal's page);
 * - notInBuild: this copy of the app names no math file (the build is incomplete);
 * - timeout: no answer within CHECK_TIMEOUT_MS;
 * - clockOff: the terminal's clock differs from the server's by `detail.offsetMs` (warning
 *   beyond CLOCK_WARN_MS, problem beyond CLOCK_FAIL_MS);
 * - clockUnknown: the server's time could not be read, so the clock was not compared (warning);
 * - storageLow / storageFull: little / too little room for the answer outbox (`detail.availableBytes`);
 * - storageBlocked: the browser refused the IndexedDB write, read or delete (private mode,
 *   site data blocked);
 * - storageUnmeasured: IndexedDB works, but the browser does not say how much room is left (warning);
 * - shellWaiting: the offline shell is installed but does not control this page yet (reload once);
 * - shellMissing: no offline shell is installed on this terminal;
 * - shellUnsupported: this browser cannot install one;
 * - fontsMissing: `detail.missing` characters of the language's sample show as empty boxes;
 * - fontsUnmeasured: the browser would not let the page measure the fonts (warning);
 * - broken: the check itself failed unexpectedly (a defect, never a verdict about the terminal).
 */
export type CheckReason =
  | 'ok'
  | 'slow'
  | 'unreachable'
  | 'httpError'
  | 'unexpectedAnswer'
  | 'notInBuild'
  | 'timeout'
  | 'clockOff'
  | 'clockUnknown'
  | 'storageLow'
  | 'storageFull'
  | 'storageBlocked'
  | 'storageUnmeasured'
  | 'shellWaiting'
  | 'shellMissing'
  | 'shellUnsupported'
  | 'fontsMissing'
  | 'fontsUnmeasured'
  | 'broken';

/** The numbers and names the words of a result need. */
export interface CheckDetail {
  /** The HTTP status a host answered with (httpError). */
  status?: number;
  /** The URL that was asked for (the host or file checks). */
  url?: string;
  /** Server time minus this terminal's time, ms (clock): positive when the terminal is behind. */
  offsetMs?: number;
  /** Bytes this site may still store on the terminal (storage). */
  availableBytes?: number;
  /** The language whose fonts were checked, as its key (fonts). */
  language?: string;
  /** The sample text drawn in that language's script (fonts). */
  sample?: string;
  /** How many characters of the sample show as empty boxes (fonts). */
  missing?: number;
}

/** One check's outcome. */
export interface CheckResult {
  verdict: Verdict;
  reason: CheckReason;
  /** How long the check took, ms (for a time-out: the time waited). */
  ms: number;
  detail: CheckDetail;
}

export interface ConnectivityContext {
  /** Each check's outcome in this round; null while it waits or runs. */
  results: Record<CheckId, CheckResult | null>;
}

export type ConnectivityEvent =
  /** "Check again": a new round of every check (only once the last round is done). */
  | { type: 'check.requested' }
  /** "Back": the teacher leaves the check (the kiosk shows the screen they came from). */
  | { type: 'check.closed' }
  /** The interface language changed: the fonts of the new one are checked. */
  | { type: 'language.changed'; language: string };

// ---------------------------------------------------------------------------
// The edge: what the browser provides (src/platform/connectivity.ts; fakes in tests)
// ---------------------------------------------------------------------------

/** What a host answered to a GET. */
export interface HttpAnswer {
  status: number;
  /** The Content-Type header ('' when none). */
  contentType: string;
  /** The whole body as text (the check waits for all of it). */
  body: string;
}

/** The URLs this copy of the app checks. */
export interface CheckUrls {
  /** The API host's health: `<API base>/health`. */
  apiHealth: string;
  /** The front host's index: the app's own base URL. */
  front: string;
  /** KaTeX's script chunk as this build loads it; null when the build names none. */
  mathScript: string | null;
  /** KaTeX's stylesheet as this build loads it; null when the build names none. */
  mathStyle: string | null;
}

/** The answer outbox's storage, as the browser reports it. */
export interface StorageFacts {
  /** Quota minus usage from navigator.storage.estimate(); null when the browser does not say. */
  availableBytes: number | null;
  /**
   * A record written to IndexedDB, read back and deleted: ok; mismatch (read back different);
   * failed (the browser refused a step); unavailable (no IndexedDB at all).
   */
  roundTrip: 'ok' | 'mismatch' | 'failed' | 'unavailable';
}

/** The offline app shell (the service worker), as the browser reports it. */
export interface OfflineShellFacts {
  /** The browser has service workers (and the page is on a secure origin). */
  supported: boolean;
  /** A worker is registered for this app (installing, waiting or active). */
  registered: boolean;
  /** The registration has an active worker. */
  active: boolean;
  /** A worker controls this page (navigator.serviceWorker.controller). */
  controlled: boolean;
}

/** The fonts of the interface language, as the browser draws them. */
export interface FontFacts {
  /** The language checked (its key, contract/languages.ts). */
  language: string;
  /** The text drawn: the language's own name, in its own script. */
  sample: string;
  /** Could the page measure at all (a 2D canvas)? */
  measured: boolean;
  /** Characters of the sample drawn as the "missing glyph" box. */
  missing: number;
}

/**
 * The browser work behind the checks. Every method that waits takes the check's AbortSignal:
 * the machine stops a check at its time-out and the edge stops the work with it.
 */
export interface ConnectivityPort {
  /** This terminal's clock, ms since the epoch (Date.now in the browser). */
  now(): number;
  urls(): CheckUrls;
  /**
   * GET `url` past every cache (the HTTP cache and the offline shell's precache); resolves with
   * whatever the host answered, rejects only when no answer came.
   */
  get(url: string, signal: AbortSignal): Promise<HttpAnswer>;
  storage(signal: AbortSignal): Promise<StorageFacts>;
  offlineShell(signal: AbortSignal): Promise<OfflineShellFacts>;
  fonts(signal: AbortSignal): Promise<FontFacts>;
}
