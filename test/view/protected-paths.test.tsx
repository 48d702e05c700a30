// @vitest-environment jsdom
/**
 * Seed section 2, rules 5 and 7, per route of the app: every path the machines show (the
 * session's, the results', the exam's and the print route) is public, a rule-5 path (without a
 * login: the login page) or a rule-7 path (it needs a stored login: typed without one, /403 with
 * the "not logged in" view and its header, one main, one h1). The whole app is booted at the
 * typed URL with nothing stored on the terminal.
 */
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import { examMachine } from '../../machines/exam/exam.machine.ts';
import { routeTableOf } from '../../machines/kiosk/routes.ts';
import { sessionMachine } from '../../machines/session/session.machine.ts';
import { isProtectedPath, loginRedirectPaths, protectedPaths, protectedRouteTargets } from '../../machines/session/session.rules.ts';
import { createControlledApi } from '../helpers/controlled-api.ts';
import { renderKioskApp } from '../helpers/render-app.tsx';
import { memoryStorage } from '../helpers/memory-storage.ts';

/** Every path a screen of the app shows (the results' come with the session's), and the print route. */
const appPaths = [
  ...new Set([
    ...routeTableOf(sessionMachine as AnyStateMachine).paths,
    ...routeTableOf(examMachine as AnyStateMachine).paths,
    '/score-report-embed/$id',
  ]),
].sort();
/** Open to anyone: the login pages and the two error pages. */
const publicPaths = ['/login-code', '/login', '/403', '/404'];

const typed = (pattern: string) => pattern.replace('$id', '42');

let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  stop = undefined;
  cleanup();
});

async function boot(url: string) {
  const control = createControlledApi();
  const app = await renderKioskApp({
    deps: { api: control.api, storage: memoryStorage(), leaveApp: () => undefined, saveFile: () => undefined, print: () => undefined },
    input: { storedSession: null, storedToken: null, storedErrorCode: null },
    url,
    inspect: () => undefined,
  });
  stop = () => {
    app.stopSync();
    app.kiosk.stop();
  };
  return app;
}

describe('rules 5 and 7 per route', () => {
  it('classifies every path of the app: public, rule 5 or rule 7', () => {
    const rule7 = appPaths.filter((path) => !publicPaths.includes(path) && !loginRedirectPaths.includes(path));
    expect(rule7.length).toBeGreaterThan(10);
    expect([...protectedPaths].sort()).toEqual(rule7);
    for (const path of publicPaths) expect(isProtectedPath(path), path).toBe(false);
    for (const path of loginRedirectPaths) expect(isProtectedPath(path), path).toBe(false);
  });

  it('names every protected screen a URL routes to directly (routable states) as a rule-7 target', () => {
    const routable = [...routeTableOf(sessionMachine as AnyStateMachine).routable].filter(([path]) => isProtectedPath(path));
    expect(routable.length).toBeGreaterThan(0);
    expect(routable.map(([, id]) => `#${id}`).sort()).toEqual([...protectedRouteTargets].sort());
  });

  it.each(protectedPaths.map(typed))('%s typed without a login shows /403 with the header, one main and one h1', async (path) => {
    const app = await boot(path);
    await waitFor(() => expect(app.history.location.pathname).toBe('/403'));
    expect(await screen.findByRole('heading', { level: 1, name: 'You are not logged in.' })).toBeTruthy();
    expect(screen.getByText('You need to log in to see this page.')).toBeTruthy();
    expect(screen.getByRole('banner').textContent).toContain('Question -- of --');
    expect(screen.getAllByRole('main')).toHaveLength(1);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });

  it.each(loginRedirectPaths)('%s without a login goes to the login page', async (path) => {
    const app = await boot(path);
    expect(await screen.findByRole('heading', { level: 1, name: 'Log in with your login code' })).toBeTruthy();
    expect(app.history.location.pathname).toBe('/login-code');
  });

  it('the print route with its own token in the URL is the document, not /403', async () => {
    const app = await boot(`/score-report-embed/42?token=${'a'.repeat(43)}`);
    await waitFor(() => expect(app.kiosk.getSnapshot().value).toBe('document'));
    expect(app.history.location.pathname).toBe('/score-report-embed/42');
  });
});
