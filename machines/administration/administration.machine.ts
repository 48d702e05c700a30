/**
 * The administration machine: the administrator's console on /proctor, run by the proctor machine
 * as its child `administration` while an administrator is signed in (a proctor never has one).
 * Exam day itself (schedules, roster, actions) stays the proctor machine's; this one owns the other
 * sections and which one is shown.
 *
 * Top states, one per section of the navigation: examDay (nothing of its own: the proctor
 * machine's schedules and roster) | schools (the list, a pupil search, a login code re-issued
 * after a confirm step) | imports (kind and file -> dry run -> apply when nothing is refused) |
 * exams | documents (login slips and results of a test period, as files) | staff (the list, a
 * form to add, edit or set a password) | audit (the deployment's entries); sessionEnded (final:
 * the server said 401; the console says so and offers the proctor machine's sign-out).
 *
 * Invariants:
 * - every call carries the staff token; a 401 on any of them ends the machine (`sessionEnded`);
 * - an import is applied only after a dry run of the same kind and file that refused nothing,
 *   and a new kind or file forgets the last plan;
 * - a login code is re-issued only after its confirm step, for a pupil the search shows;
 * - a staff change is sent only when the contract's schema takes it;
 * - a section is entered afresh: what the last one had (a list, a search, a file and its plan,
 *   a confirm step, a form) is dropped, and the section loads its list again.
 */
import { assign, setup } from 'xstate';
import type { DeploymentAuditResponse, StaffListResponse, StaffMemberResponse } from '../../contract/admin.ts';
import type { ExamsResponse, PupilsResponse, ReissueCodeResponse, SchoolsResponse } from '../../contract/imports.ts';
import { listStates as staffListStates } from '../shared/list-states.ts';
import { errorOf, failureOfEvent } from '../shared/ports.ts';
import { unprovided } from '../shared/unprovided.ts';
import { canApply, checkStaffForm, isUnauthorized } from './administration.rules.ts';
import { sections } from './administration.types.ts';
import type {
  AdministrationContext,
  AdministrationEvent,
  AdministrationInput,
  ChosenFile,
  ExamDetails,
  DocumentRequest,
  DownloadedFile,
  ImportKind,
  ImportPlan,
  PupilQuery,
  Section,
  StaffRequest,
} from './administration.types.ts';

/** A call's answer as an action's or a guard's typed parameter (for transitions written outside the machine's config). */
const outputOf =
  <T>() =>
  ({ event }: { event: { output: T } }) =>
    event.output;

/** A 401 from any call: the staff session is over. */
const endOnRefusal = { guard: 'isUnauthorized', target: '#administration.sessionEnded' } as const;

/**
 * A busy state that invokes one of the console's calls (also the invoke's id) with `input`: its
 * answer goes to `done`, a 401 ends the console, any other failure goes to `failed` with `keepFailure`.
 */
function callState<const S extends string, const I, const D, const F extends string, const A extends string>(
  src: S,
  input: I,
  done: D,
  failed: F,
  keepFailure: A,
) {
  return {
    tags: ['busy'],
    invoke: { id: src, src, input, onDone: done, onError: [endOnRefusal, { target: failed, actions: keepFailure }] },
  } as const;
}

/** A call's input: the staff token, then what the call asks of the context. */
const withToken =
  <T extends object>(ask: (context: AdministrationContext) => T) =>
  ({ context }: { context: AdministrationContext }) => ({ token: context.token, ...ask(context) });

type Loader = 'loadSchools' | 'loadExams' | 'loadStaff' | 'loadAudit';
type Assigner = 'assignSchools' | 'assignExams' | 'assignStaff' | 'assignAudit';
type ListOutput = { loadSchools: SchoolsResponse; loadExams: ExamsResponse; loadStaff: StaffListResponse; loadAudit: DeploymentAuditResponse };

