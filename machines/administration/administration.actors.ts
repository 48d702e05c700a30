/**
 * The real side effects of the administration machine: the administration API calls over the
 * edge's port (src/api/admin-client.ts), each answer parsed with valibot.
 * `administrationMachine.provide(administrationImplementations({ admin }))`.
 *
 * Promises: a 2xx answer that does not match its schema is GENERIC_ERROR; a non-2xx answer is an
 * ApiFailure with the envelope's code and the status (GENERIC_ERROR without one); an import file
 * is sent as its own bytes with the Content-Type its kind needs; a document comes back as bytes
 * with a file name (the server's, else one made from the test period's code).
 */
import * as v from 'valibot';
import { fromPromise } from 'xstate';
import {
  DeploymentAuditResponseSchema,
  StaffListResponseSchema,
  StaffMemberResponseSchema,
} from '../../contract/admin.ts';
import { ErrorBodySchema } from '../../contract/errors.ts';
import type { AdminPort, AdminRequest, AdminResponse } from '../proctor/proctor.types.ts';
import { ApiFailure } from '../shared/ports.ts';
import { contentTypeOf } from './administration.rules.ts';
import {
  ExamsResponseSchema,
  ImportPlanResponseSchema,
  PupilsResponseSchema,
  ReissueCodeResponseSchema,
  SchoolsResponseSchema,
  type ChosenFile,
  type ExamDetails,
  type DocumentRequest,
  type DownloadedFile,
  type FilePort,
  type ImportKind,
  type PupilQuery,
  type StaffRequest,
} from './administration.types.ts';

/** The failure a non-2xx answer stands for (the proctor's calls read it too). */
export function refusalOf(response: AdminResponse): ApiFailure {
  const envelope = v.safeParse(ErrorBodySchema, response.body);
  return envelope.success
    ? new ApiFailure(envelope.output.code, response.status, envelope.output.message)
    : new ApiFailure('GENERIC_ERROR', response.status);
}

/** A 2xx answer parsed with `schema`; `what` names the call in the error of one that does not match. */
function parse<S extends v.GenericSchema>(response: AdminResponse, schema: S, what: string): v.InferOutput<S> {
  if (response.status < 200 || response.status > 299) throw refusalOf(response);
  const parsed = v.safeParse(schema, response.body);
  if (!parsed.success) throw new ApiFailure('GENERIC_ERROR', response.status, `Unexpected response from ${what}`);
  return parsed.output;
}

/** Sends the request and parses a 2xx answer with `schema` (the proctor's calls go this way too). */
export async function call<S extends v.GenericSchema>(port: AdminPort, request: AdminRequest, schema: S): Promise<v.InferOutput<S>> {
  return parse(await port.send(request), schema, `${request.method} ${request.path}`);
}

const segment = (value: string | number) => encodeURIComponent(String(value));

/** The port's file calls, or calls that fail clearly where the edge gave none. */
const noFiles: FilePort = {
  upload: async () => {
    throw new ApiFailure('GENERIC_ERROR', undefined, 'No file port: uploads are not wired');
  },
  download: async () => {
    throw new ApiFailure('GENERIC_ERROR', undefined, 'No file port: downloads are not wired');
  },
};

/** POST /admin/imports/:kind (?apply=1), the file's bytes as the body. */
export async function runImport(
  port: AdminPort & Partial<FilePort>,
  input: { token: string; kind: ImportKind; file: ChosenFile; exam?: ExamDetails | null; apply: boolean },
) {
  const upload = port.upload ?? noFiles.upload;
  const path = `/admin/imports/${segment(input.kind)}`;
  const query: Record<string, string | number> = input.apply ? { apply: 1 } : {};
  if (input.kind === 'exam' && input.exam) {
    const { subject, level, levelName } = input.exam;
    if (subject) query.subject = subject;
    if (level) query.level = level;
    if (levelName) query.level_name = levelName;
  }
  const response = await upload({
    path,
    token: input.token,
    ...(Object.keys(query).length > 0 ? { query } : {}),
    body: input.file.blob,
    contentType: contentTypeOf(input.kind, input.file),
  });
  return parse(response, ImportPlanResponseSchema, `POST ${path}`);
}

