/**
 * An in-memory administration API (the administrator's console: schools, pupils, imports, exams,
 * documents, staff, the deployment audit) behind the console's AdministrationPort, for the
 * administration machine's and view tests. Every answer is a wire answer (status, JSON body), so
 * the real actors parse it with the contract's schemas. The schools import is planned from the
 * file's text: a row without a code is refused (`required`), a known code is unchanged.
 */
import type { DeploymentAuditEntry, StaffMember } from '../../contract/admin.ts';
import type { ExamSummary, ImportPlanResponse, Pupil, School } from '../../contract/imports.ts';
import type { AdministrationPort, FileResponse } from '../../machines/administration/administration.types.ts';
import type { AdminRequest, AdminResponse } from '../../machines/proctor/proctor.types.ts';
import type { FailureCode } from '../../machines/shared/ports.ts';

const serverTime = '2026-11-24T09:20:00.000Z';

const school: School = {
  code: 'SAKURA',
  name: 'Sakura Primary School',
  category: 'primary',
  login_method: 1,
  disabled: false,
  venues: [{ id: 11, name: 'Room 1', disabled: false }],
  schedules: [{ code: 'SPRING-27', name: 'Spring test 2027', starts_at: '2027-03-01T00:00:00.000Z', ends_at: '2027-03-31T00:00:00.000Z' }],
};
const pupil: Pupil = {
  id: 41,
  external_id: '6B-01',
  name: 'Amara Okafor',
  class_name: '6B',
  venue: { id: 11, name: 'Room 1' },
  login_code: 'AC3E-F4GH-J6KM',
  login_id: null,
  locale: 'en',
};
const exam: ExamSummary = {
  code: 'ENG-1', version: 2, title: 'English 1', subject_id: 1, level: 1, questions: 20, pass_percent: 60, time_limit_seconds: 2400, in_use: true,
};
const admin: StaffMember = { id: 1, login_id: 'root', name: 'Ada Admin', role: 'admin', org_code: null, disabled: false };
const staffMember: StaffMember = { id: 2, login_id: 'grace', name: 'Grace Hopper', role: 'proctor', org_code: 'SAKURA', disabled: false };
const auditEntry: DeploymentAuditEntry = {
  id: 7, at: serverTime, actor: 'staff', staff_name: 'Ada Admin', staff_login_id: 'root', action: 'staff_update',
  entity: 'staff:grace', before: { name: 'Grace' }, after: { name: 'Grace Hopper' }, detail: {}, reason: '',
};

export const adminFixtures = { serverTime, school, pupil, exam, admin, staffMember, auditEntry };

const json = (status: number, body: unknown): AdminResponse => ({ status, body, etag: null });
const refusal = (status: number, code: FailureCode): AdminResponse => json(status, { code, message: code });

export interface FakeAdministration extends AdministrationPort {
  readonly requests: Array<AdminRequest | { method: 'UPLOAD'; path: string; query?: Record<string, string | number>; contentType: string; text: string }>;
  schools: School[];
  pupils: Pupil[];
  staff: StaffMember[];
  /** The next call of this path (method and path, e.g. 'GET /admin/staff') answers this failure once. */
  failNext: Map<string, FailureCode>;
  /** Every call answers 401 from now on. */
  revoked: boolean;
}

