/**
 * Purchased result (seed section 2, `purchased-result`): what the pupil owns of this result, the
 * result sheet (which opens the score report) and the certificate (a PDF, issued only for a
 * passed exam), each with its state in words and an icon. "Open the score report" when the sheet
 * is owned; "Download the certificate" when the certificate is owned and the exam passed, with
 * its downloading and failed states. With nothing bought yet the screen says so and offers the
 * purchase.
 *
 * Presentational: it renders what results.connect.ts gives it (PurchasedResultApi: what can be
 * opened, downloaded or bought is decided there) and calls back.
 */
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import type { PurchasedResultApi, Purchases } from '../../../machines/results/results.connect.ts';
import { FailureAlert, LoadFailed } from '../../components/failure-alert/failure-alert.tsx';
import { CheckIcon, CircleIcon, InfoIcon } from '../../components/icon/icons.tsx';
import { CardPage } from '../../components/page/card-page.tsx';
import { SkeletonBlock, SkeletonRegion } from '../../components/skeleton/skeleton.tsx';
import { failureMessage } from '../../i18n/failure-messages.ts';
import { BackToMenu, BuyButton, OpenReportButton } from '../result-parts/result-parts.tsx';
import styles from './purchased-result.module.css';

function Owned({ owned, children, note }: { owned: boolean; children: ReactNode; note?: ReactNode }) {
  return (
    <li className={styles.item} data-owned={owned}>
      <div className={styles.itemHead}>
        <span className={styles.itemName}>{children}</span>
        <span className={styles.state} data-owned={owned}>
          {owned ? <CheckIcon /> : <CircleIcon />}
          {owned ? <Trans>Purchased</Trans> : <Trans>Not purchased</Trans>}
        </span>
      </div>
      {note && (
        <p className="note">
          <InfoIcon />
          <span>{note}</span>
        </p>
      )}
    </li>
  );
}

function Ready({
  purchases,
  download,
  canOpenReport,
  canDownloadCertificate,
  canBuy,
  onOpenReport,
  onDownloadCertificate,
  onBuy,
}: Omit<PurchasedResultApi, 'purchases'> & { purchases: Purchases }) {
  const { i18n } = useLingui();
  const downloading = download.status === 'downloading';
  if (!purchases.result_sheet && !purchases.certificate) {
    return (
      <>
        <div className="alert" data-tone="info" role="status">
          <InfoIcon />
          <p>
            <Trans>You have not bought the result sheet or the certificate yet.</Trans>
          </p>
        </div>
        <BuyButton primary onBuy={onBuy} />
      </>
    );
  }
  return (
    <>
      <ul className={styles.items}>
        <Owned owned={purchases.result_sheet}>
          <Trans>Result sheet</Trans>
        </Owned>
        <Owned
          owned={purchases.certificate}
          note={purchases.passed ? undefined : i18n._(failureMessage('NOT_PASSED'))}
        >
          <Trans>Certificate</Trans>
        </Owned>
      </ul>
      {download.status === 'failed' && <FailureAlert code={download.error ?? 'GENERIC_ERROR'} />}
      {downloading && (
        <p className="visually-hidden" role="status">
          <Trans>Downloading the certificate…</Trans>
        </p>
      )}
      <div className="button-row">
        {canOpenReport && <OpenReportButton onOpenReport={onOpenReport} />}
        {canDownloadCertificate && (
          <button
            type="button"
            className="button"
            data-variant={canOpenReport ? undefined : 'primary'}
            disabled={downloading}
            aria-busy={downloading || undefined}
            onClick={onDownloadCertificate}
          >
            {downloading ? <Trans>Downloading the certificate…</Trans> : <Trans>Download the certificate</Trans>}
          </button>
        )}
        {canBuy && <BuyButton primary={false} onBuy={onBuy} />}
      </div>
    </>
  );
}

export function PurchasedResultScreen({ api }: { api: PurchasedResultApi }) {
  const { status, purchases, error, onBack, onRetry } = api;
  return (
    <CardPage heading={<Trans>Purchased result</Trans>}>
      {status === 'loading' && (
        <SkeletonRegion>
          <SkeletonBlock shape="box" blockSize="4.5rem" />
          <SkeletonBlock shape="box" blockSize="4.5rem" />
          <div className="button-row">
            <SkeletonBlock shape="button" inlineSize="14rem" />
          </div>
        </SkeletonRegion>
      )}
      {status === 'error' && <LoadFailed code={error} onRetry={onRetry} />}
      {status === 'ready' && purchases && <Ready {...api} purchases={purchases} />}
      {status !== 'loading' && <BackToMenu onBack={onBack} />}
    </CardPage>
  );
}
