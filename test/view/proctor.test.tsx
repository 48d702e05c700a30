// @vitest-environment jsdom
/**
 * The proctor page rendered over the real proctor machine and its real actors, on an in-memory
 * admin API (test/helpers/fake-admin.ts): staff sign-in with its field, wrong-password and locked
 * messages; the schedules, their empty state and a failure with Try again; the roster as a table
 * (headers, row headers, each state in words, progress, last contact, time left from the server
 * deadline, extra time, offline marked by words and an icon); the room filter; the confirm
 * dialog (focus, required reason, minutes, plain words, the outcome, the audit row); a 401 back to
 * the sign-in; the connection-lost banner; and the staff token kept apart from the pupil's.
 *
 * The clock: Date is frozen at the fake server's time, so "45 s ago" and "30:00" are exact.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { proctorImplementations } from '../../machines/proctor/proctor.actors.ts';
import { proctorMachine } from '../../machines/proctor/proctor.machine.ts';
import { ApiFailure } from '../../machines/shared/ports.ts';
import { clearExaminee, storageKeys, writeStaffToken } from '../../machines/shared/storage.ts';
import { BoundProctor } from '../../src/app/connect/proctor.tsx';
import { FAKE_NOW, FAKE_UPLOAD_WINDOW_MS, LOCKED_LOGIN_ID, STAFF_PASSWORD, createFakeAdmin, demoStaff, type FakeAdmin } from '../helpers/fake-admin.ts';
import { renderView } from '../helpers/render-view.tsx';
import { memoryStorage } from '../helpers/memory-storage.ts';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: FAKE_NOW });
});

afterEach(() => {
  vi.useRealTimers();
});

async function renderProctor(options: { admin?: FakeAdmin; storage?: ReturnType<typeof memoryStorage> } = {}) {
  const admin = options.admin ?? createFakeAdmin();
  const storage = options.storage ?? memoryStorage();
  const actor = createActor(proctorMachine.provide(proctorImplementations({ admin, storage }))).start();
  const view = await renderView(<BoundProctor actor={actor} />);
  return { ...view, actor, admin, storage };
}

type Rendered = Awaited<ReturnType<typeof renderProctor>>;

async function signIn(view: Rendered, values: { org?: string; id?: string; password?: string } = {}) {
  const { user } = view;
  await screen.findByRole('heading', { level: 1, name: 'Staff sign-in' });
  const org = screen.getByRole('textbox', { name: 'Organisation code (optional)' });
  const id = screen.getByRole('textbox', { name: 'Login ID' });
  await user.clear(org);
  await user.clear(id);
  await user.clear(screen.getByLabelText('Password'));
  if (values.org ?? demoStaff.org_code) await user.type(org, values.org ?? demoStaff.org_code);
  if (values.id ?? demoStaff.login_id) await user.type(id, values.id ?? demoStaff.login_id);
  if (values.password ?? STAFF_PASSWORD) await user.type(screen.getByLabelText('Password'), values.password ?? STAFF_PASSWORD);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

async function openRoster(view: Rendered) {
  await signIn(view);
  await view.user.click(await screen.findByRole('button', { name: /Spring test 2026/ }));
  await screen.findByRole('table');
}

const rowOf = (name: string) => screen.getByRole('rowheader', { name: new RegExp(name) }).closest('[role="row"]') as HTMLElement;
/** Opens the pupil's actions (one button per row) and gives the row. */
async function openActions(view: Rendered, name: string): Promise<HTMLElement> {
  const row = rowOf(name);
  const menu = within(row).getByRole('button', { name: 'Actions' });
  if (menu.getAttribute('aria-expanded') !== 'true') await view.user.click(menu);
  return row;
}

/** Opens the pupil's actions and chooses one. */
async function chooseAction(view: Rendered, name: string, action: string): Promise<void> {
  await view.user.click(within(await openActions(view, name)).getByRole('button', { name: action }));
}

