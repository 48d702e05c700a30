/**
 * IMS QTI 3.0 content packages to the Gradus exam document (server/imports/exams/json.ts), which
 * then goes through the same validation, plan and apply as a JSON exam.
 *
 * What is read (README "Exams from IMS QTI 3.0 packages" documents it for authors):
 * - `imsmanifest.xml` at the package's root; every resource's `href` and `<file href>` must be
 *   in the package; exactly one resource of type `imsqti_test_xmlv3p0`, whose
 *   `qti-assessment-test` gives the exam code (`identifier`), the title (`title`) and the time
 *   limit (`qti-time-limits max-time`, seconds, on the test or its first part; default 2400).
 * - The subject and level come from the manifest's metadata, a `<gradus:exam subject="2"
 *   level="1" level-name="Level 1" pass-percent="60">` element (any namespace URI; its
 *   `<gradus:title xml:lang="ja">` children are the per-language titles), or from the caller
 *   (CLI `--subject/--level/--level-name`, query `subject`, `level`, `level_name`), which wins.
 * - Items in the order of the test's `qti-assessment-item-ref`s (through nested sections); an
 *   item's unit is its `data-unit` attribute, else the title of its section, else the test's.
 * - One interaction per item: `qti-choice-interaction` (cardinality single) -> single_choice;
 *   `qti-order-interaction` (cardinality ordered) -> ordering (each choice's `class` may name a
 *   block category: event, motion, looks, sound, control); `qti-text-entry-interaction` ->
 *   text for base-type string (compared exactly, as QTI's match does: case-sensitive; the
 *   alphabet keyboard when the key is Latin letters and spaces, in capitals only when the key is
 *   all capitals, else the device keyboard) or number for base-type integer/float (the keypad,
 *   with the minus key, and the decimal point for float).
 * - The key is the response declaration's `qti-correct-response/qti-value`; response processing
 *   is the standard match_correct template or none. Any other interaction, more than one, a
 *   custom response processing, or an image/media object in the body is
 *   'unsupported_interaction' (naming what), an item without a key 'missing_key'.
 * - Prompts: the item body's text, a text entry shown as "___" where it stands; MathML becomes
 *   TeX between \( and \) and LaTeX already between \( and \) passes through; either sets math.
 */
import { posix } from 'node:path';
import { blockCategories, type ExamDocumentInput } from './json.ts';
import { mathmlToTex } from './mathml.ts';
import { readPackage, safeEntryName, type PackageReason } from './package.ts';
import { descendants, element, elements, parseXml, textOf, type XmlNode } from './xml.ts';

export type QtiReason =
  | PackageReason
  | 'missing_manifest'
  | 'missing_file'
  | 'bad_xml'
  | 'external_entity'
  | 'unsupported_interaction'
  | 'missing_key'
  | 'bad_key'
  | 'invalid'
  | 'required'
  | 'duplicate_in_file';

/** A refusal: `key` is the item identifier or the file ('' the whole package), `row` the item's place in the test (1-based) when known. */
export type QtiProblem = { key: string; row: number | null; column: string | null; reason: QtiReason; value?: string };

/** What the caller may say that the package does not (or says otherwise). */
export type QtiOptions = { subject?: number; level?: number; levelName?: string };

export type QtiResult =
  | { ok: true; document: ExamDocumentInput; itemIds: string[] }
  | { ok: false; problems: QtiProblem[] };

export const TEST_TYPE = 'imsqti_test_xmlv3p0';
export const ITEM_TYPE = 'imsqti_item_xmlv3p0';
const MATCH_CORRECT = /^https?:\/\/purl\.imsglobal\.org\/spec\/qti\/v3p0\/rptemplates\/match_correct(\.xml)?$/;
const SUPPORTED = new Set(['qti-choice-interaction', 'qti-text-entry-interaction', 'qti-order-interaction']);
/** Elements whose content a prompt of text and TeX cannot show. */
const MEDIA = new Set(['img', 'object', 'video', 'audio', 'picture', 'svg', 'iframe', 'embed']);
const SKIPPED = new Set(['qti-feedback-inline', 'qti-feedback-block', 'qti-rubric-block', 'qti-template-inline', 'qti-template-block', 'style', 'script']);
const BLOCKS = new Set(['p', 'div', 'li', 'ul', 'ol', 'table', 'tr', 'br', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'qti-prompt', 'pre']);

