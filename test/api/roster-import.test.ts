/**
 * Rosters in from CSV (server/imports/): a school from its four files (examples/) through
 * POST /api/admin/imports/:kind as an administrator: the dry run changes nothing, apply creates,
 * the same files again are all unchanged, a changed row updates that record; every applied
 * record is audited. Login codes: in the product's format, unique, never in the file, kept by a
 * re-import; a re-issued code makes the old one fail at POST /api/login. A proctor may list their
 * own school and nothing more.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { and, count, eq, inArray } from 'drizzle-orm';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { ImportPlanResponseSchema, PupilsResponseSchema, ReissueCodeResponseSchema, SchoolsResponseSchema } from '../../contract/imports.ts';
import { normalizeLoginCode } from '../../contract/session.ts';
import { auditLog, examinees, organizations, scheduleExams, scheduleHistories, schedules } from '../../server/db/schema.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { createAdminToken } from '../helpers/admin-token.ts';
import { addStaff, staffLogin } from '../helpers/admin-api.ts';
import { errorOf, useApi, type ApiContext } from '../helpers/server-api.ts';
import { addSitting } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();
const examples = path.resolve(import.meta.dirname, '..', '..', 'examples');

/** An example file, its exam the demo's EN-1 (the example exam is imported by the exam import). */
function example(kind: 'schools' | 'venues' | 'schedules' | 'pupils'): string {
  return readFileSync(path.join(examples, `${kind}.csv`), 'utf8').replaceAll('EN-SAMPLE-1', 'EN-1');
}