const namesShown = () => screen.getAllByRole('rowheader').map((h) => h.querySelector('span')?.textContent);

/** The demo roster with Kenji Sato's time up a minute more than an upload window ago (past it: no extension). */
function adminWithKenjiPastUploadWindow(): FakeAdmin {
  const admin = createFakeAdmin();
  admin.pupils = admin.pupils.map((p) =>
    p.examinee_name === 'Kenji Sato'
      ? { ...p, state: 'time_up' as const, deadline_at: new Date(FAKE_NOW - FAKE_UPLOAD_WINDOW_MS - 60_000).toISOString() }
      : p,
  );
  return admin;
}

describe('proctor: staff sign-in', () => {
  it('shows three labelled fields, focuses the first, and signs in to the schedules', async () => {
    const view = await renderProctor();
    await screen.findByRole('heading', { level: 1, name: 'Staff sign-in' });
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Organisation code (optional)' }));
    expect(screen.getByLabelText('Password').getAttribute('type')).toBe('password');
    await signIn(view);
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose a schedule' })).toBeTruthy();
    expect(screen.getByText(/Signed in as/).textContent).toBe('Signed in as Grace Hopper · Sakura Primary School');
    // Its own key: the pupil's Examinee-Token is never written.
    expect(view.storage.items.get(storageKeys.staffToken)).toBe('staff-token-1');
    expect(view.storage.items.has(storageKeys.token)).toBe(false);
  });

  it('says which fields are missing, tied to the fields, and focuses the first; the organisation code may be empty', async () => {
    const view = await renderProctor();
    await signIn(view, { org: '', id: '', password: '' });
    const org = screen.getByRole('textbox', { name: 'Organisation code (optional)' });
    const id = screen.getByRole('textbox', { name: 'Login ID' });
    await waitFor(() => expect(id.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(id.getAttribute('aria-describedby')!)?.textContent).toBe('Login ID is a required field');
    expect(screen.getByText('Password is a required field')).toBeTruthy();
    // An administrator leaves it empty: the hint says so, and it is never in error for that.
    expect(org.getAttribute('aria-invalid')).toBeNull();
    expect(document.getElementById(org.getAttribute('aria-describedby')!)?.textContent).toBe('Leave empty if you are an administrator.');
    expect(document.activeElement).toBe(id);
    expect(view.admin.requests).toEqual([]);
  });

  it('says what an organisation code may hold', async () => {
    const view = await renderProctor();
    await signIn(view, { org: 'not a code!' });
    expect(await screen.findByText('An organisation code has only letters, numbers, hyphens and underscores.')).toBeTruthy();
  });

  it('tells a wrong password and a locked account apart', async () => {
    const view = await renderProctor();
    await signIn(view, { password: 'wrong-password' });
    expect((await screen.findByRole('alert')).textContent).toBe('The organisation code, login ID or password is incorrect.');
    await signIn(view, { id: LOCKED_LOGIN_ID });
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('This staff account is locked after too many wrong passwords. Please try again in 1 minute.'),
    );
    expect(view.storage.items.has(storageKeys.staffToken)).toBe(false);
  });

  it('resumes with a stored staff token, and signs out with the token before forgetting it', async () => {
    const admin = createFakeAdmin();
    admin.tokens.add('kept-token');
    const storage = memoryStorage();
    writeStaffToken(storage, 'kept-token');
    storage.setItem(storageKeys.token, 'pupil-token');
    const view = await renderProctor({ admin, storage });
    await screen.findByRole('heading', { level: 1, name: 'Choose a schedule' });
    expect(admin.requests[0]).toMatchObject({ path: '/admin/me', token: 'kept-token' });
    await view.user.click(screen.getByRole('button', { name: 'Sign out' }));
    expect((await screen.findByRole('status')).textContent).toBe('You have signed out.');
    expect(admin.requests.at(-1)).toMatchObject({ method: 'POST', path: '/admin/logout', token: 'kept-token' });
    expect(admin.tokens.has('kept-token')).toBe(false);
    expect(storage.items.has(storageKeys.staffToken)).toBe(false);
    // The pupil's token is not the proctor page's to remove...
    expect(storage.items.get(storageKeys.token)).toBe('pupil-token');
    // ...and a pupil's logout leaves the staff token alone.
    writeStaffToken(storage, 'kept-token');
    clearExaminee(storage);
    expect(storage.items.get(storageKeys.staffToken)).toBe('kept-token');
  });

  it('goes back to the sign-in with a message when the staff session ends on the server', async () => {
    const view = await renderProctor();
    await openRoster(view);
    view.admin.revokeAll();
    await act(async () => view.actor.send({ type: 'roster.refreshRequested' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Your staff session has ended. Please sign in again.');
    expect(screen.getByRole('heading', { level: 1, name: 'Staff sign-in' })).toBeTruthy();
    expect(view.storage.items.has(storageKeys.staffToken)).toBe(false);
  });
});

describe('proctor: schedules', () => {
  it('lists each schedule with its code, room and pupils, and shows the code when it has no name', async () => {
    const view = await renderProctor();
    await signIn(view);
    const first = await screen.findByRole('button', { name: /Spring test 2026/ });
    expect(first.textContent).toContain('DEMO-2026');
    expect(first.textContent).toContain('7 pupils');
    const second = screen.getByRole('button', { name: /DEMO-2027/ });
    expect(second.textContent).toContain('Room 2');
    expect(second.textContent).toContain('0 pupils');
  });

  it('says so when the organisation has none', async () => {
    const admin = createFakeAdmin();
    admin.schedules = [];
    const view = await renderProctor({ admin });
    await signIn(view);
    expect((await screen.findByRole('status')).textContent).toContain('Your organisation has no schedules yet.');
  });

  it('offers Try again when they cannot be loaded', async () => {
    const admin = createFakeAdmin();
    const send = admin.send.bind(admin);
    let fail = true;
    admin.send = async (request) => {
      if (request.path === '/admin/schedules' && fail) throw new ApiFailure('NETWORK_ERROR');
      return send(request);
    };
    const view = await renderProctor({ admin });
    await signIn(view);
    expect((await screen.findByRole('alert')).textContent).toBe('No answer came from the server. Check your connection.');
    fail = false;
    await view.user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: /Spring test 2026/ })).toBeTruthy();
  });
});