/** Reads a package into an exam document, or every refusal found. */
export function readQtiPackage(bytes: Uint8Array, options: QtiOptions = {}): QtiResult {
  const read = readPackage(bytes);
  if (!read.ok) return refuse({ key: read.file ?? '', row: null, column: null, reason: read.reason, ...(read.value ? { value: read.value } : {}) });
  const files = read.files;

  const manifestBytes = files.get('imsmanifest.xml');
  if (manifestBytes === undefined) return refuse({ key: 'imsmanifest.xml', row: null, column: null, reason: 'missing_manifest' });
  const manifest = parseXml(manifestBytes);
  if (!manifest.ok) return refuse({ key: 'imsmanifest.xml', row: null, column: null, reason: manifest.reason, ...(manifest.value ? { value: manifest.value } : {}) });

  const problems: QtiProblem[] = [];
  const resources = descendants(manifest.root, 'resource');
  for (const resource of resources) {
    const hrefs = [resource.attrs.href, ...elements(resource, 'file').map((f) => f.attrs.href)].filter((h): h is string => h !== undefined);
    for (const href of new Set(hrefs)) {
      const path = packagePath('', href);
      if (path === undefined) problems.push({ key: href, row: null, column: 'href', reason: 'path_outside_package', value: href });
      else if (!files.has(path)) problems.push({ key: href, row: null, column: 'href', reason: 'missing_file', value: href });
    }
  }
  const tests = resources.filter((r) => r.attrs.type === TEST_TYPE);
  if (tests.length !== 1) {
    problems.push({ key: 'imsmanifest.xml', row: null, column: 'resource', reason: tests.length === 0 ? 'missing_file' : 'invalid', value: TEST_TYPE });
  }
  if (problems.length > 0) return { ok: false, problems };

  const testPath = packagePath('', tests[0]!.attrs.href ?? '');
  const testBytes = testPath === undefined ? undefined : files.get(testPath);
  if (testPath === undefined || testBytes === undefined) {
    return refuse({ key: tests[0]!.attrs.href ?? 'imsmanifest.xml', row: null, column: 'href', reason: 'missing_file' });
  }
  const test = parseXml(testBytes);
  if (!test.ok) return refuse({ key: testPath, row: null, column: null, reason: test.reason, ...(test.value ? { value: test.value } : {}) });
  if (test.root.name !== 'qti-assessment-test') return refuse({ key: testPath, row: null, column: null, reason: 'invalid', value: test.root.name });

  // Item references in test order, each with the title of its nearest section.
  const refs: { identifier: string; href: string; section: string | undefined }[] = [];
  const walk = (node: XmlNode, section: string | undefined) => {
    for (const child of elements(node)) {
      if (child.name === 'qti-assessment-item-ref') refs.push({ identifier: child.attrs.identifier ?? '', href: child.attrs.href ?? '', section });
      else if (child.name === 'qti-assessment-section') walk(child, child.attrs.title?.trim() || section);
      else if (child.name === 'qti-test-part') walk(child, section);
    }
  };
  walk(test.root, undefined);
  if (refs.length === 0) return refuse({ key: testPath, row: null, column: 'qti-assessment-item-ref', reason: 'required' });

  const testTitle = test.root.attrs.title?.trim() ?? '';
  const questions: unknown[] = [];
  const itemIds: string[] = [];
  const seen = new Set<string>();
  refs.forEach((ref, index) => {
    const row = index + 1;
    const key = ref.identifier || ref.href;
    if (seen.has(key)) {
      problems.push({ key, row, column: 'identifier', reason: 'duplicate_in_file', value: key });
      return;
    }
    seen.add(key);
    const path = packagePath(posix.dirname(testPath), ref.href);
    if (path === undefined) return void problems.push({ key, row, column: 'href', reason: 'path_outside_package', value: ref.href });
    const itemBytes = files.get(path);
    if (itemBytes === undefined) return void problems.push({ key, row, column: 'href', reason: 'missing_file', value: path });
    const item = parseXml(itemBytes);
    if (!item.ok) return void problems.push({ key, row, column: null, reason: item.reason, ...(item.value ? { value: item.value } : {}) });
    const converted = itemQuestion(item.root, ref.section ?? testTitle);
    if (!converted.ok) return void problems.push({ key: item.root.attrs.identifier ?? key, row, ...converted.problem });
    questions.push(converted.question);
    itemIds.push(item.root.attrs.identifier ?? key);
  });
  if (problems.length > 0) return { ok: false, problems };

  const settings = descendants(manifest.root, 'metadata').flatMap((m) => descendants(m, 'exam'))[0];
  const number = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : Number(value));
  const titles = Object.fromEntries(
    (settings ? elements(settings, 'title') : []).filter((t) => t.attrs.lang).map((t) => [t.attrs.lang!, textOf(t).trim()]),
  );
  const limits = element(test.root, 'qti-time-limits') ?? elements(test.root, 'qti-test-part').map((p) => element(p, 'qti-time-limits')).find(Boolean);
  const maxTime = number(limits?.attrs['max-time']);
  const levelName = options.levelName ?? settings?.attrs['level-name'];
  const document: Record<string, unknown> = {
    code: test.root.attrs.identifier,
    subject_id: options.subject ?? number(settings?.attrs.subject),
    level: { position: options.level ?? number(settings?.attrs.level), ...(levelName ? { name: levelName } : {}) },
    title: testTitle,
    titles,
    questions,
  };
  if (maxTime !== undefined) document.time_limit_seconds = Math.round(maxTime);
  const pass = number(settings?.attrs['pass-percent']);
  if (pass !== undefined) document.pass_percent = pass;
  return { ok: true, document: document as ExamDocumentInput, itemIds };
}

