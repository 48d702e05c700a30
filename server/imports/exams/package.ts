/**
 * Reading a content package (a zip) with limits, before anything in it is parsed: fflate lists
 * the central directory, then inflates entry by entry in small slices, counting what comes out.
 *
 * Promises (each refusal names the entry and leaves the package unread past that point):
 * - a package over 20 MB is 'too_large', one with more than 500 entries 'too_large';
 * - not a zip, or a damaged one, is 'bad_zip';
 * - an entry whose name is absolute, has a drive letter, a backslash or a `..` segment is
 *   'path_outside_package' (names are only ever looked up in the map returned, never joined to
 *   a directory on disk);
 * - an entry the central directory says is over 5 MB, entries over 50 MB together, or an entry
 *   of over 64 KiB compressed more than 100 times is 'zip_bomb'; and the same limits hold while
 *   inflating, whatever the directory says (an entry that inflates to more than it declared is
 *   'zip_bomb' too), so memory stays bounded by the limits, not by the package.
 */
import { Unzip, UnzipInflate, UnzipPassThrough, unzipSync } from 'fflate';

export const packageLimits = {
  packageBytes: 20 * 1024 * 1024,
  entries: 500,
  entryBytes: 5 * 1024 * 1024,
  totalBytes: 50 * 1024 * 1024,
  ratio: 100,
  /** Entries smaller than this are not judged by their ratio (a short file of spaces compresses well). */
  ratioFloor: 64 * 1024,
} as const;

export type PackageReason = 'too_large' | 'bad_zip' | 'path_outside_package' | 'zip_bomb';
export type PackageRefusal = { ok: false; file: string | null; reason: PackageReason; value?: string };
export type PackageFiles = { ok: true; files: Map<string, Uint8Array> };

/** True when the bytes begin as a zip does ("PK\3\4", or "PK\5\6" for an empty one). */
export function looksLikeZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && ((bytes[2] === 3 && bytes[3] === 4) || (bytes[2] === 5 && bytes[3] === 6));
}

/** A safe entry name, or undefined: relative, forward slashes, no `.`/`..` segments. */
export function safeEntryName(name: string): string | undefined {
  if (name.startsWith('/') || name.includes('\\') || /^[A-Za-z]:/.test(name) || name.includes('\0')) return undefined;
  const segments = name.split('/');
  if (segments.some((s) => s === '..')) return undefined;
  return segments.filter((s) => s !== '' && s !== '.').join('/');
}

/** The files of a package (directories left out), by their normalised names. */
export function readPackage(bytes: Uint8Array, limits: typeof packageLimits = packageLimits): PackageFiles | PackageRefusal {
  if (bytes.length > limits.packageBytes) return { ok: false, file: null, reason: 'too_large', value: String(bytes.length) };
  if (!looksLikeZip(bytes)) return { ok: false, file: null, reason: 'bad_zip' };

  type Entry = { name: string; size: number; originalSize: number; compression: number };
  const entries: Entry[] = [];
  try {
    // The filter sees each central-directory entry and keeps none: nothing is inflated here.
    unzipSync(bytes, {
      filter(info) {
        entries.push({ name: info.name, size: info.size, originalSize: info.originalSize, compression: info.compression });
        return false;
      },
    });
  } catch {
    return { ok: false, file: null, reason: 'bad_zip' };
  }
  if (entries.length > limits.entries) return { ok: false, file: null, reason: 'too_large', value: `${entries.length} entries` };

  let declared = 0;
  const wanted = new Map<string, string>();
  for (const entry of entries) {
    const name = safeEntryName(entry.name);
    if (name === undefined) return { ok: false, file: entry.name, reason: 'path_outside_package' };
    if (entry.compression !== 0 && entry.compression !== 8) return { ok: false, file: entry.name, reason: 'bad_zip', value: `compression ${entry.compression}` };
    declared += entry.originalSize;
    const ratio = entry.originalSize / Math.max(1, entry.size);
    if (entry.originalSize > limits.entryBytes || declared > limits.totalBytes || (entry.originalSize > limits.ratioFloor && ratio > limits.ratio)) {
      return { ok: false, file: entry.name, reason: 'zip_bomb', value: String(entry.originalSize) };
    }
    if (!entry.name.endsWith('/')) wanted.set(entry.name, name);
  }

  // Inflate in slices of 4 KiB of input: one slice can inflate to about 4 MiB at most (deflate's
  // ratio is bounded near 1:1032), so the count below stops a bomb before it fills memory.
  const files = new Map<string, Uint8Array>();
  let total = 0;
  let refusal: PackageRefusal | undefined;
  const unzip = new Unzip((file) => {
    const name = wanted.get(file.name);
    if (name === undefined || refusal !== undefined) return;
    const chunks: Uint8Array[] = [];
    let size = 0;
    file.ondata = (error, chunk, final) => {
      if (refusal !== undefined) return;
      if (error) {
        refusal = { ok: false, file: file.name, reason: 'bad_zip' };
        return;
      }
      size += chunk.length;
      total += chunk.length;
      if (size > limits.entryBytes || total > limits.totalBytes || (file.originalSize !== undefined && size > file.originalSize)) {
        refusal = { ok: false, file: file.name, reason: 'zip_bomb', value: `more than ${size - chunk.length} bytes` };
        file.terminate();
        return;
      }
      chunks.push(chunk);
      if (final) files.set(name, concat(chunks, size));
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  unzip.register(UnzipPassThrough);
  const SLICE = 4096;
  try {
    for (let at = 0; at < bytes.length && refusal === undefined; at += SLICE) {
      unzip.push(bytes.subarray(at, Math.min(bytes.length, at + SLICE)), at + SLICE >= bytes.length);
    }
  } catch {
    refusal ??= { ok: false, file: null, reason: 'bad_zip' };
  }
  if (refusal !== undefined) return refusal;
  for (const [entryName, name] of wanted) {
    if (!files.has(name)) return { ok: false, file: entryName, reason: 'bad_zip' };
  }
  return { ok: true, files };
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
