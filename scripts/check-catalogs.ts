/**
 * Lingui catalog check (`npm run messages:check`, and a step of `npm test`).
 *
 * Extracts every message from the source the way `lingui extract` does (same config,
 * same extractor), without writing anything, and fails when a message has no translation
 * in a required locale's PO file: missing from the catalog (extract was not run), present
 * but with an empty msgstr, or marked obsolete. Required locales: all 23 of lingui.config.ts
 * (an untranslated string never lands); narrow with `--locales=en,ja,de`.
 */
import path from 'node:path';
import { getConfig } from '@lingui/conf';
import { getCatalogs } from '@lingui/cli/api';

const root = path.resolve(import.meta.dirname, '..');
const localesArg = process.argv.find((a) => a.startsWith('--locales='));
const config = getConfig({ cwd: root, configPath: path.join(root, 'lingui.config.ts') });
const required = localesArg ? localesArg.slice('--locales='.length).split(',') : config.locales;
const unknown = required.filter((l) => !config.locales.includes(l));
if (unknown.length > 0) {
  console.error(`check-catalogs: ${unknown.join(', ')} not in lingui.config.ts locales`);
  process.exit(2);
}

let extractedTotal = 0;
const problems: string[] = [];
for (const catalog of await getCatalogs(config)) {
  const extracted = (await catalog.collect()) ?? {};
  const ids = Object.keys(extracted);
  extractedTotal += ids.length;
  for (const locale of required) {
    const file = path.relative(root, catalog.getFilename(locale));
    const po = (await catalog.read(locale)) ?? {};
    for (const id of ids) {
      const source = extracted[id]?.message ?? id;
      const where = extracted[id]?.origin[0];
      const at = where ? ` (${path.relative(root, path.resolve(root, where[0]))}${where[1] ? `:${where[1]}` : ''})` : '';
      const entry = po[id];
      if (!entry) problems.push(`${file}: not in the catalog, run \`npm run messages:extract\`: "${source}"${at}`);
      else if (entry.obsolete) problems.push(`${file}: marked obsolete but still used: "${source}"${at}`);
      else if (!entry.translation?.trim()) problems.push(`${file}: no translation for "${source}"${at}`);
    }
  }
}

if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(`check-catalogs: ${problems.length} missing translation(s) in ${required.join(', ')} (${extractedTotal} messages in the source)`);
  process.exit(1);
}
console.log(`check-catalogs: ${extractedTotal} messages, all translated in ${required.join(', ')}`);
