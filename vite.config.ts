import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import babel from '@rolldown/plugin-babel';
import { lingui, linguiTransformerBabelPreset } from '@lingui/vite-plugin';
import { VitePWA } from 'vite-plugin-pwa';
import { compressPlugin } from './scripts/lib/compress-plugin.ts';
import { mathAssetsPlugin } from './scripts/lib/math-assets-plugin.ts';
import { catalogPartsPlugin } from './scripts/lib/catalog-parts-plugin.ts';
import { splitTestFiles } from './scripts/lib/test-files.ts';

const testFiles = splitTestFiles('test/**/*.test.{ts,tsx}');

const apiTarget = process.env.API_PROXY_TARGET ?? 'http://localhost:3001';

/**
 * The offline app shell (ARCHITECTURE.md, "Exam day"): Workbox's generated service worker,
 * through vite-plugin-pwa, precaches the built app so a reload with no network still shows it.
 *
 * - Precached: index.html, the app's JS and CSS, every lazily loaded chunk the exam may need
 *   (both parts of all 23 compiled catalogs, so any language the terminal or the pupil picks
 *   works offline, about 0.5 MB in all; the Intl date data of km, my, kk and pa; KaTeX's script, stylesheet
 *   and its woff2 fonts, the only format Chromium asks for; the score report and every other
 *   route's view, lazy in src/routes/; workbox-window) and the favicon. The app ships no font
 *   of its own (Noto comes with the terminal's system fonts). Not the build's manifest
 *   (dist/.vite/manifest.json, read by scripts/check-bundle.ts): .json is not in the globs.
 * - Not precached: source maps; KaTeX's woff and ttf copies (never requested by a browser that
 *   reads woff2); Adyen's Drop-in (a payment needs the network anyway; its chunk is named
 *   `adyen-*` below so it can be left out).
 * - Never cached: /api. No runtime caching at all, and the navigation fallback (index.html for
 *   app routes such as /start or /login-code) denies /api, so every API call goes to the network.
 * - Updates: registerType 'prompt' (the worker waits; no skipWaiting), registered by the app
 *   itself (src/platform/service-worker.ts), which activates a waiting version only when no
 *   exam is under way. clientsClaim: the first install controls the open page at once, so the
 *   chunks it loads later come from the precache too.
 * No worker in `npm run dev` (devOptions off) and none in Vitest (nothing registers it).
 */
const pwa = VitePWA({
  registerType: 'prompt',
  injectRegister: false,
  strategies: 'generateSW',
  filename: 'sw.js',
  manifest: false,
  devOptions: { enabled: false },
  workbox: {
    globPatterns: ['**/*.{html,js,css,svg,woff2}'],
    globIgnores: ['**/adyen-*', '**/*.map'],
    navigateFallback: '/index.html',
    navigateFallbackDenylist: [/^\/api(?:\/|$)/],
    runtimeCaching: [],
    cleanupOutdatedCaches: true,
    clientsClaim: true,
    skipWaiting: false,
    sourcemap: false,
    // The largest precached file is the main chunk (about 0.55 MB): room to grow, not unbounded.
    maximumFileSizeToCacheInBytes: 2 * 1024 * 1024,
  },
});

export default defineConfig({
  // The Lingui macro runs through Babel before React's transform (ARCHITECTURE.md, "Toolchain").
  // mathAssetsPlugin: index.html names KaTeX's built files for the terminal check.
  // compressPlugin: brotli and gzip copies of dist/'s text files, served by the server.
  // catalogPartsPlugin: each catalog in two parts, the first screen's messages and the rest.
  plugins: [babel({ presets: [linguiTransformerBabelPreset()] }), react(), lingui(), catalogPartsPlugin(), pwa, mathAssetsPlugin(), compressPlugin()],
  build: {
    outDir: 'dist',
    sourcemap: true,
    // dist/.vite/manifest.json: scripts/check-bundle.ts reads the first screen's chunks from it.
    manifest: true,
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      output: {
        // Everything the first screen loads statically in one chunk: without
        // this group Rolldown splits the modules the entry shares with lazy chunks (XState,
        // valibot, the contract's enums...) into a handful of small chunks, each compressed on
        // its own, 4 kB of gzip more for the same code (and more requests).
        codeSplitting: { groups: [{ name: 'first-screen', tags: ['$initial'] }] },
        // Adyen's Drop-in by name, so the service worker's precache can leave it out.
        chunkFileNames: (chunk) =>
          chunk.moduleIds.some((id) => id.includes('/node_modules/@adyen/adyen-web/')) ? 'assets/adyen-[hash].js' : 'assets/[name]-[hash].js',
      },
    },
  },
  server: { port: 5173, proxy: { '/api': apiTarget } },
  test: {
    exclude: ['test/e2e/**', 'node_modules/**'],
    environment: 'node',
    setupFiles: ['test/setup.ts'],
    // One migrated and seeded database per run, copied by each file (test/helpers/db.ts).
    globalSetup: ['test/helpers/db-template.global.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      // Benchmarks (`npm run bench`) belong to this project alone, so each runs once.
      { extends: true, test: { name: 'shared', include: testFiles.shared, isolate: false, benchmark: { include: ['test/bench/**/*.bench.ts'] } } },
      { extends: true, test: { name: 'isolated', include: testFiles.isolated, isolate: true, benchmark: { exclude: ['**'] } } },
    ],
  },
});