/** The file name a document is saved under when the server names none. */
export function documentFileName(request: DocumentRequest): string {
  const room = request.venueId === null ? '' : `-room-${request.venueId}`;
  return request.kind === 'slips' ? `login-slips-${request.scheduleCode}${room}.pdf` : `results-${request.scheduleCode}${room}.csv`;
}

/** GET /admin/schedules/:code/slips.pdf or results.csv (?venue=), as bytes. */
export async function downloadDocument(port: AdminPort & Partial<FilePort>, input: { token: string; request: DocumentRequest }): Promise<DownloadedFile> {
  const download = port.download ?? noFiles.download;
  const { request } = input;
  const path = `/admin/schedules/${segment(request.scheduleCode)}/${request.kind === 'slips' ? 'slips.pdf' : 'results.csv'}`;
  const response = await download({ path, token: input.token, ...(request.venueId === null ? {} : { query: { venue: request.venueId } }) });
  if (response.status < 200 || response.status > 299) throw refusalOf(response);
  if (!response.blob) throw new ApiFailure('GENERIC_ERROR', response.status, `No document from GET ${path}`);
  return { blob: response.blob, fileName: response.fileName ?? documentFileName(request) };
}

/** POST /admin/staff or PATCH /admin/staff/:id. */
export function saveStaff(port: AdminPort, input: { token: string; request: StaffRequest }) {
  const { token, request } = input;
  if (request.mode === 'add') return call(port, { method: 'POST', path: '/admin/staff', token, body: request.body }, StaffMemberResponseSchema);
  return call(port, { method: 'PATCH', path: `/admin/staff/${segment(request.id)}`, token, body: request.body }, StaffMemberResponseSchema);
}

function pupilQuery(query: PupilQuery): Record<string, string | number> {
  return { school: query.school, ...(query.q ? { q: query.q } : {}), ...(query.venueId === null ? {} : { venue: query.venueId }) };
}

export function administrationImplementations(deps: { admin: AdminPort & Partial<FilePort> }) {
  const { admin } = deps;
  return {
    actors: {
      loadSchools: fromPromise(({ input }: { input: { token: string } }) =>
        call(admin, { method: 'GET', path: '/admin/schools', token: input.token }, SchoolsResponseSchema),
      ),
      searchPupils: fromPromise(({ input }: { input: { token: string; query: PupilQuery } }) =>
        call(admin, { method: 'GET', path: '/admin/pupils', token: input.token, query: pupilQuery(input.query) }, PupilsResponseSchema),
      ),
      reissueCode: fromPromise(({ input }: { input: { token: string; pupilId: number } }) =>
        call(admin, { method: 'POST', path: `/admin/pupils/${segment(input.pupilId)}/reissue-code`, token: input.token, body: {} }, ReissueCodeResponseSchema),
      ),
      runImport: fromPromise(({ input }: { input: { token: string; kind: ImportKind; file: ChosenFile; exam: ExamDetails | null; apply: boolean } }) => runImport(admin, input)),
      loadExams: fromPromise(({ input }: { input: { token: string } }) =>
        call(admin, { method: 'GET', path: '/admin/exams', token: input.token }, ExamsResponseSchema),
      ),
      downloadDocument: fromPromise(({ input }: { input: { token: string; request: DocumentRequest } }) => downloadDocument(admin, input)),
      loadStaff: fromPromise(({ input }: { input: { token: string } }) =>
        call(admin, { method: 'GET', path: '/admin/staff', token: input.token }, StaffListResponseSchema),
      ),
      saveStaff: fromPromise(({ input }: { input: { token: string; request: StaffRequest } }) => saveStaff(admin, input)),
      loadAudit: fromPromise(({ input }: { input: { token: string } }) =>
        call(admin, { method: 'GET', path: '/admin/audit/deployment', token: input.token }, DeploymentAuditResponseSchema),
      ),
    },
  };
}
