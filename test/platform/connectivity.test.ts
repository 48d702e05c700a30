// @vitest-environment jsdom
/**
 * The browser's ConnectivityPort (src/platform/connectivity.ts): the URLs it checks are this
 * page's own (the API base's health, the app's base, KaTeX's files as index.html names them); a
 * GET goes past every cache and hands back whatever answered; the storage check writes, reads
 * back and deletes a record in a database of its own (fake-indexeddb), never the outbox's; the
 * offline shell is read, and a first install is given time to take the page; the fonts are drawn
 * and characters drawn like a code point no font has are counted as missing.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHECK_DB, CHECK_PARAM, SHELL_SETTLE_MS, createBrowserConnectivity } from '../../src/platform/connectivity.ts';
import { mathAssetMeta } from '../../src/platform/math-assets.ts';
import { OUTBOX_DB } from '../../src/platform/outbox.ts';

const signal = () => new AbortController().signal;

function port(overrides: Partial<Parameters<typeof createBrowserConnectivity>[0]> = {}) {
  return createBrowserConnectivity({ apiBase: '/api', language: () => 'en', baseUrl: '/', ...overrides });
}

afterEach(() => {
  document.head.querySelectorAll('meta').forEach((meta) => meta.remove());
  vi.useRealTimers();
});

describe('the URLs checked', () => {
  it("are this page's: the API's health, the app's base, and KaTeX's files as index.html names them", () => {
    for (const [name, content] of [
      [mathAssetMeta.script, '/assets/katex-BYLiqMcl.js'],
      [mathAssetMeta.style, '/assets/katex-Bv5fr4tV.css'],
    ]) {
      document.head.append(Object.assign(document.createElement('meta'), { name, content }));
    }
    const origin = new URL(document.baseURI).origin;
    expect(port().urls()).toEqual({
      apiHealth: `${origin}/api/health`,
      front: `${origin}/`,
      mathScript: `${origin}/assets/katex-BYLiqMcl.js`,
      mathStyle: `${origin}/assets/katex-Bv5fr4tV.css`,
    });
    // An API on another host (VITE_API_BASE) is checked there.
    expect(port({ apiBase: 'https://api.gradus.example/v1/' }).urls().apiHealth).toBe('https://api.gradus.example/v1/health');
  });

  it('names no math file when the page names none (an incomplete build)', () => {
    expect(port().urls()).toMatchObject({ mathScript: null, mathStyle: null });
  });
});

describe('a GET', () => {
  it('goes past the HTTP cache and the offline shell, with the check\'s signal, and hands back the answer', async () => {
    const fetch = vi.fn(async () => new Response('{"ok":true}', { status: 200, headers: { 'Content-Type': 'application/json' } }));
    const controller = new AbortController();
    const answer = await port({ fetch }).get('http://gradus.test/api/health', controller.signal);
    expect(answer).toEqual({ status: 200, contentType: 'application/json', body: '{"ok":true}' });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(new URL(url).pathname).toBe('/api/health');
    expect(new URL(url).searchParams.get(CHECK_PARAM)).toMatch(/^\d+$/);
    expect(init).toMatchObject({ cache: 'no-store', signal: controller.signal });
  });

  it('resolves with an error status, and rejects only when nothing answered', async () => {
    const refused = vi.fn(async () => new Response('Not found', { status: 404 }));
    expect(await port({ fetch: refused }).get('http://gradus.test/x.js', signal())).toMatchObject({ status: 404, body: 'Not found' });
    const offline = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(port({ fetch: offline }).get('http://gradus.test/x.js', signal())).rejects.toThrow('Failed to fetch');
  });
});

describe('storage', () => {
  it('reads the room left and makes a real round trip in its own database, leaving nothing behind', async () => {
    const estimate = vi.fn(async () => ({ quota: 5_000_000_000, usage: 1_000_000_000 }));
    const facts = await port({ navigator: { storage: { estimate } } as unknown as Navigator }).storage(signal());
    expect(facts).toEqual({ availableBytes: 4_000_000_000, roundTrip: 'ok' });
    const names = (await indexedDB.databases()).map((d) => d.name);
    expect(names).toContain(CHECK_DB);
    expect(names).not.toContain(OUTBOX_DB);
    const records = await new Promise<number>((resolve, reject) => {
      const open = indexedDB.open(CHECK_DB);
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const count = open.result.transaction('probe').objectStore('probe').count();
        count.onsuccess = () => {
          resolve(count.result);
          open.result.close();
        };
      };
    });
    expect(records).toBe(0);
  });

  it('says when the browser gives no estimate, has no IndexedDB, or refuses it', async () => {
    expect(await port({ navigator: {} as Navigator }).storage(signal())).toEqual({ availableBytes: null, roundTrip: 'ok' });
    expect(await port({ navigator: {} as Navigator, indexedDB: null }).storage(signal())).toEqual({ availableBytes: null, roundTrip: 'unavailable' });
    // A factory that refuses to open stands for a locked-down browser (private mode, site data blocked).
    const refusing = { open: () => { throw new DOMException('blocked', 'SecurityError'); } } as unknown as IDBFactory;
    expect(await port({ navigator: {} as Navigator, indexedDB: refusing }).storage(signal())).toEqual({ availableBytes: null, roundTrip: 'failed' });
  });
});

/** A service worker container as the page sees it. */
function container(state: { registration?: { active: object | null } | undefined; controller?: object | null }) {
  const listeners: Array<() => void> = [];
  return {
    get controller() {
      return state.controller ?? null;
    },
    getRegistration: vi.fn(async () => state.registration),
    addEventListener: (type: string, listener: () => void) => {
      if (type === 'controllerchange') listeners.push(listener);
    },
    takeControl() {
      state.registration = { active: {} };
      state.controller = {};
      for (const listener of listeners) listener();
    },
  };
}

