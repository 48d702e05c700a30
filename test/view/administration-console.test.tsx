// @vitest-environment jsdom
/**
 * The administrator's console rendered over the real administration machine and its real actors,
 * on an in-memory API (test/helpers/fake-administration.ts): the navigation (aria-current, the
 * section's heading focused), the schools list, a pupil search in one classroom, and a pupil's code re-issued after a confirm step
 * that shows the new code; an import checked (refusals first, with row, column and reason) and
 * applied only when nothing is refused, the file sent raw as text/csv; an exam file sent with the
 * subject and level typed beside it; a document saved through
 * an object URL; a staff member added (the 12-character rule first); the audit log; a failure with
 * Try again; and a 401 that ends the console with "Sign in again".
 */
import { screen, waitFor, within } from '@testing-library/react';
import { useSelector } from '@xstate/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, type ActorRefFrom } from 'xstate';
import { administrationImplementations } from '../../machines/administration/administration.actors.ts';
import { connect } from '../../machines/administration/administration.connect.ts';
import { administrationMachine } from '../../machines/administration/administration.machine.ts';
import { AdministrationConsole } from '../../src/screens/administration/administration.tsx';
import { createFakeAdministration, type FakeAdministration } from '../helpers/fake-administration.ts';
import { renderView } from '../helpers/render-view.tsx';

afterEach(() => vi.restoreAllMocks());

/** The console bound to its actor as the proctor page's host binds it: subscribed, rendered from its connect. */
function BoundConsole({ actor, signInAgain }: { actor: ActorRefFrom<typeof administrationMachine>; signInAgain(): void }) {
  const snapshot = useSelector(actor, (current) => current);
  return <AdministrationConsole api={connect(snapshot, actor.send)} examDay={<p>The schedules of today</p>} signInAgain={signInAgain} />;
}

async function renderConsole(admin: FakeAdministration = createFakeAdministration()) {
  const actor = createActor(administrationMachine.provide(administrationImplementations({ admin })), {
    input: { token: 'staff-token-1', loginId: 'root' },
  }).start();
  const signInAgain = vi.fn();
  const view = await renderView(<BoundConsole actor={actor} signInAgain={signInAgain} />);
  return { ...view, actor, admin, signInAgain };
}

type Rendered = Awaited<ReturnType<typeof renderConsole>>;

async function open(view: Rendered, section: string) {
  const nav = screen.getByRole('navigation', { name: 'Administration' });
  await view.user.click(within(nav).getByRole('button', { name: section }));
  const heading = await screen.findByRole('heading', { level: 1, name: section });
  await waitFor(() => expect(document.activeElement).toBe(heading));
}

