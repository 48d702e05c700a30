// @vitest-environment jsdom
/**
 * External links (seed section 5: recognised by the prefix http, https, mailto or tel): the pure
 * reading of a text into runs and links, the rendered anchors (a web address in a new tab
 * without opener or referrer), and the texts that carry them on the login page.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { isExternalLink, splitLinks } from '../../src/components/linked-text/links.ts';
import { LinkedText } from '../../src/components/linked-text/linked-text.tsx';
import { LoginScreen } from '../../src/screens/login/login.tsx';
import { renderView } from '../helpers/render-view.tsx';
import { loginApi } from '../helpers/session-fixtures.ts';

describe('which strings are external links', () => {
  it.each([
    ['http://example.org', true],
    ['https://example.org/path?q=1', true],
    ['HTTPS://EXAMPLE.ORG', true],
    ['mailto:office@school.example', true],
    ['tel:+81-3-1234-5678', true],
    ['javascript:alert(1)', false],
    ['data:text/html,<b>x</b>', false],
    ['ftp://example.org', false],
    ['/testing-menu', false],
    ['example.org', false],
    ['https://', false],
    ['mailto:nobody', false],
    ['tel:call-me', false],
  ])('%s: %s', (value, expected) => {
    expect(isExternalLink(value)).toBe(expected);
  });
});

describe('splitLinks', () => {
  it('gives back plain text as one run', () => {
    expect(splitLinks('Sakura Primary School')).toEqual([{ kind: 'text', text: 'Sakura Primary School' }]);
  });

  it('finds each of the four schemes, and keeps every character of the text', () => {
    const text = 'Office: tel:+81-3-1234-5678, mailto:office@school.example or https://school.example/help.';
    const runs = splitLinks(text);
    expect(runs.map((r) => r.text).join('')).toBe(text);
    expect(runs.filter((r) => r.kind === 'link').map((r) => (r.kind === 'link' ? [r.scheme, r.href] : null))).toEqual([
      ['tel', 'tel:+81312345678'],
      ['mailto', 'mailto:office@school.example'],
      ['https', 'https://school.example/help'],
    ]);
  });

  it('leaves a sentence\'s punctuation and an unopened bracket outside the link', () => {
    const runs = splitLinks('(see http://example.org/a_(b)).');
    const link = runs.find((r) => r.kind === 'link');
    expect(link?.text).toBe('http://example.org/a_(b)');
    expect(runs.map((r) => r.text).join('')).toBe('(see http://example.org/a_(b)).');
  });

  it('never makes a link of another scheme', () => {
    expect(splitLinks('javascript:alert(1) data:x')).toEqual([{ kind: 'text', text: 'javascript:alert(1) data:x' }]);
  });
});

describe('LinkedText', () => {
  it('renders a web address as a link that opens in a new tab, without opener or referrer', async () => {
    await renderView(
      <p>
        <LinkedText text="Help: https://school.example/help or tel:+81-3-1234-5678" />
      </p>,
    );
    const web = screen.getByRole('link', { name: /^https:\/\/school\.example\/help\s+\(opens in a new tab\)$/ });
    expect(web.getAttribute('href')).toBe('https://school.example/help');
    expect(web.getAttribute('target')).toBe('_blank');
    expect(web.getAttribute('rel')).toBe('noopener noreferrer');
    const phone = screen.getByRole('link', { name: 'tel:+81-3-1234-5678' });
    expect(phone.getAttribute('href')).toBe('tel:+81312345678');
    expect(phone.getAttribute('target')).toBeNull();
  });

  it('renders text without links as it is', async () => {
    const { container } = await renderView(
      <p>
        <LinkedText text="Sakura Primary School" />
      </p>,
    );
    expect(container.querySelector('p')?.innerHTML).toBe('Sakura Primary School');
  });
});

describe('the login page\'s school, schedule and venue texts', () => {
  it('carry their links', async () => {
    const place = {
      organizationName: 'Sakura Primary School (mailto:office@sakura.example)',
      scheduleName: 'Spring test 2026',
      venueName: 'Room 2, https://sakura.example/map',
    };
    await renderView(
      <LoginScreen api={loginApi({ status: 'ready', place, kind: 'id', ssoUrl: null, busy: false, error: null, submit: vi.fn(), retry: vi.fn() })} />,
    );
    const school = screen.getByText('School').closest('div')!;
    expect(within(school).getByRole('link', { name: 'mailto:office@sakura.example' }).getAttribute('href')).toBe('mailto:office@sakura.example');
    expect(school.textContent).toContain('Sakura Primary School (mailto:office@sakura.example)');
    expect(screen.getByRole('link', { name: /^https:\/\/sakura\.example\/map/ }).getAttribute('target')).toBe('_blank');
  });
});
