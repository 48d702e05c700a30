/**
 * Types of the administration machine: the administrator's console beside exam day (schools and
 * pupils, imports, exams, documents, staff, the deployment's audit). The view sends the events
 * below and reads AdministrationApi (administration.connect.ts).
 *
 * The wire shapes are the contract's (contract/admin.ts, contract/imports.ts), re-exported here
 * under the names the console uses.
 */
import type { DeploymentAuditEntry, StaffMember, StaffRole } from '../../contract/admin.ts';
import type { ExamSummary, ImportPlanResponse, PlanKind, Pupil, School } from '../../contract/imports.ts';
import type { AdminPort, AdminResponse, FieldRule } from '../proctor/proctor.types.ts';
import type { FailureCode } from '../shared/ports.ts';

export {
  ExamsResponseSchema,
  ImportPlanResponseSchema,
  PupilsResponseSchema,
  ReissueCodeResponseSchema,
  SchoolsResponseSchema,
  examImportSubjects,
  importOutcomes,
  importReasons,
  planKinds as importKinds,
  type ExamSummary as Exam,
  type ImportOutcome,
  type ImportPlanResponse as ImportPlan,
  type ImportPlanRow as ImportRow,
  type ImportReason,
  type PlanKind as ImportKind,
  type Pupil,
  type School,
} from '../../contract/imports.ts';

// ---------------------------------------------------------------------------
// The edge
// ---------------------------------------------------------------------------

/** A file the administrator picked, as the machine keeps it until it is sent. */
export interface ChosenFile {
  name: string;
  size: number;
  /** The browser's idea of its type ('' when it has none). */
  type: string;
  blob: Blob;
}

/**
 * What an exam import says beside its file (the query of POST /admin/imports/exam): a QTI
 * package's subject, level and level name when its manifest does not say them; each null: as the
 * file says. Sent as typed: the server judges them (VALIDATION_ERROR, or the plan's refusals).
 */
export interface ExamDetails {
  subject: string | null;
  level: string | null;
  levelName: string | null;
}

/** A document the server made, ready to save under its name. */
export interface DownloadedFile {
  blob: Blob;
  fileName: string;
}

export interface FileResponse extends AdminResponse {
  /** The bytes of a 2xx answer; null otherwise (the error envelope is `body`). */
  blob: Blob | null;
  /** The name from Content-Disposition, when the server gave one. */
  fileName: string | null;
}

/**
 * The admin API's file calls beside AdminPort's JSON calls: a file sent raw as the body with its
 * Content-Type, and a document fetched as bytes. Both resolve with any answer and reject only
 * with ApiFailure NETWORK_ERROR or TIMEOUT, as AdminPort does.
 */
export interface FilePort {
  upload(request: { path: string; token: string; query?: Record<string, string | number>; body: Blob; contentType: string }): Promise<AdminResponse>;
  download(request: { path: string; token: string; query?: Record<string, string | number> }): Promise<FileResponse>;
}

export type AdministrationPort = AdminPort & FilePort;

// ---------------------------------------------------------------------------
// The machine
// ---------------------------------------------------------------------------

/** The console's sections, in the navigation's order. */
export const sections = ['examDay', 'schools', 'imports', 'exams', 'documents', 'staff', 'audit'] as const;
export type Section = (typeof sections)[number];

export interface AdministrationInput {
  token: string;
  /** The administrator signed in (they cannot disable or demote themselves). */
  loginId: string;
}

/** What the pupil search asks for. */
export interface PupilQuery {
  school: string;
  q: string;
  venueId: number | null;
}

/** The staff form: add a member, edit one, or set a new password. */
export type StaffEditor = { mode: 'add' } | { mode: 'edit'; id: number } | { mode: 'password'; id: number };
export type StaffField = 'login_id' | 'name' | 'role' | 'org_code' | 'password';
export type StaffFieldErrors = Partial<Record<StaffField, FieldRule>>;

/** The staff form as typed (every field a string; `disabled` a checkbox). */
export interface StaffFormValues {
  login_id?: string;
  name?: string;
  role?: StaffRole | '';
  org_code?: string;
  password?: string;
  disabled?: boolean;
}

/** A checked staff change as it is sent. */
export type StaffRequest =
  | { mode: 'add'; body: { login_id: string; name: string; role: StaffRole; org_code?: string; password: string } }
  | { mode: 'edit' | 'password'; id: number; body: { name?: string; role?: StaffRole; org_code?: string | null; disabled?: boolean; password?: string } };

/** What the last staff change did, for the status line. */
export type StaffOutcome = { mode: StaffEditor['mode']; name: string };

/** A document asked for. */
export interface DocumentRequest {
  kind: 'slips' | 'results';
  scheduleCode: string;
  venueId: number | null;
}

export interface AdministrationContext {
  token: string;
  loginId: string;
  /** Why the section's list (schools, exams, staff, audit) failed to load. */
  failure: FailureCode | null;
  schools: School[];
  pupilQuery: PupilQuery | null;
  pupils: Pupil[];
  pupilsFailure: FailureCode | null;
  /** The pupil whose code is being re-issued, and the new code once the server gave it. */
  reissue: { pupilId: number; name: string; code: string | null } | null;
  reissueFailure: FailureCode | null;
  importKind: PlanKind;
  importFile: ChosenFile | null;
  /** What the last check of an exam file sent beside it; the apply sends the same. */
  importExam: ExamDetails | null;
  /** The last dry run's (or apply's) answer. */
  plan: ImportPlanResponse | null;
  importFailure: FailureCode | null;
  exams: ExamSummary[];
  document: DocumentRequest | null;
  downloaded: DownloadedFile | null;
  documentFailure: FailureCode | null;
  staff: StaffMember[];
  editor: StaffEditor | null;
  staffErrors: StaffFieldErrors;
  staffRequest: StaffRequest | null;
  staffFailure: FailureCode | null;
  staffOutcome: StaffOutcome | null;
  audit: DeploymentAuditEntry[];
}

export type AdministrationEvent =
  | { type: 'section.chosen'; section: Section }
  /** Load the section's list again (after a failure, or "Refresh"). */
  | { type: 'retry.requested' }
  | { type: 'pupils.searched'; query: PupilQuery }
  | { type: 'pupils.retried' }
  | { type: 'reissue.requested'; pupilId: number }
  | { type: 'reissue.confirmed' }
  | { type: 'reissue.cancelled' }
  | { type: 'import.kindChosen'; kind: PlanKind }
  | { type: 'import.fileChosen'; file: ChosenFile | null }
  | { type: 'import.checkRequested'; exam?: ExamDetails }
  | { type: 'import.applyRequested' }
  | { type: 'document.requested'; request: DocumentRequest }
  | { type: 'staff.addRequested' }
  | { type: 'staff.editRequested'; id: number }
  | { type: 'staff.passwordRequested'; id: number }
  | { type: 'staff.submitted'; values: StaffFormValues }
  | { type: 'staff.cancelled' };
