/**
 * The question-swap bench's page (question-swap.page.html), built for Chromium the way the app is
 * built (`vite build`: React's production build, the Lingui macro and catalogs, CSS modules), from
 * the sources as they are now, so the bench never measures a stale dist/. Not minified, so a CPU
 * profile of the page names the functions it spent its time in (minifying changes names, not
 * what V8 runs). The bench (question-swap.bench.ts) runs it with BENCH_OUT_DIR set.
 */
import babel from '@rolldown/plugin-babel';
import { lingui, linguiTransformerBabelPreset } from '@lingui/vite-plugin';
import react from '@vitejs/plugin-react';
import path from 'node:path';
import { defineConfig } from 'vite';

const root = path.resolve(import.meta.dirname, '..', '..');

export default defineConfig({
  root,
  mode: 'production',
  logLevel: 'warn',
  plugins: [babel({ presets: [linguiTransformerBabelPreset()] }), react(), lingui()],
  build: {
    outDir: process.env.BENCH_OUT_DIR ?? path.join(root, 'node_modules', '.question-swap-bench'),
    emptyOutDir: true,
    minify: false,
    sourcemap: false,
    chunkSizeWarningLimit: 5_000,
    rolldownOptions: { input: path.join(root, 'test', 'bench', 'question-swap.page.html') },
  },
});
