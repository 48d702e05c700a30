/**
 * The roster imports by kind, for the console route, the command line and the demo seed: one
 * entry point that reads a file of a kind, plans it and (when asked) applies it (plan.ts).
 */
import type { ImportKind } from '../../contract/imports.ts';
import type { Db, Tx } from '../db/client.ts';
import { runImport, runImportInTransaction, type ApplyContext, type ImportResult, type RosterImporter } from './plan.ts';
import { pupilsImporter } from './pupils.ts';
import { schedulesImporter } from './schedules.ts';
import { schoolsImporter } from './schools.ts';
import { venuesImporter } from './venues.ts';

export const rosterImporters: Record<ImportKind, RosterImporter> = {
  schools: schoolsImporter,
  venues: venuesImporter,
  schedules: schedulesImporter,
  pupils: pupilsImporter,
};

/** Plans a roster file of this kind and, with `apply`, applies it when nothing is refused. */
export function importRoster(db: Db, kind: ImportKind, bytes: Uint8Array, options: { apply: boolean } & ApplyContext): Promise<ImportResult> {
  return runImport(db, rosterImporters[kind], bytes, options);
}

/** The same inside the caller's transaction. */
export function importRosterInTransaction(tx: Tx, kind: ImportKind, bytes: Uint8Array, options: { apply: boolean } & ApplyContext): Promise<ImportResult> {
  return runImportInTransaction(tx, rosterImporters[kind], bytes, options);
}
