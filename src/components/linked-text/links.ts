/**
 * External links in text (seed section 5: "External links are recognised by the prefix http,
 * https, mailto or tel"): a pure reading of a text into plain runs and links, for every text the
 * product shows that comes from an organisation or an operator (a school's, a schedule's or a
 * venue's name on the login page, the organisation on the score report) and may carry a web
 * address, an email address or a telephone number.
 *
 * Promises: only those four schemes are ever a link (no `javascript:`, no `data:`, no relative
 * path); the text is given back whole (the runs joined are the input); a sentence's closing
 * punctuation is not part of a link; nothing here touches the DOM.
 */

export type LinkScheme = 'http' | 'https' | 'mailto' | 'tel';

export type TextRun = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string; scheme: LinkScheme };

/** The schemes the seed recognises, in the form they start a link. */
export const externalLinkPrefixes: readonly string[] = ['http://', 'https://', 'mailto:', 'tel:'];

/** Whether a string is an external link by the seed's rule: one of the four prefixes, and a well-formed URL. */
export function isExternalLink(value: string): boolean {
  return externalHref(value) !== null;
}

/** The link's href (normalised by URL), or null when it is not an external link. */
export function externalHref(value: string): string | null {
  const lower = value.toLowerCase();
  if (!externalLinkPrefixes.some((prefix) => lower.startsWith(prefix))) return null;
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.hostname ? url.href : null;
    if (url.protocol === 'mailto:') return /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(decodeURIComponent(url.pathname)) ? url.href : null;
    if (url.protocol === 'tel:') return /^\+?[0-9][0-9().\- ]{2,}$/.test(decodeURIComponent(url.pathname)) ? `tel:${url.pathname.replace(/[^+0-9]/g, '')}` : null;
    return null;
  } catch {
    return null;
  }
}

// A candidate starts with one of the prefixes and runs to the next space or bracket the text puts around it.
const candidate = /\b(?:https?:\/\/|mailto:|tel:)[^\s<>"'«»“”]+/gi;
// Punctuation that ends a sentence, not a link ("see https://example.org.").
const trailing = /[.,;:!?…]+$/;

/** Drops a closing bracket the link did not open ("(https://example.org)"). */
function trimUnbalanced(text: string): string {
  let out = text;
  for (const [open, close] of [['(', ')'], ['[', ']']] as const) {
    while (out.endsWith(close) && out.split(open).length < out.split(close).length) out = out.slice(0, -1);
  }
  return out;
}

/** The text as plain runs and links, in order; joined, the runs' texts are the input. */
export function splitLinks(text: string): TextRun[] {
  const runs: TextRun[] = [];
  let at = 0;
  const plain = (to: number) => {
    if (to > at) {
      const last = runs.at(-1);
      const piece = text.slice(at, to);
      if (last?.kind === 'text') last.text += piece;
      else runs.push({ kind: 'text', text: piece });
    }
  };
  for (const match of text.matchAll(candidate)) {
    let link = match[0];
    for (let before = ''; before !== link; ) {
      before = link;
      link = trimUnbalanced(link.replace(trailing, ''));
    }
    const href = externalHref(link);
    if (!href) continue;
    plain(match.index);
    runs.push({ kind: 'link', text: link, href, scheme: href.slice(0, href.indexOf(':')) as LinkScheme });
    at = match.index + link.length;
  }
  plain(text.length);
  return runs;
}
