/**
 * `npm run admin -- create-staff <login id> --role admin|proctor [--org <org code>] [--name <name>]`:
 * a staff account from the command line, on the same database as the server (DATABASE_URL, else
 * PGlite under DATA_DIR). It is how a deployment, which starts empty, gets its first
 * administrator; after that administrators manage staff in the console.
 *
 * - An administrator (role admin) belongs to no organisation and signs in with no organisation
 *   code; a proctor needs --org, an existing organisation's code.
 * - The password is never an argument (it would stay in the shell's history and the process
 *   list): on a terminal it is asked twice without echo; otherwise the first line of standard
 *   input is the password (`printf '%s\n' "$PASSWORD" | npm run admin -- create-staff ...`).
 *   12 to 128 characters (contract/admin.ts StaffPasswordSchema).
 * - Audited like the console's creation (staff_create), with no staff member and the reason
 *   'command line' (server/domain/staff-admin.ts).
 * Exit 0 created; 1 refused (a taken login id, an unknown organisation, a password outside the
 * length rule or two that differ, the PGlite directory held by a running server); 2 usage.
 */
import { createInterface } from 'node:readline/promises';
import { Writable, type Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import * as v from 'valibot';
import { STAFF_PASSWORD_MAX_LENGTH, STAFF_PASSWORD_MIN_LENGTH, StaffLoginIdSchema, StaffPasswordSchema, StaffRoleSchema } from '../../contract/admin.ts';
import { withDatabase } from './database.ts';
import { DomainError } from '../domain/errors.ts';
import { createStaff, type NewStaff } from '../domain/staff-admin.ts';

export const createStaffUsage = 'npm run admin -- create-staff <login id> --role admin|proctor [--org <org code>] [--name <name>]';

export type CreateStaffIo = {
  out: (line: string) => void;
  err: (line: string) => void;
  env?: Record<string, string | undefined>;
  /** Where the password comes from (default process.stdin); `isTTY` decides how it is read. */
  stdin?: Readable & { isTTY?: boolean };
  /** Where the prompts go on a terminal (default process.stderr), so standard output stays the result. */
  promptTo?: Writable;
};

type Parsed = Omit<NewStaff, 'password'>;

/** The account the arguments describe, or null (usage). */
function parsedArgs(args: readonly string[]): Parsed | null {
  let values: { role?: string; org?: string; name?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...args],
      options: { role: { type: 'string' }, org: { type: 'string' }, name: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    }));
  } catch {
    return null;
  }
  if (positionals.length !== 1) return null;
  const loginId = v.safeParse(StaffLoginIdSchema, positionals[0]);
  const role = v.safeParse(StaffRoleSchema, values.role);
  if (!loginId.success || !role.success) return null;
  // A proctor belongs to an organisation, an administrator to none.
  if ((role.output === 'proctor') !== (values.org !== undefined)) return null;
  const name = values.name?.trim() || loginId.output;
  return { loginId: loginId.output, name, role: role.output, orgCode: values.org ?? null };
}

/** A line typed on a terminal, not echoed: readline writes its echo to a stream that drops it. */
async function askHidden(input: Readable, promptTo: Writable, prompt: string): Promise<string> {
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const lines = createInterface({ input, output: silent, terminal: true });
  promptTo.write(prompt);
  try {
    return await lines.question('');
  } finally {
    lines.close();
    promptTo.write('\n');
  }
}

/** The first line of a stream (a pipe, a file), without its line ending; '' when there is none. */
async function firstLine(input: Readable): Promise<string> {
  const lines = createInterface({ input, crlfDelay: Infinity, terminal: false });
  try {
    for await (const line of lines) return line;
    return '';
  } finally {
    lines.close();
  }
}

/** The password: asked twice on a terminal, else the first line of standard input; null (told why) when refused. */
async function readPassword(io: CreateStaffIo): Promise<string | null> {
  const stdin = io.stdin ?? process.stdin;
  let password: string;
  if (stdin.isTTY === true) {
    const promptTo = io.promptTo ?? process.stderr;
    password = await askHidden(stdin, promptTo, 'Password: ');
    if (v.safeParse(StaffPasswordSchema, password).success && (await askHidden(stdin, promptTo, 'Password again: ')) !== password) {
      io.err('Nothing was created: the two passwords differ.');
      return null;
    }
  } else {
    password = await firstLine(stdin);
  }
  if (!v.safeParse(StaffPasswordSchema, password).success) {
    io.err(`Nothing was created: a password has ${STAFF_PASSWORD_MIN_LENGTH} to ${STAFF_PASSWORD_MAX_LENGTH} characters (this one has ${[...password].length}).`);
    return null;
  }
  return password;
}

export async function runCreateStaff(args: readonly string[], io: CreateStaffIo): Promise<number> {
  const parsed = parsedArgs(args);
  if (parsed === null) {
    io.err(`Usage: ${createStaffUsage}\n  (--org is required with --role proctor and refused with --role admin; the password is read from the terminal or standard input)`);
    return 2;
  }
  const password = await readPassword(io);
  if (password === null) return 1;

  return withDatabase(io, 'created', async (database) => {
    try {
      const member = await createStaff(database.db, { staffId: null, reason: 'command line' }, { ...parsed, password }, new Date());
      const where = `${database.driver} (${database.location})`;
      io.out(
        member.role === 'admin'
          ? `Created administrator "${member.login_id}" (${member.name}) on ${where}. Sign in at /proctor with this login ID, no organisation code, and the password.`
          : `Created proctor "${member.login_id}" (${member.name}) of ${member.org_code} on ${where}. Sign in at /proctor with organisation code ${member.org_code}.`,
      );
      return 0;
    } catch (error) {
      if (error instanceof DomainError && (error.code === 'ER_DUP_ENTRY' || error.code === 'NOT_FOUND' || error.code === 'VALIDATION_ERROR')) {
        io.err(`Nothing was created: ${error.message}`);
        return 1;
      }
      throw error;
    }
  });
}
