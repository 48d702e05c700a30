import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';

/** The 23 catalog keys exactly as the seed names them (section 1); `en` is the source. */
export const catalogLocales = [
  'en', 'en-gb', 'ja', 'id', 'my', 'th', 'ar', 'zh_yue_Hant', 'tl', 'es', 'fr', 'pt',
  'pl', 'tr', 'de', 'hi', 'bn', 'pa', 'vi', 'ru', 'km', 'kk', 'uz',
];

export default defineConfig({
  sourceLocale: 'en',
  locales: catalogLocales,
  fallbackLocales: { default: 'en' },
  catalogs: [
    {
      path: '<rootDir>/locales/{locale}/messages',
      include: ['<rootDir>/src', '<rootDir>/machines'],
      exclude: ['**/node_modules/**'],
    },
  ],
  format: formatter({ lineNumbers: false }),
});
