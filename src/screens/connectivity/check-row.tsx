/**
 * One row of the terminal check: what was checked, its status in words and an icon (never by
 * colour alone), the time it took, and what it found in plain words: on a pass, the fact; on a
 * warning or a problem, what it means and what to do. Renders a CheckRow (connectivity.connect.ts)
 * and nothing else.
 */
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react';
import { Plural, Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import type { CheckRow, RowStatus } from '../../../machines/connectivity/connectivity.connect.ts';
import { CHECK_TIMEOUT_MS } from '../../../machines/connectivity/connectivity.rules.ts';
import type { CheckId, CheckResult } from '../../../machines/connectivity/connectivity.types.ts';
import { CheckIcon, CircleIcon, ErrorIcon, SavingIcon, WarningIcon } from '../../components/icon/icons.tsx';
import { formatNumber } from '../../i18n/format.ts';
import { isLanguageKey, languages, type LanguageKey } from '../../../contract/languages.ts';
import styles from './connectivity.module.css';

const titles: Record<Exclude<CheckId, 'fonts'>, MessageDescriptor> = {
  api: msg`Exam server`,
  front: msg`Gradus website`,
  mathScript: msg`Math formulas: script file`,
  mathStyle: msg`Math formulas: style file`,
  clock: msg`Terminal clock`,
  storage: msg`Space for saving answers`,
  offlineShell: msg`Offline copy of the app`,
};

/** A row's status in words (its own context: "OK" here is a verdict, not a button's "OK"). */
const statusWords: Record<RowStatus, MessageDescriptor> = {
  waiting: msg({ message: 'Waiting', context: 'terminal check status' }),
  running: msg({ message: 'Checking…', context: 'terminal check status' }),
  pass: msg({ message: 'OK', context: 'terminal check status' }),
  warning: msg({ message: 'Warning', context: 'terminal check status' }),
  fail: msg({ message: 'Problem', context: 'terminal check status' }),
};

function StatusIcon({ status }: { status: RowStatus }) {
  switch (status) {
    case 'pass':
      return <CheckIcon />;
    case 'warning':
      return <WarningIcon />;
    case 'fail':
      return <ErrorIcon />;
    case 'running':
      return <SavingIcon className={`icon ${styles.spin}`} />;
    case 'waiting':
      return <CircleIcon />;
  }
}

/** The host of a checked URL (what a filter must allow), or the URL itself. */
function hostOf(url: string | undefined): string {
  if (!url) return '';
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** The language whose fonts a row is about: the result's, or the one shown now. */
function fontLanguage(result: CheckResult | null, current: LanguageKey): LanguageKey {
  const checked = result?.detail.language;
  return checked && isLanguageKey(checked) ? checked : current;
}

/** A text in its own language and direction, inside a sentence of another. */
function Native({ language, children }: { language: LanguageKey; children: ReactNode }) {
  return (
    <bdi lang={languages[language].tag.split('-u-')[0]} dir={languages[language].dir} className={styles.native}>
      {children}
    </bdi>
  );
}

function Title({ row, language }: { row: CheckRow; language: LanguageKey }) {
  const { i18n } = useLingui();
  if (row.id !== 'fonts') return <>{i18n._(titles[row.id])}</>;
  const checked = fontLanguage(row.result, language);
  const name = languages[checked].nativeName;
  return (
    <Trans>
      Fonts for <Native language={checked}>{name}</Native>
    </Trans>
  );
}

/** "34 ms", "1.2 s", "2 min": an amount of time in the language's digits. */
function Amount({ ms, language }: { ms: number; language: LanguageKey }) {
  const abs = Math.abs(ms);
  if (abs < 1_000) {
    const time = formatNumber(Math.round(abs), language);
    return <Trans>{time} ms</Trans>;
  }
  if (abs < 120_000) {
    const seconds = formatNumber(Math.round(abs / 100) / 10, language, { maximumFractionDigits: 1 });
    return <Trans>{seconds} s</Trans>;
  }
  const minutes = formatNumber(Math.round(abs / 60_000), language);
  return <Trans>{minutes} min</Trans>;
}

function Size({ bytes, language }: { bytes: number; language: LanguageKey }) {
  const megabytes = bytes / (1024 * 1024);
  if (megabytes >= 1024) {
    const size = formatNumber(Math.floor((megabytes / 1024) * 10) / 10, language, { maximumFractionDigits: 1 });
    return <Trans>{size} GB</Trans>;
  }
  const size = formatNumber(Math.floor(megabytes), language);
  return <Trans>{size} MB</Trans>;
}

/** What a result means, and on a warning or a problem what to do, in plain words. */
function Explanation({ check, result, language }: { check: CheckId; result: CheckResult; language: LanguageKey }) {
  const { detail } = result;
  const host = <bdi dir="ltr">{hostOf(detail.url)}</bdi>;
  const time = <Amount ms={result.ms} language={language} />;
  const math = check === 'mathScript' || check === 'mathStyle';
  switch (result.reason) {
    case 'ok':
      return <PassFact check={check} result={result} language={language} />;
    case 'slow':
      return (
        <Trans>
          It answered, but slowly ({time}). Pupils would wait on every screen: check this room's network, or try again when
          fewer terminals are in use.
        </Trans>
      );
    case 'unreachable':
      return math ? (
        <Trans>
          This file could not be downloaded, so math questions could not be shown. A school web filter or firewall may block
          it: ask for {host} to be allowed.
        </Trans>
      ) : (
        <Trans>
          No answer from {host}. Check that this terminal is connected to the network, and that the school's firewall or web
          filter allows {host}.
        </Trans>
      );
    case 'httpError': {
      const status = detail.status ?? 0;
      return (
        <Trans>
          {host} answered with error {status}. Try again in a few minutes; if it stays, tell the exam organiser.
        </Trans>
      );
    }
    case 'unexpectedAnswer':
      return (
        <Trans>
          Something other than Gradus answered: often a web filter or a network sign-in page. Open any web page on this
          terminal to see it, then ask for {host} to be allowed.
        </Trans>
      );
    case 'notInBuild':
      return <Trans>This copy of Gradus does not name its math files: the app on the server is incomplete. Tell the exam organiser.</Trans>;
    case 'timeout': {
      const seconds = formatNumber(CHECK_TIMEOUT_MS / 1000, language);
      return (
        <Trans>
          No answer within {seconds} seconds. The network is very slow, or something holds back {host}. Check the connection,
          then check again.
        </Trans>
      );
    }
    case 'clockOff':
      return <ClockAdvice result={result} language={language} />;
    case 'clockUnknown':
      return (
        <Trans>
          Not compared: the server's time could not be read. Fix the exam server connection first, then check again. The exam
          always uses the server's time.
        </Trans>
      );
    case 'storageLow': {
      const size = <Size bytes={detail.availableBytes ?? 0} language={language} />;
      return <Trans>Only {size} free for Gradus. Answers still fit, but free some disk space on this terminal before exam day.</Trans>;
    }
    case 'storageFull': {
      const size = <Size bytes={detail.availableBytes ?? 0} language={language} />;
      return (
        <Trans>
          Only {size} free: if the network drops, answers may not be kept on this terminal. Free disk space, or clear other
          sites' data in the browser.
        </Trans>
      );
    }
    case 'storageBlocked':
      return (
        <Trans>
          This browser does not let Gradus keep answers on the terminal (a private window, or site data blocked). Use a normal
          window and allow site data for this address.
        </Trans>
      );
    case 'storageUnmeasured':
      return <Trans>Saving works, but the browser does not say how much space is left.</Trans>;
    case 'shellWaiting':
      return <Trans>Installed, but not yet in charge of this page. Reload this page once, then check again.</Trans>;
    case 'shellMissing':
      return (
        <Trans>
          Not installed. Without it, reloading the page with the network gone shows the browser's error page instead of the
          exam. Open Gradus at its usual address with the network on, wait a minute, reload, then check again.
        </Trans>
      );
    case 'shellUnsupported':
      return (
        <Trans>
          This browser cannot keep an offline copy of Gradus: use a current browser, with the https address of Gradus.
        </Trans>
      );
    case 'fontsMissing': {
      const checked = fontLanguage(result, language);
      const sample = <Native language={checked}>{detail.sample ?? ''}</Native>;
      const missing = detail.missing ?? 0;
      return (
        <>
          <Plural value={missing} one="# letter shows as an empty box in" other="# letters show as empty boxes in" /> {sample}.{' '}
          <Trans>Install the Noto fonts for this language on the terminal (on Linux: fonts-noto-core and fonts-noto-cjk).</Trans>
        </>
      );
    }
    case 'fontsUnmeasured': {
      const checked = fontLanguage(result, language);
      const sample = <Native language={checked}>{detail.sample ?? ''}</Native>;
      return (
        <Trans>
          The browser did not let the page measure its fonts. Look at {sample}: if it shows empty boxes, install the Noto fonts
          for this language.
        </Trans>
      );
    }
    case 'broken':
      return <Trans>The check itself failed. Reload the page and check again; if it stays, tell the exam organiser.</Trans>;
  }
}

/** The clock's advice: how far off, which way, and that the exam itself uses the server's time. */
function ClockAdvice({ result, language }: { result: CheckResult; language: LanguageKey }) {
  const offset = result.detail.offsetMs ?? 0;
  const amount = <Amount ms={offset} language={language} />;
  // offsetMs is the server's time minus this terminal's: positive when the terminal is behind.
  const off =
    offset > 0 ? <Trans>This terminal's clock is {amount} behind the server's.</Trans> : <Trans>This terminal's clock is {amount} ahead of the server's.</Trans>;
  return (
    <>
      {off}{' '}
      {result.verdict === 'fail' ? (
        <Trans>
          The exam uses the server's time, so pupils still get their full time, but every time this terminal shows is wrong.
          Turn on automatic date and time in its settings.
        </Trans>
      ) : (
        <Trans>The exam uses the server's time, so pupils still get their full time. Setting the clock right avoids confusion.</Trans>
      )}
    </>
  );
}

function PassFact({ check, result, language }: { check: CheckId; result: CheckResult; language: LanguageKey }) {
  switch (check) {
    case 'api':
      return <Trans>The exam server answers this terminal.</Trans>;
    case 'front':
      return <Trans>The Gradus website answers this terminal.</Trans>;
    case 'mathScript':
    case 'mathStyle':
      return <Trans>Downloaded: math questions can be shown.</Trans>;
    case 'clock':
      return (
        <Trans>
          Matches the server's clock. The exam always uses the server's time.
        </Trans>
      );
    case 'storage': {
      const size = <Size bytes={result.detail.availableBytes ?? 0} language={language} />;
      return <Trans>{size} free; answers are kept on this terminal until the server has them.</Trans>;
    }
    case 'offlineShell':
      return <Trans>Installed: with the network gone, a reload still shows the exam.</Trans>;
    case 'fonts': {
      const checked = fontLanguage(result, language);
      const sample = <Native language={checked}>{result.detail.sample ?? ''}</Native>;
      return <Trans>{sample} shows correctly.</Trans>;
    }
  }
}

export function CheckRowView({ row, language }: { row: CheckRow; language: LanguageKey }) {
  const { i18n } = useLingui();
  const { result } = row;
  return (
    <li className={styles.row} data-status={row.status} aria-busy={row.status === 'running' || undefined}>
      <span className={styles.mark}>
        <StatusIcon status={row.status} />
      </span>
      <div className={styles.body}>
        <h2 className={styles.title}>
          <Title row={row} language={language} />
        </h2>
        <p className={styles.status}>
          <strong>{i18n._(statusWords[row.status])}</strong>
          {result && (
            <bdi className={styles.time}>
              <Amount ms={result.ms} language={language} />
            </bdi>
          )}
        </p>
        {row.status === 'running' && <progress className={styles.progress} aria-label={i18n._(statusWords.running)} />}
        {result && (
          <p className={styles.explanation}>
            <Explanation check={row.id} result={result} language={language} />
          </p>
        )}
      </div>
    </li>
  );
}
