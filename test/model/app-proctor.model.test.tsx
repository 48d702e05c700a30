// @vitest-environment jsdom
/**
 * The proctor page at the UI level (ARCHITECTURE.md): an abstract model of what a proctor sees and does
 * on /proctor, where the server's answers, a dropped connection, the end of the staff session
 * and the 5-second poll timer are explicit events. Its shortest paths (every transition,
 * self-transitions included) drive the real app: the real kiosk machine (which runs the proctor
 * machine at /proctor), the real router and the proctor screens, over an admin API whose calls
 * wait for the path to say how they end (test/helpers/fake-admin.ts) and a SimulatedClock for the
 * polls. Every state checks what is on screen; while the paths run, the proctor machine's
 * transitions are recorded and reported as `model coverage proctor (through the app)`, which
 * must be all of them.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createMachine } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { POLL_BACKOFF_MAX_MS, proctorMachine } from '../../machines/proctor/proctor.machine.ts';
import { storageKeys, writeStaffToken } from '../../machines/shared/storage.ts';
import { createControlledApi } from '../helpers/controlled-api.ts';
import { STAFF_PASSWORD, createControlledAdmin, demoStaff, rooms, type AdminCall, type ControlledAdmin } from '../helpers/fake-admin.ts';
import { renderKioskApp } from '../helpers/render-app.tsx';
import { memoryStorage } from '../helpers/memory-storage.ts';
import { CoverageRecorder, allTransitions, recordByMachine } from './harness.ts';

/** What the proctor sees and does; the server's answers and the poll timer are events too. */
const proctorModel = createMachine({
  id: 'proctorPage',
  initial: 'opening',
  states: {
    opening: {
      on: {
        'proctor.opensPage': 'signedOut',
        'proctor.opensPageSignedIn': 'restoring',
      },
    },
    restoring: {
      on: {
        'server.knowsToken': 'loadingSchedules',
        'server.endsStaffSession': 'sessionEnded',
        'network.fails': 'restoreFailed',
      },
    },
    restoreFailed: {
      on: {
        'proctor.triesAgain': 'restoring',
        'proctor.signsInAgain': 'signedOutAgain',
      },
    },
    signedOut: {
      on: {
        'proctor.sendsEmptyForm': 'loginFieldsMissing',
        'proctor.signsIn': 'signingIn',
      },
    },
    loginFieldsMissing: { on: { 'proctor.signsIn': 'signingIn' } },
    signingIn: {
      on: {
        'server.refusesPassword': 'loginRefused',
        'server.acceptsLogin': 'loadingSchedules',
      },
    },
    loginRefused: { on: { 'proctor.signsIn': 'signingIn' } },
    sessionEnded: { on: { 'proctor.signsIn': 'signingIn' } },
    loadingSchedules: {
      on: {
        'server.sendsSchedules': 'schedules',
        'network.fails': 'schedulesFailed',
        'server.endsStaffSession': 'sessionEnded',
      },
    },
    schedulesFailed: { on: { 'proctor.triesAgain': 'loadingSchedules' } },
    schedules: {
      on: {
        'proctor.choosesSchedule': 'loadingRoster',
        'proctor.refreshesSchedules': 'loadingSchedules',
        'proctor.signsOut': 'signingOut',
      },
    },
    loadingRoster: {
      on: {
        'server.sendsRoster': 'roster',
        'network.fails': 'rosterNotLoaded',
        'server.endsStaffSession': 'sessionEnded',
      },
    },
    // The first roster did not come: the page says so and keeps trying.
    rosterNotLoaded: {
      on: {
        'clock.pollTimeElapses': 'loadingRoster',
      },
    },
    roster: {
      on: {
        'clock.pollTimeElapses': 'polling',
        'proctor.choosesRoom': 'loadingRoom',
        // Each shows some of the pupils, then everyone again.
        'proctor.filtersByState': 'roster',
        'proctor.searches': 'roster',
        'proctor.asksToMove': 'confirming',
        'proctor.asksToExtend': 'confirming',
        'proctor.asksToRetake': 'confirming',
        'proctor.asksToExtendRoom': 'confirming',
        'proctor.opensAudit': 'loadingAudit',
        'proctor.goesToSchedules': 'loadingSchedules',
        'proctor.signsOut': 'signingOut',
      },
    },
    // Another room chosen: the rows held of it show while its roster is asked for in full.
    loadingRoom: { on: { 'server.sendsRoster': 'roster' } },
    polling: {
      on: {
        'server.rosterUnchanged': 'roster',
        'server.sendsChangedRoster': 'roster',
        'network.fails': 'connectionLost',
        'server.endsStaffSession': 'sessionEnded',
      },
    },
    // A poll failed: the last rows stay, with since when; the page keeps trying.
    connectionLost: {
      on: {
        'clock.backoffElapses': 'pollingAfterLoss',
        'proctor.triesNow': 'pollingAfterLoss',
      },
    },
    pollingAfterLoss: {
      on: {
        'proctor.triesNow': 'pollingAfterLoss',
        'server.rosterUnchanged': 'roster',
      },
    },
    confirming: {
      on: {
        'proctor.confirmsWithoutReason': 'confirmingWithError',
        'proctor.confirms': 'acting',
        'proctor.cancels': 'roster',
      },
    },
    confirmingWithError: { on: { 'proctor.confirms': 'acting' } },
    acting: {
      on: {
        'server.doesAction': 'actionDone',
        'server.refusesAction': 'actionFailed',
        'server.endsStaffSession': 'sessionEnded',
      },
    },
    actionFailed: {
      on: {
        'proctor.triesActionAgain': 'acting',
        'proctor.closesDialog': 'roster',
      },
    },
    // Done: the outcome is said, and the roster is asked for at once.
    actionDone: { on: { 'server.sendsChangedRoster': 'roster' } },
    loadingAudit: {
      on: {
        'server.sendsAudit': 'audit',
        'network.fails': 'auditFailed',
        'server.endsStaffSession': 'sessionEnded',
      },
    },
    auditFailed: { on: { 'proctor.triesAgain': 'loadingAudit' } },
    audit: {
      on: {
        'proctor.refreshesAudit': 'loadingAudit',
        'proctor.closesAudit': 'polling',
      },
    },
    signingOut: {
      on: {
        'server.endsSession': 'signedOutAgain',
        'network.fails': 'signedOutAgain',
      },
    },
    signedOutAgain: {},
  },
});