async function importFile(api: ApiContext, token: string, kind: string, body: string, apply = false) {
  const response = await api.app.request(`/api/admin/imports/${kind}${apply ? '?apply=1' : ''}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'text/csv' },
    body,
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return v.parse(ImportPlanResponseSchema, await response.json());
}

describe.each(kinds)('roster import on %s', (kind) => {
  const api = useApi(kind);

  test('a school from its four example files: dry run, apply, the same files again, a changed row', async () => {
    const token = await createAdminToken(api.db, api.clock.now());
    const files = (['schools', 'venues', 'schedules', 'pupils'] as const).map((k) => [k, example(k)] as const);

    const pupilsBefore = (await api.db.select({ n: count() }).from(examinees))[0]!.n;
    const dry = await importFile(api, token, 'schools', files[0]![1]);
    expect(dry).toMatchObject({ kind: 'schools', applied: false, summary: { create: 1, update: 0, unchanged: 0, refuse: 0 } });
    expect(await api.db.select().from(organizations).where(eq(organizations.code, 'RIVERSIDE-INTL'))).toEqual([]);

    for (const [k, text] of files) {
      const applied = await importFile(api, token, k, text, true);
      expect(applied.applied, `${k}: ${JSON.stringify(applied.rows)}`).toBe(true);
      expect(applied.summary.create).toBe(text.trim().split('\n').length - 1);
    }
    const [school] = await api.db.select().from(organizations).where(eq(organizations.code, 'RIVERSIDE-INTL'));
    expect(school).toMatchObject({ name: 'Riverside International School', region: 'TH', rankDisplayFlag: 3, loginMethod: 1 });
    const pupils = await api.db.select().from(examinees).where(eq(examinees.organizationId, school!.id));
    expect(pupils).toHaveLength(8);
    expect(pupils.length + pupilsBefore).toBe((await api.db.select({ n: count() }).from(examinees))[0]!.n);
    // Names in their own scripts, round-tripped.
    expect(pupils.map((p) => p.name)).toEqual(expect.arrayContaining(['สมชาย ใจดี', 'ليلى حسن', '王小明', 'အောင်ကျော်မင်း', 'Nguyễn Thị Lan']));
    for (const pupil of pupils) expect(normalizeLoginCode(pupil.loginCode)).toBe(pupil.loginCode);
    expect(new Set(pupils.map((p) => p.loginCode)).size).toBe(8);
    const [period] = await api.db.select().from(schedules).where(eq(schedules.scheduleCode, 'RIVERSIDE-2026-06'));
    expect(period).toMatchObject({ name: 'Year 6 English, June 2026', applicationMode: 2, startsAt: new Date('2026-06-08T01:30:00Z') });
    expect(await api.db.select().from(scheduleExams).where(eq(scheduleExams.scheduleId, period!.id))).toHaveLength(1);
    const sittings = await api.db.select().from(scheduleHistories).where(eq(scheduleHistories.scheduleId, period!.id));
    expect(sittings).toHaveLength(8);
    expect(sittings.every((s) => s.status === 0)).toBe(true);
    const audits = await api.db.select().from(auditLog).where(and(eq(auditLog.action, 'import'), inArray(auditLog.entity, ['school:RIVERSIDE-INTL', 'pupil:RIVERSIDE-INTL/R6-003'])));
    expect(audits.map((a) => [a.entity, a.before, a.after?.name])).toEqual(
      expect.arrayContaining([
        ['school:RIVERSIDE-INTL', null, 'Riverside International School'],
        ['pupil:RIVERSIDE-INTL/R6-003', null, 'ليلى حسن'],
      ]),
    );

    // The same files again: all unchanged, nothing written, codes kept.
    const auditCount = (await api.db.select({ n: count() }).from(auditLog))[0]!.n;
    for (const [k, text] of files) {
      const again = await importFile(api, token, k, text, true);
      expect(again.summary, k).toEqual({ create: 0, update: 0, unchanged: text.trim().split('\n').length - 1, refuse: 0 });
    }
    expect((await api.db.select({ n: count() }).from(auditLog))[0]!.n).toBe(auditCount);
    const codesAgain = await api.db.select({ id: examinees.id, code: examinees.loginCode }).from(examinees).where(eq(examinees.organizationId, school!.id));
    expect(new Map(codesAgain.map((r) => [r.id, r.code]))).toEqual(new Map(pupils.map((p) => [p.id, p.loginCode])));

    // One changed row: that pupil is updated (and audited with before and after), nothing else.
    const changed = files[3]![1].replace('R6-004,王小明,6B,Room 102', 'R6-004,王小明,6C,Computer Lab');
    const update = await importFile(api, token, 'pupils', changed, true);
    expect(update.summary).toEqual({ create: 0, update: 1, unchanged: 7, refuse: 0 });
    expect(update.rows.find((r) => r.outcome === 'update')).toMatchObject({ row: 5, key: 'RIVERSIDE-INTL/R6-004' });
    const [moved] = await api.db.select().from(examinees).where(and(eq(examinees.organizationId, school!.id), eq(examinees.externalId, 'R6-004')));
    expect(moved).toMatchObject({ className: '6C', loginCode: pupils.find((p) => p.externalId === 'R6-004')!.loginCode });
    const [entry] = await api.db.select().from(auditLog).where(and(eq(auditLog.entity, 'pupil:RIVERSIDE-INTL/R6-004'), eq(auditLog.action, 'import'))).orderBy(auditLog.id);
    expect(entry).toBeDefined();
    const [last] = (await api.db.select().from(auditLog).where(eq(auditLog.entity, 'pupil:RIVERSIDE-INTL/R6-004'))).slice(-1);
    expect(last).toMatchObject({ before: { class: '6B', classroom: 'Room 102' }, after: { class: '6C', classroom: 'Computer Lab' } });

    // The lists show what was imported.
    const listed = await api.call('GET', '/api/admin/schools', { token });
    const riverside = v.parse(SchoolsResponseSchema, listed.body).schools.find((s) => s.code === 'RIVERSIDE-INTL');
    expect(riverside?.venues.map((room) => room.name)).toEqual(['Computer Lab', 'Room 101', 'Room 102']);
    expect(riverside?.schedules.map((s) => s.code)).toEqual(['RIVERSIDE-2026-06']);
    const roster = await api.call('GET', '/api/admin/pupils?school=RIVERSIDE-INTL', { token });
    const rows = v.parse(PupilsResponseSchema, roster.body).pupils;
    expect(rows.map((p) => p.class_name)).toEqual(['6A', '6A', '6A', '6B', '6B', '6C', '6C', '6C']);
    expect(rows.find((p) => p.external_id === 'R6-008')).toMatchObject({ login_id: 'emily.obrien', locale: 'en-gb', venue: { name: 'Computer Lab' } });
    // ?venue= keeps one classroom's pupils; a classroom id that is not a number is refused.
    const room101 = riverside!.venues.find((room) => room.name === 'Room 101')!;
    const inRoom = v.parse(PupilsResponseSchema, (await api.call('GET', `/api/admin/pupils?school=RIVERSIDE-INTL&venue=${room101.id}`, { token })).body).pupils;
    expect(inRoom.map((p) => p.external_id)).toEqual(rows.filter((p) => p.venue?.id === room101.id).map((p) => p.external_id));
    expect(inRoom.length).toBeGreaterThan(0);
    expect(inRoom.length).toBeLessThan(rows.length);
    const malformed = await api.call('GET', '/api/admin/pupils?school=RIVERSIDE-INTL&venue=lab', { token });
    expect(malformed.status).toBe(422);
    const emily = rows.find((p) => p.external_id === 'R6-008')!;
    for (const q of ['o\'brien', 'R6-008', emily.login_code.replaceAll('-', '').toLowerCase()]) {
      const found = v.parse(PupilsResponseSchema, (await api.call('GET', `/api/admin/pupils?q=${encodeURIComponent(q)}`, { token })).body).pupils;
      expect(found.map((p) => p.id), q).toEqual([emily.id]);
    }
  });

  test('a re-issued code: the old one fails at POST /api/login at once, the new one logs in, the change is audited', async () => {
    const token = await createAdminToken(api.db, api.clock.now());
    const pupil = await addSitting(api.db, { organization: {} });
    await api.db.update(examinees).set({ externalId: 'P-1' }).where(eq(examinees.id, pupil.examineeId));
    await api.loginAs(pupil.loginCode);

    const response = await api.call('POST', `/api/admin/pupils/${pupil.examineeId}/reissue-code`, { token });
    expect(response.status).toBe(200);
    const { login_code: fresh } = v.parse(ReissueCodeResponseSchema, response.body);
    expect(normalizeLoginCode(fresh)).toBe(fresh);
    expect(fresh).not.toBe(pupil.loginCode);

    const old = await api.call('POST', '/api/login', { body: { login_type: 0, login_code: pupil.loginCode } });
    expect(errorOf(old).code).toBe('LOGIN_CODE_INCORRECT');
    await api.loginAs(fresh);
    const [entry] = await api.db.select().from(auditLog).where(and(eq(auditLog.action, 'code_reissue'), eq(auditLog.entity, `pupil:${pupil.orgCode}/P-1`)));
    expect(entry).toMatchObject({ before: { login_code: pupil.loginCode }, after: { login_code: fresh } });

    const unknown = await api.call('POST', '/api/admin/pupils/99999999/reissue-code', { token });
    expect(errorOf(unknown).code).toBe('NOT_FOUND');
  });

  test('a pupil mid-exam keeps their exam when the code is re-issued; a session not in an exam is signed out', async () => {
    const token = await createAdminToken(api.db, api.clock.now());
    const sitting = await addSitting(api.db, { organization: {} });
    const started = await api.startAs(sitting.loginCode);
    const reissued = await api.call('POST', `/api/admin/pupils/${sitting.examineeId}/reissue-code`, { token });
    expect(reissued.status).toBe(200);
    const heartbeat = await api.call('POST', '/api/exam/heartbeat', {
      token: started.token,
      body: { schedule_history_id: started.scheduleHistoryId, question_index: 0, visible: true },
    });
    expect(heartbeat.status).toBe(200);

    const waiting = await addSitting(api.db, { organization: {} });
    const signedIn = await api.loginAs(waiting.loginCode);
    await api.call('POST', `/api/admin/pupils/${waiting.examineeId}/reissue-code`, { token });
    const after = await api.call('GET', '/api/me', { token: signedIn.token });
    expect(errorOf(after).code).toBe('NOT_LOGGED_IN');
  });

  test('a proctor: 403 FORBIDDEN on imports and re-issue (nothing changed), their own school only in the lists', async () => {
    const sitting = await addSitting(api.db, { organization: {} });
    const proctor = await addStaff(api.db, sitting);
    const token = await staffLogin(api, proctor);
    const before = (await api.db.select({ n: count() }).from(organizations))[0]!.n;
    const refused = await api.app.request('/api/admin/imports/schools?apply=1', {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'text/csv' },
      body: 'code,name\nPROCTOR-MADE,Not allowed\n',
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('FORBIDDEN');
    expect((await api.db.select({ n: count() }).from(organizations))[0]!.n).toBe(before);
    const reissue = await api.call('POST', `/api/admin/pupils/${sitting.examineeId}/reissue-code`, { token });
    expect(errorOf(reissue).code).toBe('FORBIDDEN');
    expect((await api.db.select({ code: examinees.loginCode }).from(examinees).where(eq(examinees.id, sitting.examineeId)))[0]!.code).toBe(sitting.loginCode);

    const schools = v.parse(SchoolsResponseSchema, (await api.call('GET', '/api/admin/schools', { token })).body).schools;
    expect(schools.map((s) => s.code)).toEqual([sitting.orgCode]);
    const pupils = v.parse(PupilsResponseSchema, (await api.call('GET', '/api/admin/pupils', { token })).body).pupils;
    expect(pupils.map((p) => p.id)).toEqual([sitting.examineeId]);
    const none = await api.call('GET', '/api/admin/schools');
    expect(errorOf(none).code).toBe('NOT_LOGGED_IN');
  });
});
