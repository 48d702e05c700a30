/**
 * The arguments the export commands share: `<schedule code> [--venue <venue name or id>] --out <file>`.
 * Returns null when they do not read so (the command prints its usage).
 */
import { venueRefOf, type VenueRef } from '../exports/scope.ts';

export type ExportArgs = { scheduleCode: string; venue: VenueRef | undefined; out: string };

export function exportArgsOf(args: readonly string[]): ExportArgs | null {
  let scheduleCode: string | undefined;
  let venue: VenueRef | undefined;
  let out: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = args[i + 1];
    if (arg === '--venue' || arg === '--out') {
      if (value === undefined || value === '' || value.startsWith('--')) return null;
      if (arg === '--venue') venue = venueRefOf(value);
      else out = value;
      i++;
    } else if (!arg.startsWith('--') && scheduleCode === undefined) {
      scheduleCode = arg;
    } else {
      return null;
    }
  }
  return scheduleCode === undefined || out === undefined ? null : { scheduleCode, venue, out };
}
