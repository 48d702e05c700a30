/**
 * The administrator's console binding, in the chakra-ui/zag style: `connect(snapshot, send)` turns
 * a snapshot of the administration machine into exactly what the console's screens render and
 * the events they may send. Pure: no React, no DOM; strings are the screens' (Lingui), this gives
 * them facts and codes. Each section's part is built from the machine's state, so a button is
 * offered only where the machine takes its event.
 */
import type { SnapshotFrom } from 'xstate';
import type { DeploymentAuditEntry, StaffMember } from '../../contract/admin.ts';
import type { FailureCode } from '../shared/ports.ts';
import type { administrationMachine } from './administration.machine.ts';
import { acceptOf, canApply, rowsRefusalsFirst } from './administration.rules.ts';
import {
  examImportSubjects,
  importKinds,
  sections,
  type AdministrationEvent,
  type ChosenFile,
  type DocumentRequest,
  type DownloadedFile,
  type Exam,
  type ExamDetails,
  type ImportKind,
  type ImportPlan,
  type ImportRow,
  type Pupil,
  type PupilQuery,
  type School,
  type Section,
  type StaffEditor,
  type StaffFieldErrors,
  type StaffFormValues,
  type StaffOutcome,
} from './administration.types.ts';

export type AdministrationSnapshot = SnapshotFrom<typeof administrationMachine>;

type ListStatus = 'loading' | 'ready' | 'failed';

export interface AdministrationApi {
  section: Section;
  /** The navigation, in order; `current` is the section shown. */
  sections: Array<{ id: Section; current: boolean; choose(): void }>;
  /** A call the administrator waits for is under way (the progress bar). */
  busy: boolean;
  /** A call met a 401: the staff session is over (the console offers to sign in again). */
  sessionEnded: boolean;
  schools: {
    status: ListStatus;
    items: School[];
    failure: FailureCode | null;
    retry(): void;
    pupils: {
      status: 'idle' | 'searching' | 'failed' | 'ready';
      /** The last search asked for; null before any. */
      query: PupilQuery | null;
      items: Pupil[];
      failure: FailureCode | null;
      /** Takes only a school the list shows. */
      search(query: PupilQuery): void;
      retry(): void;
      /** Re-issue is offered on every row while nothing else is open. */
      canReissue: boolean;
      reissue(pupilId: number): void;
    };
    /** The confirm step of a re-issue, and the new code once given; null when none is open. */
    reissue: null | {
      name: string;
      status: 'confirming' | 'sending' | 'failed' | 'done';
      code: string | null;
      failure: FailureCode | null;
      confirm(): void;
      cancel(): void;
    };
  };
  imports: {
    kinds: readonly ImportKind[];
    kind: ImportKind;
    chooseKind(kind: ImportKind): void;
    /** The file picker's `accept` for the kind. */
    accept: string;
    file: { name: string; size: number } | null;
    chooseFile(file: ChosenFile | null): void;
    status: 'choosing' | 'checking' | 'checked' | 'checkFailed' | 'applying' | 'applyFailed' | 'applied';
    /** Choosing another kind or file is possible (no call under way). */
    canChoose: boolean;
    canCheck: boolean;
    /** `exam`: an exam file's subject, level and level name, as typed (each null: as the file says). */
    check(exam?: ExamDetails): void;
    /** The subjects an exam import may name (their ids, as the query sends them). */
    examSubjects: readonly string[];
    /** What the last check of an exam file sent beside it. */
    exam: ExamDetails | null;
    /** Only after a dry run that refused nothing. */
    canApply: boolean;
    apply(): void;
    /** The last plan, rows with refusals first; null before a dry run. */
    plan: null | { applied: boolean; summary: ImportPlan['summary']; rows: ImportRow[]; refused: number };
    failure: FailureCode | null;
  };
  exams: { status: ListStatus; items: Exam[]; failure: FailureCode | null; retry(): void };
  documents: {
    status: ListStatus;
    schools: School[];
    failure: FailureCode | null;
    retry(): void;
    download: {
      status: 'idle' | 'downloading' | 'failed' | 'done';
      request: DocumentRequest | null;
      file: DownloadedFile | null;
      failure: FailureCode | null;
      /** A document of a test period the list shows. */
      ask(request: DocumentRequest): void;
      retry(): void;
      canAsk: boolean;
    };
  };
  staff: {
    status: ListStatus;
    items: Array<StaffMember & { self: boolean }>;
    failure: FailureCode | null;
    retry(): void;
    /** Add, edit and set a password are offered while no form is open. */
    canChange: boolean;
    add(): void;
    edit(id: number): void;
    setPassword(id: number): void;
    editor: null | {
      mode: StaffEditor['mode'];
      /** The member edited; null when adding. */
      member: (StaffMember & { self: boolean }) | null;
      errors: StaffFieldErrors;
      failure: FailureCode | null;
      saving: boolean;
      submit(values: StaffFormValues): void;
      cancel(): void;
    };
    /** What the last change did (the status line); null before any. */
    outcome: StaffOutcome | null;
  };
  audit: { status: ListStatus; entries: DeploymentAuditEntry[]; failure: FailureCode | null; retry(): void };
}

