// @vitest-environment jsdom
/**
 * The retry dialog: an alertdialog that says what is going on (connecting again, or check the
 * connection), with the one way on its variant offers: Retry re-runs the call, OK closes.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { RetryDialog } from '../../src/components/retry-dialog/retry-dialog.tsx';
import { renderView } from '../helpers/render-view.tsx';

function props(kind: 'connecting' | 'checkConnection' | 'retry') {
  return { view: { kind } as const, onRetry: vi.fn(), onClose: vi.fn() };
}

describe('retry dialog', () => {
  it('says it is connecting again, with no button to press', async () => {
    await renderView(<RetryDialog {...props('connecting')} />);
    const dialog = screen.getByRole('alertdialog', { name: 'Connecting again…' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.textContent).toContain('Your answers are kept on this terminal.');
    expect(within(dialog).queryByRole('button')).toBeNull();
  });

  it('asks to check the connection; Retry runs the call again', async () => {
    const p = props('retry');
    const { user } = await renderView(<RetryDialog {...p} />);
    const dialog = screen.getByRole('alertdialog', { name: 'Check your internet connection' });
    const retry = within(dialog).getByRole('button', { name: 'Retry' });
    expect(document.activeElement).toBe(retry);
    expect(within(dialog).queryByRole('button', { name: 'OK' })).toBeNull();
    await user.click(retry);
    expect(p.onRetry).toHaveBeenCalledTimes(1);
    // Escape does not dismiss a dialog whose only way on is Retry.
    await user.keyboard('{Escape}');
    expect(p.onClose).not.toHaveBeenCalled();
  });

  it('asks to check the connection; OK (or Escape) closes it', async () => {
    const p = props('checkConnection');
    const { user } = await renderView(<RetryDialog {...p} />);
    const dialog = screen.getByRole('alertdialog', { name: 'Check your internet connection' });
    expect(within(dialog).queryByRole('button', { name: 'Retry' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    await user.keyboard('{Escape}');
    expect(p.onClose).toHaveBeenCalledTimes(2);
    expect(p.onRetry).not.toHaveBeenCalled();
  });

  it('speaks Japanese from the ja catalog', async () => {
    await renderView(<RetryDialog {...props('retry')} />, { language: 'ja' });
    expect(screen.getByRole('alertdialog', { name: 'インターネットの接続を確認してください' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '再試行' })).toBeTruthy();
  });

  it('before the exam started, says nothing of answers kept: there are none yet', async () => {
    await renderView(<RetryDialog {...props('connecting')} answersKept={false} />);
    const connecting = screen.getByRole('alertdialog', { name: 'Connecting again…' });
    expect(connecting.textContent).toContain('The connection to the server was lost.');
    expect(connecting.textContent).not.toContain('answers');
  });

  it('before the exam started, the check-connection dialog says only that the server cannot be reached', async () => {
    await renderView(<RetryDialog {...props('retry')} answersKept={false} />);
    const dialog = screen.getByRole('alertdialog', { name: 'Check your internet connection' });
    expect(dialog.textContent).toContain('The server cannot be reached.');
    expect(dialog.textContent).not.toContain('answers');
  });
});
