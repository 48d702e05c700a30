/**
 * Exams in (server/imports/exams): bad files and packages refused with their item or file and
 * reason, changing nothing; the example QTI 3.0 package and JSON exam imported and scored
 * through scoring.ts; re-import unchanged; changed content updated in place until a pupil has
 * started it, then a new version; the command line; the administrators' API. On PGlite and on
 * PostgreSQL when it answers.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { strToU8, zipSync, type Zippable } from 'fflate';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExamsResponseSchema, ImportPlanResponseSchema } from '../../contract/imports.ts';
import { runAdmin } from '../../server/admin.ts';
import type { Db } from '../../server/db/client.ts';
import { auditLog, exams, questions } from '../../server/db/schema.ts';
import { isCorrect } from '../../server/domain/scoring.ts';
import { examDigest, importExam, listExams } from '../../server/imports/exams/apply.ts';
import { ExamDocumentSchema, parseExamJson, questionColumns } from '../../server/imports/exams/json.ts';
import { createAdminToken } from '../helpers/admin-token.ts';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../helpers/db.ts';
import { useApi } from '../helpers/server-api.ts';
import { addSitting, snapshotTables } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
const examplesDir = join(import.meta.dirname, '../../examples');
const exampleJson = readFileSync(join(examplesDir, 'exam.json'));

/** The files of examples/qti-exam by their package paths. */
function exampleFiles(): Record<string, Uint8Array> {
  const root = join(examplesDir, 'qti-exam');
  const files: Record<string, Uint8Array> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files[relative(root, path).split('\\').join('/')] = readFileSync(path);
    }
  };
  walk(root);
  return files;
}

/** The example package with files replaced, added or (null) removed, zipped. */
function examplePackage(changes: Record<string, Uint8Array | string | null> = {}): Uint8Array {
  const files: Zippable = exampleFiles();
  for (const [name, content] of Object.entries(changes)) {
    if (content === null) delete files[name];
    else files[name] = typeof content === 'string' ? strToU8(content) : content;
  }
  return zipSync(files);
}

const text = (path: string) => new TextDecoder().decode(exampleFiles()[path]);

/** An item of the example package with another interaction in its body. */
function itemWith(interaction: string, identifier = 'item-text'): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-item xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0" identifier="${identifier}" title="x">
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="string">
    <qti-correct-response><qti-value>x</qti-value></qti-correct-response>
  </qti-response-declaration>
  <qti-item-body>${interaction}</qti-item-body>
  <qti-response-processing template="https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/match_correct"/>