export function createFakeAdministration(): FakeAdministration {
  let codes = 0;
  let staffIds = 10;
  const server: FakeAdministration = {
    requests: [],
    schools: [structuredClone(school)],
    pupils: [structuredClone(pupil)],
    staff: [structuredClone(admin), structuredClone(staffMember)],
    failNext: new Map(),
    revoked: false,
    async send(request) {
      server.requests.push(request);
      return handle(request);
    },
    async upload(request) {
      const text = await request.body.text();
      server.requests.push({ method: 'UPLOAD', path: request.path, ...(request.query ? { query: request.query } : {}), contentType: request.contentType, text });
      const failure = takeFailure(`POST ${request.path}`);
      if (failure) return failure;
      return json(200, planOf(text, request.query?.apply === 1));
    },
    async download(request): Promise<FileResponse> {
      server.requests.push({ method: 'GET', path: request.path, token: request.token, ...(request.query ? { query: request.query } : {}) });
      const failure = takeFailure(`GET ${request.path}`);
      if (failure) return { ...failure, blob: null, fileName: null };
      const pdf = request.path.endsWith('.pdf');
      return { status: 200, body: undefined, etag: null, blob: new Blob([pdf ? '%PDF-1.7' : '\uFEFFpupil,score\n']), fileName: pdf ? 'login-slips-SPRING-27.pdf' : 'results-SPRING-27.csv' };
    },
  };

  function takeFailure(key: string): AdminResponse | null {
    if (server.revoked) return refusal(401, 'NOT_LOGGED_IN');
    const code = server.failNext.get(key);
    if (!code) return null;
    server.failNext.delete(key);
    return refusal(code === 'NOT_LOGGED_IN' ? 401 : code === 'NOT_FOUND' ? 404 : code === 'ER_DUP_ENTRY' || code === 'VALIDATION_ERROR' ? 422 : 500, code);
  }

  function planOf(text: string, apply: boolean): ImportPlanResponse {
    const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/).filter((l) => l.trim() !== '');
    const rows = lines.slice(1).map((line, index) => {
      const code = line.split(/[;,]/)[0]!.trim();
      const known = server.schools.some((s) => s.code === code);
      return code === ''
        ? { row: index + 2, key: '', outcome: 'refuse' as const, problems: [{ column: 'code', reason: 'required' as const }] }
        : { row: index + 2, key: code, outcome: known ? ('unchanged' as const) : ('create' as const), problems: [] };
    });
    const count = (o: string) => rows.filter((r) => r.outcome === o).length;
    const refused = count('refuse') > 0;
    const applied = apply && !refused;
    if (applied) {
      for (const row of rows) {
        if (row.outcome === 'create') server.schools.push({ ...structuredClone(school), code: row.key, name: row.key, venues: [], schedules: [] });
      }
    }
    return { kind: 'schools', applied, summary: { create: count('create'), update: 0, unchanged: count('unchanged'), refuse: count('refuse') }, rows, server_time: serverTime };
  }

  function handle(request: AdminRequest): AdminResponse {
    const failure = takeFailure(`${request.method} ${request.path}`);
    if (failure) return failure;
    const body = (request.body ?? {}) as Record<string, unknown>;
    const { method, path } = request;
    if (method === 'GET' && path === '/admin/schools') return json(200, { schools: server.schools, server_time: serverTime });
    if (method === 'GET' && path === '/admin/pupils') {
      const q = String(request.query?.q ?? '').toLowerCase();
      const found = server.pupils.filter((p) => !q || p.name.toLowerCase().includes(q) || p.login_code.toLowerCase() === q);
      return json(200, { pupils: found, server_time: serverTime });
    }
    let match = /^\/admin\/pupils\/(\d+)\/reissue-code$/.exec(path);
    if (method === 'POST' && match) {
      const index = server.pupils.findIndex((p) => p.id === Number(match![1]));
      if (index < 0) return refusal(404, 'NOT_FOUND');
      const login_code = `NEW${++codes}-CODE-2345`;
      server.pupils[index] = { ...server.pupils[index]!, login_code };
      return json(200, { login_code, server_time: serverTime });
    }
    if (method === 'GET' && path === '/admin/exams') return json(200, { exams: [exam], server_time: serverTime });
    if (method === 'GET' && path === '/admin/staff') return json(200, { staff: server.staff, server_time: serverTime });
    if (method === 'POST' && path === '/admin/staff') {
      if (server.staff.some((s) => s.login_id === body.login_id)) return refusal(422, 'ER_DUP_ENTRY');
      const member: StaffMember = {
        id: ++staffIds, login_id: String(body.login_id), name: String(body.name), role: body.role === 'admin' ? 'admin' : 'proctor',
        org_code: typeof body.org_code === 'string' ? body.org_code : null, disabled: false,
      };
      server.staff.push(member);
      return json(201, { staff: member, server_time: serverTime });
    }
    match = /^\/admin\/staff\/(\d+)$/.exec(path);
    if (method === 'PATCH' && match) {
      const index = server.staff.findIndex((s) => s.id === Number(match![1]));
      if (index < 0) return refusal(404, 'NOT_FOUND');
      const { password: _password, ...changes } = body;
      const member = { ...server.staff[index]!, ...changes } as StaffMember;
      server.staff[index] = member;
      return json(200, { staff: member, server_time: serverTime });
    }
    if (method === 'GET' && path === '/admin/audit/deployment') return json(200, { entries: [auditEntry], server_time: serverTime });
    return refusal(404, 'NOT_FOUND');
  }

  return server;
}
