/**
 * What every `npm run admin` command shares: how it writes (`CliIo`) and the database it acts on
 * (DATABASE_URL, else PGlite under DATA_DIR). `withDatabase` opens it, runs the command's work and
 * closes it whatever happens. A PGlite directory held by a running server is refused before any
 * work: the command says nothing was done and exits 1.
 */
import { configFromEnv } from '../config.ts';
import { DataDirectoryInUseError, openDatabase, type Database } from '../db/client.ts';

/** Where a command writes what it did (`out`) and its problems (`err`); `env` replaces process.env in tests. */
export type CliIo = { out: (line: string) => void; err: (line: string) => void; env?: Record<string, string | undefined> };

/**
 * Runs `work` on the configured database and returns its exit code. `nothingDone` completes the
 * refusal's sentence when the database is held elsewhere: "Nothing was <nothingDone>."
 */
export async function withDatabase(io: CliIo, nothingDone: string, work: (database: Database) => Promise<number>): Promise<number> {
  const config = configFromEnv(io.env ?? process.env);
  let database: Database;
  try {
    database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  } catch (error) {
    // PGlite held by the running server: nothing was done, and the exit code says so.
    if (!(error instanceof DataDirectoryInUseError)) throw error;
    io.err(`Nothing was ${nothingDone}. ${error.message}`);
    return 1;
  }
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}
