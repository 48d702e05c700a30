/**
 * What the two results screens (short-result and purchased-result, seed section 2) show alike:
 * "Open the score report", "Buy the result sheet / certificate" and "Back to menu" under the
 * card. One place, so both screens word and style them the same way.
 */
import { Trans } from '@lingui/react/macro';
import styles from './result-parts.module.css';

/** "Open the score report": the way on once the result sheet is owned, so always primary. */
export function OpenReportButton({ onOpenReport }: { onOpenReport(): void }) {
  return (
    <button type="button" className="button" data-variant="primary" onClick={onOpenReport}>
      <Trans>Open the score report</Trans>
    </button>
  );
}

/** "Buy the result sheet / certificate": primary only where nothing else leads on. */
export function BuyButton({ primary, onBuy }: { primary: boolean; onBuy(): void }) {
  return (
    <button type="button" className="button" data-variant={primary ? 'primary' : undefined} onClick={onBuy}>
      <Trans>Buy the result sheet / certificate</Trans>
    </button>
  );
}

/** "Back to menu", a link-styled button under the card's content (not while it loads). */
export function BackToMenu({ onBack }: { onBack(): void }) {
  return (
    <div className={styles.back}>
      <button type="button" className="button" data-variant="link" onClick={onBack}>
        <Trans>Back to menu</Trans>
      </button>
    </div>
  );
}
