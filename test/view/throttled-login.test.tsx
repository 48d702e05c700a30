// @vitest-environment jsdom
/**
 * A login the server throttled (429 TOO_MANY_REQUESTS, server/security/throttle.ts)
 * reads as words on both login screens, not as the generic error.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { failureMessage } from '../../src/i18n/failure-messages.ts';
import { LoginCodeScreen } from '../../src/screens/login-code/login-code.tsx';
import { LoginScreen } from '../../src/screens/login/login.tsx';
import { renderView } from '../helpers/render-view.tsx';
import { loginApi, loginCodeApi } from '../helpers/session-fixtures.ts';

const TEXT = 'Too many tries. Please wait a few minutes, then try again. If this keeps happening, ask your teacher.';

describe('a throttled login', () => {
  it('has its own message, not the generic one', () => {
    expect(failureMessage('TOO_MANY_REQUESTS')).not.toBe(failureMessage('GENERIC_ERROR'));
  });

  it('is told on the login-code screen', async () => {
    await renderView(<LoginCodeScreen api={loginCodeApi({ busy: false, error: { kind: 'failure', code: 'TOO_MANY_REQUESTS' }, submit: vi.fn() })} />);
    expect(screen.getByRole('alert').textContent).toBe(TEXT);
  });

  it('is told on the login ID screen', async () => {
    const place = { organizationName: 'Sakura Primary School', scheduleName: 'Spring test 2026', venueName: 'Room 2' };
    await renderView(
      <LoginScreen api={loginApi({ status: 'ready', place, kind: 'id', ssoUrl: null, busy: false, error: { kind: 'failure', code: 'TOO_MANY_REQUESTS' }, submit: vi.fn(), retry: vi.fn() })} />,
    );
    expect(screen.getByRole('alert').textContent).toBe(TEXT);
  });
});