describe('the administrator console', () => {
  it('starts on exam day and marks the section shown in its navigation', async () => {
    await renderConsole();
    const nav = screen.getByRole('navigation', { name: 'Administration' });
    const buttons = within(nav).getAllByRole('button').map((b) => b.textContent);
    expect(buttons).toEqual(['Exam day', 'Schools and pupils', 'Imports', 'Exams', 'Login slips and results', 'Staff', 'Audit log']);
    expect(within(nav).getByRole('button', { name: 'Exam day' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByText('The schedules of today')).toBeTruthy();
  });

  it('lists schools with classrooms and test periods, and re-issues a login code after a confirm step', async () => {
    const view = await renderConsole();
    await open(view, 'Schools and pupils');
    expect(screen.getByRole('heading', { name: /Sakura Primary School/ })).toBeTruthy();
    expect(screen.getByText('Room 1', { selector: 'li' })).toBeTruthy();
    await view.user.type(screen.getByRole('searchbox', { name: 'Name, pupil ID or login code' }), 'amara');
    await view.user.click(screen.getByRole('button', { name: 'Search' }));
    const row = (await screen.findByRole('rowheader', { name: 'Amara Okafor' })).closest('tr')!;
    expect(within(row).getByText('AC3E-F4GH-J6KM')).toBeTruthy();
    await view.user.click(within(row).getByRole('button', { name: 'Re-issue login code' }));
    // Nothing is sent before the confirm step.
    expect(view.admin.requests.some((r) => r.path.includes('reissue-code'))).toBe(false);
    expect(screen.getByText(/stops working at once/)).toBeTruthy();
    await view.user.click(screen.getByRole('button', { name: 'Re-issue the code' }));
    const status = await screen.findByText('New login code:');
    expect(status.parentElement?.textContent).toContain('NEW1-CODE-2345');
    expect(within(row).getByText('NEW1-CODE-2345')).toBeTruthy();
  });

  it("finds pupils in one classroom: the school's classrooms to choose from, the one chosen sent as ?venue=", async () => {
    const view = await renderConsole();
    await open(view, 'Schools and pupils');
    const classroom = screen.getByRole('combobox', { name: 'Classroom' });
    expect(within(classroom).getAllByRole('option').map((o) => o.textContent)).toEqual(['Every classroom', 'Room 1']);
    await view.user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(view.admin.requests.filter((r) => r.path === '/admin/pupils')).toHaveLength(1));
    expect(view.admin.requests.find((r) => r.path === '/admin/pupils')?.query).not.toHaveProperty('venue');
    await view.user.selectOptions(classroom, 'Room 1');
    await view.user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(view.admin.requests.filter((r) => r.path === '/admin/pupils')).toHaveLength(2));
    expect(view.admin.requests.filter((r) => r.path === '/admin/pupils').at(-1)?.query).toMatchObject({ venue: 11 });
  });

  it('checks a file (refusals first, with row, column and reason), offers Apply only when nothing is refused, and sends the bytes as text/csv', async () => {
    const view = await renderConsole();
    await open(view, 'Imports');
    const apply = screen.getByRole('button', { name: 'Apply' });
    expect(screen.getByRole('button', { name: 'Check file' }).hasAttribute('disabled')).toBe(true);
    const input = screen.getByLabelText('File');
    await view.user.upload(input, new File(['code,name\nNEW1,New school\n,No code\n'], 'schools.csv', { type: 'text/csv' }));
    await view.user.click(screen.getByRole('button', { name: 'Check file' }));
    const alert = await screen.findByText(/1 row is refused/);
    expect(alert).toBeTruthy();
    const rows = screen.getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByRole('rowheader').textContent).toBe('3');
    expect(rows[0]!.textContent).toContain('A value is required here.');
    expect(rows[0]!.textContent).toContain('code');
    expect(apply.hasAttribute('disabled')).toBe(true);
    const sent = view.admin.requests.find((r) => r.method === 'UPLOAD');
    expect(sent).toMatchObject({ path: '/admin/imports/schools', contentType: 'text/csv', text: 'code,name\nNEW1,New school\n,No code\n' });

    await view.user.upload(input, new File(['code,name\nNEW1,New school\n'], 'schools.csv', { type: 'text/csv' }));
    await view.user.click(screen.getByRole('button', { name: 'Check file' }));
    await screen.findByText(/Nothing is refused/);
    await view.user.click(screen.getByRole('button', { name: 'Apply' }));
    await screen.findByText('The file was imported. Importing it again changes nothing.');
    expect(view.admin.requests.filter((r) => r.method === 'UPLOAD').at(-1)).toMatchObject({ query: { apply: 1 } });
    expect(view.admin.schools.map((s) => s.code)).toContain('NEW1');
  });

  it('sends an exam file with the subject, level and level name typed beside it, each labelled', async () => {
    const view = await renderConsole();
    await open(view, 'Imports');
    expect(screen.queryByLabelText('Level name')).toBeNull();
    await view.user.selectOptions(screen.getByLabelText('What the file holds'), 'exam');
    await view.user.selectOptions(screen.getByLabelText('Subject'), 'Calculation');
    await view.user.type(screen.getByLabelText('Level'), '3');
    await view.user.type(screen.getByLabelText('Level name'), 'Level 3 (spring)');
    await view.user.upload(screen.getByLabelText('File'), new File(['PK'], 'package.zip', { type: 'application/zip' }));
    await view.user.click(screen.getByRole('button', { name: 'Check file' }));
    await waitFor(() => expect(view.admin.requests.some((r) => r.method === 'UPLOAD')).toBe(true));
    expect(view.admin.requests.find((r) => r.method === 'UPLOAD')).toMatchObject({
      path: '/admin/imports/exam',
      contentType: 'application/zip',
      query: { subject: '2', level: '3', level_name: 'Level 3 (spring)' },
    });
  });

  it('downloads login slips with the staff token and offers them under their file name', async () => {
    const created: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:slips';
    });
    URL.revokeObjectURL = vi.fn();
    const view = await renderConsole();
    await open(view, 'Login slips and results');
    await view.user.selectOptions(screen.getByRole('combobox', { name: 'Classroom' }), 'Room 1');
    await view.user.click(screen.getByRole('button', { name: 'Download login slips (PDF)' }));
    const link = await screen.findByRole('link', { name: 'Save login-slips-SPRING-27.pdf' });
    expect(link.getAttribute('href')).toBe('blob:slips');
    expect(link.getAttribute('download')).toBe('login-slips-SPRING-27.pdf');
    await waitFor(() => expect(document.activeElement).toBe(link));
    expect(view.admin.requests.at(-1)).toMatchObject({ path: '/admin/schedules/SPRING-27/slips.pdf', token: 'staff-token-1', query: { venue: 11 } });
    expect(await created[0]!.text()).toBe('%PDF-1.7');
  });

  it('adds a staff member only with a password of at least 12 characters, and says so', async () => {
    const view = await renderConsole();
    await open(view, 'Staff');
    await view.user.click(screen.getByRole('button', { name: 'Add a staff member' }));
    await view.user.type(screen.getByRole('textbox', { name: 'Login ID' }), 'new.proctor');
    await view.user.type(screen.getByRole('textbox', { name: 'Name' }), 'Noor Proctor');
    await view.user.type(screen.getByRole('textbox', { name: 'Organisation code' }), 'SAKURA');
    await view.user.type(screen.getByLabelText('Password'), 'short');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A password has at least 12 characters.')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Password')));
    expect(view.admin.requests.some((r) => r.method === 'POST')).toBe(false);
    await view.user.type(screen.getByLabelText('Password'), ' and longer');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Noor Proctor was added.')).toBeTruthy();
    expect(screen.getByRole('rowheader', { name: 'new.proctor' })).toBeTruthy();
    expect(view.admin.requests.at(-1)).toMatchObject({ method: 'POST', path: '/admin/staff', body: { login_id: 'new.proctor', role: 'proctor', org_code: 'SAKURA' } });
  });

  it('shows the audit log, a failure with Try again, and ends with Sign in again on a 401', async () => {
    const admin = createFakeAdministration();
    admin.failNext.set('GET /admin/audit/deployment', 'GENERIC_ERROR');
    const view = await renderConsole(admin);
    await open(view, 'Audit log');
    expect((await screen.findByRole('alert')).textContent).toBe('An error has occurred.');
    await view.user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('staff:grace')).toBeTruthy();
    expect(screen.getByText('Staff member changed')).toBeTruthy();

    admin.revoked = true;
    await open(view, 'Exams').catch(() => undefined);
    expect((await screen.findByRole('alert')).textContent).toBe('Your staff session has ended. Please sign in again.');
    await view.user.click(screen.getByRole('button', { name: 'Sign in again' }));
    expect(view.signInAgain).toHaveBeenCalledTimes(1);
  });
});