/** A section's list: loading (busy) -> ready ("Refresh" loads again) | failed ("Try again"); a 401 ends the console. */
function listStates<const S extends Loader, const A extends Assigner, const R extends object>(src: S, assignList: A, ready: R) {
  const input = ({ context }: { context: AdministrationContext }) => ({ token: context.token });
  const keep = { type: assignList, params: outputOf<ListOutput[S]>() };
  return staffListStates({ src, input, keep, refusal: endOnRefusal, ready });
}

const searchOn = {
  'pupils.searched': { guard: 'isValidSearch', target: '#administration.schools.ready.searching', actions: 'assignPupilQuery' },
} as const;

const importChoiceOn = {
  'import.kindChosen': { target: '#administration.imports.choosing', actions: 'assignImportKind' },
  'import.fileChosen': { target: '#administration.imports.choosing', actions: 'assignImportFile' },
} as const;

const reissueOn = {
  'reissue.confirmed': 'reissuing',
  'reissue.cancelled': { target: 'found', actions: 'clearReissue' },
} as const;

const documentOn = {
  'document.requested': { guard: 'isKnownSchedule', target: '#administration.documents.ready.downloading', actions: 'assignDocument' },
} as const;

/**
 * Every section as it starts: no list, search, file, plan, confirm step or form. The machine
 * starts so, and a section chosen starts so again (its list loads on entry).
 */
const sectionsAfresh = (): Omit<AdministrationContext, 'token' | 'loginId'> => ({
  failure: null,
  schools: [],
  pupilQuery: null,
  pupils: [],
  pupilsFailure: null,
  reissue: null,
  reissueFailure: null,
  importKind: 'schools',
  importFile: null,
  importExam: null,
  plan: null,
  importFailure: null,
  exams: [],
  document: null,
  downloaded: null,
  documentFailure: null,
  staff: [],
  editor: null,
  staffErrors: {},
  staffRequest: null,
  staffFailure: null,
  staffOutcome: null,
  audit: [],
});

