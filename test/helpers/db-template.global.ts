/**
 * Vitest global setup: gives the run a directory and a name for the seeded databases every
 * test file copies (test/helpers/db.ts, `createTestDatabase`), and removes them when the run
 * ends; copies left by runs that were killed (their process is gone) are removed at the start.
 * Nothing is migrated here: the first file that needs a seeded database makes the copy, so a
 * run without server tests pays nothing.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { dropAbandonedTestDatabaseTemplates, dropTestDatabaseTemplates, type TestDatabaseTemplates } from './db.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await dropAbandonedTestDatabaseTemplates();
  const templates: TestDatabaseTemplates = {
    dir: mkdtempSync(path.join(tmpdir(), `gradus-test-db-${process.pid}-`)),
    id: `${process.pid}_${randomBytes(4).toString('hex')}`,
  };
  project.provide('gradusTestDatabases', templates);
  return () => dropTestDatabaseTemplates(templates);
}
