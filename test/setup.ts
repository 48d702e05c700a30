/**
 * Shared Vitest setup. View tests opt into jsdom per file (`@vitest-environment jsdom`);
 * Testing Library's automatic cleanup needs an afterEach hook in scope.
 */
import { afterEach } from 'vitest';
import { preloadKioskChildren } from '../machines/kiosk/kiosk.lazy.ts';
import { preloadSessionChildren } from '../machines/session/session.lazy.ts';

// The kiosk's children load on demand in the app (machines/kiosk/kiosk.lazy.ts); loaded here
// first, every kiosk in the tests invokes them at once, as the app does once it has preloaded
// them. test/machines/lazy-machine.test.ts covers the wait before a definition arrives. So are
// the session's (its payment and results: machines/session/session.lazy.ts).
await Promise.all([preloadKioskChildren(), preloadSessionChildren()]);

afterEach(async () => {
  if (typeof document !== 'undefined') {
    const { cleanup } = await import('@testing-library/react');
    cleanup();
  }
});
