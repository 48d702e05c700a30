// @vitest-environment jsdom
/**
 * The terminal check rendered over the real connectivity machine and its real check actors, on a
 * stand-in port (test/helpers/fake-connectivity.ts): the heading; while a round runs, the summary
 * says so and each row shows its own progress ("Checking…" with a progress bar, "Waiting");
 * afterwards the summary in words a teacher reads from across the room, every row's status in
 * words (not colour alone), its time, and on a problem what to do; "Check again" only once a
 * round is done; "Back" ends the check; a change of language checks that language's fonts; the
 * page in Arabic is right-to-left. And the login screens' "Check this terminal" link.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { connectivityImplementations } from '../../machines/connectivity/connectivity.actors.ts';
import { connectivityMachine } from '../../machines/connectivity/connectivity.machine.ts';
import type { LanguageKey } from '../../contract/languages.ts';
import { BoundConnectivity } from '../../src/app/connect/connectivity.tsx';
import { LoginCodeScreen } from '../../src/screens/login-code/login-code.tsx';
import { LoginScreen } from '../../src/screens/login/login.tsx';
import { FAKE_SERVER_TIME, createFakeConnectivity, fakeUrls, type FakeConnectivity } from '../helpers/fake-connectivity.ts';
import { renderView } from '../helpers/render-view.tsx';
import { loginApi, loginCodeApi } from '../helpers/session-fixtures.ts';

async function renderCheck(port: FakeConnectivity = createFakeConnectivity(), language: LanguageKey = 'en') {
  const actor = createActor(connectivityMachine.provide(connectivityImplementations(port))).start();
  const view = await renderView(<BoundConnectivity actor={actor} />, { language });
  return { ...view, actor, port };
}

const summary = () => screen.getByRole('status');
const rowOf = (title: string | RegExp) => screen.getByRole('heading', { level: 2, name: title }).closest('li')!;

describe('the terminal check', () => {
  it('shows each row\'s own progress while a round runs, and "Check again" waits for it', async () => {
    const port = createFakeConnectivity();
    port.hold = true;
    await renderCheck(port);
    expect(screen.getByRole('heading', { level: 1, name: 'Terminal check' })).toBeTruthy();
    expect(summary().textContent).toBe('Checking this terminal…');
    expect(screen.getByText('0 of 8 checks done')).toBeTruthy();
    const api = rowOf('Exam server');
    expect(within(api).getByText('Checking…')).toBeTruthy();
    expect(api.getAttribute('aria-busy')).toBe('true');
    expect(within(api).getByRole('progressbar')).toBeTruthy();
    expect(within(rowOf('Gradus website')).getByText('Waiting')).toBeTruthy();
    expect(within(rowOf('Gradus website')).queryByRole('progressbar')).toBeNull();
    const again = screen.getByRole('button', { name: 'Checking…' });
    expect(again.getAttribute('aria-disabled')).toBe('true');

    await act(async () => port.release());
    await waitFor(() => expect(within(rowOf('Exam server')).getByText('OK')).toBeTruthy());
    expect(screen.getByText('1 of 8 checks done')).toBeTruthy();
    expect(within(rowOf('Gradus website')).getByText('Checking…')).toBeTruthy();
  });

  it('a ready terminal: the summary, every row OK with its time and what it found', async () => {
    await renderCheck();
    await waitFor(() => expect(summary().textContent).toBe('This terminal is ready'));
    expect(screen.getByText('Every check passed.')).toBeTruthy();
    const rows = within(screen.getByRole('list', { name: 'Checks' })).getAllByRole('listitem');
    expect(rows.map((row) => within(row).getByRole('heading', { level: 2 }).textContent)).toEqual([
      'Exam server',
      'Gradus website',
      'Math formulas: script file',
      'Math formulas: style file',
      'Terminal clock',
      'Space for saving answers',
      'Offline copy of the app',
      'Fonts for English',
    ]);
    for (const row of rows) {
      expect(row.getAttribute('data-status')).toBe('pass');
      expect(within(row).getByText('OK')).toBeTruthy();
      expect(within(row).getByText('7 ms', { selector: 'bdi' })).toBeTruthy();
    }
    expect(within(rowOf('Exam server')).getByText('The exam server answers this terminal.')).toBeTruthy();
    expect(within(rowOf('Gradus website')).getByText('The Gradus website answers this terminal.')).toBeTruthy();
    expect(within(rowOf('Math formulas: style file')).getByText('Downloaded: math questions can be shown.')).toBeTruthy();
    expect(rowOf('Terminal clock').textContent).toContain("Matches the server's clock. The exam always uses the server's time.");
    expect(rowOf('Space for saving answers').textContent).toContain('2 GB free; answers are kept on this terminal');
    expect(rowOf('Offline copy of the app').textContent).toContain('with the network gone, a reload still shows the exam');
    expect(rowOf('Fonts for English').textContent).toContain('English shows correctly.');
  });

  it('a terminal with problems: "Not ready: N problems" and, for each, what to do', async () => {
    const port = createFakeConnectivity();
    port.answers.set(fakeUrls.mathScript, 'unreachable');
    port.clock = Date.parse(FAKE_SERVER_TIME) - 180_000;
    port.storageFacts = { availableBytes: 20 * 1024 * 1024, roundTrip: 'ok' };
    port.shellFacts = { supported: true, registered: false, active: false, controlled: false };
    await renderCheck(port);
    await waitFor(() => expect(summary().textContent).toBe('Not ready: 3 problems'));
    expect(screen.getByText('Fix what is marked "Problem" below, then press "Check again".')).toBeTruthy();

    const math = rowOf('Math formulas: script file');
    expect(math.getAttribute('data-status')).toBe('fail');
    expect(within(math).getByText('Problem')).toBeTruthy();
    expect(math.textContent).toContain('This file could not be downloaded, so math questions could not be shown.');
    expect(math.textContent).toContain('ask for gradus.test to be allowed');

    const clock = rowOf('Terminal clock');
    expect(within(clock).getByText('Problem')).toBeTruthy();
    expect(clock.textContent).toContain("This terminal's clock is 3 min behind the server's.");
    expect(clock.textContent).toContain("The exam uses the server's time, so pupils still get their full time");
    expect(clock.textContent).toContain('Turn on automatic date and time');

    const storage = rowOf('Space for saving answers');
    expect(within(storage).getByText('Warning')).toBeTruthy();
    expect(storage.textContent).toContain('Only 20 MB free for Gradus.');

    const shell = rowOf('Offline copy of the app');
    expect(shell.textContent).toContain('Not installed.');
    expect(within(rowOf('Exam server')).getByText('OK')).toBeTruthy();
  });

  it('one problem and one warning read in the singular', async () => {
    const port = createFakeConnectivity();
    port.answers.set(fakeUrls.front, { status: 200, contentType: 'text/html', body: '<h1>Blocked by the school filter</h1>' });
    port.shellFacts = { supported: true, registered: true, active: true, controlled: false };
    await renderCheck(port);
    await waitFor(() => expect(summary().textContent).toBe('Not ready: 1 problem'));
    expect(rowOf('Gradus website').textContent).toContain('Something other than Gradus answered');
    expect(rowOf('Offline copy of the app').textContent).toContain('Reload this page once, then check again.');
  });

  it('warnings only: ready, with warnings', async () => {
    const port = createFakeConnectivity();
    port.clock = Date.parse(FAKE_SERVER_TIME) + 5_000;
    await renderCheck(port);
    await waitFor(() => expect(summary().textContent).toBe('Ready, with 1 warning'));
    // 5 s ahead, less the 66 ms the fake clock moved before the clock check.
    expect(rowOf('Terminal clock').textContent).toContain("This terminal's clock is 5.1 s ahead of the server's.");
    expect(screen.getByText('Pupils can take the exam here. Read the warnings below.')).toBeTruthy();
  });

  it('"Check again" runs a new round from the start', async () => {
    const { port, user } = await renderCheck();
    await waitFor(() => expect(summary().textContent).toBe('This terminal is ready'));
    port.answers.set(fakeUrls.apiHealth, 'unreachable');
    port.hold = true;
    await user.click(screen.getByRole('button', { name: 'Check again' }));
    expect(summary().textContent).toBe('Checking this terminal…');
    expect(within(rowOf('Terminal clock')).getByText('Waiting')).toBeTruthy();
    port.hold = false;
    await act(async () => port.release());
    await waitFor(() => expect(summary().textContent).toBe('Not ready: 1 problem'));
    expect(rowOf('Exam server').textContent).toContain('No answer from gradus.test.');
    expect(within(rowOf('Terminal clock')).getByText('Warning')).toBeTruthy();
    expect(rowOf('Terminal clock').textContent).toContain("Not compared: the server's time could not be read.");
  });

  it('"Back" ends the check, mid-round too', async () => {
    const port = createFakeConnectivity();
    port.hold = true;
    const { actor, user } = await renderCheck(port);
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('a change of language checks that language\'s fonts, and the page turns right-to-left', async () => {
    const port = createFakeConnectivity();
    port.fontFacts = { language: 'en', sample: 'English', measured: true, missing: 0 };
    const { user } = await renderCheck(port);
    await waitFor(() => expect(summary().textContent).toBe('This terminal is ready'));
    port.fontFacts = { language: 'km', sample: 'ខ្មែរ', measured: true, missing: 2 };
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'km');
    await waitFor(() => expect(screen.getByRole('status').getAttribute('id')).toBe('terminal-check-summary'));
    await waitFor(() => expect(document.querySelector('[data-status="fail"] bdi[lang="km"]')).toBeTruthy());
    // The page now speaks Khmer: the row names Khmer in its own script, and the count of boxes.
    const fonts = document.querySelector('[data-status="fail"]')!;
    expect(document.querySelectorAll('[data-status="fail"]')).toHaveLength(1);
    expect([...fonts.querySelectorAll('bdi[lang="km"]')].map((bdi) => bdi.textContent)).toEqual(['ខ្មែរ', 'ខ្មែរ']);
    expect(fonts.querySelector('h2')!.textContent).toContain('ខ្មែរ');
    expect(fonts.textContent).toContain('2');
    expect(fonts.textContent).toContain('fonts-noto-core');
    // Only the fonts were checked again.
    expect(port.asked).toHaveLength(5);

    await user.selectOptions(screen.getByRole('combobox'), 'ar');
    await waitFor(() => expect(document.documentElement.dir).toBe('rtl'));
  });

  it('in Arabic: right-to-left, the language\'s own name in its own direction', async () => {
    const port = createFakeConnectivity();
    port.fontFacts = { language: 'ar', sample: 'العربية', measured: true, missing: 0 };
    await renderCheck(port, 'ar');
    expect(document.documentElement.dir).toBe('rtl');
    await waitFor(() => expect(document.querySelectorAll('li[data-status="pass"]')).toHaveLength(8));
    const name = document.querySelector('h2 bdi[lang="ar"]')!;
    expect(name.textContent).toBe('العربية');
    expect(name.getAttribute('dir')).toBe('rtl');
  });
});

describe('"Check this terminal" on the login screens', () => {
  it('on /login-code: a link to the check that tells the machine, and only a plain click', async () => {
    const onCheckTerminal = vi.fn();
    const { user } = await renderView(<LoginCodeScreen api={loginCodeApi({ busy: false, error: null, submit: vi.fn() })} kiosk={{ checkTerminal: onCheckTerminal }} />);
    const link = screen.getByRole('link', { name: 'Check this terminal' });
    expect(link.getAttribute('href')).toBe('/checking-domain-connection');
    // What the browser would do after the screen's handler: follow the link unless it was prevented.
    const followed: boolean[] = [];
    const browser = (event: MouseEvent) => {
      followed.push(!event.defaultPrevented);
      event.preventDefault();
    };
    window.addEventListener('click', browser);
    await user.click(link);
    expect(onCheckTerminal).toHaveBeenCalledTimes(1);
    // A click meant for a new tab is the browser's: the new tab opens the check by its URL.
    await user.keyboard('{Control>}');
    await user.click(link);
    await user.keyboard('{/Control}');
    window.removeEventListener('click', browser);
    expect(onCheckTerminal).toHaveBeenCalledTimes(1);
    expect(followed).toEqual([false, true]);
  });

  it('on /login, in every state of the page', async () => {
    const onCheckTerminal = vi.fn();
    const base = { place: null, kind: 'id' as const, ssoUrl: null, busy: false, error: null, submit: vi.fn(), retry: vi.fn() };
    const kiosk = { checkTerminal: onCheckTerminal };
    const { user, rerender } = await renderView(<LoginScreen api={loginApi({ ...base, status: 'ready' })} kiosk={kiosk} />);
    await user.click(screen.getByRole('link', { name: 'Check this terminal' }));
    rerender(<LoginScreen api={loginApi({ ...base, status: 'invalid' })} kiosk={kiosk} />);
    await user.click(screen.getByRole('link', { name: 'Check this terminal' }));
    expect(onCheckTerminal).toHaveBeenCalledTimes(2);
  });

  it('shows no link when the screen is given no way to the check', async () => {
    await renderView(<LoginCodeScreen api={loginCodeApi({ busy: false, error: null, submit: vi.fn() })} />);
    expect(screen.queryByRole('link', { name: 'Check this terminal' })).toBeNull();
  });
});
