/**
 * Embedded mode (seed section 1): when the kiosk runs inside a parent window, every route
 * change is posted to that window as `{ action: 'route.changed', data: { path } }`, to the
 * target origin operators configure (GET /client-config, `embed_target_origin`). Never to
 * '*': with no configured origin, or when not embedded, nothing is posted. Subscribed to the
 * router's history, like the router sync.
 */
import type { RouterHistory } from '@tanstack/react-router';
import type { ClientConfig } from '../../contract/session.ts';

export interface EmbedHost {
  /** The window the app runs in; embedded when its parent is another window. */
  parent: { postMessage(message: unknown, targetOrigin: string): void } | null;
}

export interface EmbedMessage {
  action: 'route.changed';
  data: { path: string };
}

function isEmbedded(host: EmbedHost & { self?: unknown }): boolean {
  return host.parent !== null && host.parent !== (host.self ?? host);
}

/**
 * Starts posting route changes once the configured origin is known; returns a stop function.
 * A failed config call means "not configured": nothing is posted.
 */
export function startEmbedBridge(options: {
  history: Pick<RouterHistory, 'subscribe' | 'location'>;
  host: EmbedHost & { self?: unknown };
  loadConfig: () => Promise<Pick<ClientConfig, 'embed_target_origin'>>;
}): () => void {
  const { history, host } = options;
  let stopped = false;
  let stopHistory = () => {};
  if (!isEmbedded(host)) return () => {};
  options.loadConfig().then(
    (config) => {
      const configured = config.embed_target_origin;
      if (stopped || !configured || !host.parent) return;
      const origin = new URL(configured).origin;
      const parent = host.parent;
      const post = (path: string) => parent.postMessage({ action: 'route.changed', data: { path } } satisfies EmbedMessage, origin);
      post(history.location.pathname);
      stopHistory = history.subscribe(({ location }) => post(location.pathname));
    },
    () => {},
  );
  return () => {
    stopped = true;
    stopHistory();
  };
}
