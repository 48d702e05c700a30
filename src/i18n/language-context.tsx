/**
 * React access to the language controller: the active language, the choices and a way to
 * change it. Used by the language picker; everything else just uses Lingui.
 */
import { createContext, useCallback, useContext, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import type { LanguageController } from './language-controller.ts';
import { languageOptions, type LanguageKey } from '../../contract/languages.ts';

const LanguageContext = createContext<LanguageController | null>(null);

export function LanguageProvider({ controller, children }: { controller: LanguageController; children: ReactNode }) {
  return <LanguageContext.Provider value={controller}>{children}</LanguageContext.Provider>;
}

export interface LanguageState {
  language: LanguageKey;
  options: readonly LanguageKey[];
  setLanguage(language: LanguageKey): void;
}

export function useLanguage(): LanguageState {
  const controller = useContext(LanguageContext);
  if (!controller) throw new Error('useLanguage needs a <LanguageProvider>');
  // The same getSnapshot from render to render: a new one makes React schedule a passive effect
  // (a task before the next frame) on every render of the reader, the exam header's on every
  // question swap.
  const currentLanguage = useCallback(() => controller.language, [controller]);
  const language = useSyncExternalStore(controller.subscribe, currentLanguage);
  const setLanguage = useCallback(
    (next: LanguageKey) => {
      // A catalog that fails to load leaves the current language in place.
      controller.change(next).catch(() => undefined);
    },
    [controller],
  );
  return useMemo(() => ({ language, options: languageOptions, setLanguage }), [language, setLanguage]);
}
