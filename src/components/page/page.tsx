/**
 * The frame of a screen: its <main> landmark with the content column, centred or top-aligned (seed section 2: content is
 * centred on all screens except exam-start, exam-tutorial, the exam list, exam-end and the score
 * report), and the screen's heading, which takes focus when the screen opens so a screen reader
 * starts reading there.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import styles from './page.module.css';

export interface PageProps {
  align?: 'center' | 'start';
  width?: 'narrow' | 'wide';
  children: ReactNode;
  /** Extra class of the screen, for its own layout. */
  className?: string;
}

export function Page({ align = 'center', width = 'narrow', children, className }: PageProps) {
  return (
    <main className={styles.page} data-align={align}>
      <div className={[styles.column, className].filter(Boolean).join(' ')} data-width={width}>
        {children}
      </div>
    </main>
  );
}

export function PageHeading({ children, focusOnMount = true, id }: { children: ReactNode; focusOnMount?: boolean; id?: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusOnMount) ref.current?.focus({ preventScroll: true });
  }, [focusOnMount]);
  return (
    <h1 ref={ref} id={id} tabIndex={-1} className={styles.heading}>
      {children}
    </h1>
  );
}
