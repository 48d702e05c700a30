/**
 * The administration machine walked transition by transition: every section chosen from every
 * state, every call's outcome (the server's answers, a 401, a dropped connection) as an explicit
 * event of the path. Invariants: the section shown is the state's; an import is applied only
 * after a dry run that refused nothing; a re-issue is open only in its confirm step; the staff
 * form exactly while editing or saving; and what the console shows (administration.connect.ts)
 * matches the machine.
 */
import { expect } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import { connect, type AdministrationSnapshot } from '../../machines/administration/administration.connect.ts';
import { administrationMachine } from '../../machines/administration/administration.machine.ts';
import { canApply } from '../../machines/administration/administration.rules.ts';
import { sections, type AdministrationContext, type ImportPlan } from '../../machines/administration/administration.types.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';
import { never } from '../helpers/never.ts';
import { adminFixtures } from '../helpers/fake-administration.ts';
import { describeModel } from './suite.ts';

const machine = administrationMachine.provide({
  actors: {
    loadSchools: never(),
    searchPupils: never(),
    reissueCode: never(),
    runImport: never(),
    loadExams: never(),
    downloadDocument: never(),
    loadStaff: never(),
    saveStaff: never(),
    loadAudit: never(),
  },
});

/** A sample output that reads as its name in a path's description. */
function named<T extends object>(value: T, name: string): T {
  return Object.defineProperty(value, 'toJSON', { value: () => name, enumerable: false });
}

const { serverTime, school, pupil, exam, staffMember, admin, auditEntry } = adminFixtures;
const unauthorized = () => new ApiFailure('NOT_LOGGED_IN', 401);
const offline = () => new ApiFailure('NETWORK_ERROR');
const errors = (id: string) => [
  { type: `xstate.error.actor.${id}`, error: unauthorized() },
  { type: `xstate.error.actor.${id}`, error: offline() },
];
const contextOf = (snapshot: AnyMachineSnapshot) => snapshot.context as AdministrationContext;

const cleanPlan = (applied: boolean): ImportPlan =>
  named(
    { kind: 'schools', applied, summary: { create: 1, update: 0, unchanged: 0, refuse: 0 }, rows: [{ row: 2, key: 'SAKURA', outcome: 'create', problems: [] }], server_time: serverTime },
    applied ? 'applied plan' : 'clean plan',
  );
const refusedPlan: ImportPlan = named(
  {
    kind: 'schools',
    applied: false,
    summary: { create: 0, update: 0, unchanged: 0, refuse: 1 },
    rows: [{ row: 3, key: 'X', outcome: 'refuse', problems: [{ column: 'code', reason: 'required' }] }],
    server_time: serverTime,
  },
  'plan with a refusal',
);
const file = named({ name: 'schools.csv', size: 20, type: 'text/csv', blob: new Blob(['code,name\nSAKURA,Sakura\n']) }, 'schools.csv');