const recorders = new Map<string, CoverageRecorder>([['proctor', new CoverageRecorder('proctor', allTransitions(proctorMachine))]]);
const record = recordByMachine(recorders);

interface PageUnderTest {
  admin: ControlledAdmin;
  storage: ReturnType<typeof memoryStorage>;
  clock: SimulatedClock;
  history: Awaited<ReturnType<typeof renderKioskApp>>['history'];
  user: ReturnType<typeof userEvent.setup>;
}

let stopSync: (() => void) | undefined;
let page: PageUnderTest | undefined;

async function openPage(withStoredToken: boolean): Promise<PageUnderTest> {
  const storage = memoryStorage();
  const admin = createControlledAdmin();
  if (withStoredToken) {
    writeStaffToken(storage, 'kept-token');
    admin.server.tokens.add('kept-token');
  }
  const clock = new SimulatedClock();
  const rendered = await renderKioskApp({
    deps: { api: createControlledApi().api, storage, admin: admin.port },
    input: { storedSession: null },
    url: '/proctor',
    inspect: record,
    clock,
  });
  stopSync = rendered.stopSync;
  return { admin, storage, clock, history: rendered.history, user: userEvent.setup() };
}

function current(): PageUnderTest {
  if (!page) throw new Error('the page is not open yet');
  return page;
}

const heading = (name: string) => screen.findByRole('heading', { level: 1, name });

async function waitsFor(call: AdminCall) {
  await waitFor(() => expect(current().admin.waiting()).toContain(call));
}

/** Lets the waiting call reach the server and answer, then lets React settle. */
async function serverAnswers(call: AdminCall) {
  await waitsFor(call);
  await act(async () => current().admin.answer(call));
}

/** The oldest waiting call gets no answer (the connection dropped). */
async function networkFails() {
  await waitFor(() => expect(current().admin.waiting().length).toBeGreaterThan(0));
  const [call] = current().admin.waiting();
  await act(async () => current().admin.dropConnection(call!));
}

async function staffSessionEnds() {
  await waitFor(() => expect(current().admin.waiting().length).toBeGreaterThan(0));
  const [call] = current().admin.waiting();
  await act(async () => current().admin.refuse(call!, 'NOT_LOGGED_IN', 401));
}

