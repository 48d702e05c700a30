/**
 * Presentation MathML to TeX, for prompts the exam screen renders with KaTeX between \( and \).
 * Covers what item banks write for school mathematics: mn, mi, mo, mrow, mfrac, msup, msub,
 * msubsup, msqrt, mroot, mtext, mfenced, mspace, mstyle and semantics (its first child).
 *
 * Promises: the TeX is made of the element's content only (text is escaped, so a MathML text
 * cannot inject a TeX command); an element it does not know is 'unsupported' (the caller
 * refuses the item rather than showing wrong mathematics).
 */
import { elements, textOf, type XmlNode } from './xml.ts';

export type MathResult = { ok: true; tex: string } | { ok: false; element: string };

/** Operators and identifiers that have a TeX command of their own. */
const SYMBOLS: Record<string, string> = {
  '×': '\\times ',
  '÷': '\\div ',
  '·': '\\cdot ',
  '−': '-',
  '±': '\\pm ',
  '≤': '\\le ',
  '≥': '\\ge ',
  '≠': '\\ne ',
  '≈': '\\approx ',
  '∞': '\\infty ',
  'π': '\\pi ',
  'θ': '\\theta ',
  'α': '\\alpha ',
  'β': '\\beta ',
  '°': '^\\circ ',
  '∠': '\\angle ',
  '⁢': '',
  '⁡': '',
};

const SPECIAL = /[\\{}$&#^_%~]/g;

function escapeText(text: string): string {
  return [...text.replace(SPECIAL, (c) => (c === '\\' ? '\\backslash ' : c === '~' ? '\\sim ' : c === '^' ? '\\hat{}' : `\\${c}`))]
    .map((c) => SYMBOLS[c] ?? c)
    .join('');
}

/** The TeX of a <math> element (without the \( \) around it). */
export function mathmlToTex(math: XmlNode): MathResult {
  try {
    return { ok: true, tex: children(math).trim() };
  } catch (error) {
    if (error instanceof UnsupportedElement) return { ok: false, element: error.element };
    throw error;
  }
}

class UnsupportedElement extends Error {
  readonly element: string;
  constructor(element: string) {
    super(element);
    this.element = element;
  }
}

function children(node: XmlNode): string {
  return elements(node).map(convert).join('');
}

/** A group's TeX in braces. */
function group(node: XmlNode | undefined): string {
  return `{${node === undefined ? '' : convert(node)}}`;
}

function convert(node: XmlNode): string {
  const parts = elements(node);
  switch (node.name) {
    case 'math':
    case 'mrow':
    case 'mstyle':
    case 'mpadded':
    case 'mphantom':
      return children(node);
    case 'semantics':
      return parts[0] === undefined ? '' : convert(parts[0]);
    case 'mn':
      return escapeText(textOf(node).trim());
    case 'mi': {
      const text = textOf(node).trim();
      // A multi-letter identifier is a function name (sin, log) or a word: upright.
      return [...text].length > 1 && !SYMBOLS[text] ? `\\mathrm{${escapeText(text)}}` : escapeText(text);
    }
    case 'mo': {
      const text = textOf(node).trim();
      if (text === '(' || text === ')' || text === '[' || text === ']' || text === '|') return text;
      return escapeText(text);
    }
    case 'mtext':
      return `\\text{${escapeText(textOf(node))}}`;
    case 'mspace':
      return '\\ ';
    case 'mfrac':
      return `\\frac${group(parts[0])}${group(parts[1])}`;
    case 'msup':
      return `${group(parts[0])}^${group(parts[1])}`;
    case 'msub':
      return `${group(parts[0])}_${group(parts[1])}`;
    case 'msubsup':
      return `${group(parts[0])}_${group(parts[1])}^${group(parts[2])}`;
    case 'msqrt':
      return `\\sqrt{${children(node)}}`;
    case 'mroot':
      return `\\sqrt[${parts[1] === undefined ? '' : convert(parts[1])}]${group(parts[0])}`;
    case 'mfenced': {
      const open = node.attrs.open ?? '(';
      const close = node.attrs.close ?? ')';
      const separator = (node.attrs.separators ?? ',').trim().charAt(0);
      return `\\left${fence(open)}${parts.map(convert).join(separator === '' ? '' : escapeText(separator))}\\right${fence(close)}`;
    }
    default:
      throw new UnsupportedElement(node.name);
  }
}

function fence(delimiter: string): string {
  if (delimiter === '') return '.';
  if (delimiter === '{' || delimiter === '}') return `\\${delimiter}`;
  if (['(', ')', '[', ']', '|'].includes(delimiter)) return delimiter;
  return '.';
}