describeModel({
  name: 'administration',
  machine,
  inputs: [{ token: 'staff-token-1', loginId: admin.login_id }],
  samples: {
    // Every section from exam day (the root's transitions, each taken once), and back to exam day from anywhere.
    'section.chosen': (snapshot) =>
      snapshot.matches('examDay')
        ? sections.map((section) => ({ type: 'section.chosen', section }))
        : [{ type: 'section.chosen', section: 'examDay' }],
    'xstate.done.actor.loadSchools': [
      { type: 'xstate.done.actor.loadSchools', output: named({ schools: [school], server_time: serverTime }, '1 school') },
      { type: 'xstate.done.actor.loadSchools', output: named({ schools: [], server_time: serverTime }, 'no schools') },
    ],
    'xstate.error.actor.loadSchools': errors('loadSchools'),
    'pupils.searched': [
      { type: 'pupils.searched', query: { school: school.code, q: ' Amara ', venueId: null } },
      { type: 'pupils.searched', query: { school: 'NO-SUCH-SCHOOL', q: '', venueId: null } },
    ],
    'xstate.done.actor.searchPupils': [{ type: 'xstate.done.actor.searchPupils', output: named({ pupils: [pupil], server_time: serverTime }, '1 pupil') }],
    'xstate.error.actor.searchPupils': errors('searchPupils'),
    'reissue.requested': [
      { type: 'reissue.requested', pupilId: pupil.id },
      { type: 'reissue.requested', pupilId: 999 },
    ],
    'xstate.done.actor.reissueCode': [{ type: 'xstate.done.actor.reissueCode', output: named({ login_code: 'NEWC-ODE2-3456', server_time: serverTime }, 'new code') }],
    'xstate.error.actor.reissueCode': errors('reissueCode'),
    'import.kindChosen': [{ type: 'import.kindChosen', kind: 'pupils' }],
    'import.fileChosen': [
      { type: 'import.fileChosen', file },
      { type: 'import.fileChosen', file: null },
    ],
    'xstate.done.actor.checkImport': [
      { type: 'xstate.done.actor.checkImport', output: cleanPlan(false) },
      { type: 'xstate.done.actor.checkImport', output: refusedPlan },
    ],
    'xstate.error.actor.checkImport': errors('checkImport'),
    'xstate.done.actor.applyImport': [
      { type: 'xstate.done.actor.applyImport', output: cleanPlan(true) },
      { type: 'xstate.done.actor.applyImport', output: refusedPlan },
    ],
    'xstate.error.actor.applyImport': errors('applyImport'),
    'xstate.done.actor.loadExams': [{ type: 'xstate.done.actor.loadExams', output: named({ exams: [exam], server_time: serverTime }, '1 exam') }],
    'xstate.error.actor.loadExams': errors('loadExams'),
    'document.requested': [
      { type: 'document.requested', request: { kind: 'slips', scheduleCode: school.schedules[0]!.code, venueId: school.venues[0]!.id } },
      { type: 'document.requested', request: { kind: 'results', scheduleCode: 'NO-SUCH-PERIOD', venueId: null } },
    ],
    'xstate.done.actor.downloadDocument': [
      { type: 'xstate.done.actor.downloadDocument', output: named({ blob: new Blob(['%PDF']), fileName: 'slips.pdf' }, 'slips.pdf') },
    ],
    'xstate.error.actor.downloadDocument': errors('downloadDocument'),
    'xstate.done.actor.loadStaff': [
      { type: 'xstate.done.actor.loadStaff', output: named({ staff: [admin, staffMember], server_time: serverTime }, '2 staff') },
    ],
    'xstate.error.actor.loadStaff': errors('loadStaff'),
    'staff.editRequested': [
      { type: 'staff.editRequested', id: staffMember.id },
      { type: 'staff.editRequested', id: 999 },
    ],
    'staff.passwordRequested': [
      { type: 'staff.passwordRequested', id: staffMember.id },
      { type: 'staff.passwordRequested', id: 999 },
    ],
    'staff.submitted': (snapshot) => {
      const mode = contextOf(snapshot).editor?.mode;
      const valid =
        mode === 'add'
          ? { login_id: 'new.proctor', name: 'New Proctor', role: 'proctor', org_code: school.code, password: 'a long password' }
          : mode === 'password'
            ? { password: 'another long password' }
            : { name: 'Renamed', role: 'proctor', org_code: school.code, disabled: true };
      return [
        { type: 'staff.submitted', values: valid },
        { type: 'staff.submitted', values: { login_id: '', name: '', role: 'proctor', org_code: '', password: 'short' } },
      ];
    },
    'xstate.done.actor.saveStaff': [
      { type: 'xstate.done.actor.saveStaff', output: named({ staff: { ...staffMember, name: 'Renamed' }, server_time: serverTime }, 'member saved') },
    ],
    'xstate.error.actor.saveStaff': [
      { type: 'xstate.error.actor.saveStaff', error: unauthorized() },
      { type: 'xstate.error.actor.saveStaff', error: new ApiFailure('ER_DUP_ENTRY', 422) },
    ],
    'xstate.done.actor.loadAudit': [{ type: 'xstate.done.actor.loadAudit', output: named({ entries: [auditEntry], server_time: serverTime }, '1 entry') }],
    'xstate.error.actor.loadAudit': errors('loadAudit'),
  } satisfies Record<string, AnyEventObject[] | ((snapshot: AnyMachineSnapshot) => AnyEventObject[])>,
  // What the guards read (a section entered starts from nothing: these belong to the section shown).
  contextKey: (context) => {
    const c = context as unknown as AdministrationContext;
    return {
      schools: c.schools.length,
      pupils: c.pupils.length,
      file: c.importFile !== null,
      plan: c.plan === null ? null : c.plan.applied ? 'applied' : canApply(c.plan) ? 'clean' : 'refused',
      staff: c.staff.length,
      editor: c.editor?.mode ?? null,
    };
  },
  invariants: (snapshot) => {
    const context = contextOf(snapshot);
    const api = connect(snapshot as unknown as AdministrationSnapshot, () => {});
    // The section shown is the one the machine is in.
    expect(api.sessionEnded).toBe(snapshot.matches('sessionEnded'));
    // Ended: nothing more is sent or shown but the way to sign in again.
    if (snapshot.matches('sessionEnded')) return;
    expect(snapshot.matches(api.section)).toBe(true);
    // Apply is offered only after a dry run that refused nothing.
    if (api.imports.canApply) {
      expect(snapshot.matches({ imports: 'checked' })).toBe(true);
      expect(context.plan?.summary.refuse).toBe(0);
    }
    if (snapshot.matches({ imports: 'applying' })) expect(canApply(context.plan)).toBe(true);
    // A re-issue is open only from its confirm step on; the new code only once given.
    const reissuing = ['confirmingReissue', 'reissuing', 'reissueFailed', 'reissued'].some((s) => snapshot.matches({ schools: { ready: s } }));
    expect(context.reissue !== null).toBe(reissuing);
    expect(api.schools.reissue?.code ?? null).toBe(snapshot.matches({ schools: { ready: 'reissued' } }) ? 'NEWC-ODE2-3456' : null);
    // The staff form exactly while editing or saving; a request only while saving.
    const editing = snapshot.matches({ staff: { ready: 'editing' } }) || snapshot.matches({ staff: { ready: 'saving' } });
    expect(context.editor !== null).toBe(editing);
    expect(api.staff.editor !== null).toBe(editing);
    expect(context.staffRequest !== null).toBe(snapshot.matches({ staff: { ready: 'saving' } }));
    // Refusals come first in the rows shown.
    const rows = api.imports.plan?.rows ?? [];
    const firstKept = rows.findIndex((r) => r.outcome !== 'refuse');
    if (firstKept >= 0) expect(rows.slice(firstKept).every((r) => r.outcome !== 'refuse')).toBe(true);
  },
});