export const administrationMachine = setup({
  types: {
    context: {} as AdministrationContext,
    events: {} as AdministrationEvent,
    input: {} as AdministrationInput,
  },
  actors: {
    /** GET /admin/schools. */
    loadSchools: unprovided<SchoolsResponse, { token: string }>('loadSchools', 'administration.actors.ts'),
    /** GET /admin/pupils?school=&q=&venue=. */
    searchPupils: unprovided<PupilsResponse, { token: string; query: PupilQuery }>('searchPupils', 'administration.actors.ts'),
    /** POST /admin/pupils/:id/reissue-code. */
    reissueCode: unprovided<ReissueCodeResponse, { token: string; pupilId: number }>('reissueCode', 'administration.actors.ts'),
    /** POST /admin/imports/:kind (?apply=1): the file's bytes raw. */
    runImport: unprovided<ImportPlan, { token: string; kind: ImportKind; file: ChosenFile; exam: ExamDetails | null; apply: boolean }>('runImport', 'administration.actors.ts'),
    /** GET /admin/exams. */
    loadExams: unprovided<ExamsResponse, { token: string }>('loadExams', 'administration.actors.ts'),
    /** GET /admin/schedules/:code/slips.pdf or results.csv (?venue=). */
    downloadDocument: unprovided<DownloadedFile, { token: string; request: DocumentRequest }>('downloadDocument', 'administration.actors.ts'),
    /** GET /admin/staff. */
    loadStaff: unprovided<StaffListResponse, { token: string }>('loadStaff', 'administration.actors.ts'),
    /** POST /admin/staff or PATCH /admin/staff/:id. */
    saveStaff: unprovided<StaffMemberResponse, { token: string; request: StaffRequest }>('saveStaff', 'administration.actors.ts'),
    /** GET /admin/audit/deployment. */
    loadAudit: unprovided<DeploymentAuditResponse, { token: string }>('loadAudit', 'administration.actors.ts'),
  },
  actions: {
    assignFailure: assign({ failure: failureOfEvent }),
    assignSchools: assign((_, answer: SchoolsResponse) => ({ schools: answer.schools, failure: null })),
    assignExams: assign((_, answer: ExamsResponse) => ({ exams: answer.exams, failure: null })),
    assignStaff: assign((_, answer: StaffListResponse) => ({ staff: answer.staff, failure: null })),
    assignAudit: assign((_, answer: DeploymentAuditResponse) => ({ audit: answer.entries, failure: null })),
    /** A section entered afresh: nothing of the last one is kept (its lists load again on entry). */
    leaveSection: assign(sectionsAfresh),
    assignPupilQuery: assign(({ event }) =>
      event.type === 'pupils.searched' ? { pupilQuery: { ...event.query, q: event.query.q.trim() }, pupilsFailure: null, reissue: null } : {},
    ),
    assignPupils: assign((_, answer: PupilsResponse) => ({ pupils: answer.pupils, pupilsFailure: null })),
    assignPupilsFailure: assign({ pupilsFailure: failureOfEvent }),
    assignReissue: assign(({ context, event }) => {
      if (event.type !== 'reissue.requested') return {};
      const pupil = context.pupils.find((p) => p.id === event.pupilId);
      return pupil ? { reissue: { pupilId: pupil.id, name: pupil.name, code: null }, reissueFailure: null } : {};
    }),
    clearReissue: assign({ reissue: null, reissueFailure: null }),
    /** The new code: shown once in the confirm step, and in the pupil's row (the old one no longer works). */
    assignReissued: assign(({ context }, answer: ReissueCodeResponse) => {
      const code = answer.login_code;
      const pupilId = context.reissue?.pupilId;
      return {
        reissue: context.reissue ? { ...context.reissue, code } : null,
        pupils: context.pupils.map((p) => (p.id === pupilId ? { ...p, login_code: code } : p)),
        reissueFailure: null,
      };
    }),
    assignReissueFailure: assign({ reissueFailure: failureOfEvent }),
    assignImportKind: assign(({ event }) => (event.type === 'import.kindChosen' ? { importKind: event.kind, importFile: null, plan: null, importFailure: null } : {})),
    assignExamDetails: assign(({ event }) => (event.type === 'import.checkRequested' ? { importExam: event.exam ?? null } : {})),
    assignImportFile: assign(({ event }) => (event.type === 'import.fileChosen' ? { importFile: event.file, plan: null, importFailure: null } : {})),
    assignPlan: assign((_, plan: ImportPlan) => ({ plan, importFailure: null })),
    assignImportFailure: assign({ importFailure: failureOfEvent }),
    assignDocument: assign(({ event }) =>
      event.type === 'document.requested' ? { document: event.request, downloaded: null, documentFailure: null } : {},
    ),
    assignDownloaded: assign((_, downloaded: DownloadedFile) => ({ downloaded, documentFailure: null })),
    assignDocumentFailure: assign({ documentFailure: failureOfEvent }),
    openEditor: assign(({ event }) => {
      const editor =
        event.type === 'staff.addRequested'
          ? { mode: 'add' as const }
          : event.type === 'staff.editRequested'
            ? { mode: 'edit' as const, id: event.id }
            : event.type === 'staff.passwordRequested'
              ? { mode: 'password' as const, id: event.id }
              : null;
      return { editor, staffErrors: {}, staffRequest: null, staffFailure: null, staffOutcome: null };
    }),
    assignStaffRequest: assign(({ context, event }) => {
      if (event.type !== 'staff.submitted' || !context.editor) return {};
      const checked = checkStaffForm(context.editor, event.values, memberOf(context));
      return checked.ok ? { staffRequest: checked.request, staffErrors: {}, staffFailure: null } : {};
    }),
    assignStaffErrors: assign(({ context, event }) => {
      if (event.type !== 'staff.submitted' || !context.editor) return {};
      const checked = checkStaffForm(context.editor, event.values, memberOf(context));
      return { staffErrors: checked.ok ? {} : checked.fields, staffFailure: null };
    }),
    /** The member the server answered replaces (or joins) the list; the form closes. */
    assignSavedMember: assign(({ context }, answer: StaffMemberResponse) => {
      const member = answer.staff;
      const known = context.staff.some((s) => s.id === member.id);
      return {
        staff: known ? context.staff.map((s) => (s.id === member.id ? member : s)) : [...context.staff, member],
        staffOutcome: { mode: context.editor?.mode ?? 'edit', name: member.name },
        editor: null,
        staffRequest: null,
        staffErrors: {},
        staffFailure: null,
      };
    }),
    assignStaffFailure: assign({ staffFailure: failureOfEvent, staffRequest: null }),
    closeEditor: assign({ editor: null, staffErrors: {}, staffRequest: null, staffFailure: null }),
  },
  guards: {
    isSection: ({ event }, params: { section: Section }) => event.type === 'section.chosen' && event.section === params.section,
    isUnauthorized: ({ event }) => isUnauthorized(errorOf(event)),
    isValidSearch: ({ context, event }) =>
      event.type === 'pupils.searched' && context.schools.some((s) => s.code === event.query.school),
    isKnownPupil: ({ context, event }) => event.type === 'reissue.requested' && context.pupils.some((p) => p.id === event.pupilId),
    hasFile: ({ context }) => context.importFile !== null,
    canApply: ({ context }) => canApply(context.plan),
    wasApplied: (_, plan: ImportPlan) => plan.applied,
    isKnownSchedule: ({ context, event }) =>
      event.type === 'document.requested' &&
      context.schools.some(
        (school) =>
          school.schedules.some((s) => s.code === event.request.scheduleCode) &&
          (event.request.venueId === null || school.venues.some((venue) => venue.id === event.request.venueId)),
      ),
    isKnownMember: ({ context, event }) =>
      (event.type === 'staff.editRequested' || event.type === 'staff.passwordRequested') && context.staff.some((s) => s.id === event.id),
    isValidStaffForm: ({ context, event }) =>
      event.type === 'staff.submitted' && context.editor !== null && checkStaffForm(context.editor, event.values, memberOf(context)).ok,
  },
}).createMachine({
  id: 'administration',
  context: ({ input }) => ({
    token: input.token,
    loginId: input.loginId,
    ...sectionsAfresh(),
  }),
  initial: 'examDay',
  on: {
    // A section is entered afresh, the one shown too (its list loads again: a refresh).
    'section.chosen': sections.map((section) => ({ guard: { type: 'isSection', params: { section } }, target: `.${section}`, actions: 'leaveSection' }) as const),
  },
  states: {
    examDay: {},
    schools: listStates('loadSchools', 'assignSchools', {
      initial: 'idle',
      states: {
        // "Refresh" reloads the schools, but never in the middle of a re-issue or a search.
        idle: { on: { ...searchOn, 'retry.requested': '#administration.schools.loading' } },
        searching: callState('searchPupils', withToken((c) => ({ query: c.pupilQuery! })), { target: 'found', actions: { type: 'assignPupils', params: outputOf<PupilsResponse>() } }, 'searchFailed', 'assignPupilsFailure'),
        searchFailed: { tags: ['error'], on: { ...searchOn, 'pupils.retried': 'searching' } },
        found: {
          on: {
            ...searchOn,
            'retry.requested': '#administration.schools.loading',
            'reissue.requested': { guard: 'isKnownPupil', target: 'confirmingReissue', actions: 'assignReissue' },
          },
        },
        confirmingReissue: {
          on: reissueOn,
        },
        reissuing: callState('reissueCode', withToken((c) => ({ pupilId: c.reissue!.pupilId })), { target: 'reissued', actions: { type: 'assignReissued', params: outputOf<ReissueCodeResponse>() } }, 'reissueFailed', 'assignReissueFailure'),
        // "Try again" may re-issue twice: harmless, the newest code is the one shown and kept.
        reissueFailed: {
          tags: ['error'],
          on: reissueOn,
        },
        reissued: { on: { 'reissue.cancelled': { target: 'found', actions: 'clearReissue' } } },
      },
    }),
    imports: {
      initial: 'choosing',
      states: {
        choosing: {
          on: { ...importChoiceOn, 'import.checkRequested': { guard: 'hasFile', target: 'checking', actions: 'assignExamDetails' } },
        },
        checking: {
          tags: ['busy'],
          invoke: {
            id: 'checkImport',
            src: 'runImport',
            input: ({ context }) => ({ token: context.token, kind: context.importKind, file: context.importFile!, exam: context.importExam, apply: false }),
            onDone: { target: 'checked', actions: { type: 'assignPlan', params: ({ event }) => event.output } },
            onError: [endOnRefusal, { target: 'checkFailed', actions: 'assignImportFailure' }],
          },
        },
        checkFailed: { tags: ['error'], on: { ...importChoiceOn, 'import.checkRequested': { target: 'checking', actions: 'assignExamDetails' } } },
        checked: {
          on: {
            ...importChoiceOn,
            'import.checkRequested': { target: 'checking', actions: 'assignExamDetails' },
            'import.applyRequested': { guard: 'canApply', target: 'applying' },
          },
        },
        applying: {
          tags: ['busy'],
          invoke: {
            id: 'applyImport',
            src: 'runImport',
            input: ({ context }) => ({ token: context.token, kind: context.importKind, file: context.importFile!, exam: context.importExam, apply: true }),
            onDone: [
              {
                guard: { type: 'wasApplied', params: ({ event }) => event.output },
                target: 'applied',
                actions: { type: 'assignPlan', params: ({ event }) => event.output },
              },
              // The data changed since the dry run: the server refused and applied nothing; its plan says why.
              { target: 'checked', actions: { type: 'assignPlan', params: ({ event }) => event.output } },
            ],
            onError: [endOnRefusal, { target: 'applyFailed', actions: 'assignImportFailure' }],
          },
        },
        // Nothing is known to be applied: check again (a repeated apply of the same file changes nothing).
        applyFailed: { tags: ['error'], on: { ...importChoiceOn, 'import.checkRequested': { target: 'checking', actions: 'assignExamDetails' } } },
        applied: { on: importChoiceOn },
      },
    },
    exams: listStates('loadExams', 'assignExams', { on: { 'retry.requested': 'loading' } }),
    documents: listStates('loadSchools', 'assignSchools', {
      initial: 'idle',
      states: {
        idle: { on: { ...documentOn, 'retry.requested': '#administration.documents.loading' } },
        downloading: callState('downloadDocument', withToken((c) => ({ request: c.document! })), { target: 'downloaded', actions: { type: 'assignDownloaded', params: outputOf<DownloadedFile>() } }, 'downloadFailed', 'assignDocumentFailure'),
        downloadFailed: { tags: ['error'], on: { ...documentOn, 'retry.requested': 'downloading' } },
        downloaded: { on: documentOn },
      },
    }),
    staff: listStates('loadStaff', 'assignStaff', {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'retry.requested': '#administration.staff.loading',
            'staff.addRequested': { target: 'editing', actions: 'openEditor' },
            'staff.editRequested': { guard: 'isKnownMember', target: 'editing', actions: 'openEditor' },
            'staff.passwordRequested': { guard: 'isKnownMember', target: 'editing', actions: 'openEditor' },
          },
        },
        editing: {
          on: {
            'staff.submitted': [
              { guard: 'isValidStaffForm', target: 'saving', actions: 'assignStaffRequest' },
              { actions: 'assignStaffErrors' },
            ],
            'staff.cancelled': { target: 'idle', actions: 'closeEditor' },
          },
        },
        // A failure keeps the form open with the server's reason (a login id taken, an unknown organisation).
        saving: callState('saveStaff', withToken((c) => ({ request: c.staffRequest! })), { target: 'idle', actions: { type: 'assignSavedMember', params: outputOf<StaffMemberResponse>() } }, 'editing', 'assignStaffFailure'),
      },
    }),
    audit: listStates('loadAudit', 'assignAudit', { on: { 'retry.requested': 'loading' } }),
    sessionEnded: { type: 'final' },
  },
});

function memberOf(context: AdministrationContext) {
  const editor = context.editor;
  return editor && editor.mode !== 'add' ? context.staff.find((s) => s.id === editor.id) : undefined;
}
