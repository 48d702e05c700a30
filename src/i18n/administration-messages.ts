/**
 * What the administrator's console says for the codes it is given: the sections of its
 * navigation, the kinds of import, a plan row's outcome, a staff role, and one message per
 * import refusal reason (contract/imports.ts `importReasons`; a reason added there without a
 * message here is a type error). Descriptors picked by code, as failure-messages.ts does.
 */
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { AuditAction, StaffRole } from '../../contract/admin.ts';
import type { ImportKind, ImportOutcome, ImportReason, Section } from '../../machines/administration/administration.types.ts';

export const sectionLabels: Record<Section, MessageDescriptor> = {
  examDay: msg`Exam day`,
  schools: msg`Schools and pupils`,
  imports: msg`Imports`,
  exams: msg`Exams`,
  documents: msg`Login slips and results`,
  staff: msg`Staff`,
  audit: msg`Audit log`,
};

export const importKindLabels: Record<ImportKind, MessageDescriptor> = {
  schools: msg`Schools`,
  venues: msg`Classrooms`,
  schedules: msg`Test periods`,
  pupils: msg`Pupils`,
  exam: msg`An exam (JSON or IMS QTI 3.0 package)`,
};

export const outcomeLabels: Record<ImportOutcome, MessageDescriptor> = {
  create: msg`New`,
  update: msg`Changed`,
  unchanged: msg`Unchanged`,
  refuse: msg`Refused`,
};

export const roleLabels: Record<StaffRole, MessageDescriptor> = {
  admin: msg`Administrator`,
  proctor: msg`Proctor`,
};

export const importReasonMessages: Record<ImportReason, MessageDescriptor> = {
  too_large: msg`The file is too large.`,
  encoding: msg`The file is not UTF-8 text. Save it as "CSV UTF-8" and try again.`,
  empty_file: msg`The file is empty.`,
  missing_column: msg`A required column is missing.`,
  unknown_column: msg`This column is not one Gradus knows.`,
  duplicate_column: msg`This column appears twice.`,
  required: msg`A value is required here.`,
  invalid: msg`This value is not valid.`,
  too_long: msg`This value is too long.`,
  bad_date: msg`This is not a valid date and time.`,
  bad_window: msg`The end must be after the start.`,
  unknown_school: msg`No school has this code.`,
  unknown_classroom: msg`The school has no classroom of this name.`,
  unknown_schedule: msg`No test period has this code.`,
  unknown_exam: msg`No exam has this code.`,
  duplicate_in_file: msg`This appears more than once in the file.`,
  duplicate_login_id: msg`This login ID belongs to another pupil.`,
  duplicate_login_code: msg`This login code belongs to another pupil.`,
  started_cannot_change: msg`Pupils have already started this, so it cannot be changed.`,
  bad_zip: msg`The file is not a valid zip package.`,
  zip_bomb: msg`The package unpacks to far more data than allowed.`,
  path_outside_package: msg`The package points to a file outside itself.`,
  missing_manifest: msg`The package has no imsmanifest.xml.`,
  missing_file: msg`A file the package lists is missing.`,
  bad_xml: msg`The XML cannot be read.`,
  external_entity: msg`The XML declares external entities, which are not allowed.`,
  unsupported_interaction: msg`This type of question is not supported.`,
  missing_key: msg`This question has no correct answer.`,
  bad_key: msg`The correct answer does not match the question.`,
  unknown_level: msg`This level does not exist for the subject.`,
  bad_json: msg`The JSON cannot be read.`,
};

/** Every audit action, for the deployment's audit log. */
export const auditActionLabels: Record<AuditAction, MessageDescriptor> = {
  move_terminal: msg`Moved to another terminal`,
  retake: msg`Reset for a retake`,
  extend: msg`Time extended`,
  extend_room: msg`Time extended for a room`,
  outage_credit: msg`Time credited for a server outage`,
  maintenance_credit: msg`Time credited for maintenance`,
  staff_create: msg`Staff member added`,
  staff_update: msg`Staff member changed`,
  import: msg`Import applied`,
  code_reissue: msg`Login code re-issued`,
  slips_print: msg`Login slips printed`,
  results_export: msg`Results exported`,
};
