/**
 * Text with TeX between \( and \) (a question with `math: true`), set with KaTeX. Until
 * KaTeX has loaded (a moment, once per exam) the text shows as written. Screen readers read
 * KaTeX's MathML; the visual HTML is hidden from them by KaTeX itself.
 */
import { Fragment, useEffect, useState } from 'react';
import { loadKatex, renderTex } from './katex-loader.ts';
import styles from './math-text.module.css';

type Part = { kind: 'text'; text: string } | { kind: 'tex'; tex: string };

/** Splits "Add \(\frac12\) and 3" into text and TeX parts. */
export function splitMath(text: string): Part[] {
  const parts: Part[] = [];
  const pattern = /\\\(([\s\S]*?)\\\)/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) parts.push({ kind: 'text', text: text.slice(last, match.index) });
    parts.push({ kind: 'tex', tex: match[1]! });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}

type Katex = Awaited<ReturnType<typeof loadKatex>>;

export function MathText({ text }: { text: string }) {
  const [katex, setKatex] = useState<Katex | null>(null);

  useEffect(() => {
    let live = true;
    void loadKatex().then((loaded) => {
      if (live) setKatex(() => loaded);
    });
    return () => {
      live = false;
    };
  }, []);

  if (!katex) return <>{text}</>;
  return (
    <>
      {splitMath(text).map((part, i) =>
        part.kind === 'text' ? (
          <Fragment key={i}>{part.text}</Fragment>
        ) : (
          // KaTeX's own output from question content; trust: it escapes the TeX it is given.
          <span key={i} className={styles.math} dir="ltr" dangerouslySetInnerHTML={{ __html: renderTex(katex, part.tex) }} />
        ),
      )}
    </>
  );
}
