/**
 * The app's providers: Lingui (the active catalog) and the language controller (the picker).
 * The kiosk actor has its own provider (src/app/actors.ts), set up in app.tsx.
 */
import { I18nProvider } from '@lingui/react';
import type { ReactNode } from 'react';
import { LanguageProvider } from '../i18n/language-context.tsx';
import type { BrowserEnvironment } from './environment.ts';

export interface AppProvidersProps {
  environment: Pick<BrowserEnvironment, 'i18n' | 'language'>;
  children: ReactNode;
}

export function AppProviders({ environment, children }: AppProvidersProps) {
  return (
    <I18nProvider i18n={environment.i18n}>
      <LanguageProvider controller={environment.language}>{children}</LanguageProvider>
    </I18nProvider>
  );
}
