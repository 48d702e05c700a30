/**
 * Metrics of a cluster (`npm start` on PostgreSQL runs one API process per core, server/main.ts):
 * every worker counts in its own registries (server/observability/metrics.ts); the primary adds
 * them up with prom-client's AggregatorRegistry, which asks each worker over the cluster's IPC
 * channel. Counters and histograms are summed over the workers (gradus_http_request_duration_seconds
 * is then the whole service's), the database-read gauges take the max (every worker reads the
 * same rows), the pool gauge is summed (connections of all workers), and Node's process metrics
 * stay one series per worker (label `worker`).
 * - In a worker: `shareWithPrimary(registries)` answers the primary's collection requests;
 *   `clusterMetricsFromPrimary()` gets the added-up text for GET /api/metrics (a scrape through
 *   the public port lands on any one worker, and still sees them all).
 * - In the primary: `serveClusterMetrics({ port })` answers the workers' requests and, with a
 *   port (METRICS_PORT), serves GET /metrics on 127.0.0.1 like a single process does.
 */
import cluster from 'node:cluster';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AggregatorRegistry, type Registry } from 'prom-client';

const REQUEST = 'gradus:cluster-metrics-request';
const RESPONSE = 'gradus:cluster-metrics-response';
/** How long a worker waits for the primary's answer. */
const ANSWER_MS = 10_000;

type Request = { type: typeof REQUEST; id: number };
type Response = { type: typeof RESPONSE; id: number; body?: string; error?: string };

/** In a worker: the registries the primary collects (prom-client's protocol; installs its listener once). */
export function shareWithPrimary(registries: Registry[]): void {
  AggregatorRegistry.setRegistries(registries);
  new AggregatorRegistry();
}

let nextId = 1;
const waiting = new Map<number, { resolve: (body: string) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();
let listening = false;

/** In a worker: every worker's metrics, added up by the primary. */
export function clusterMetricsFromPrimary(): Promise<string> {
  if (!cluster.isWorker || !process.send) return Promise.reject(new Error('not a cluster worker'));
  if (!listening) {
    listening = true;
    process.on('message', (message: Response) => {
      if (message?.type !== RESPONSE) return;
      const pending = waiting.get(message.id);
      if (!pending) return;
      waiting.delete(message.id);
      clearTimeout(pending.timer);
      if (message.body !== undefined) pending.resolve(message.body);
      else pending.reject(new Error(message.error ?? 'no metrics'));
    });
  }
  const id = nextId++;
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      reject(new Error('the primary did not answer with the metrics'));
    }, ANSWER_MS);
    waiting.set(id, { resolve, reject, timer });
    process.send!({ type: REQUEST, id } satisfies Request, undefined, undefined, (error: Error | null) => {
      if (!error) return;
      waiting.delete(id);
      clearTimeout(timer);
      reject(error);
    });
  });
}

export type ClusterMetricsServer = { port: number; close(): Promise<void> };

/**
 * In the primary: answers the workers' requests for the added-up metrics, and serves them on
 * 127.0.0.1:<port> when a port is given (resolves to that listener; undefined without one).
 */
export async function serveClusterMetrics(options: { port?: number }): Promise<ClusterMetricsServer | undefined> {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: Request) => {
    if (message?.type !== REQUEST) return;
    // A worker gone meanwhile is not answered (the callback takes the channel's error).
    const answer = (response: Response) => worker.isConnected() && worker.send(response, undefined, undefined, () => {});
    aggregator.clusterMetrics().then(
      (body) => answer({ type: RESPONSE, id: message.id, body }),
      (error: Error) => answer({ type: RESPONSE, id: message.id, error: error.message }),
    );
  });
  if (options.port === undefined) return undefined;
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found: GET /metrics');
      return;
    }
    aggregator.clusterMetrics().then(
      (body) => response.writeHead(200, { 'Content-Type': aggregator.contentType, 'Cache-Control': 'no-store' }).end(body),
      (error: Error) => response.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`metrics unavailable: ${error.message}`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