async function fillLogin(values: { org: string; id: string; password: string }) {
  const { user } = current();
  await heading('Staff sign-in');
  const org = screen.getByRole('textbox', { name: 'Organisation code (optional)' });
  const id = screen.getByRole('textbox', { name: 'Login ID' });
  const password = screen.getByLabelText('Password');
  for (const field of [org, id, password]) await user.clear(field);
  if (values.org) await user.type(org, values.org);
  if (values.id) await user.type(id, values.id);
  if (values.password) await user.type(password, values.password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

const rowOf = (name: string) => screen.getByRole('rowheader', { name: new RegExp(name) }).closest('[role="row"]') as HTMLElement;

/** Opens the pupil's actions (one button per row) and chooses one. */
async function chooseAction(name: string, action: string) {
  const { user } = current();
  await user.click(within(rowOf(name)).getByRole('button', { name: 'Actions' }));
  await user.click(within(rowOf(name)).getByRole('button', { name: action }));
}

const namesShown = () => screen.getAllByRole('rowheader').map((h) => h.querySelector('span')?.textContent);
const dialog = () => screen.getByRole('dialog');

async function elapse(ms: number) {
  await act(async () => current().clock.increment(ms));
}

const paths = createTestModel(proctorModel, {
  // Always record the event, so self-transitions get paths of their own.
  serializeTransition: (_state, event, previous) => (event ? ` via ${event.type} from ${JSON.stringify(previous?.value ?? null)}` : ''),
}).getShortestPaths();

beforeAll(() => {
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
});

afterEach(() => {
  stopSync?.();
  stopSync = undefined;
  page = undefined;
});

describe('the proctor through the app, every transition of the model', () => {
  for (const path of paths) {
    it(path.description, async () => {
      await path.test({
        states: {
          opening: () => undefined,
          restoring: async () => {
            await waitsFor('me');
          },
          restoreFailed: async () => {
            expect((await screen.findByRole('alert')).textContent).toBe('No answer came from the server. Check your connection.');
            expect(screen.getByRole('button', { name: 'Sign in again' })).toBeTruthy();
          },
          signedOut: async () => {
            await heading('Staff sign-in');
            expect(current().history.location.pathname).toBe('/proctor');
            expect(screen.queryByRole('alert')).toBeNull();
          },
          loginFieldsMissing: async () => {
            expect(await screen.findByText('Login ID is a required field')).toBeTruthy();
            expect(current().admin.waiting()).toEqual([]);
          },
          signingIn: async () => {
            await waitsFor('login');
            expect(screen.getByRole('button', { name: 'Signing in…' })).toBeTruthy();
          },
          loginRefused: async () => {
            expect((await screen.findByRole('alert')).textContent).toBe('The organisation code, login ID or password is incorrect.');
          },
          sessionEnded: async () => {
            await heading('Staff sign-in');
            expect((await screen.findByRole('alert')).textContent).toBe('Your staff session has ended. Please sign in again.');
            expect(current().storage.items.has(storageKeys.staffToken)).toBe(false);
            expect(current().history.location.pathname).toBe('/proctor');
          },
          loadingSchedules: async () => {
            await waitsFor('schedules');
          },
          schedulesFailed: async () => {
            expect((await screen.findByRole('alert')).textContent).toBe('No answer came from the server. Check your connection.');
          },
          schedules: async () => {
            await heading('Choose a schedule');
            expect(screen.getByText(/Signed in as/).textContent).toBe(`Signed in as ${demoStaff.name} · ${demoStaff.org_name}`);
          },
          loadingRoster: async () => {
            await waitsFor('roster');
            expect(screen.queryByRole('table')).toBeNull();
          },
          rosterNotLoaded: async () => {
            expect((await screen.findByRole('alert')).textContent).toContain('Connection lost. The roster has not loaded yet. Trying again…');
          },
          roster: async () => {
            await screen.findByRole('table', { name: 'Pupils of Spring test 2026' });
            expect(screen.queryByRole('alert')).toBeNull();
            expect(screen.queryByRole('dialog')).toBeNull();
            expect(current().history.location.pathname).toBe('/proctor');
          },
          loadingRoom: async () => {
            await waitsFor('roster');
            // The room chosen, in full (no cursor).
            const room = (screen.getByRole('combobox', { name: 'Room' }) as HTMLSelectElement).value;
            const asked = current().admin.waitingRequests().filter((r) => r.path.endsWith('/roster')).at(-1);
            expect(asked?.query).toEqual({ venue_id: Number(room) });
          },
          polling: async () => {
            await waitsFor('roster');
            expect(screen.getByRole('table', { name: 'Pupils of Spring test 2026' })).toBeTruthy();
          },
          connectionLost: async () => {
            expect((await screen.findByRole('alert')).textContent).toMatch(/^Connection lost\. Last updated \d{2}:\d{2}:\d{2}\. Trying again…/);
            // The last rows stay.
            expect(rowOf('Amara Okafor')).toBeTruthy();
          },
          pollingAfterLoss: async () => {
            await waitsFor('roster');
            expect(screen.getByRole('alert').textContent).toContain('Connection lost.');
          },
          confirming: async () => {
            expect(await screen.findByRole('dialog')).toBeTruthy();
            expect(within(dialog()).getByRole('textbox', { name: 'Reason' })).toBeTruthy();
          },
          confirmingWithError: async () => {
            expect(await within(dialog()).findByText('Please give a reason. It is kept in the audit log.')).toBeTruthy();
          },
          acting: async () => {
            await waitFor(() => expect(current().admin.waiting().some((c) => ['move', 'extend', 'retake', 'extendRoom'].includes(c))).toBe(true));
            expect(within(dialog()).getByRole('button', { name: 'Working…' })).toBeTruthy();
          },
          actionFailed: async () => {
            expect((await within(dialog()).findByRole('alert')).textContent).toBe('An error has occurred.');
            expect(within(dialog()).getByRole('button', { name: 'Try again' })).toBeTruthy();
          },
          actionDone: async () => {
            await waitFor(() =>
              expect(screen.getAllByRole('status').map((s) => s.textContent).join('|')).toMatch(
                /can now log in on another terminal|more minutes?\.|has been reset for a retake|were given more time/,
              ),
            );
            expect(screen.queryByRole('dialog')).toBeNull();
            // The roster is asked for at once.
            await waitsFor('roster');
          },
          loadingAudit: async () => {
            await waitsFor('audit');
          },
          auditFailed: async () => {
            expect((await screen.findByRole('alert')).textContent).toBe('No answer came from the server. Check your connection.');
          },
          audit: async () => {
            await heading('Audit log');
          },
          signingOut: async () => {
            await waitsFor('logout');
          },
          signedOutAgain: async () => {
            expect((await screen.findByRole('status')).textContent).toBe('You have signed out.');
            expect(current().storage.items.has(storageKeys.staffToken)).toBe(false);
          },
        },
        events: {
          'proctor.opensPage': async () => {
            page = await openPage(false);
          },
          'proctor.opensPageSignedIn': async () => {
            page = await openPage(true);
          },
          'server.knowsToken': () => serverAnswers('me'),
          'server.endsStaffSession': staffSessionEnds,
          'network.fails': networkFails,
          'proctor.triesAgain': () => current().user.click(screen.getByRole('button', { name: 'Try again' })),
          'proctor.signsInAgain': () => current().user.click(screen.getByRole('button', { name: 'Sign in again' })),
          'proctor.sendsEmptyForm': () => fillLogin({ org: '', id: '', password: '' }),
          'proctor.signsIn': () => fillLogin({ org: demoStaff.org_code, id: demoStaff.login_id, password: STAFF_PASSWORD }),
          'server.refusesPassword': async () => {
            await waitsFor('login');
            await act(async () => current().admin.refuse('login', 'INCORRECT_ID_PASSWORD', 401));
          },
          'server.acceptsLogin': () => serverAnswers('login'),
          'server.sendsSchedules': () => serverAnswers('schedules'),
          'proctor.choosesSchedule': () => current().user.click(screen.getByRole('button', { name: /Spring test 2026/ })),
          'proctor.refreshesSchedules': () => current().user.click(screen.getByRole('button', { name: 'Refresh' })),
          'proctor.signsOut': () => current().user.click(screen.getByRole('button', { name: 'Sign out' })),
          'server.sendsRoster': () => serverAnswers('roster'),
          'server.sendsChangedRoster': async () => {
            const server = current().admin.server;
            server.pupils = server.pupils.map((p) => (p.schedule_history_id === 501 ? { ...p, answers_saved: p.answers_saved + 1 } : p));
            await serverAnswers('roster');
          },
          'server.rosterUnchanged': async () => {
            await waitsFor('roster');
            const requests = current().admin.server.requests;
            await act(async () => current().admin.answer('roster'));
            // The page asked for the changes since the cursor it holds, and the server had none.
            const last = requests.at(-1)!;
            expect(last.query?.['since']).toMatch(/^\d+\.\d+$/);
            expect(last.ifNoneMatch ?? null).toBeNull();
          },
          'clock.pollTimeElapses': () => elapse(POLL_BACKOFF_MAX_MS),
          'clock.backoffElapses': () => elapse(POLL_BACKOFF_MAX_MS),
          'proctor.triesNow': () => current().user.click(screen.getByRole('button', { name: 'Try now' })),
          'proctor.choosesRoom': async () => {
            // Room 1, or Room 2 when Room 1 is watched already: the rows of it held show at once.
            const picker = screen.getByRole('combobox', { name: 'Room' }) as HTMLSelectElement;
            const room = picker.value === String(rooms.one.id) ? rooms.two : rooms.one;
            await current().user.selectOptions(picker, room.name);
            const held = current().admin.server.pupils.filter((p) => p.venue?.id === room.id).length;
            expect(screen.getAllByRole('rowheader').length).toBe(held);
          },
          'proctor.filtersByState': async () => {
            const { user } = current();
            const filters = screen.getByRole('group', { name: 'Show pupils' });
            await user.click(within(filters).getByRole('button', { name: /^Needs attention/ }));
            const shown = namesShown();
            expect(shown.length).toBeGreaterThan(0);
            expect(shown).toContain('Kenji Sato');
            expect(shown).not.toContain('Amara Okafor');
            await user.click(within(filters).getByRole('button', { name: /^All/ }));
            expect(screen.getAllByRole('rowheader').length).toBeGreaterThan(shown.length);
          },
          'proctor.searches': async () => {
            const { user } = current();
            const search = screen.getByRole('searchbox', { name: 'Search by name or code' });
            await user.type(search, 'Kenji');
            expect(namesShown()).toEqual(['Kenji Sato']);
            await user.clear(search);
            expect(screen.getAllByRole('rowheader').length).toBeGreaterThan(1);
          },
          'proctor.asksToMove': () => chooseAction('Amara Okafor', 'Move to another terminal'),
          'proctor.asksToExtend': () => chooseAction('Kenji Sato', 'Extend time'),
          'proctor.asksToRetake': () => chooseAction('Lucía Fernández', 'Retake'),
          'proctor.asksToExtendRoom': () => current().user.click(screen.getByRole('button', { name: 'Extend time for everyone' })),
          'proctor.confirmsWithoutReason': () => current().user.click(within(dialog()).getAllByRole('button')[0]!),
          'proctor.confirms': async () => {
            const { user } = current();
            const minutes = within(dialog()).queryByRole('textbox', { name: 'Minutes to add' });
            if (minutes) {
              await user.clear(minutes);
              await user.type(minutes, '5');
            }
            const reason = within(dialog()).getByRole('textbox', { name: 'Reason' });
            await user.clear(reason);
            await user.type(reason, 'Terminal 1 froze');
            await user.click(within(dialog()).getAllByRole('button')[0]!);
          },
          'proctor.cancels': () => current().user.click(within(dialog()).getByRole('button', { name: 'Cancel' })),
          'server.doesAction': async () => {
            const call = current().admin.waiting().find((c) => ['move', 'extend', 'retake', 'extendRoom'].includes(c))!;
            await serverAnswers(call);
          },
          'server.refusesAction': async () => {
            const call = current().admin.waiting().find((c) => ['move', 'extend', 'retake', 'extendRoom'].includes(c))!;
            // A refusal the same request may not meet again (the server failed): the dialog offers
            // Try again. A lasting one (EXAM_NOT_STARTED, ...) offers only Close
            // (test/view/proctor.test.tsx, machines/proctor/proctor.connect.ts `refusalsThatStay`).
            await act(async () => current().admin.refuse(call, 'GENERIC_ERROR', 500));
          },
          'proctor.triesActionAgain': () => current().user.click(within(dialog()).getByRole('button', { name: 'Try again' })),
          'proctor.closesDialog': () => current().user.click(within(dialog()).getByRole('button', { name: 'Close' })),
          'proctor.opensAudit': () => current().user.click(screen.getByRole('button', { name: 'Audit log' })),
          'proctor.goesToSchedules': () => current().user.click(screen.getByRole('button', { name: 'All schedules' })),
          'server.sendsAudit': () => serverAnswers('audit'),
          'proctor.refreshesAudit': () => current().user.click(screen.getByRole('button', { name: 'Refresh' })),
          'proctor.closesAudit': () => current().user.click(screen.getByRole('button', { name: 'Back to the roster' })),
          'server.endsSession': () => serverAnswers('logout'),
        },
      });
    });
  }
});

describe('the proctor machine through the app', () => {
  it('takes every transition of the proctor machine through the app', () => {
    for (const recorder of recorders.values()) recorder.report('ui');
    for (const recorder of recorders.values()) {
      expect(recorder.missing(), recorder.name).toEqual([]);
      expect(recorder.taken.size, recorder.name).toBe(recorder.all.size);
    }
  });
});