</qti-assessment-item>`;
}

const jsonExam = (change: (exam: Record<string, unknown>) => void): Uint8Array => {
  const exam = JSON.parse(new TextDecoder().decode(exampleJson)) as Record<string, unknown>;
  change(exam);
  return strToU8(JSON.stringify(exam));
};

const secretDir = mkdtempSync(join(tmpdir(), 'gradus-xxe-'));
const secretFile = join(secretDir, 'secret.txt');
writeFileSync(secretFile, 'TOP-SECRET-7f3a');
afterAll(() => rmSync(secretDir, { recursive: true, force: true }));

/** A package whose central directory and local header lie about an entry's size (1000 bytes for 20 MB). */
function lyingBomb(): Uint8Array {
  const zip = zipSync({ ...exampleFiles(), 'items/huge.xml': [new Uint8Array(20 * 1024 * 1024), { level: 1 }] });
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const end = zip.length - 22;
  let at = view.getUint32(end + 16, true);
  for (let i = 0; i < view.getUint16(end + 10, true); i++) {
    const nameLength = view.getUint16(at + 28, true);
    const name = new TextDecoder().decode(zip.subarray(at + 46, at + 46 + nameLength));
    if (name === 'items/huge.xml') {
      view.setUint32(at + 24, 1000, true);
      view.setUint32(view.getUint32(at + 42, true) + 22, 1000, true);
    }
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return zip;
}

/** Built once: 200 MB of zeros deflate to about 200 kB. */
let bombs: { honest: Uint8Array; lying: Uint8Array } | undefined;
const bomb = () => (bombs ??= { honest: zipSync({ ...exampleFiles(), 'items/huge.xml': [new Uint8Array(200 * 1024 * 1024), { level: 1 }] }), lying: lyingBomb() });

type BadCase = [name: string, bytes: () => Uint8Array, expected: { key: string; reason: string; column?: string | null; row?: number | null }];

const badCases: BadCase[] = [
  ['bad JSON', () => strToU8('{"code": "EN-X", '), { key: '', reason: 'bad_json' }],
  ['a JSON exam without its title', () => jsonExam((e) => delete e.title), { key: 'EN-SAMPLE-1', reason: 'required', column: 'title', row: null }],
  ['a JSON question without a key', () => jsonExam((e) => delete (e.questions as Record<string, unknown>[])[1]!.key), { key: 'EN-SAMPLE-1 q2', reason: 'required', column: 'key', row: 2 }],
  ['a JSON choice key that is no choice', () => jsonExam((e) => ((e.questions as Record<string, unknown>[])[0]!.key = 'z')), { key: 'EN-SAMPLE-1 q1', reason: 'bad_key', column: 'key', row: 1 }],
  ['a JSON ordering key that is not every block once', () => jsonExam((e) => ((e.questions as Record<string, unknown>[])[5]!.key = ['b', 'b', 'c'])), { key: 'EN-SAMPLE-1 q6', reason: 'bad_key', column: 'key', row: 6 }],
  ['a JSON number key the keypad cannot type', () => jsonExam((e) => ((e.questions as Record<string, unknown>[])[3]!.key = '-7')), { key: 'EN-SAMPLE-1 q4', reason: 'bad_key', column: 'key', row: 4 }],
  ['a JSON field nobody knows', () => jsonExam((e) => (e.colour = 'red')), { key: 'EN-SAMPLE-1', reason: 'unknown_column', column: 'colour', row: null }],
  ['a level that does not exist, without a name', () => jsonExam((e) => (e.level = { position: 9 })), { key: 'EN-SAMPLE-1', reason: 'unknown_level', column: 'level.position' }],
  [
    'a QTI item without a key',
    () => examplePackage({ 'items/choice.xml': text('items/choice.xml').replace(/<qti-correct-response>[\s\S]*?<\/qti-correct-response>/, '') }),
    { key: 'item-choice', reason: 'missing_key', row: 1 },
  ],
  [
    'qti-extended-text-interaction',
    () => examplePackage({ 'items/text.xml': itemWith('<qti-extended-text-interaction response-identifier="RESPONSE"/>') }),
    { key: 'item-text', reason: 'unsupported_interaction', row: 3 },
  ],
  [
    'qti-match-interaction',
    () =>
      examplePackage({
        'items/text.xml': itemWith(
          '<qti-match-interaction response-identifier="RESPONSE"><qti-simple-match-set><qti-simple-associable-choice identifier="A" match-max="1">a</qti-simple-associable-choice></qti-simple-match-set></qti-match-interaction>',
        ),
      }),
    { key: 'item-text', reason: 'unsupported_interaction', row: 3 },
  ],
  [
    'a custom response processing',
    () =>
      examplePackage({
        'items/text.xml': text('items/text.xml').replace(
          /<qti-response-processing[^>]*\/>/,
          '<qti-response-processing><qti-set-outcome-value identifier="SCORE"><qti-base-value base-type="float">1</qti-base-value></qti-set-outcome-value></qti-response-processing>',
        ),
      }),
    { key: 'item-text', reason: 'unsupported_interaction', column: 'qti-response-processing' },
  ],
  ['bad XML', () => examplePackage({ 'items/text.xml': '<qti-assessment-item identifier="item-text"><qti-item-body></qti-assessment-item>' }), { key: 'item-text', reason: 'bad_xml', row: 3 }],
  [
    'XML declaring an external entity',
    () =>
      examplePackage({
        'items/text.xml': `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file://${secretFile}">]>${itemWith('<p>&e;<qti-text-entry-interaction response-identifier="RESPONSE"/></p>')}`.replace(
          /<\?xml version="1.0" encoding="UTF-8"\?>/,
          '',
        ),
      }),
    { key: 'item-text', reason: 'external_entity', row: 3 },
  ],
  ['a zip bomb (200 MB in the directory)', () => bomb().honest, { key: 'items/huge.xml', reason: 'zip_bomb' }],
  ['a zip bomb whose directory lies about its size', () => bomb().lying, { key: 'items/huge.xml', reason: 'zip_bomb' }],
  ['a path outside the package', () => examplePackage({ '../evil.xml': '<x/>' }), { key: '../evil.xml', reason: 'path_outside_package' }],
  ['a package without a manifest', () => examplePackage({ 'imsmanifest.xml': null }), { key: 'imsmanifest.xml', reason: 'missing_manifest' }],
  ['a manifest naming a file the package lacks', () => examplePackage({ 'items/order.xml': null }), { key: 'items/order.xml', reason: 'missing_file', column: 'href' }],
  ['a damaged zip', () => examplePackage().subarray(0, 300), { key: '', reason: 'bad_zip' }],
];

