/**
 * KaTeX, loaded on first use only (a dynamic import: its own chunk, fetched when a math
 * question is shown). Its stylesheet and fonts come from node_modules through Vite, so they
 * are served from our own host with the app, never from a CDN (ARCHITECTURE.md, the browser side).
 */
import type KatexModule from 'katex';

type Katex = typeof KatexModule;

let loading: Promise<Katex> | undefined;

export function loadKatex(): Promise<Katex> {
  loading ??= Promise.all([import('katex'), import('katex/dist/katex.min.css')]).then(([module]) => module.default);
  return loading;
}

/** TeX to HTML for the eye and MathML for screen readers; a TeX error shows the source in red, never throws. */
export function renderTex(katex: Katex, tex: string): string {
  return katex.renderToString(tex, { throwOnError: false, output: 'htmlAndMathml', displayMode: false });
}
