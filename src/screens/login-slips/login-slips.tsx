/**
 * The login slips of a test period, for printing (A4 portrait, 8 slips a page in 2 columns and
 * 4 rows, dashed cut lines): on each slip the pupil's name in its own script, class, classroom,
 * the login code (large, monospace, XXXX-XXXX-XXXX), the school, where to log in and the test
 * period's dates. Each slip is written in its pupil's language, inside an I18nProvider of that
 * language (one page may mix languages; Arabic slips read right to left); the page around them
 * keeps the page's own language. Presentational: it renders its one `api` prop, the document
 * connect's `connectLoginSlips` (the slips and a Lingui instance per language, which
 * src/app/connect/login-slips.tsx loads).
 */
import type { I18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { LoginSlip, LoginSlipsResponse } from '../../../contract/exports.ts';
import { languages } from '../../../contract/languages.ts';
import type { LoginSlipsApi } from '../../../machines/document/document.connect.ts';
import { PRODUCT_NAME } from '../../app/product.ts';
import { Fact } from '../../components/details/details.tsx';
import { failureMessage } from '../../i18n/failure-messages.ts';
import { formatDate } from '../../i18n/format.ts';
import styles from './login-slips.module.css';

/** Slips on one A4 page: 2 columns, 4 rows. */
export const SLIPS_PER_PAGE = 8;

function pagesOf<T>(items: readonly T[], size: number): T[][] {
  const pages: T[][] = [];
  for (let i = 0; i < items.length; i += size) pages.push(items.slice(i, i + size));
  return pages;
}

function Slip({ slip, data }: { slip: LoginSlip; data: LoginSlipsResponse }) {
  const language = slip.locale;
  const start = formatDate(data.schedule.starts_at, language);
  const end = formatDate(data.schedule.ends_at, language);
  const period = data.schedule.name || data.schedule.code;
  return (
    <article className={styles.slip} lang={languages[language].tag} dir={languages[language].dir} data-item="slip">
      <p className={styles.school}>
        <span className={styles.brand}>{PRODUCT_NAME}</span> · {data.school.name}
      </p>
      <p className={styles.name} data-item="name">
        {slip.name}
      </p>
      <dl className={styles.facts}>
        <Fact term={<Trans>Class</Trans>}>{slip.class_name || '—'}</Fact>
        <Fact term={<Trans>Classroom</Trans>}>{slip.classroom ?? '—'}</Fact>
      </dl>
      <p className={styles.codeLabel}>
        <Trans>Login code</Trans>
      </p>
      <p className={styles.code} dir="ltr" data-item="login-code">
        {slip.login_code}
      </p>
      <p className={styles.line}>
        <span className={styles.label}>
          <Trans>Log in at</Trans>
        </span>{' '}
        <span dir="ltr" className={styles.url}>
          {data.login_url}
        </span>
      </p>
      <p className={styles.line}>
        <span className={styles.label}>
          <Trans>Test period</Trans>
        </span>{' '}
        <bdi>{period}</bdi>:{' '}
        <Trans>
          {start} to {end}
        </Trans>
      </p>
    </article>
  );
}

export function LoginSlipsScreen({ api }: { api: LoginSlipsApi<I18n> }) {
  const { t } = useLingui();
  const { status, slips, catalogs, error, onRetry } = api;
  if (status === 'error') {
    return (
      <main className={styles.message}>
        <p role="alert">{t(failureMessage(error ?? 'GENERIC_ERROR'))}</p>
        {onRetry && (
          <button type="button" onClick={onRetry}>
            <Trans>Try again</Trans>
          </button>
        )}
      </main>
    );
  }
  if (status === 'loading' || !slips || !catalogs) {
    return <main className={styles.message} aria-busy="true" />;
  }
  return (
    <main className={styles.sheet} data-document="login-slips">
      <h1 className="visually-hidden">
        <Trans>Login slips</Trans>
      </h1>
      {pagesOf(slips.slips, SLIPS_PER_PAGE).map((page, index) => (
        <section key={index} className={styles.page} data-item="page">
          {page.map((slip, at) => (
            <I18nProvider key={at} i18n={catalogs.get(slip.locale)!}>
              <Slip slip={slip} data={slips} />
            </I18nProvider>
          ))}
        </section>
      ))}
    </main>
  );
}