describe('the offline shell', () => {
  it('in control of the page; installed but not in control; none; a browser without service workers', async () => {
    const shell = (c: ReturnType<typeof container>) => port({ navigator: { serviceWorker: c } as unknown as Navigator }).offlineShell(signal());
    expect(await shell(container({ registration: { active: {} }, controller: {} }))).toEqual({
      supported: true, registered: true, active: true, controlled: true,
    });
    expect(await shell(container({ registration: { active: {} }, controller: null }))).toEqual({
      supported: true, registered: true, active: true, controlled: false,
    });
    expect(await shell(container({ registration: undefined }))).toEqual({ supported: true, registered: false, active: false, controlled: false });
    expect(await port({ navigator: {} as Navigator }).offlineShell(signal())).toEqual({
      supported: false, registered: false, active: false, controlled: false,
    });
  });

  it('gives a first install time to take the page, and says "installed, not in control" if it does not', async () => {
    vi.useFakeTimers();
    const installing = container({ registration: { active: null }, controller: null });
    const check = port({ navigator: { serviceWorker: installing } as unknown as Navigator }).offlineShell(signal());
    await vi.advanceTimersByTimeAsync(1_000);
    installing.takeControl();
    expect(await check).toEqual({ supported: true, registered: true, active: true, controlled: true });

    const stuck = container({ registration: { active: null }, controller: null });
    const slow = port({ navigator: { serviceWorker: stuck } as unknown as Navigator }).offlineShell(signal());
    await vi.advanceTimersByTimeAsync(SHELL_SETTLE_MS);
    expect(await slow).toEqual({ supported: true, registered: true, active: false, controlled: false });
  });
});

/**
 * A 2D canvas that draws each character as the glyph a font table gives it: characters it has no
 * glyph for are drawn like U+0378 (the missing-glyph box).
 */
function fakeDocument(glyphs: Record<string, number>) {
  let drawn = 0;
  const context = {
    canvas: { width: 96, height: 64 },
    font: '',
    textBaseline: '',
    fillStyle: '',
    clearRect: () => {
      drawn = 0;
    },
    fillText: (text: string) => {
      drawn = glyphs[text] ?? -1;
    },
    measureText: (text: string) => ({ width: (glyphs[text] ?? -1) === -1 ? 10 : 12 }),
    getImageData: () => ({ data: Uint8ClampedArray.from({ length: 96 * 64 * 4 }, (_, i) => (i % 4 === 3 ? (drawn + 256) % 256 : 0)) }),
  };
  const load = vi.fn(async () => []);
  return {
    baseURI: 'http://gradus.test/',
    documentElement: document.documentElement,
    defaultView: { getComputedStyle: () => ({ fontFamily: 'system-ui, "Noto Sans Khmer", sans-serif' }), isSecureContext: true },
    fonts: { load },
    createElement: () => ({ getContext: () => context }),
    querySelector: () => null,
  } as unknown as Document & { fonts: { load: typeof load } };
}

describe('the fonts', () => {
  it("draw the language's own name and count the characters drawn as the missing-glyph box", async () => {
    const khmer = [...new Set([...'ខ្មែរ'].filter((c) => /\p{L}/u.test(c)))];
    const some = fakeDocument({ [khmer[0]!]: 7 });
    const facts = await port({ document: some, language: () => 'km' }).fonts(signal());
    expect(facts).toEqual({ language: 'km', sample: 'ខ្មែរ', measured: true, missing: khmer.length - 1 });
    // Web fonts of the app's stack for the sample load first.
    expect(some.fonts.load).toHaveBeenCalledWith('32px system-ui, "Noto Sans Khmer", sans-serif', 'ខ្មែរ');

    const all = fakeDocument(Object.fromEntries(khmer.map((c, i) => [c, i + 1])));
    expect(await port({ document: all, language: () => 'km' }).fonts(signal())).toMatchObject({ measured: true, missing: 0 });
  });

  it('Arabic digits count as characters of the Arabic numerals variant', async () => {
    const doc = fakeDocument(Object.fromEntries([...'العربية'].map((c, i) => [c, i + 1])));
    expect(await port({ document: doc, language: () => 'ar-nu-arab' }).fonts(signal())).toMatchObject({
      language: 'ar-nu-arab', sample: 'العربية (٠١٢٣)', missing: 4,
    });
  });

  it('says "not measured" where the page gets no 2D canvas', async () => {
    const doc = { ...fakeDocument({}), createElement: () => ({ getContext: () => null }) } as unknown as Document;
    expect(await port({ document: doc }).fonts(signal())).toEqual({ language: 'en', sample: 'English', measured: false, missing: 0 });
  });
});