describe('proctor: the roster', () => {
  it('is a table with column and row headers, each state in words', async () => {
    const view = await renderProctor();
    await openRoster(view);
    const table = screen.getByRole('table', { name: 'Pupils of Spring test 2026' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Pupil', 'State', 'Progress', 'Time left', 'Actions',
    ]);
    const states = within(table).getAllByRole('row').slice(1).map((row) => [
      within(row).getByRole('rowheader').querySelector('span')?.textContent,
      row.querySelector('[data-state]')?.firstElementChild?.textContent ?? row.querySelector('[data-state] > span')?.textContent,
    ]);
    // Those who need attention first (Kenji is offline; Noah and Priya have not started while most have), then by name as the server sends them.
    expect(states.map(([name]) => name)).toEqual([
      'Kenji Sato', 'Noah Williams', 'Priya Sharma', 'Amara Okafor', 'Lucía Fernández', 'Mai Nguyen', 'Ethan Brown',
    ]);
    expect(rowOf('Noah Williams').textContent).toContain('Not logged in');
    expect(rowOf('Priya Sharma').textContent).toContain('Logged in');
    expect(rowOf('Mai Nguyen').textContent).toContain('Cancelled');
    expect(rowOf('Ethan Brown').textContent).toContain('Moving to another terminal');
  });

  it('shows a pupil in the exam at their question, with saved answers, last contact, time left and no actions they cannot take', async () => {
    const view = await renderProctor();
    await openRoster(view);
    const amara = rowOf('Amara Okafor');
    expect(amara.textContent).toContain('In the exam');
    expect(amara.textContent).toContain('Question 5 of 20');
    expect(amara.textContent).toContain('5 answers saved');
    expect(amara.textContent).toContain('30:00');
    expect(amara.textContent).toContain('Code …3463');
    // One button per row opens the actions that apply, next in the tab order; Escape closes them, back on the button.
    const menu = within(amara).getByRole('button', { name: 'Actions' });
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    expect(menu.getAttribute('aria-describedby')).toBe(within(amara).getByRole('rowheader').id);
    menu.focus();
    await view.user.keyboard('{Enter}');
    expect(menu.getAttribute('aria-expanded')).toBe('true');
    expect(menu.getAttribute('aria-controls')).toBe(within(amara).getByRole('group').id);
    expect(within(amara).getAllByRole('button').map((b) => b.textContent)).toEqual(['Actions', 'Move to another terminal', 'Extend time', 'Retake']);
    await view.user.tab();
    expect(document.activeElement?.textContent).toBe('Move to another terminal');
    await view.user.keyboard('{Escape}');
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(menu);
    expect(within(amara).queryByRole('group')).toBeNull();
    await view.user.click(menu);
    // The row's buttons say whose they are.
    expect(within(amara).getByRole('button', { name: 'Move to another terminal' }).getAttribute('aria-describedby')).toBe(
      within(amara).getByRole('rowheader').id,
    );
    expect(within(rowOf('Noah Williams')).queryAllByRole('button')).toEqual([]);
    expect(within(await openActions(view, 'Lucía Fernández')).getAllByRole('button').map((b) => b.textContent)).toEqual(['Actions', 'Retake']);
    expect(rowOf('Lucía Fernández').textContent).toContain('Receipt: 20 answers');
  });

  it("shows Extend disabled, with the reason in words, for a pupil past the upload window (the server would refuse it)", async () => {
    const view = await renderProctor({ admin: adminWithKenjiPastUploadWindow() });
    await openRoster(view);
    const kenji = await openActions(view, 'Kenji Sato');
    const extend = within(kenji).getByRole('button', { name: 'Extend time' }) as HTMLButtonElement;
    expect(extend.disabled).toBe(true);
    const reason = "Too late to extend: this exam's answers can no longer be sent.";
    expect(kenji.textContent).toContain(reason);
    // The button says whose it is and why it is disabled.
    const describedBy = (extend.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent);
    expect(describedBy).toEqual([expect.stringContaining('Kenji Sato'), reason]);
    // Retake still applies; a pupil within the window keeps an enabled Extend and no reason.
    expect((within(kenji).getByRole('button', { name: 'Retake' }) as HTMLButtonElement).disabled).toBe(false);
    // Clicking the disabled button asks nothing.
    await view.user.click(extend);
    expect(screen.queryByRole('dialog')).toBeNull();
    const amara = await openActions(view, 'Amara Okafor');
    expect((within(amara).getByRole('button', { name: 'Extend time' }) as HTMLButtonElement).disabled).toBe(false);
    expect(amara.textContent).not.toContain(reason);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('marks a pupil offline for more than 30 s with words and an icon, not colour alone', async () => {
    const view = await renderProctor();
    await openRoster(view);
    const kenji = rowOf('Kenji Sato');
    expect(kenji.getAttribute('data-attention')).toBe('offline');
    expect(kenji.textContent).toContain('Offline');
    expect(kenji.textContent).toContain('No contact for more than 30 s');
    expect(kenji.textContent).toContain('45 s ago');
    expect(kenji.querySelector('[data-state="offline"] svg')).not.toBeNull();
    expect(kenji.textContent).toContain('+5 min');
    expect(rowOf('Amara Okafor').getAttribute('data-attention')).toBeNull();
  });

  it('counts the pupils and filters by room', async () => {
    const view = await renderProctor();
    await openRoster(view);
    const filters = screen.getByRole('group', { name: 'Show pupils' });
    expect(within(filters).getAllByRole('button').map((b) => [b.textContent, b.getAttribute('aria-pressed')])).toEqual([
      ['All 7', 'true'],
      ['Needs attention 3', 'false'],
      ['Not started 2', 'false'],
      ['In the exam 3', 'false'],
      ['Finished 1', 'false'],
      ['Cancelled or expired 1', 'false'],
    ]);
    expect(screen.getByText(/^Showing 7 pupils of 7\./)).toBeTruthy();
    const room = screen.getByRole('combobox', { name: 'Room' });
    expect(within(room).getAllByRole('option').map((o) => o.textContent)).toEqual(['All rooms', 'Room 1', 'Room 2']);
    await view.user.selectOptions(room, 'Room 2');
    expect(namesShown()).toEqual(['Lucía Fernández', 'Noah Williams', 'Mai Nguyen']);
    // The counts are the room's: in Room 2 only Lucía has started, so Noah is not late to start.
    expect(within(filters).getAllByRole('button').map((b) => b.textContent)).toEqual([
      'All 3', 'Needs attention 0', 'Not started 1', 'In the exam 0', 'Finished 1', 'Cancelled or expired 1',
    ]);
    // Nobody in Room 2 is in the exam: nothing to extend there.
    expect((screen.getByRole('button', { name: 'Extend time for this room' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('a pupil whose login was refused at another terminal comes first, saying so with an icon and words', async () => {
    const admin = createFakeAdmin();
    const amara = admin.pupils.find((p) => p.examinee_name === 'Amara Okafor')!;
    amara.refused_elsewhere_at = new Date(FAKE_NOW - 60_000).toISOString();
    const view = await renderProctor({ admin });
    await openRoster(view);
    expect(namesShown()[0]).toBe('Amara Okafor');
    expect(rowOf('Amara Okafor').textContent).toContain('Tried to log in at another terminal');
    expect(rowOf('Amara Okafor').querySelector('[data-attention="refused_elsewhere"] svg')).not.toBeNull();
    expect(screen.getByRole('button', { name: /^Needs attention/ }).textContent).toBe('Needs attention 4');
  });

  it('filters by state and searches by name or login code; the counts stay the room\'s', async () => {
    const view = await renderProctor();
    await openRoster(view);
    const filters = screen.getByRole('group', { name: 'Show pupils' });
    await view.user.click(within(filters).getByRole('button', { name: /^Needs attention/ }));
    expect(within(filters).getByRole('button', { name: /^Needs attention/ }).getAttribute('aria-pressed')).toBe('true');
    expect(namesShown()).toEqual(['Kenji Sato', 'Noah Williams', 'Priya Sharma']);
    expect(screen.getByText(/^Showing 3 pupils of 7\./)).toBeTruthy();
    // Needing attention is words and an icon, not colour alone.
    expect(rowOf('Kenji Sato').querySelector('[data-state="offline"] svg')).not.toBeNull();
    expect(rowOf('Noah Williams').textContent).toContain('Most of the room has started.');
    expect(rowOf('Noah Williams').querySelector('[data-state] svg')).not.toBeNull();
    await view.user.click(within(filters).getByRole('button', { name: /^In the exam/ }));
    expect(namesShown()).toEqual(['Kenji Sato', 'Amara Okafor', 'Ethan Brown']);
    await view.user.click(within(filters).getByRole('button', { name: /^All/ }));
    const search = screen.getByRole('searchbox', { name: 'Search by name or code' });
    await view.user.type(search, 'lucia');
    expect(namesShown()).toEqual(['Lucía Fernández']);
    expect(screen.getByText(/^Showing 1 pupil of 7\./)).toBeTruthy();
    await view.user.clear(search);
    await view.user.type(search, '346a');
    expect(namesShown()).toEqual(['Mai Nguyen']);
    await view.user.clear(search);
    await view.user.type(search, 'Zora');
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByText('No pupil matches the search and the filter.')).toBeTruthy();
    expect(within(filters).getByRole('button', { name: /^All/ }).textContent).toBe('All 7');
    await view.user.clear(search);
    expect(namesShown()).toHaveLength(7);
  });

  it('lays a room of 60 out in three columns of 20 rows, repeating the headings only for the eye', async () => {
    const admin = createFakeAdmin();
    const [amara] = admin.pupils;
    admin.pupils = Array.from({ length: 60 }, (_, i) => ({
      ...amara!,
      schedule_history_id: 9_000 + i,
      examinee_name: `Pupil ${String(i + 1).padStart(2, '0')}`,
      login_code_hint: `Q${String(i).padStart(3, '0')}`,
    }));
    const view = await renderProctor({ admin });
    await openRoster(view);
    const table = screen.getByRole('table', { name: 'Pupils of Spring test 2026' });
    expect((table as HTMLElement).style.getPropertyValue('--columns')).toBe('3');
    expect((table as HTMLElement).style.getPropertyValue('--rows')).toBe('21');
    expect(within(table).getAllByRole('rowheader')).toHaveLength(60);
    // One heading row for assistive technology; the copies over columns 2 and 3 are hidden from it.
    expect(within(table).getAllByRole('columnheader')).toHaveLength(5);
    expect(table.querySelectorAll('[aria-hidden="true"][data-repeat]')).toHaveLength(2);
    const children = [...table.children];
    expect(children.indexOf(rowOf('Pupil 21'))).toBe(22);
    expect(children[21]?.hasAttribute('data-repeat')).toBe(true);
  });

  it('keeps the rows and says since when they are not current when a poll fails, then recovers', async () => {
    const admin = createFakeAdmin();
    const send = admin.send.bind(admin);
    let offline = false;
    admin.send = async (request) => {
      if (offline) throw new ApiFailure('NETWORK_ERROR');
      return send(request);
    };
    const view = await renderProctor({ admin });
    await openRoster(view);
    offline = true;
    await act(async () => view.actor.send({ type: 'roster.refreshRequested' }));
    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toMatch(/^Connection lost\. Last updated \d{2}:\d{2}:\d{2}\. Trying again…/);
    expect(rowOf('Amara Okafor')).toBeTruthy();
    offline = false;
    await view.user.click(within(banner).getByRole('button', { name: 'Try now' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(screen.getByText(/The list updates by itself every 5 seconds/)).toBeTruthy();
  });

  it('a cursor the server does not take: says the roster is loaded again in full, and the next poll asks in full', async () => {
    const admin = createFakeAdmin();
    const send = admin.send.bind(admin);
    let refuseCursor = false;
    admin.send = async (request) => {
      if (refuseCursor && request.query?.['since'] !== undefined) return { status: 422, body: { code: 'ROSTER_CURSOR_INVALID', message: 'm' }, etag: null };
      return send(request);
    };
    const view = await renderProctor({ admin });
    await openRoster(view);
    refuseCursor = true;
    await act(async () => view.actor.send({ type: 'roster.refreshRequested' }));
    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toMatch(/^The roster could not be updated\. It is loaded again in full\. Last updated \d{2}:\d{2}:\d{2}\./);
    expect(rowOf('Amara Okafor')).toBeTruthy();
    await view.user.click(within(banner).getByRole('button', { name: 'Try now' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    const rosterCalls = admin.requests.filter((r) => r.path.endsWith('/roster'));
    expect(rosterCalls.at(-1)?.query).toBeUndefined();
  });
});

describe('proctor: actions', () => {
  it('moves a pupil to another terminal after a confirm step with a required reason, and the audit shows it', async () => {
    const view = await renderProctor();
    await openRoster(view);
    await chooseAction(view, 'Amara Okafor', 'Move to another terminal');
    const dialog = await screen.findByRole('dialog', { name: 'Move Amara Okafor to another terminal?' });
    expect(dialog.textContent).toContain('every saved answer and the time left are kept. This is not a retake.');
    const reason = within(dialog).getByRole('textbox', { name: 'Reason' });
    expect(document.activeElement).toBe(reason);
    // The page under the dialog cannot be reached.
    expect(screen.getByRole('table', { hidden: true }).closest('[inert]')).not.toBeNull();
    await view.user.click(within(dialog).getByRole('button', { name: 'Move to another terminal' }));
    await waitFor(() => expect(reason.getAttribute('aria-invalid')).toBe('true'));
    expect(dialog.textContent).toContain('Please give a reason. It is kept in the audit log.');
    expect(view.admin.requests.some((r) => r.path.endsWith('/move-terminal'))).toBe(false);
    await view.user.type(reason, 'Terminal 1 froze');
    await view.user.click(within(dialog).getByRole('button', { name: 'Move to another terminal' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Amara Okafor can now log in on another terminal. Every saved answer and the time left are kept.',
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(rowOf('Amara Okafor').textContent).toContain('Moving to another terminal'));
    // Focus is back on the pupil's actions, where "Move" is gone.
    expect(document.activeElement).toBe(within(rowOf('Amara Okafor')).getByRole('button', { name: 'Actions' }));
    expect(within(await openActions(view, 'Amara Okafor')).queryByRole('button', { name: 'Move to another terminal' })).toBeNull();
    expect(view.admin.requests.find((r) => r.path === '/admin/sittings/501/move-terminal')?.body).toEqual({ reason: 'Terminal 1 froze', idempotency_key: expect.any(String) });

    await view.user.click(screen.getByRole('button', { name: 'Audit log' }));
    const audit = await screen.findByRole('table', { name: 'What was done in Spring test 2026, newest first' });
    const row = within(audit).getAllByRole('row')[1]!;
    expect(within(row).getAllByRole('cell').slice(1).map((c) => c.textContent)).toEqual([
      'Grace Hopper', 'Moved to another terminal', 'Amara Okafor', 'Terminal 1 froze',
    ]);
    await view.user.click(screen.getByRole('button', { name: 'Back to the roster' }));
    expect(await screen.findByRole('table', { name: 'Pupils of Spring test 2026' })).toBeTruthy();
  });

  it('extends one pupil by whole minutes from 1 to 60', async () => {
    const view = await renderProctor();
    await openRoster(view);
    await chooseAction(view, 'Amara Okafor', 'Extend time');
    const dialog = await screen.findByRole('dialog', { name: 'Extend the time for Amara Okafor?' });
    const minutes = within(dialog).getByRole('textbox', { name: 'Minutes to add' });
    expect(document.activeElement).toBe(minutes);
    await view.user.type(minutes, '90');
    await view.user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Fire drill');
    await view.user.click(within(dialog).getByRole('button', { name: 'Extend time' }));
    await waitFor(() => expect(minutes.getAttribute('aria-invalid')).toBe('true'));
    expect(dialog.textContent).toContain('Enter whole minutes from 1 to 60.');
    await view.user.clear(minutes);
    await view.user.type(minutes, '5');
    await view.user.click(within(dialog).getByRole('button', { name: 'Extend time' }));
    expect((await screen.findByRole('status')).textContent).toBe('Amara Okafor has 5 more minutes.');
    await waitFor(() => expect(rowOf('Amara Okafor').textContent).toContain('35:00'));
    expect(rowOf('Amara Okafor').textContent).toContain('+5 min');
  });

  it('extends everyone in the exam in the room, saying how many', async () => {
    const view = await renderProctor();
    await openRoster(view);
    await view.user.click(screen.getByRole('button', { name: 'Extend time for everyone' }));
    const dialog = await screen.findByRole('dialog', { name: 'Extend the time for everyone?' });
    expect(dialog.textContent).toContain('Each of the 3 pupils now in the exam gets the minutes below added to the time left.');
    await view.user.type(within(dialog).getByRole('textbox', { name: 'Minutes to add' }), '10');
    await view.user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Late start');
    await view.user.click(within(dialog).getByRole('button', { name: 'Extend time' }));
    expect((await screen.findByRole('status')).textContent).toBe('3 pupils in the exam were given more time: 10 minutes.');
    expect(view.admin.requests.find((r) => r.path === '/admin/schedules/DEMO-2026/extend')?.body).toEqual({ minutes: 10, reason: 'Late start', idempotency_key: expect.any(String) });
  });

  it('the room-wide extension counts only the pupils it extends: none past the upload window', async () => {
    const view = await renderProctor({ admin: adminWithKenjiPastUploadWindow() });
    await openRoster(view);
    await view.user.click(screen.getByRole('button', { name: 'Extend time for everyone' }));
    const dialog = await screen.findByRole('dialog', { name: 'Extend the time for everyone?' });
    // Amara and Ethan; Kenji is past his upload window, and the server leaves him out.
    expect(dialog.textContent).toContain('Each of the 2 pupils now in the exam gets the minutes below added to the time left.');
    await view.user.type(within(dialog).getByRole('textbox', { name: 'Minutes to add' }), '10');
    await view.user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Late start');
    await view.user.click(within(dialog).getByRole('button', { name: 'Extend time' }));
    expect((await screen.findByRole('status')).textContent).toBe('2 pupils in the exam were given more time: 10 minutes.');
  });

  it('no answer to an action: says it is not known whether it was done, and Try again sends the same action once more', async () => {
    const admin = createFakeAdmin();
    const send = admin.send.bind(admin);
    let drop = true;
    admin.send = async (request) => {
      if (request.path.endsWith('/extend') && drop) {
        drop = false;
        await send(request);
        throw new ApiFailure('NETWORK_ERROR');
      }
      return send(request);
    };
    const view = await renderProctor({ admin });
    await openRoster(view);
    await chooseAction(view, 'Amara Okafor', 'Extend time');
    const dialog = await screen.findByRole('dialog', { name: 'Extend the time for Amara Okafor?' });
    await view.user.type(within(dialog).getByRole('textbox', { name: 'Minutes to add' }), '10');
    await view.user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Power cut');
    await view.user.click(within(dialog).getByRole('button', { name: 'Extend time' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('it is not known whether this was done');
    await view.user.click(within(dialog).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const sent = view.admin.requests.filter((r) => r.path === '/admin/sittings/501/extend').map((r) => r.body as { idempotency_key: string });
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual(sent[0]);
  });

  it('tells a refusal by code with Close only (trying again cannot help); Escape closes the confirm step', async () => {
    const admin = createFakeAdmin();
    const send = admin.send.bind(admin);
    admin.send = async (request) =>
      request.path.endsWith('/retake') ? { status: 403, body: { code: 'EXAM_NOT_STARTED', message: 'x' }, etag: null } : send(request);
    const view = await renderProctor({ admin });
    await openRoster(view);
    await chooseAction(view, 'Kenji Sato', 'Retake');
    const dialog = await screen.findByRole('dialog', { name: 'Reset Kenji Sato for a retake?' });
    expect(dialog.textContent).toContain('The 9 answers Kenji Sato has saved are archived');
    await view.user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Wrong exam');
    await view.user.click(within(dialog).getByRole('button', { name: 'Reset for a retake' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('This pupil has not started the exam, so this cannot be done yet.');
    expect(within(dialog).queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Close' }).getAttribute('data-variant')).toBe('primary');
    await view.user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await chooseAction(view, 'Kenji Sato', 'Extend time');
    await screen.findByRole('dialog');
    await view.user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