function refuse(problem: QtiProblem): QtiResult {
  return { ok: false, problems: [problem] };
}

/** A reference resolved against a folder of the package, or undefined when it leaves the package. */
function packagePath(folder: string, href: string): string | undefined {
  const decoded = safeDecode(href.split('#')[0]!.split('?')[0]!);
  if (decoded === '' || /^[a-z][a-z0-9+.-]*:/i.test(decoded) || decoded.startsWith('/')) return undefined;
  const joined = posix.normalize(posix.join(folder === '.' ? '' : folder, decoded));
  if (joined.startsWith('../') || joined === '..') return undefined;
  return safeEntryName(joined);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

type ItemProblem = Omit<QtiProblem, 'key' | 'row'>;
type ItemResult = { ok: true; question: Record<string, unknown> } | { ok: false; problem: ItemProblem };

class Refusal extends Error {
  readonly problem: ItemProblem;
  constructor(problem: ItemProblem) {
    super(problem.reason);
    this.problem = problem;
  }
}

/** One item as a question of the exam document (validated afterwards with the JSON rules). */
function itemQuestion(item: XmlNode, sectionTitle: string): ItemResult {
  try {
    return { ok: true, question: convertItem(item, sectionTitle) };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, problem: error.problem };
    throw error;
  }
}

