/**
 * Each language's catalog in two parts (src/i18n/catalog.ts imports them):
 *
 * - `locales/<lang>/messages.po?first-screen`: the messages of the modules src/main.tsx imports
 *   statically (the first screen's chunk), loaded before the first paint; it exports `messages`
 *   and `later`, which loads the other part (so the first screen's chunk names one chunk per
 *   language, not two);
 * - `locales/<lang>/messages.po?later`: every other message (the lazily loaded screens' and
 *   machines'), loaded right after and awaited before any other screen shows
 *   (src/i18n/language-controller.ts `complete`, the root route's `beforeLoad`).
 *
 * A message belongs to the first part when one of its origins in the source catalog (the `#:`
 * file of the PO entry) is in the static import closure of src/main.tsx, read from the sources
 * (`import ... from './x.ts'` and `export ... from`, never `import type` or `import()`). The
 * build fails when the first screen's chunk holds a module with messages that closure missed, so
 * the first screen never shows a message id.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { getConfig, type LinguiConfigNormalized } from '@lingui/conf';
import { createCompiledCatalog, getCatalogs, getFailOnMissingBehavior } from '@lingui/cli/api';
import type { Plugin } from 'vite';

export type CatalogPart = 'first-screen' | 'later';
const PART_ID = /[/\\]locales[/\\]([^/\\]+)[/\\]messages\.po\?(first-screen|later)$/;

/** The source files (relative to `root`, with '/') src/main.tsx loads statically, transitively. */
export function staticImportClosure(root: string, entry: string): Set<string> {
  const closure = new Set<string>();
  const visit = (file: string) => {
    const relative = path.relative(root, file).split(path.sep).join('/');
    if (closure.has(relative) || !existsSync(file)) return;
    closure.add(relative);
    if (!/\.(?:ts|tsx)$/.test(file)) return;
    const source = readFileSync(file, 'utf8');
    const specifiers = [
      ...source.matchAll(/^\s*import\s+(?!type\s)(?:[\w*{][^;]*?\s+from\s+)?['"](\.[^'"]+)['"]/gm),
      ...source.matchAll(/^\s*export\s+(?!type\s)[\w*{][^;]*?\s+from\s+['"](\.[^'"]+)['"]/gm),
    ].map((match) => match[1]!);
    for (const specifier of specifiers) visit(path.resolve(path.dirname(file), specifier));
  };
  visit(path.resolve(root, entry));
  return closure;
}

export function catalogPartsPlugin(options: { entry?: string } = {}): Plugin {
  const entry = options.entry ?? 'src/main.tsx';
  let config: LinguiConfigNormalized;
  let root = process.cwd();
  /** Message ids by origin file, and the first part's ids. */
  let split: Promise<{ first: Set<string>; origins: Map<string, string[]> }> | undefined;

  const splitMessages = () =>
    (split ??= (async () => {
      const [catalog] = await getCatalogs(config);
      const source = (await catalog!.read(config.sourceLocale)) ?? {};
      const closure = staticImportClosure(root, entry);
      const first = new Set<string>();
      const origins = new Map<string, string[]>();
      for (const [id, message] of Object.entries(source)) {
        const files = (message.origin ?? []).map(([file]) => file);
        for (const file of files) origins.set(file, [...(origins.get(file) ?? []), id]);
        if (files.some((file) => closure.has(file))) first.add(id);
      }
      return { first, origins };
    })());

  return {
    name: 'gradus-catalog-parts',
    enforce: 'pre',
    configResolved(resolved) {
      root = resolved.root;
      config = getConfig({ cwd: root });
      split = undefined;
    },
    async load(id) {
      const match = PART_ID.exec(id);
      if (!match) return;
      const [, locale, part] = match;
      const [catalog] = await getCatalogs(config);
      const { messages } = await catalog!.getTranslations(locale!, {
        fallbackLocales: config.fallbackLocales,
        sourceLocale: config.sourceLocale,
        missingBehavior: getFailOnMissingBehavior(undefined),
      });
      const { first } = await splitMessages();
      const kept = Object.fromEntries(Object.entries(messages).filter(([messageId]) => first.has(messageId) === (part === 'first-screen')));
      const { source, errors } = createCompiledCatalog(locale!, kept, { namespace: 'es' });
      if (errors.length) this.error(`locales/${locale}/messages.po: ${errors.length} messages do not compile (npm run -s messages:check)`);
      const code = part === 'first-screen' ? `${source}\nexport const later = () => import('./messages.po?later');\n` : source;
      return { code, map: null, moduleType: 'js' };
    },
    async generateBundle(_options, bundle) {
      const { first, origins } = await splitMessages();
      // The entry chunks and what they import statically: what loads before the first screen.
      const firstChunks = new Set<string>();
      const visit = (fileName: string) => {
        const chunk = bundle[fileName];
        if (chunk?.type !== 'chunk' || firstChunks.has(fileName)) return;
        firstChunks.add(fileName);
        chunk.imports.forEach(visit);
      };
      for (const chunk of Object.values(bundle)) if (chunk.type === 'chunk' && chunk.isEntry) visit(chunk.fileName);
      for (const fileName of firstChunks) {
        const chunk = bundle[fileName];
        if (chunk?.type !== 'chunk') continue;
        for (const moduleId of chunk.moduleIds) {
          const file = path.relative(root, moduleId.split('?')[0]!).split(path.sep).join('/');
          const missed = (origins.get(file) ?? []).filter((messageId) => !first.has(messageId));
          if (missed.length) {
            this.error(
              `${file} is in the first screen's chunk (${fileName}) but its ${missed.length} messages are in the later catalog part: ` +
                'the import scan of scripts/lib/catalog-parts-plugin.ts missed it',
            );
          }
        }
      }
    },
  };
}
