/**
 * Vitest setup file of the end-to-end run (vitest.e2e.config.ts): points the test file at the
 * server of its worker. scripts/e2e.ts starts one server per worker and passes them as
 * E2E_SERVERS (`[{ url, artifacts }]`); the file running in worker n (VITEST_POOL_ID, 1 to
 * maxWorkers) gets server n as E2E_BASE_URL and its artifacts folder as E2E_ARTIFACTS_DIR, set
 * before the test file is imported. A worker runs its files one after another, so each server
 * has one file at a time and the pupils a server's files take are noted in that server's folder.
 */
const servers = process.env.E2E_SERVERS ? (JSON.parse(process.env.E2E_SERVERS) as Array<{ url: string; artifacts: string }>) : [];
if (servers.length > 0) {
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  const server = servers[(worker - 1) % servers.length]!;
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_ARTIFACTS_DIR = server.artifacts;
}