function convertItem(item: XmlNode, sectionTitle: string): Record<string, unknown> {
  if (item.name !== 'qti-assessment-item') throw new Refusal({ column: null, reason: 'invalid', value: item.name });
  const body = element(item, 'qti-item-body');
  if (body === undefined) throw new Refusal({ column: 'qti-item-body', reason: 'required' });
  const interactions = allInteractions(body);
  if (interactions.length !== 1) {
    throw new Refusal({ column: 'qti-item-body', reason: 'unsupported_interaction', value: interactions.map((i) => i.name).join(' ') || 'no interaction' });
  }
  const interaction = interactions[0]!;
  if (!SUPPORTED.has(interaction.name)) throw new Refusal({ column: interaction.name, reason: 'unsupported_interaction', value: interaction.name });

  const processing = element(item, 'qti-response-processing');
  if (processing !== undefined && (elements(processing).length > 0 || !MATCH_CORRECT.test(processing.attrs.template ?? ''))) {
    throw new Refusal({ column: 'qti-response-processing', reason: 'unsupported_interaction', value: processing.attrs.template ?? 'custom response processing' });
  }
  const responseId = interaction.attrs['response-identifier'];
  const declaration = elements(item, 'qti-response-declaration').find((d) => d.attrs.identifier === responseId);
  const values = declaration === undefined ? [] : elements(element(declaration, 'qti-correct-response') ?? declaration, 'qti-value');
  if (declaration === undefined || element(declaration, 'qti-correct-response') === undefined || values.length === 0) {
    throw new Refusal({ column: 'qti-correct-response', reason: 'missing_key', value: responseId });
  }
  const keys = values.map((value) => textOf(value).trim());
  const baseType = declaration.attrs['base-type'] ?? '';
  const cardinality = declaration.attrs.cardinality ?? '';

  const state = { math: false };
  const prompt = promptOf(body, interaction, state);
  const unit = item.attrs['data-unit']?.trim() || sectionTitle;

  switch (interaction.name) {
    case 'qti-choice-interaction': {
      if (cardinality !== 'single' || (interaction.attrs['max-choices'] ?? '1') !== '1') {
        throw new Refusal({ column: 'cardinality', reason: 'unsupported_interaction', value: `qti-choice-interaction ${cardinality}` });
      }
      const choices = elements(interaction, 'qti-simple-choice').map((choice) => ({ id: choice.attrs.identifier ?? '', label: richText(choice, state) }));
      return { type: 'single_choice', prompt, unit, math: state.math, choices, key: keys[0] };
    }
    case 'qti-order-interaction': {
      if (cardinality !== 'ordered') throw new Refusal({ column: 'cardinality', reason: 'unsupported_interaction', value: `qti-order-interaction ${cardinality}` });
      const blockState = { math: false };
      const blocks = elements(interaction, 'qti-simple-choice').map((choice) => {
        const category = (choice.attrs.class ?? '').split(/\s+/).find((c) => (blockCategories as readonly string[]).includes(c));
        return { id: choice.attrs.identifier ?? '', label: richText(choice, blockState), ...(category ? { category } : {}) };
      });
      if (blockState.math) throw new Refusal({ column: 'qti-simple-choice', reason: 'unsupported_interaction', value: 'math in an ordering block' });
      return { type: 'ordering', prompt, unit, math: state.math, blocks, key: keys };
    }
    default: {
      if (cardinality !== 'single') throw new Refusal({ column: 'cardinality', reason: 'unsupported_interaction', value: `qti-text-entry-interaction ${cardinality}` });
      const key = keys[0]!;
      if (baseType === 'integer' || baseType === 'float') {
        if (!(baseType === 'integer' ? /^[+-]?\d+$/ : /^[+-]?\d+(\.\d+)?$/).test(key)) throw new Refusal({ column: 'qti-correct-response', reason: 'bad_key', value: key });
        return { type: 'number', prompt, unit, math: state.math, key: key.replace(/^\+/, ''), keypad: { negative: true, decimal: baseType === 'float', fraction: false } };
      }
      if (baseType !== 'string') throw new Refusal({ column: 'base-type', reason: 'unsupported_interaction', value: `qti-text-entry-interaction ${baseType}` });
      const alphabet = /^[A-Za-z ]+$/.test(key);
      const input = alphabet ? { kind: 'alphabet', upper_case: /[A-Z]/.test(key) && key === key.toUpperCase() } : { kind: 'keyboard' };
      return { type: 'text', prompt, unit, math: state.math, key, input, case_sensitive: true };
    }
  }
}

/** Every element of the body whose name says it is an interaction, outermost first. */
function allInteractions(node: XmlNode): XmlNode[] {
  const found: XmlNode[] = [];
  for (const child of elements(node)) {
    if (child.name.endsWith('-interaction')) found.push(child);
    else found.push(...allInteractions(child));
  }
  return found;
}

/** The item body as the prompt: the interaction's own prompt in its place, a text entry as a blank. */
function promptOf(body: XmlNode, interaction: XmlNode, state: { math: boolean }): string {
  return richText(body, state, (node) => {
    if (node !== interaction) return undefined;
    if (node.name === 'qti-text-entry-interaction') return '___';
    const own = element(node, 'qti-prompt');
    return own === undefined ? '' : `\n${richText(own, state)}\n`;
  });
}

/** The text of a node: MathML as \(TeX\), block elements on lines of their own, white space collapsed. */
function richText(node: XmlNode, state: { math: boolean }, replace?: (node: XmlNode) => string | undefined): string {
  const out: string[] = [];
  const visit = (current: XmlNode) => {
    for (const child of current.children) {
      if (typeof child === 'string') {
        out.push(child.replace(/\s+/g, ' '));
        continue;
      }
      const replaced = replace?.(child);
      if (replaced !== undefined) {
        out.push(replaced);
        continue;
      }
      if (SKIPPED.has(child.name)) continue;
      if (MEDIA.has(child.name)) throw new Refusal({ column: child.name, reason: 'unsupported_interaction', value: child.name });
      if (child.name === 'math') {
        const tex = mathmlToTex(child);
        if (!tex.ok) throw new Refusal({ column: 'math', reason: 'unsupported_interaction', value: tex.element });
        state.math = true;
        out.push(`\\(${tex.tex}\\)`);
        continue;
      }
      const block = BLOCKS.has(child.name);
      if (block) out.push('\n');
      if (child.name === 'sup' || child.name === 'sub') out.push(child.name === 'sup' ? '^' : '_');
      visit(child);
      if (block) out.push('\n');
    }
  };
  visit(node);
  const text = out
    .join('')
    .split('\n')
    .map((line) => line.replace(/ +/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
  if (/\\\(.+?\\\)/s.test(text)) state.math = true;
  return text;
}
