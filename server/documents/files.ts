/**
 * Stored documents at rest as files: one file per document content, named by its ETag (the
 * SHA-256 of the bytes, server/documents/store.ts), under the server's data directory. The row in
 * `documents` stays the truth; a file is a copy a download streams the way a static file is
 * served, without reading the bytes through the database. A missing file (a new server, a wiped
 * directory, another server's print) is written again from the row on its first download.
 *
 * Promises:
 * - a file's content is the content its name promises: it is written to a temporary name and
 *   renamed into place, and only bytes whose SHA-256 is the ETag are kept;
 * - two documents with the same bytes share one file; nothing is ever rewritten or deleted here.
 */
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { etagOf } from './store.ts';

/** A strong ETag as etagOf writes it: the quoted base64url SHA-256. */
const ETAG = /^"([A-Za-z0-9_-]{43})"$/;

export type DocumentFile = { path: string; size: number };

export type DocumentFiles = {
  /** The file of this ETag, if it is kept. */
  find(etag: string): DocumentFile | undefined;
  /** Keeps the bytes under their ETag; false (nothing written) when the ETag is not theirs. */
  keep(etag: string, bytes: Uint8Array): Promise<boolean>;
};

export function documentFiles(directory: string): DocumentFiles {
  const pathOf = (etag: string): string | undefined => {
    const hash = ETAG.exec(etag)?.[1];
    return hash && path.join(directory, hash.slice(0, 2), `${hash}.pdf`);
  };
  return {
    find(etag) {
      const file = pathOf(etag);
      if (!file) return undefined;
      try {
        // Synchronous, as a static file's lookup: a stat of a cached inode costs microseconds.
        const stats = statSync(file);
        return stats.isFile() ? { path: file, size: stats.size } : undefined;
      } catch {
        return undefined;
      }
    },
    async keep(etag, bytes) {
      const file = pathOf(etag);
      if (!file || etagOf(bytes) !== etag) return false;
      await mkdir(path.dirname(file), { recursive: true });
      const temporary = `${file}.${randomUUID()}.tmp`;
      try {
        await writeFile(temporary, bytes);
        await rename(temporary, file);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
      return true;
    },
  };
}
