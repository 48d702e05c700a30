// @vitest-environment jsdom
/**
 * adyen-dropin: Adyen Web (mocked module) is loaded when the component renders, AdyenCheckout is
 * created with the session, client key, environment, the language's locale and the amount, the
 * Drop-in mounts with the Card component; Drop-in's callbacks map to one ProviderResult;
 * unmounting removes the Drop-in; a library that fails to load is told, with Try again. Back from
 * Adyen's redirect it opens the session by its id, hands the redirect result to Adyen
 * (submitDetails) and mounts no form; the outcome comes through the same callbacks.
 */
import { act, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProviderResult } from '../../machines/payment/payment.types.ts';
import { AdyenDropin, type AdyenDropinProps } from '../../src/components/adyen-dropin/adyen-dropin.tsx';
import { renderView } from '../helpers/render-view.tsx';

type Callbacks = {
  onPaymentCompleted(data: unknown): void;
  onPaymentFailed(data?: unknown): void;
  onError(error: Error): void;
};

const adyen = vi.hoisted(() => {
  const state = {
    configs: [] as Record<string, unknown>[],
    submitted: [] as unknown[],
    mounted: [] as HTMLElement[],
    dropinOptions: [] as unknown[],
    unmount: vi.fn(),
    Card: class Card {},
  };
  return state;
});

vi.mock('@adyen/adyen-web/styles/adyen.css', () => ({}));
vi.mock('@adyen/adyen-web', () => {
  return {
    Card: adyen.Card,
    AdyenCheckout: async (config: Record<string, unknown>) => {
      adyen.configs.push(config);
      return {
        config,
        submitDetails: (data: unknown) => {
          adyen.submitted.push(data);
        },
      };
    },
    Dropin: class Dropin {
      constructor(_checkout: unknown, options: unknown) {
        adyen.dropinOptions.push(options);
      }
      mount(node: HTMLElement) {
        adyen.mounted.push(node);
        node.setAttribute('data-adyen', 'dropin');
        return this;
      }
      unmount() {
        adyen.unmount();
        return this;
      }
    },
  };
});

type CheckoutProps = Extract<AdyenDropinProps, { session: object }>;

function props(overrides: Partial<CheckoutProps> = {}): CheckoutProps {
  return {
    session: { id: 'CS-123', sessionData: 'Ab02b4c0' },
    clientKey: 'test_CLIENTKEY',
    environment: 'test',
    amountMinor: 2500,
    onCompleted: vi.fn(),
    ...overrides,
  };
}

async function mounted() {
  await waitFor(() => expect(adyen.mounted).toHaveLength(1));
  return adyen.configs[0] as unknown as Callbacks & Record<string, unknown>;
}

beforeEach(() => {
  adyen.configs.length = 0;
  adyen.submitted.length = 0;
  adyen.mounted.length = 0;
  adyen.dropinOptions.length = 0;
  adyen.unmount.mockClear();
});

