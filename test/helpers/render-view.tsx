/**
 * Renders a view the way the app does: a fresh Lingui instance (setupI18n) with the real
 * compiled catalog of the chosen language, the language controller over memory storage, and a
 * user-event session. Each test gets its own, so no language leaks between tests.
 */
import { setupI18n } from '@lingui/core';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement, ReactNode } from 'react';
import { writeLanguage } from '../../machines/shared/storage.ts';
import { memoryStorage } from './memory-storage.ts';
import { AppProviders } from '../../src/app/providers.tsx';
import { createLanguageController } from '../../src/i18n/language-controller.ts';
import type { LanguageKey } from '../../contract/languages.ts';

export interface RenderOptions {
  language?: LanguageKey;
  /** Fake timers need user-event to advance them. */
  advanceTimers?: (ms: number) => unknown;
}

export async function setupLanguage(language: LanguageKey = 'en') {
  const i18n = setupI18n();
  const storage = memoryStorage();
  writeLanguage(storage, language);
  const controller = createLanguageController({ i18n, storage, browserLanguages: [], root: document.documentElement });
  // The whole catalog, as every screen but the first waits for it (src/routes/__root.tsx).
  await controller.start();
  await controller.complete();
  return { i18n, storage, controller };
}

export async function renderView(ui: ReactElement, options: RenderOptions = {}) {
  const { i18n, storage, controller } = await setupLanguage(options.language);
  const user = userEvent.setup(options.advanceTimers ? { advanceTimers: options.advanceTimers } : {});
  const wrapper = ({ children }: { children: ReactNode }) => (
    <AppProviders environment={{ i18n, language: controller }}>{children}</AppProviders>
  );
  const result = render(ui, { wrapper });
  return { ...result, i18n, storage, controller, user };
}
