// @vitest-environment jsdom
/**
 * purchased-result: what is owned (result sheet, certificate) in words and an icon, Open the
 * score report and Download the certificate only when owned (and passed), the download's busy
 * and failed states, nothing bought yet, loading and a failed load.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { PurchasedResultApi, Purchases } from '../../machines/results/results.connect.ts';
import { canDownloadCertificate, hasItemsToBuy, ownsResultSheet } from '../../machines/results/results.selectors.ts';
import { PurchasedResultScreen } from '../../src/screens/purchased-result/purchased-result.tsx';
import { renderView } from '../helpers/render-view.tsx';

/** What results.connect.ts decides from what is owned, by the results' own rules. */
function decided(purchases: Purchases | null) {
  const facts = { owned: purchases, passed: purchases?.passed ?? false };
  return { canOpenReport: ownsResultSheet(facts), canDownloadCertificate: canDownloadCertificate(facts), canBuy: hasItemsToBuy(facts) };
}

function props(overrides: Partial<PurchasedResultApi> = {}): PurchasedResultApi {
  const purchases = 'purchases' in overrides ? (overrides.purchases ?? null) : { result_sheet: true, certificate: true, passed: true };
  return {
    status: 'ready',
    purchases,
    ...decided(purchases),
    error: null,
    download: { status: 'idle', error: null },
    onOpenReport: vi.fn(),
    onDownloadCertificate: vi.fn(),
    onBuy: vi.fn(),
    onBack: vi.fn(),
    onRetry: vi.fn(),
    ...overrides,
  };
}

function row(name: string): HTMLElement {
  return screen.getByText(name).closest('li') as HTMLElement;
}

describe('purchased-result', () => {
  it('lists both items as purchased and offers the report (primary) and the certificate', async () => {
    const onOpenReport = vi.fn();
    const onDownloadCertificate = vi.fn();
    const { user } = await renderView(<PurchasedResultScreen api={props({ onOpenReport, onDownloadCertificate })} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Purchased result' })).toBeTruthy();
    expect(within(row('Result sheet')).getByText('Purchased')).toBeTruthy();
    expect(within(row('Certificate')).getByText('Purchased')).toBeTruthy();
    const open = screen.getByRole('button', { name: 'Open the score report' });
    expect(open.getAttribute('data-variant')).toBe('primary');
    await user.click(open);
    expect(onOpenReport).toHaveBeenCalledOnce();
    await user.click(screen.getByRole('button', { name: 'Download the certificate' }));
    expect(onDownloadCertificate).toHaveBeenCalledOnce();
    expect(screen.queryByRole('button', { name: 'Buy the result sheet / certificate' })).toBeNull();
  });

  it('offers the certificate still to buy when only the sheet is owned, and no download', async () => {
    const onBuy = vi.fn();
    const { user } = await renderView(
      <PurchasedResultScreen api={props({ purchases: { result_sheet: true, certificate: false, passed: true }, onBuy })} />,
    );
    expect(within(row('Certificate')).getByText('Not purchased')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Download the certificate' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Buy the result sheet / certificate' }));
    expect(onBuy).toHaveBeenCalledOnce();
  });

  it('says a certificate is only for a passed exam, and sells nothing more', async () => {
    await renderView(<PurchasedResultScreen api={props({ purchases: { result_sheet: true, certificate: false, passed: false } })} />);
    expect(within(row('Certificate')).getByText('A certificate is issued only for a passed exam.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Download the certificate' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Buy the result sheet / certificate' })).toBeNull();
  });

  it('makes the download the primary action when only the certificate is owned', async () => {
    await renderView(<PurchasedResultScreen api={props({ purchases: { result_sheet: false, certificate: true, passed: true } })} />);
    expect(screen.queryByRole('button', { name: 'Open the score report' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Download the certificate' }).getAttribute('data-variant')).toBe('primary');
  });

  it('is busy while the certificate downloads', async () => {
    const onDownloadCertificate = vi.fn();
    const { user } = await renderView(
      <PurchasedResultScreen api={props({ download: { status: 'downloading', error: null }, onDownloadCertificate })} />,
    );
    const button = screen.getByRole('button', { name: 'Downloading the certificate…' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(screen.getByRole('status').textContent).toBe('Downloading the certificate…');
    await user.click(button);
    expect(onDownloadCertificate).not.toHaveBeenCalled();
  });

  it('tells a failed download and lets it be tried again', async () => {
    const onDownloadCertificate = vi.fn();
    const { user } = await renderView(
      <PurchasedResultScreen api={props({ download: { status: 'failed', error: 'DOCUMENT_UNAVAILABLE' }, onDownloadCertificate })} />,
    );
    expect(screen.getByRole('alert').textContent).toBe('The document cannot be created right now. Please try again later.');
    await user.click(screen.getByRole('button', { name: 'Download the certificate' }));
    expect(onDownloadCertificate).toHaveBeenCalledOnce();
  });

  it('says when nothing is bought yet and offers the purchase', async () => {
    const onBuy = vi.fn();
    const { user } = await renderView(
      <PurchasedResultScreen api={props({ purchases: { result_sheet: false, certificate: false, passed: true }, onBuy })} />,
    );
    expect(screen.getByRole('status').textContent).toBe('You have not bought the result sheet or the certificate yet.');
    await user.click(screen.getByRole('button', { name: 'Buy the result sheet / certificate' }));
    expect(onBuy).toHaveBeenCalledOnce();
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('shows a skeleton while loading, and no buttons', async () => {
    await renderView(<PurchasedResultScreen api={props({ status: 'loading', purchases: null })} />);
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    expect(screen.queryAllByRole('button')).toHaveLength(0);
  });

  it('tells a failed load, retries, and goes back to the menu', async () => {
    const onRetry = vi.fn();
    const onBack = vi.fn();
    const { user } = await renderView(
      <PurchasedResultScreen api={props({ status: 'error', purchases: null, error: 'PAYMENT_REQUIRED', onRetry, onBack })} />,
    );
    expect(screen.getByRole('alert').textContent).toBe('This has not been paid for yet.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledOnce();
    await user.click(screen.getByRole('button', { name: 'Back to menu' }));
    expect(onBack).toHaveBeenCalledOnce();
  });

  it('renders in Japanese from the ja catalog', async () => {
    await renderView(<PurchasedResultScreen api={props()} />, { language: 'ja' });
    expect(screen.getByRole('button', { name: '成績表をひらく' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '合格証をダウンロード' })).toBeTruthy();
  });
});