/** The pupil's answer that is the key, in the contract's answer encoding. */
const keyAnswer = (question: { correctAnswer: string }) => question.correctAnswer;

describe.each(kinds)('exam import on %s', (kind) => {
  let database: TestDatabase;
  let db: Db;
  const context = { now: new Date('2026-06-01T09:00:00Z'), staffId: null, reason: 'test' };
  const run = (bytes: Uint8Array, apply = true) => importExam(db, bytes, { apply, ...context });

  beforeAll(async () => {
    // An empty deployment: no subjects, levels or exams until an import brings them.
    database = await createTestDatabase(kind, { seed: false });
    db = database.db;
  }, 60_000);
  afterAll(async () => {
    await database?.close();
  });

  it.each(badCases)('refuses %s with its item or file and reason, changing nothing', { timeout: 60_000 }, async (_name, bytes, expected) => {
    const before = await snapshotTables(db);
    const result = await run(bytes());
    expect(result.applied).toBe(false);
    const refused = result.rows.filter((row) => row.outcome === 'refuse');
    const match = refused.find((row) => row.key === expected.key && row.problems.some((p) => p.reason === expected.reason));
    expect(match, JSON.stringify(result.rows)).toBeDefined();
    const problem = match!.problems.find((p) => p.reason === expected.reason)!;
    if (expected.column !== undefined) expect(problem.column).toBe(expected.column);
    if (expected.row !== undefined) expect(match!.row).toBe(expected.row);
    expect(JSON.stringify(result)).not.toContain('TOP-SECRET');
    expect(await snapshotTables(db)).toEqual(before);
  });

  it('imports the example QTI 3.0 package: one question per item, MathML as TeX, each key scores right', async () => {
    const dry = await run(examplePackage(), false);
    expect(dry.applied).toBe(false);
    expect(dry.rows.map((r) => [r.key, r.outcome])).toEqual([
      ['MA-SAMPLE-1', 'create'],
      ['item-choice', 'create'],
      ['item-number', 'create'],
      ['item-text', 'create'],
      ['item-order', 'create'],
    ]);
    expect(await listExams(db)).toEqual([]);

    const result = await run(examplePackage());
    expect(result.applied).toBe(true);
    const [exam] = await db.select().from(exams).where(eq(exams.code, 'MA-SAMPLE-1'));
    expect(exam).toMatchObject({ version: 1, title: 'Mathematics, sample paper', timeLimitSeconds: 1800, passPercent: 60, titles: { ja: '算数 サンプル' } });
    const stored = await db.select().from(questions).where(eq(questions.examId, exam!.id)).orderBy(asc(questions.number));
    expect(stored.map((q) => [q.type, q.unit, q.math])).toEqual([
      ['single_choice', 'fractions', true],
      ['number', 'fractions', true],
      ['text', 'number words', false],
      ['ordering', 'number words', false],
    ]);
    expect(stored[0]!.prompt).toBe('What is \\(\\frac{1}{2}\\times \\frac{1}{2}\\)?');
    expect(stored[0]!.choices.map((c) => c.label)).toEqual(['\\(1\\)', '\\(\\frac{1}{4}\\)', '\\(\\frac{1}{8}\\)']);
    expect(stored[1]!.prompt).toBe('The smaller solution of \\({x}^{2}=9\\) is ___.');
    expect(stored[1]!.input).toEqual({ kind: 'keypad', negative: true, decimal: false, fraction: false });
    expect(stored[2]!.input).toEqual({ kind: 'alphabet', upper_case: false });
    expect(stored[3]!.blocks.map((b) => b.category)).toEqual(['motion', 'looks', 'event']);

    // What the pupil sends when answering the key is correct; other answers are not.
    const answers = ['B', '-3', 'twelve', 'C,A,B'];
    stored.forEach((question, i) => {
      expect(keyAnswer(question)).toBe(answers[i]);
      expect(isCorrect(question, answers[i]!)).toBe(true);
    });
    expect(isCorrect(stored[0]!, 'A')).toBe(false);
    expect(isCorrect(stored[1]!, '3')).toBe(false);
    expect(isCorrect(stored[2]!, 'Twelve')).toBe(false); // QTI's match on a string is exact
    expect(isCorrect(stored[3]!, 'A,B,C')).toBe(false);

    const [audit] = await db.select().from(auditLog).where(eq(auditLog.entity, 'exam:MA-SAMPLE-1 v1'));
    expect(audit).toMatchObject({ action: 'import', before: null, after: { code: 'MA-SAMPLE-1', questions: 4, subject_id: 2, level: 1 } });
  });

  it('round-trips the example JSON exam, then finds the same file unchanged', async () => {
    const result = await run(exampleJson);
    expect(result.applied).toBe(true);
    expect(result.rows.filter((r) => r.outcome === 'create')).toHaveLength(7);
    const parsed = parseExamJson(exampleJson);
    if (!parsed.ok) throw new Error('the example must parse');
    const [exam] = await db.select().from(exams).where(eq(exams.code, 'EN-SAMPLE-1'));
    expect(exam).toMatchObject({ title: parsed.exam.title, titles: parsed.exam.titles, timeLimitSeconds: 1200, contentDigest: examDigest(parsed.exam) });
    const stored = await db.select().from(questions).where(eq(questions.examId, exam!.id)).orderBy(asc(questions.number));
    expect(stored.map(({ type, prompt, choices, correctAnswer, unit, math, input, blocks, caseSensitive }) => ({ type, prompt, choices, correctAnswer, unit, math, input, blocks, caseSensitive }))).toEqual(
      parsed.exam.questions.map(questionColumns),
    );
    for (const question of stored) expect(isCorrect(question, question.correctAnswer)).toBe(true);

    const auditsBefore = (await db.select().from(auditLog)).length;
    const again = await run(exampleJson);
    expect(again.rows.every((r) => r.outcome === 'unchanged')).toBe(true);
    expect((await db.select().from(auditLog)).length).toBe(auditsBefore);
  });

  it('updates an exam nobody has started in place, then adds version 2 once a pupil has started it', async () => {
    const changed = jsonExam((e) => {
      e.code = 'EN-VERSIONS';
      (e.questions as Record<string, unknown>[])[0]!.prompt = 'Choose the word for a young cat.';
    });
    await run(jsonExam((e) => (e.code = 'EN-VERSIONS')));
    const [v1] = await db.select().from(exams).where(eq(exams.code, 'EN-VERSIONS'));

    const update = await run(changed);
    expect(update.rows.slice(0, 3).map((r) => [r.key, r.outcome])).toEqual([
      ['EN-VERSIONS', 'update'],
      ['EN-VERSIONS q1', 'update'],
      ['EN-VERSIONS q2', 'unchanged'],
    ]);
    const rows = await db.select().from(exams).where(eq(exams.code, 'EN-VERSIONS'));
    expect(rows.map((r) => [r.id, r.version])).toEqual([[v1!.id, 1]]);
    const [first] = await db.select().from(questions).where(eq(questions.examId, v1!.id)).orderBy(asc(questions.number)).limit(1);
    expect(first!.prompt).toBe('Choose the word for a young cat.');

    // A pupil starts version 1: from now on it is never changed in place.
    await addSitting(db, { examCode: 'EN-VERSIONS', organization: {}, status: 6 });
    const v1Questions = await db.select().from(questions).where(eq(questions.examId, v1!.id)).orderBy(asc(questions.number));
    const versioned = await run(jsonExam((e) => (e.code = 'EN-VERSIONS')));
    expect(versioned.rows[0]).toMatchObject({ key: 'EN-VERSIONS v2', outcome: 'create' });
    expect(await db.select().from(questions).where(eq(questions.examId, v1!.id)).orderBy(asc(questions.number))).toEqual(v1Questions);
    const listed = (await listExams(db)).filter((e) => e.code === 'EN-VERSIONS');
    expect(listed.map((e) => [e.version, e.in_use, e.questions])).toEqual([
      [1, true, 6],
      [2, false, 6],
    ]);
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.entity, 'exam:EN-VERSIONS v2'));
    expect(audit).toMatchObject({ action: 'import', before: null });
    // The same content once more is version 2, unchanged.
    expect((await run(jsonExam((e) => (e.code = 'EN-VERSIONS')))).rows[0]).toMatchObject({ key: 'EN-VERSIONS', outcome: 'unchanged' });
  });

  it('imports from the command line: dry run, apply, refusals exit 1, usage exit 2', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gradus-exam-cli-'));
    try {
      const env = kind === 'postgres' ? { DATABASE_URL: database.url } : { DATA_DIR: join(dir, 'data') };
      const zipPath = join(dir, 'package.zip');
      writeFileSync(zipPath, examplePackage({ 'test.xml': text('test.xml').replace('MA-SAMPLE-1"', 'MA-CLI-1"') }));
      const badPath = join(dir, 'bad.zip');
      writeFileSync(badPath, examplePackage({ 'imsmanifest.xml': null }));
      const cli = async (...args: string[]) => {
        const out: string[] = [];
        const err: string[] = [];
        const code = await runAdmin(['import', 'exam', ...args], { out: (l) => out.push(l), err: (l) => err.push(l), env });
        return { code, out: out.join('\n'), err: err.join('\n') };
      };
      // On PGlite the command opens its own data directory, where the import creates subjects and levels itself.
      const dry = await cli(zipPath);
      expect(dry).toMatchObject({ code: 0 });
      expect(dry.out).toContain('5 to create');
      expect(dry.out).toContain('Dry run');
      const applied = await cli(zipPath, '--apply');
      expect(applied.code).toBe(0);
      expect(applied.out).toContain('Applied');
      const again = await cli(zipPath, '--apply');
      expect(again.out).toContain('5 unchanged');
      const bad = await cli(badPath, '--apply');
      expect(bad.code).toBe(1);
      expect(bad.out).toContain('refuse    imsmanifest.xml: missing_manifest');
      expect((await cli()).code).toBe(2);
      expect((await cli(zipPath, '--subject', '4')).code).toBe(2);
      if (kind === 'postgres') expect((await listExams(db)).map((e) => e.code)).toContain('MA-CLI-1');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the exam file format', () => {
  it('docs/formats/exam.schema.json names the fields the valibot schema reads, and requires the same', () => {
    const jsonSchema = JSON.parse(readFileSync(join(import.meta.dirname, '../../docs/formats/exam.schema.json'), 'utf8')) as {
      required: string[];
      properties: Record<string, unknown>;
      $defs: Record<string, { required: string[]; properties: Record<string, unknown> }>;
    };
    const fields = (schema: { entries: Record<string, { type: string }> }) => ({
      all: Object.keys(schema.entries).sort(),
      required: Object.entries(schema.entries)
        .filter(([, entry]) => entry.type !== 'optional')
        .map(([name]) => name)
        .sort(),
    });
    expect(fields(ExamDocumentSchema)).toEqual({ all: Object.keys(jsonSchema.properties).sort(), required: [...jsonSchema.required].sort() });
    const variants = ExamDocumentSchema.entries.questions.pipe[0].item.options;
    for (const variant of variants) {
      const object = variant.pipe[0];
      const type = object.entries.type.literal;
      const def = jsonSchema.$defs[type]!;
      expect(fields(object), type).toEqual({ all: Object.keys(def.properties).sort(), required: [...def.required].sort() });
    }
  });

  it('examples/exam.json is a valid exam', () => {
    expect(v.safeParse(ExamDocumentSchema, JSON.parse(readFileSync(join(examplesDir, 'exam.json'), 'utf8'))).success).toBe(true);
  });
});

