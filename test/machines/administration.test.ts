/**
 * The administration machine's rules and its place in the proctor machine: an administrator's
 * sign-in runs the console as the child `administration` (a proctor's never does, and signing out
 * stops it); a file goes with the Content-Type its kind needs; Apply only after a clean dry run;
 * the staff form checked with the contract's schemas before anything is sent; an exam file goes
 * with the subject and level typed beside it, the same for its check and its apply.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { runImport } from '../../machines/administration/administration.actors.ts';
import { connect } from '../../machines/administration/administration.connect.ts';
import { administrationMachine } from '../../machines/administration/administration.machine.ts';
import type { ExamDetails } from '../../machines/administration/administration.types.ts';
import { contentTypeOf, canApply, checkStaffForm, rowsRefusalsFirst } from '../../machines/administration/administration.rules.ts';
import { proctorImplementations } from '../../machines/proctor/proctor.actors.ts';
import { proctorMachine } from '../../machines/proctor/proctor.machine.ts';
import { adminFixtures } from '../helpers/fake-administration.ts';
import { createFakeAdmin, demoStaff } from '../helpers/fake-admin.ts';
import { memoryStorage } from '../helpers/memory-storage.ts';

const admin = { name: 'Ada Admin', login_id: 'root', role: 'admin' as const, org_code: null, org_name: null };

function signedInAs(staff: typeof admin | typeof demoStaff) {
  const server = createFakeAdmin();
  const storage = memoryStorage();
  storage.setItem('Staff-Token', 'staff-token-9');
  server.tokens.add('staff-token-9');
  const port = { ...server, send: async (request: Parameters<typeof server.send>[0]) => (request.path === '/admin/me' ? { status: 200, body: { staff, server_time: new Date().toISOString() }, etag: null } : server.send(request)) };
  return createActor(proctorMachine.provide(proctorImplementations({ admin: port, storage }))).start();
}

async function settle(actor: ReturnType<typeof signedInAs>) {
  await new Promise<void>((resolve) => {
    const check = () => (actor.getSnapshot().matches('signedIn') ? resolve() : setTimeout(check, 5));
    check();
  });
}

describe('the console in the proctor machine', () => {
  it('runs for an administrator, never for a proctor, and stops when signing out', async () => {
    const administrator = signedInAs(admin);
    await settle(administrator);
    expect(administrator.getSnapshot().children.administration).toBeDefined();
    expect(administrator.getSnapshot().children.administration!.getSnapshot()).toMatchObject({ context: { loginId: 'root', token: 'staff-token-9' } });
    administrator.send({ type: 'logout.requested' });
    expect(administrator.getSnapshot().children.administration).toBeUndefined();

    const proctor = signedInAs(demoStaff);
    await settle(proctor);
    expect(proctor.getSnapshot().children.administration).toBeUndefined();
  });
});

describe('administration rules', () => {
  it('sends a roster as text/csv and an exam as JSON or a zip package', () => {
    expect(contentTypeOf('pupils', { name: 'pupils.csv', type: '' })).toBe('text/csv');
    expect(contentTypeOf('exam', { name: 'exam.json', type: '' })).toBe('application/json');
    expect(contentTypeOf('exam', { name: 'PACKAGE.ZIP', type: '' })).toBe('application/zip');
    expect(contentTypeOf('exam', { name: 'package', type: 'application/x-zip-compressed' })).toBe('application/zip');
  });

  it('applies only a dry run that refused nothing, and shows refusals first', () => {
    const base = { kind: 'pupils' as const, applied: false, server_time: adminFixtures.serverTime };
    const clean = { ...base, summary: { create: 1, update: 0, unchanged: 0, refuse: 0 }, rows: [] };
    expect(canApply(clean)).toBe(true);
    expect(canApply({ ...clean, applied: true })).toBe(false);
    expect(canApply({ ...clean, summary: { ...clean.summary, refuse: 1 } })).toBe(false);
    expect(canApply(null)).toBe(false);
    const rows = rowsRefusalsFirst([
      { row: 2, key: 'a', outcome: 'create', problems: [] },
      { row: 5, key: 'b', outcome: 'refuse', problems: [{ column: 'name', reason: 'required' }] },
      { row: null, key: '', outcome: 'refuse', problems: [{ column: null, reason: 'encoding' }] },
    ]);
    expect(rows.map((r) => r.row)).toEqual([null, 5, 2]);
  });

  it('checks the staff form with the contract: 12 characters, an organisation for a proctor, none for an administrator', () => {
    expect(checkStaffForm({ mode: 'add' }, { login_id: 'x', name: 'X', role: 'proctor', org_code: '', password: 'short' }, undefined)).toEqual({
      ok: false,
      fields: { org_code: 'required', password: 'invalid' },
    });
    expect(checkStaffForm({ mode: 'add' }, { login_id: 'root2', name: 'Root', role: 'admin', org_code: 'IGNORED', password: 'twelve chars' }, undefined)).toEqual({
      ok: true,
      request: { mode: 'add', body: { login_id: 'root2', name: 'Root', role: 'admin', password: 'twelve chars' } },
    });
    expect(checkStaffForm({ mode: 'password', id: 2 }, { password: 'a long password' }, adminFixtures.staffMember)).toEqual({
      ok: true,
      request: { mode: 'password', id: 2, body: { password: 'a long password' } },
    });
    expect(checkStaffForm({ mode: 'edit', id: 2 }, { name: 'Grace', role: 'admin', org_code: 'SAKURA', disabled: true }, adminFixtures.staffMember)).toEqual({
      ok: true,
      request: { mode: 'edit', id: 2, body: { name: 'Grace', role: 'admin', disabled: true } },
    });
  });
});

describe('an exam import with its subject and level', () => {
  const file = { name: 'package.zip', size: 3, type: 'application/zip', blob: new Blob(['zip']) };
  const plan = (applied: boolean) => ({ kind: 'exam' as const, applied, summary: { create: 1, update: 0, unchanged: 0, refuse: 0 }, rows: [], server_time: adminFixtures.serverTime });

  it('sends what was typed as the query of the check and the same with the apply; an empty field is left out', async () => {
    const queries: unknown[] = [];
    const upload = async (request: { query?: Record<string, string | number> }) => {
      queries.push(request.query ?? null);
      return { status: 200, body: plan(queries.length === 2), etag: null };
    };
    const port = { send: async () => ({ status: 500, body: null, etag: null }), upload };
    const actor = createActor(
      administrationMachine.provide({ actors: { runImport: fromPromise(({ input }: { input: Parameters<typeof runImport>[1] & { exam: ExamDetails | null } }) => runImport(port as never, input)) } }),
      { input: { token: 't', loginId: 'root' } },
    ).start();
    actor.send({ type: 'section.chosen', section: 'imports' });
    actor.send({ type: 'import.kindChosen', kind: 'exam' });
    actor.send({ type: 'import.fileChosen', file });
    const api = () => connect(actor.getSnapshot(), actor.send);
    api().imports.check({ subject: '2', level: '3', levelName: null });
    await waitFor(actor, (s) => s.matches({ imports: 'checked' }));
    expect(api().imports.exam).toEqual({ subject: '2', level: '3', levelName: null });
    api().imports.apply();
    await waitFor(actor, (s) => s.matches({ imports: 'applied' }));
    expect(queries).toEqual([{ subject: '2', level: '3' }, { apply: 1, subject: '2', level: '3' }]);
  });

  it('sends no subject or level for a roster file', async () => {
    const requests: unknown[] = [];
    const upload = async (request: { query?: Record<string, string | number> }) => (requests.push(request.query ?? null), { status: 200, body: { ...plan(false), kind: 'pupils' }, etag: null });
    await runImport({ send: async () => ({ status: 500, body: null, etag: null }), upload } as never, { token: 't', kind: 'pupils', file, exam: { subject: '2', level: '1', levelName: 'Level 1' }, apply: false });
    expect(requests).toEqual([null]);
  });
});