describe('adyen-dropin', () => {
  it('shows a skeleton, then creates AdyenCheckout with the session and mounts the Drop-in with Card', async () => {
    await renderView(<AdyenDropin {...props()} />, { language: 'ja' });
    expect(screen.getByRole('status').textContent).toBe('読みこみ中…');
    const config = await mounted();
    expect(config).toMatchObject({
      session: { id: 'CS-123', sessionData: 'Ab02b4c0' },
      clientKey: 'test_CLIENTKEY',
      environment: 'test',
      locale: 'ja',
      amount: { value: 2500, currency: 'USD' },
    });
    expect(config).not.toHaveProperty('countryCode');
    expect(adyen.dropinOptions[0]).toEqual({ paymentMethodComponents: [adyen.Card] });
    expect(adyen.mounted[0]?.getAttribute('data-adyen')).toBe('dropin');
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
  });

  it('passes the country when known', async () => {
    await renderView(<AdyenDropin {...props({ countryCode: 'JP' })} />);
    expect(await mounted()).toMatchObject({ countryCode: 'JP', locale: 'en' });
  });

  it.each<[string, (c: Callbacks) => void, ProviderResult]>([
    ['completed Authorised', (c) => c.onPaymentCompleted({ resultCode: 'Authorised', sessionData: 's', sessionResult: 'r' }), 'authorised'],
    ['completed Pending', (c) => c.onPaymentCompleted({ resultCode: 'Pending' }), 'pending'],
    ['completed Received', (c) => c.onPaymentCompleted({ resultCode: 'Received' }), 'received'],
    ['failed Refused', (c) => c.onPaymentFailed({ resultCode: 'Refused' }), 'refused'],
    ['failed Cancelled', (c) => c.onPaymentFailed({ resultCode: 'Cancelled' }), 'cancelled'],
    ['failed Error', (c) => c.onPaymentFailed({ resultCode: 'Error' }), 'error'],
    ['failed without data', (c) => c.onPaymentFailed(), 'error'],
    ['onError CANCEL', (c) => c.onError(Object.assign(new Error('closed'), { name: 'CANCEL' })), 'cancelled'],
    ['onError NETWORK_ERROR', (c) => c.onError(Object.assign(new Error('down'), { name: 'NETWORK_ERROR' })), 'error'],
  ])('maps %s to one onCompleted result', async (_name, call, expected) => {
    const onCompleted = vi.fn();
    await renderView(<AdyenDropin {...props({ onCompleted })} />);
    const config = await mounted();
    act(() => call(config));
    expect(onCompleted).toHaveBeenCalledExactlyOnceWith(expected);
  });

  it('back from a redirect: opens the session by its id, submits the redirect result, shows no form, reports the outcome', async () => {
    const onCompleted = vi.fn();
    await renderView(
      <AdyenDropin
        redirect={{ sessionId: 'CS-123', redirectResult: 'X6XtfGC3!Y3Jg2' }}
        clientKey="test_CLIENTKEY"
        environment="test"
        onCompleted={onCompleted}
      />,
      { language: 'de' },
    );
    await waitFor(() => expect(adyen.submitted).toEqual([{ details: { redirectResult: 'X6XtfGC3!Y3Jg2' } }]));
    const config = adyen.configs[0] as unknown as Callbacks & Record<string, unknown>;
    expect(config).toMatchObject({ session: { id: 'CS-123' }, clientKey: 'test_CLIENTKEY', environment: 'test', locale: 'de' });
    expect((config.session as Record<string, unknown>).sessionData).toBeUndefined();
    expect(adyen.mounted).toHaveLength(0);
    act(() => config.onPaymentCompleted({ resultCode: 'Authorised' }));
    expect(onCompleted).toHaveBeenCalledExactlyOnceWith('authorised');
  });

  it('unmounts the Drop-in and reports nothing after it is gone', async () => {
    const onCompleted = vi.fn();
    const { unmount } = await renderView(<AdyenDropin {...props({ onCompleted })} />);
    const config = await mounted();
    unmount();
    expect(adyen.unmount).toHaveBeenCalledOnce();
    config.onPaymentCompleted({ resultCode: 'Authorised' });
    expect(onCompleted).not.toHaveBeenCalled();
  });

  it('tells a library that failed to load, and loads it again with Try again', async () => {
    const library = await import('@adyen/adyen-web');
    const load = vi.fn().mockRejectedValueOnce(new Error('chunk failed to load')).mockResolvedValue(library);
    const { user } = await renderView(<AdyenDropin {...props({ load })} />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Network error. Please check the connection and try again.The card payment form could not be loaded.Try again');
    expect(adyen.mounted).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(adyen.mounted).toHaveLength(1));
    expect(load).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('forgets a failed load of Adyen Web, so the next try fetches it again', async () => {
    vi.resetModules();
    vi.doMock('@adyen/adyen-web', () => {
      throw new Error('chunk failed to load');
    });
    const { loadAdyenWeb } = await import('../../src/components/adyen-dropin/adyen-loader.ts');
    await expect(loadAdyenWeb()).rejects.toThrow();
    vi.doMock('@adyen/adyen-web', () => ({ AdyenCheckout: async () => ({}), Dropin: class {}, Card: class {} }));
    const library = await loadAdyenWeb();
    expect(typeof library.AdyenCheckout).toBe('function');
    expect(loadAdyenWeb()).toBe(loadAdyenWeb());
    vi.doUnmock('@adyen/adyen-web');
  });
});