describe.each(kinds)('POST /api/admin/imports/exam on %s', (kind) => {
  const api = useApi(kind);
  const post = (token: string | undefined, body: Uint8Array, type: string, query = '') =>
    api.app.request(`/api/admin/imports/exam${query}`, {
      method: 'POST',
      headers: { 'Content-Type': type, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: new Blob([body as Uint8Array<ArrayBuffer>]),
    });

  it('answers a dry run and applies with apply=1; a proctor is refused 403; the exam is listed', async () => {
    const token = await createAdminToken(api.db, api.clock.now());
    const pkg = examplePackage({ 'test.xml': text('test.xml').replace('MA-SAMPLE-1"', 'MA-HTTP-1"') });
    const dry = await post(token, pkg, 'application/zip');
    expect(dry.status).toBe(200);
    const plan = v.parse(ImportPlanResponseSchema, await dry.json());
    expect(plan).toMatchObject({ kind: 'exam', applied: false, summary: { create: 5, update: 0, unchanged: 0, refuse: 0 } });

    const applied = v.parse(ImportPlanResponseSchema, await (await post(token, pkg, 'application/octet-stream', '?apply=1')).json());
    expect(applied.applied).toBe(true);
    const [audit] = await api.db.select().from(auditLog).where(eq(auditLog.entity, 'exam:MA-HTTP-1 v1'));
    expect(audit?.staffId).not.toBeNull();

    const json = v.parse(ImportPlanResponseSchema, await (await post(token, exampleJson, 'application/json')).json());
    expect(json.summary.create).toBe(7);

    const listed = await api.call('GET', '/api/admin/exams', { token });
    expect(listed.status).toBe(200);
    const exam = v.parse(ExamsResponseSchema, listed.body).exams.find((e) => e.code === 'MA-HTTP-1');
    expect(exam).toEqual({ code: 'MA-HTTP-1', version: 1, title: 'Mathematics, sample paper', subject_id: 2, level: 1, questions: 4, pass_percent: 60, time_limit_seconds: 1800, in_use: false });

    const sitting = await addSitting(api.db);
    const { addStaff, staffLogin } = await import('../helpers/admin-api.ts');
    const proctor = await addStaff(api.db, sitting);
    const proctorToken = await staffLogin(api, proctor);
    expect((await post(proctorToken, pkg, 'application/zip', '?apply=1')).status).toBe(403);
    expect((await api.call('GET', '/api/admin/exams', { token: proctorToken })).status).toBe(403);
    expect((await post(undefined, pkg, 'application/zip')).status).toBe(401);
  });

  it('refuses a body declared a zip that is none, and one over 20 MB unread', async () => {
    const token = await createAdminToken(api.db, api.clock.now());
    const notZip = v.parse(ImportPlanResponseSchema, await (await post(token, strToU8('{}'), 'application/zip')).json());
    expect(notZip.rows[0]?.problems[0]?.reason).toBe('bad_zip');
    const huge = v.parse(ImportPlanResponseSchema, await (await post(token, new Uint8Array(21 * 1024 * 1024), 'application/zip', '?apply=1')).json());
    expect(huge).toMatchObject({ applied: false, summary: { refuse: 1 } });
    expect(huge.rows[0]?.problems[0]?.reason).toBe('too_large');
  });
});
