/**
 * Shared Vitest setup. View tests opt into jsdom per file (`@vitest-environment jsdom`);
 * Testing Library's automatic cleanup needs an afterEach hook in scope.
 */
import { afterEach } from 'vitest';

afterEach(async () => {
  if (typeof document !== 'undefined') {
    const { cleanup } = await import('@testing-library/react');
    cleanup();
  }
});
