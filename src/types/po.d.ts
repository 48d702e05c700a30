/**
 * Types of a PO catalog imported through @lingui/vite-plugin, which compiles it on import.
 */
declare module '*.po' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
}
