/**
 * The connectivity check's judgements as pure functions over facts: what counts as a pass, a
 * warning or a problem for each check, and the thresholds behind them. No I/O; the actors
 * (connectivity.actors.ts) gather the facts and time them, these decide.
 */
import * as v from 'valibot';
import { HealthResponseSchema } from '../../contract/http.ts';
import type { CheckDetail, CheckId, CheckResult, FontFacts, HttpAnswer, OfflineShellFacts, StorageFacts } from './connectivity.types.ts';

/** Each check is stopped after this long (the machine's time-out; the edge aborts its work). */
export const CHECK_TIMEOUT_MS = 15_000;
/** The API and the front host answer a small request slower than this: a warning. */
export const SLOW_HOST_MS = 2_000;
/** A math file (KaTeX's script is about 270 kB) takes longer than this: a warning. */
export const SLOW_FILE_MS = 5_000;
/** The terminal's clock is off by more than this: a warning (the exam uses the server's time). */
export const CLOCK_WARN_MS = 2_000;
/** Off by more than this: a problem (the times a pupil and a teacher read are wrong). */
export const CLOCK_FAIL_MS = 60_000;
/**
 * Room for the answer outbox and the cached exam. One answer is a few hundred bytes and an exam
 * with its questions well under 1 MB, so less than 5 MB left is a problem (the browser may evict
 * or refuse writes) and less than 50 MB a warning.
 */
export const STORAGE_FAIL_BYTES = 5 * 1024 * 1024;
export const STORAGE_WARN_BYTES = 50 * 1024 * 1024;

const result = (verdict: CheckResult['verdict'], reason: CheckResult['reason'], ms: number, detail: CheckDetail = {}): CheckResult => ({
  verdict,
  reason,
  ms: Math.max(0, Math.round(ms)),
  detail,
});

const isSuccess = (status: number) => status >= 200 && status <= 299;

/** The answer of a host or file check that got an answer: what the file must look like to be ours. */
export type FileKind = 'api' | 'front' | 'mathScript' | 'mathStyle';

function looksRight(kind: FileKind, answer: HttpAnswer): boolean {
  const type = answer.contentType.toLowerCase();
  switch (kind) {
    case 'api': {
      // The API's own health answer (the contract's schema), not a proxy's page.
      try {
        return v.safeParse(HealthResponseSchema, JSON.parse(answer.body)).success;
      } catch {
        return false;
      }
    }
    case 'front':
      // The app's index (Vite's shell has the root element), not a filter's or a portal's page.
      return type.includes('text/html') && answer.body.includes('id="root"');
    case 'mathScript':
      return type.includes('javascript') && /katex/i.test(answer.body);
    case 'mathStyle':
      return type.includes('text/css') && answer.body.includes('.katex');
  }
}

/** A GET that got an answer: the status, then the content, then the time. */
export function judgeAnswer(kind: FileKind, answer: HttpAnswer, ms: number, url: string): CheckResult {
  if (!isSuccess(answer.status)) return result('fail', 'httpError', ms, { status: answer.status, url });
  if (!looksRight(kind, answer)) return result('fail', 'unexpectedAnswer', ms, { status: answer.status, url });
  const slowAfter = kind === 'mathScript' || kind === 'mathStyle' ? SLOW_FILE_MS : SLOW_HOST_MS;
  if (ms > slowAfter) return result('warning', 'slow', ms, { url });
  return result('pass', 'ok', ms, { url });
}

/** A GET that got no answer at all. */
export function unreachable(ms: number, url: string): CheckResult {
  return result('fail', 'unreachable', ms, { url });
}

/** The math file's URL is missing from this build. */
export function notInBuild(ms: number): CheckResult {
  return result('fail', 'notInBuild', ms);
}

/**
 * The terminal's clock against the server's: the server's time is taken as it was halfway
 * through the call (sent and received on this terminal's clock).
 */
export function judgeClock(serverTime: string, sentAt: number, receivedAt: number): CheckResult {
  const offsetMs = Math.round(Date.parse(serverTime) - (sentAt + receivedAt) / 2);
  const off = Math.abs(offsetMs);
  const ms = receivedAt - sentAt;
  if (off > CLOCK_FAIL_MS) return result('fail', 'clockOff', ms, { offsetMs });
  if (off > CLOCK_WARN_MS) return result('warning', 'clockOff', ms, { offsetMs });
  return result('pass', 'ok', ms, { offsetMs });
}

/** The server's time could not be read: the clock is not compared (the API check says why). */
export function clockUnknown(ms: number): CheckResult {
  return result('warning', 'clockUnknown', ms);
}

/** The health answer's server time, or null when the answer is not the API's. */
export function serverTimeOf(answer: HttpAnswer): string | null {
  if (!isSuccess(answer.status)) return null;
  try {
    const parsed = v.safeParse(HealthResponseSchema, JSON.parse(answer.body));
    return parsed.success ? parsed.output.server_time : null;
  } catch {
    return null;
  }
}

export function judgeStorage(facts: StorageFacts, ms: number): CheckResult {
  if (facts.roundTrip !== 'ok') return result('fail', 'storageBlocked', ms);
  if (facts.availableBytes === null) return result('warning', 'storageUnmeasured', ms);
  const detail = { availableBytes: facts.availableBytes };
  if (facts.availableBytes < STORAGE_FAIL_BYTES) return result('fail', 'storageFull', ms, detail);
  if (facts.availableBytes < STORAGE_WARN_BYTES) return result('warning', 'storageLow', ms, detail);
  return result('pass', 'ok', ms, detail);
}

/**
 * The offline shell: in control of this page is a pass; installed but not (yet) in control is a
 * warning (a reload hands it the page); none is a problem: a reload without the network would
 * show the browser's error page instead of the exam.
 */
export function judgeOfflineShell(facts: OfflineShellFacts, ms: number): CheckResult {
  if (!facts.supported) return result('fail', 'shellUnsupported', ms);
  if (facts.active && facts.controlled) return result('pass', 'ok', ms);
  if (facts.registered) return result('warning', 'shellWaiting', ms);
  return result('fail', 'shellMissing', ms);
}

export function judgeFonts(facts: FontFacts, ms: number): CheckResult {
  const detail = { language: facts.language, sample: facts.sample, missing: facts.missing };
  if (!facts.measured) return result('warning', 'fontsUnmeasured', ms, detail);
  if (facts.missing > 0) return result('fail', 'fontsMissing', ms, detail);
  return result('pass', 'ok', ms, detail);
}

/** A check stopped at its time-out. The clock was then not compared: a warning, like clockUnknown. */
export function timedOut(check: CheckId): CheckResult {
  return check === 'clock' ? result('warning', 'clockUnknown', CHECK_TIMEOUT_MS) : result('fail', 'timeout', CHECK_TIMEOUT_MS);
}

/** A check that failed in itself (a defect): never passed off as a verdict about the terminal. */
export function broken(): CheckResult {
  return result('fail', 'broken', 0);
}
