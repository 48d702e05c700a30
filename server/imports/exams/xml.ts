/**
 * XML of content packages, read with fast-xml-parser into a small ordered tree (mixed content
 * such as a prompt with inline MathML keeps its order).
 *
 * Promises:
 * - No entity is ever resolved: a document that declares any (`<!ENTITY`, the way external
 *   entities and "billion laughs" come in) is refused 'external_entity' before it is parsed,
 *   and the parser runs with entity processing off. Only XML's five predefined entities and
 *   character references are decoded, by this module, into text.
 * - A document that is not well-formed is 'bad_xml' with the parser's line and message.
 * - Namespace prefixes are dropped (`m:math` is `math`), so prefixed and default-namespace
 *   MathML and QTI read alike.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export type XmlNode = { name: string; attrs: Record<string, string>; children: XmlChild[] };
export type XmlChild = XmlNode | string;

export type XmlResult = { ok: true; root: XmlNode } | { ok: false; reason: 'bad_xml' | 'external_entity'; value?: string };

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  processEntities: false,
  htmlEntities: false,
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  removeNSPrefix: true,
  cdataPropName: '#cdata',
});

/** Parses a document's bytes (UTF-8) into its root element. */
export function parseXml(bytes: Uint8Array): XmlResult {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, reason: 'bad_xml', value: 'not UTF-8' };
  }
  if (/<!ENTITY/i.test(text)) return { ok: false, reason: 'external_entity' };
  const valid = XMLValidator.validate(text);
  if (valid !== true) return { ok: false, reason: 'bad_xml', value: `line ${valid.err.line}: ${valid.err.msg}`.slice(0, 200) };
  let parsed: unknown;
  try {
    parsed = parser.parse(text);
  } catch (error) {
    return { ok: false, reason: 'bad_xml', value: error instanceof Error ? error.message.slice(0, 200) : undefined };
  }
  const root = toChildren(parsed).find((child): child is XmlNode => typeof child !== 'string' && !child.name.startsWith('?'));
  return root === undefined ? { ok: false, reason: 'bad_xml', value: 'no root element' } : { ok: true, root };
}

function toChildren(value: unknown): XmlChild[] {
  if (!Array.isArray(value)) return [];
  const children: XmlChild[] = [];
  for (const item of value as Record<string, unknown>[]) {
    for (const [key, content] of Object.entries(item)) {
      if (key === ':@') continue;
      if (key === '#text') children.push(decodeEntities(String(content)));
      else if (key === '#cdata') children.push(...toChildren(content).filter((c): c is string => typeof c === 'string'));
      else {
        const attrs: Record<string, string> = {};
        const raw = item[':@'];
        if (raw !== null && typeof raw === 'object') {
          for (const [name, attr] of Object.entries(raw)) attrs[name] = decodeEntities(String(attr));
        }
        children.push({ name: key, attrs, children: toChildren(content) });
      }
    }
  }
  return children;
}

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** XML's predefined entities and character references; anything else stays as written. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, name: string) => {
    if (name.startsWith('#')) {
      const code = name[1] === 'x' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
    }
    return PREDEFINED[name] ?? whole;
  });
}

/** The element children of a node. */
export function elements(node: XmlNode, name?: string): XmlNode[] {
  return node.children.filter((c): c is XmlNode => typeof c !== 'string' && (name === undefined || c.name === name));
}

/** The first element child of that name, or undefined. */
export function element(node: XmlNode, name: string): XmlNode | undefined {
  return elements(node, name)[0];
}

/** Every descendant element of that name, in document order. */
export function descendants(node: XmlNode, name: string): XmlNode[] {
  const found: XmlNode[] = [];
  for (const child of elements(node)) {
    if (child.name === name) found.push(child);
    found.push(...descendants(child, name));
  }
  return found;
}

/** The text of a node and everything below it. */
export function textOf(node: XmlChild): string {
  return typeof node === 'string' ? node : node.children.map(textOf).join('');
}
