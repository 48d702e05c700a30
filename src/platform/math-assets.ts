/**
 * Where this build's math-rendering files are: KaTeX's script chunk and its stylesheet, which the
 * exam loads lazily (src/components/math/katex-loader.ts). Their hashed URLs are only known once
 * the bundle is written, so the build names them in index.html's <head>
 * (scripts/lib/math-assets-plugin.ts) and the terminal check (src/platform/connectivity.ts) reads
 * them back here: it fetches exactly the files this copy of the app would load.
 */

/** The <meta name> of each file. */
export const mathAssetMeta = {
  script: 'gradus-math-script',
  style: 'gradus-math-style',
} as const;

export interface MathAssets {
  /** KaTeX's script chunk, as an absolute URL; null when the page names none. */
  script: string | null;
  /** KaTeX's stylesheet, as an absolute URL; null when the page names none. */
  style: string | null;
}

function urlOf(document: Document, name: string): string | null {
  const content = document.querySelector(`meta[name="${name}"]`)?.getAttribute('content');
  return content ? new URL(content, document.baseURI).href : null;
}

export function readMathAssets(document: Document): MathAssets {
  return { script: urlOf(document, mathAssetMeta.script), style: urlOf(document, mathAssetMeta.style) };
}
