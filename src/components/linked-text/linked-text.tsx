/**
 * Text that may carry external links (seed section 5; ./links.ts decides what is a link): the
 * plain runs as text, each link as an anchor. A web address opens in a new tab (the kiosk stays
 * where it is), never with the opener or a referrer; an email address or telephone number is
 * handed to the device. The anchors are marked, so the print stylesheet can show the address.
 */
import { useLingui } from '@lingui/react/macro';
import { splitLinks } from './links.ts';
import styles from './linked-text.module.css';

export function LinkedText({ text }: { text: string }) {
  const { t } = useLingui();
  const runs = splitLinks(text);
  if (runs.length === 1 && runs[0]!.kind === 'text') return <>{text}</>;
  return (
    <>
      {runs.map((run, index) =>
        run.kind === 'text' ? (
          <span key={index}>{run.text}</span>
        ) : run.scheme === 'http' || run.scheme === 'https' ? (
          <a
            key={index}
            className={styles.link}
            href={run.href}
            target="_blank"
            rel="noopener noreferrer"
            data-scheme={run.scheme}
            dir="ltr"
            // The name starts with what is shown, and says where it opens.
            aria-label={`${run.text} ${t`(opens in a new tab)`}`}
          >
            {run.text}
          </a>
        ) : (
          <a key={index} className={styles.link} href={run.href} data-scheme={run.scheme} dir="ltr">
            {run.text}
          </a>
        ),
      )}
    </>
  );
}
