/**
 * Embedded mode: route changes are posted to the parent window, to the configured origin only.
 */
import { createMemoryHistory } from '@tanstack/react-router';
import { describe, expect, it } from 'vitest';
import { startEmbedBridge } from '../../src/app/embed.ts';

function parentWindow() {
  const posted: Array<{ message: unknown; origin: string }> = [];
  return { posted, postMessage: (message: unknown, origin: string) => void posted.push({ message, origin }) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('embed bridge', () => {
  it('posts each route change to the configured origin', async () => {
    const parent = parentWindow();
    const history = createMemoryHistory({ initialEntries: ['/login-code'] });
    const stop = startEmbedBridge({
      history,
      host: { parent, self: {} },
      loadConfig: async () => ({ embed_target_origin: 'https://portal.example/app' }),
    });
    await settle();
    history.push('/login-confirm');
    expect(parent.posted).toEqual([
      { message: { action: 'route.changed', data: { path: '/login-code' } }, origin: 'https://portal.example' },
      { message: { action: 'route.changed', data: { path: '/login-confirm' } }, origin: 'https://portal.example' },
    ]);
    stop();
    history.push('/exam-tutorial');
    expect(parent.posted).toHaveLength(2);
  });

  it('posts nothing without a configured origin, never to "*"', async () => {
    const parent = parentWindow();
    const history = createMemoryHistory({ initialEntries: ['/login-code'] });
    startEmbedBridge({ history, host: { parent, self: {} }, loadConfig: async () => ({ embed_target_origin: null }) });
    await settle();
    history.push('/404');
    expect(parent.posted).toEqual([]);
  });

  it('posts nothing when not embedded (the parent is the window itself)', async () => {
    const host: { parent: ReturnType<typeof parentWindow> | null; self?: unknown } = { parent: null };
    const parent = parentWindow();
    host.parent = parent;
    host.self = parent;
    const history = createMemoryHistory({ initialEntries: ['/login-code'] });
    let asked = false;
    startEmbedBridge({ history, host, loadConfig: async () => ((asked = true), { embed_target_origin: 'https://portal.example' }) });
    await settle();
    history.push('/404');
    expect(parent.posted).toEqual([]);
    expect(asked).toBe(false);
  });
});