export function selectSection(snapshot: AdministrationSnapshot): Section {
  return sections.find((s) => snapshot.matches(s)) ?? 'examDay';
}

export function connect(snapshot: AdministrationSnapshot, send: (event: AdministrationEvent) => void): AdministrationApi {
  const { context } = snapshot;
  const section = selectSection(snapshot);
  const listStatus = (of: Section): ListStatus =>
    snapshot.matches({ [of]: 'ready' }) ? 'ready' : snapshot.matches({ [of]: 'failed' }) ? 'failed' : 'loading';
  type SchoolsState = 'idle' | 'searching' | 'searchFailed' | 'found' | 'confirmingReissue' | 'reissuing' | 'reissueFailed' | 'reissued';
  const inSchools = (state: SchoolsState) => snapshot.matches({ schools: { ready: state } });
  const inImports = (state: AdministrationApi['imports']['status']) => snapshot.matches({ imports: state });
  const inDocuments = (state: 'idle' | 'downloading' | 'downloadFailed' | 'downloaded') => snapshot.matches({ documents: { ready: state } });
  const inStaff = (state: 'idle' | 'editing' | 'saving') => snapshot.matches({ staff: { ready: state } });
  const retry = () => send({ type: 'retry.requested' });
  const failureOf = (of: Section) => (listStatus(of) === 'failed' ? context.failure : null);

  const importStatus: AdministrationApi['imports']['status'] =
    (['checking', 'checked', 'checkFailed', 'applying', 'applyFailed', 'applied'] as const).find((s) => inImports(s)) ?? 'choosing';
  const pupilsStatus: AdministrationApi['schools']['pupils']['status'] = inSchools('searching')
    ? 'searching'
    : inSchools('searchFailed')
      ? 'failed'
      : inSchools('idle')
        ? 'idle'
        : 'ready';
  const reissueStatus = inSchools('confirmingReissue')
    ? 'confirming'
    : inSchools('reissuing')
      ? 'sending'
      : inSchools('reissueFailed')
        ? 'failed'
        : inSchools('reissued')
          ? 'done'
          : null;
  const withSelf = (member: StaffMember) => ({ ...member, self: member.login_id === context.loginId });
  const editor = context.editor;
  const editedMember = editor && editor.mode !== 'add' ? context.staff.find((s) => s.id === editor.id) : undefined;
  const downloadStatus = inDocuments('downloading') ? 'downloading' : inDocuments('downloadFailed') ? 'failed' : inDocuments('downloaded') ? 'done' : 'idle';

  return {
    section,
    sections: sections.map((id) => ({ id, current: id === section, choose: () => send({ type: 'section.chosen', section: id }) })),
    busy: snapshot.hasTag('busy'),
    sessionEnded: snapshot.matches('sessionEnded'),
    schools: {
      status: listStatus('schools'),
      items: context.schools,
      failure: failureOf('schools'),
      retry,
      pupils: {
        status: pupilsStatus,
        query: context.pupilQuery,
        items: pupilsStatus === 'idle' ? [] : context.pupils,
        failure: pupilsStatus === 'failed' ? context.pupilsFailure : null,
        search: (query) => send({ type: 'pupils.searched', query }),
        retry: () => send({ type: 'pupils.retried' }),
        canReissue: inSchools('found'),
        reissue: (pupilId) => send({ type: 'reissue.requested', pupilId }),
      },
      reissue:
        reissueStatus && context.reissue
          ? {
              name: context.reissue.name,
              status: reissueStatus,
              code: reissueStatus === 'done' ? context.reissue.code : null,
              failure: reissueStatus === 'failed' ? context.reissueFailure : null,
              confirm: () => send({ type: 'reissue.confirmed' }),
              cancel: () => send({ type: 'reissue.cancelled' }),
            }
          : null,
    },
    imports: {
      kinds: importKinds,
      kind: context.importKind,
      chooseKind: (kind) => send({ type: 'import.kindChosen', kind }),
      accept: acceptOf(context.importKind),
      file: context.importFile ? { name: context.importFile.name, size: context.importFile.size } : null,
      chooseFile: (file) => send({ type: 'import.fileChosen', file }),
      status: importStatus,
      canChoose: importStatus !== 'checking' && importStatus !== 'applying',
      canCheck: context.importFile !== null && importStatus !== 'checking' && importStatus !== 'applying',
      check: (exam) => send(exam && context.importKind === 'exam' ? { type: 'import.checkRequested', exam } : { type: 'import.checkRequested' }),
      examSubjects: examImportSubjects,
      exam: context.importKind === 'exam' ? context.importExam : null,
      canApply: importStatus === 'checked' && canApply(context.plan),
      apply: () => send({ type: 'import.applyRequested' }),
      plan: context.plan
        ? {
            applied: context.plan.applied,
            summary: context.plan.summary,
            rows: rowsRefusalsFirst(context.plan.rows),
            refused: context.plan.summary.refuse,
          }
        : null,
      failure: importStatus === 'checkFailed' || importStatus === 'applyFailed' ? context.importFailure : null,
    },
    exams: { status: listStatus('exams'), items: context.exams, failure: failureOf('exams'), retry },
    documents: {
      status: listStatus('documents'),
      schools: context.schools,
      failure: failureOf('documents'),
      retry,
      download: {
        status: downloadStatus,
        request: downloadStatus === 'idle' ? null : context.document,
        file: downloadStatus === 'done' ? context.downloaded : null,
        failure: downloadStatus === 'failed' ? context.documentFailure : null,
        ask: (request) => send({ type: 'document.requested', request }),
        retry,
        canAsk: listStatus('documents') === 'ready' && downloadStatus !== 'downloading',
      },
    },
    staff: {
      status: listStatus('staff'),
      items: context.staff.map(withSelf),
      failure: failureOf('staff'),
      retry,
      canChange: inStaff('idle'),
      add: () => send({ type: 'staff.addRequested' }),
      edit: (id) => send({ type: 'staff.editRequested', id }),
      setPassword: (id) => send({ type: 'staff.passwordRequested', id }),
      editor:
        editor && (inStaff('editing') || inStaff('saving'))
          ? {
              mode: editor.mode,
              member: editedMember ? withSelf(editedMember) : null,
              errors: context.staffErrors,
              failure: context.staffFailure,
              saving: inStaff('saving'),
              submit: (values) => send({ type: 'staff.submitted', values }),
              cancel: () => send({ type: 'staff.cancelled' }),
            }
          : null,
      outcome: context.staffOutcome,
    },
    audit: { status: listStatus('audit'), entries: context.audit, failure: failureOf('audit'), retry },
  };
}
