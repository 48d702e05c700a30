/**
 * A stand-in for the browser's ConnectivityPort (src/platform/connectivity.ts): a healthy lab
 * terminal by default (every host answers with the right file, the clock matches the server's,
 * 2 GB free, the offline shell in control, the fonts all drawn), every fact changeable per test.
 *
 * Time is a counter: each `now()` is 7 ms after the last, so every check takes a known, small,
 * non-zero time. With `hold: true` every probe waits until `release()`, so a test can see a round
 * while it runs.
 */
import type {
  CheckUrls,
  ConnectivityPort,
  FontFacts,
  HttpAnswer,
  OfflineShellFacts,
  StorageFacts,
} from '../../machines/connectivity/connectivity.types.ts';

export const FAKE_SERVER_TIME = '2026-11-22T09:00:00.000Z';

export const fakeUrls = {
  apiHealth: 'http://gradus.test/api/health',
  front: 'http://gradus.test/',
  mathScript: 'http://gradus.test/assets/katex-AbC123.js',
  mathStyle: 'http://gradus.test/assets/katex-DeF456.css',
} satisfies CheckUrls;

/** The right answer of each URL: what the real server sends. */
export function healthyAnswer(url: string, serverTime = FAKE_SERVER_TIME): HttpAnswer {
  if (url === fakeUrls.apiHealth) return { status: 200, contentType: 'application/json', body: JSON.stringify({ ok: true, server_time: serverTime }) };
  if (url === fakeUrls.front) return { status: 200, contentType: 'text/html; charset=utf-8', body: '<!doctype html><div id="root"></div>' };
  if (url === fakeUrls.mathScript) return { status: 200, contentType: 'text/javascript', body: 'var katex={};export{katex as default}' };
  if (url === fakeUrls.mathStyle) return { status: 200, contentType: 'text/css', body: '.katex{font:normal 1.21em KaTeX_Main}' };
  return { status: 404, contentType: 'text/plain', body: 'Not found' };
}

export interface FakeConnectivity extends ConnectivityPort {
  /** Answers by URL; a URL mapped to 'unreachable' rejects as a network failure. */
  answers: Map<string, HttpAnswer | 'unreachable'>;
  urlsOf: CheckUrls;
  storageFacts: StorageFacts;
  shellFacts: OfflineShellFacts;
  fontFacts: FontFacts;
  /** This terminal's clock at the start (ms since the epoch); the server's is FAKE_SERVER_TIME. */
  clock: number;
  /** Every URL asked for, in order. */
  asked: string[];
  /** Whether each probe's signal was aborted when the machine stopped it. */
  aborted: string[];
  hold: boolean;
  /** Lets every held probe go on. */
  release(): void;
}

export function createFakeConnectivity(): FakeConnectivity {
  let waiting: Array<() => void> = [];
  const held = (what: string, signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      signal.addEventListener('abort', () => fake.aborted.push(what), { once: true });
      if (!fake.hold) return resolve();
      waiting.push(resolve);
    });
  const fake: FakeConnectivity = {
    answers: new Map(),
    urlsOf: { ...fakeUrls },
    storageFacts: { availableBytes: 2 * 1024 * 1024 * 1024, roundTrip: 'ok' },
    shellFacts: { supported: true, registered: true, active: true, controlled: true },
    fontFacts: { language: 'en', sample: 'English', measured: true, missing: 0 },
    clock: Date.parse(FAKE_SERVER_TIME),
    asked: [],
    aborted: [],
    hold: false,
    release() {
      const go = waiting;
      waiting = [];
      for (const resolve of go) resolve();
    },
    now() {
      fake.clock += 7;
      return fake.clock;
    },
    urls: () => fake.urlsOf,
    async get(url, signal) {
      fake.asked.push(url);
      await held(url, signal);
      const answer = fake.answers.get(url) ?? healthyAnswer(url);
      if (answer === 'unreachable') throw new TypeError('Failed to fetch');
      return answer;
    },
    async storage(signal) {
      await held('storage', signal);
      return fake.storageFacts;
    },
    async offlineShell(signal) {
      await held('offlineShell', signal);
      return fake.shellFacts;
    },
    async fonts(signal) {
      await held('fonts', signal);
      return fake.fontFacts;
    },
  };
  return fake;
}
