/**
 * The terminal check (/checking-domain-connection): renders what `connect`
 * (machines/connectivity/connectivity.connect.ts) gives it, its one `api` prop. It decides nothing, fetches nothing,
 * navigates nowhere: "Check again" and "Back" send the events connect hands it, and a change of
 * the interface language (the picker at the foot) is reported as a fact, so its fonts are checked.
 *
 * Made to be read from across the room: the summary in very large type with an icon and words
 * ("This terminal is ready", "Not ready: 2 problems"), announced politely to screen readers; then
 * one row per check with its status, its time and, on a warning or a problem, what to do.
 */
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Plural, Trans } from '@lingui/react/macro';
import { useEffect, useRef } from 'react';
import type { ConnectivityApi, Summary } from '../../../machines/connectivity/connectivity.connect.ts';
import { ArrowIcon, CheckIcon, ErrorIcon, SavingIcon, WarningIcon } from '../../components/icon/icons.tsx';
import { LanguagePicker } from '../../components/language-picker/language-picker.tsx';
import { Page, PageHeading } from '../../components/page/page.tsx';
import { useLanguage } from '../../i18n/language-context.tsx';
import { formatNumber } from '../../i18n/format.ts';
import type { LanguageKey } from '../../../contract/languages.ts';
import { CheckRowView } from './check-row.tsx';
import styles from './connectivity.module.css';

const checksLabel = msg`Checks`;

function SummaryBanner({ summary, language }: { summary: Summary; language: LanguageKey }) {
  const done = formatNumber(summary.kind === 'checking' ? summary.done : 0, language);
  const total = formatNumber(summary.kind === 'checking' ? summary.total : 0, language);
  const tone = summary.kind === 'notReady' ? 'fail' : summary.kind === 'readyWithWarnings' ? 'warning' : summary.kind === 'ready' ? 'pass' : 'running';
  return (
    <section className={styles.summary} data-tone={tone} aria-labelledby="terminal-check-summary">
      <span className={styles.summaryMark}>
        {tone === 'pass' ? <CheckIcon /> : tone === 'warning' ? <WarningIcon /> : tone === 'fail' ? <ErrorIcon /> : <SavingIcon className={`icon ${styles.spin}`} />}
      </span>
      <div>
        {/* Only the headline is live: it changes once per round, not on every row. */}
        <p id="terminal-check-summary" className={styles.headline} role="status">
          {summary.kind === 'checking' && <Trans>Checking this terminal…</Trans>}
          {summary.kind === 'ready' && <Trans>This terminal is ready</Trans>}
          {summary.kind === 'readyWithWarnings' && (
            <Plural value={summary.warnings} one="Ready, with # warning" other="Ready, with # warnings" />
          )}
          {summary.kind === 'notReady' && <Plural value={summary.problems} one="Not ready: # problem" other="Not ready: # problems" />}
        </p>
        <p className={styles.subline}>
          {summary.kind === 'checking' && (
            <Trans>
              {done} of {total} checks done
            </Trans>
          )}
          {summary.kind === 'ready' && <Trans>Every check passed.</Trans>}
          {summary.kind === 'readyWithWarnings' && <Trans>Pupils can take the exam here. Read the warnings below.</Trans>}
          {summary.kind === 'notReady' && <Trans>Fix what is marked "Problem" below, then press "Check again".</Trans>}
        </p>
      </div>
    </section>
  );
}

export function ConnectivityScreen({ api }: { api: ConnectivityApi }) {
  const { i18n } = useLingui();
  const { language } = useLanguage();

  // The interface language changed while the check is shown: a fact for the machine (fonts).
  const shownLanguage = useRef(language);
  const { languageChanged } = api;
  useEffect(() => {
    if (shownLanguage.current === language) return;
    shownLanguage.current = language;
    languageChanged(language);
  }, [language, languageChanged]);

  return (
    <Page align="start" width="wide">
      <PageHeading>
        <Trans>Terminal check</Trans>
      </PageHeading>
      <p className={styles.intro}>
        <Trans>
          Run this on each terminal before exam day. It checks the connection to Gradus and what this terminal needs for the
          exam. It changes nothing and logs no one in or out.
        </Trans>
      </p>
      <SummaryBanner summary={api.summary} language={language} />
      <div className="button-row">
        <button
          type="button"
          className="button"
          data-variant="primary"
          aria-disabled={!api.canCheckAgain || undefined}
          aria-busy={api.running || undefined}
          onClick={() => {
            if (api.canCheckAgain) api.checkAgain();
          }}
        >
          {api.running ? <Trans>Checking…</Trans> : <Trans>Check again</Trans>}
        </button>
        <button type="button" className="button" onClick={api.close}>
          <ArrowIcon direction="back" />
          <Trans>Back</Trans>
        </button>
      </div>
      <ol className={styles.rows} aria-label={i18n._(checksLabel)}>
        {api.rows.map((row) => (
          <CheckRowView key={row.id} row={row} language={language} />
        ))}
      </ol>
      <div className={styles.language}>
        <LanguagePicker />
      </div>
    </Page>
  );
}
