/**
 * Placeholders shaped like the content that is coming (skeletons rather than spinners,
 * ARCHITECTURE.md). Hidden from assistive technology; `SkeletonRegion` says "Loading" once instead.
 */
import { Trans } from '@lingui/react/macro';
import type { CSSProperties, ReactNode } from 'react';
import styles from './skeleton.module.css';

export function SkeletonBlock({ inlineSize = '100%', blockSize = '1.25rem', shape = 'line' }: {
  inlineSize?: string;
  blockSize?: string;
  shape?: 'line' | 'box' | 'button';
}) {
  const style: CSSProperties = { inlineSize, blockSize };
  return <div className={styles.block} data-shape={shape} style={style} aria-hidden="true" />;
}

export function SkeletonRegion({ children }: { children: ReactNode }) {
  return (
    <div className={styles.region} aria-busy="true">
      <p className="visually-hidden" role="status">
        <Trans>Loading…</Trans>
      </p>
      {children}
    </div>
  );
}
