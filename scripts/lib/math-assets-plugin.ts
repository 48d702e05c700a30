/**
 * A Vite plugin that names this build's math-rendering files in index.html (seed section 7: the
 * connectivity check fetches "two math-rendering script files"). KaTeX is a lazily loaded chunk
 * with a hashed name, and its stylesheet a hashed asset, so only the finished bundle knows their
 * URLs: the plugin finds them there and writes
 *   <meta name="gradus-math-script" content="/assets/katex-<hash>.js">
 *   <meta name="gradus-math-style" content="/assets/katex-<hash>.css">
 * into <head>, which src/platform/math-assets.ts reads back. The dev server names the sources
 * instead (Vite serves them as they are). A build in which either cannot be found fails, rather
 * than ship a check that cannot check.
 */
import type { HtmlTagDescriptor, Plugin } from 'vite';
import { mathAssetMeta } from '../../src/platform/math-assets.ts';

const katexScript = /\/node_modules\/katex\/dist\/katex\.m?js$/;
const katexStyle = /(^|\/)node_modules\/katex\/dist\/katex(\.min)?\.css$/;

function metaTags(script: string, style: string): HtmlTagDescriptor[] {
  return [
    { tag: 'meta', attrs: { name: mathAssetMeta.script, content: script }, injectTo: 'head' },
    { tag: 'meta', attrs: { name: mathAssetMeta.style, content: style }, injectTo: 'head' },
  ];
}

export function mathAssetsPlugin(): Plugin {
  let base = '/';
  return {
    name: 'gradus-math-assets',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        if (!context.bundle) {
          // The dev server: KaTeX's sources, the stylesheet as plain CSS (`?direct`).
          return metaTags(`${base}node_modules/katex/dist/katex.mjs`, `${base}node_modules/katex/dist/katex.min.css?direct`);
        }
        let script: string | undefined;
        let style: string | undefined;
        for (const output of Object.values(context.bundle)) {
          if (output.type === 'chunk' && output.facadeModuleId && katexScript.test(output.facadeModuleId)) script = output.fileName;
          if (output.type === 'asset' && output.originalFileNames.some((name) => katexStyle.test(name))) style = output.fileName;
        }
        if (!script || !style) {
          throw new Error(
            `gradus-math-assets: KaTeX's ${script ? 'stylesheet' : 'script chunk'} is not in the bundle; ` +
              'the terminal check could not fetch it (src/components/math/katex-loader.ts loads both).',
          );
        }
        return metaTags(`${base}${script}`, `${base}${style}`);
      },
    },
  };
}
