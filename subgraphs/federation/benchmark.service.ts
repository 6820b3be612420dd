import type { FastifyBaseLogger } from 'fastify';
import type { Viewer } from '../../lib/auth/viewer.js';
import type { Clock } from '../../lib/clock.js';
import { BadInput } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { REMOTE_DOCUMENTS, type RemoteCluster } from './remote.js';
import type { BenchmarkRow, BenchmarkStore } from './store/benchmark.store.js';
import type { ClusterRow } from './store/cluster.store.js';

/** The standard operations a benchmark can run, all read-only and public on the other side. */
export const BENCHMARK_OPERATIONS = {
  ping: REMOTE_DOCUMENTS.ping,
  search: 'query FederationBenchmarkSearch { searchDatasets(q: "connectome", limit: 10) { total items { dataset_id title score } } }',
  probe: REMOTE_DOCUMENTS.probe,
} as const;
export type BenchmarkOperation = keyof typeof BENCHMARK_OPERATIONS;

export const BENCHMARK_LIMITS = { maxRequests: 200, maxConcurrency: 10, maxTotalRequests: 600 };

export interface BenchmarkInput {
  operations?: string[];
  requests?: number;
  concurrency?: number;
}

/** Linear interpolation between closest ranks (numpy's default, R type 7). */
export function quantile(sorted: readonly number[], q: number): number | null {
  if (!sorted.length) return null;
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  return sorted[lo] + (h - lo) * ((sorted[Math.min(lo + 1, sorted.length - 1)] ?? sorted[lo]) - sorted[lo]);
}

const round = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 1000);

/**
 * Bounded benchmarks of standard operations against one cluster (spec 4.4): for each operation, `requests` calls
 * with `concurrency` in flight, no retries; latencies of the successful calls give p50/p99. Stored with the time
 * and both versions, so runs can be compared over time.
 */
export class BenchmarkService {
  constructor(
    private readonly store: BenchmarkStore,
    private readonly remote: RemoteCluster,
    private readonly ourVersion: string,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  checkInput(input: BenchmarkInput): { operations: BenchmarkOperation[]; requests: number; concurrency: number } {
    const operations = (input.operations?.length ? input.operations : ['ping', 'search']) as BenchmarkOperation[];
    const unknown = operations.filter((o) => !(o in BENCHMARK_OPERATIONS));
    if (unknown.length) throw new BadInput(`operations: unknown ${unknown.join(', ')}; known: ${Object.keys(BENCHMARK_OPERATIONS).join(', ')}`);
    const requests = input.requests ?? 20;
    const concurrency = input.concurrency ?? 4;
    if (!Number.isInteger(requests) || requests < 1 || requests > BENCHMARK_LIMITS.maxRequests) throw new BadInput(`requests: 1..${BENCHMARK_LIMITS.maxRequests} per operation`);
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > BENCHMARK_LIMITS.maxConcurrency) throw new BadInput(`concurrency: 1..${BENCHMARK_LIMITS.maxConcurrency}`);
    if (new Set(operations).size * requests > BENCHMARK_LIMITS.maxTotalRequests) throw new BadInput(`at most ${BENCHMARK_LIMITS.maxTotalRequests} requests per benchmark in all`);
    return { operations: [...new Set(operations)], requests, concurrency };
  }

  async run(actor: Viewer, cluster: ClusterRow, input: BenchmarkInput, signal?: AbortSignal): Promise<{ run_id: string; rows: BenchmarkRow[] }> {
    const { operations, requests, concurrency } = this.checkInput(input);
    const runId = newId();
    let theirVersion: string | null = null;
    try {
      theirVersion = (await this.remote.ping(cluster.baseUrl, { signal, retries: 0 })).ping.version;
    } catch {
      // Measured anyway: the errors column will say how the cluster answered.
    }
    const rows: BenchmarkRow[] = [];
    for (const operation of operations) {
      const startedAt = this.clock.now();
      const t0 = performance.now();
      const latencies: number[] = [];
      let errors = 0;
      let next = 0;
      const worker = async () => {
        while (next < requests) {
          next++;
          signal?.throwIfAborted();
          try {
            const answer = await this.remote.query(cluster.baseUrl, BENCHMARK_OPERATIONS[operation], {}, { signal, retries: 0 });
            if (answer.errors.length || !answer.data) errors++;
            else latencies.push(answer.latencyMs);
          } catch (e) {
            if (signal?.aborted) throw e;
            errors++;
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, requests) }, worker));
      const durationMs = performance.now() - t0;
      latencies.sort((a, b) => a - b);
      rows.push({
        id: newId(),
        runId,
        clusterId: cluster.id,
        clusterName: cluster.name,
        operation,
        requests,
        concurrency,
        errors,
        minMs: round(latencies[0] ?? null),
        p50Ms: round(quantile(latencies, 0.5)),
        p99Ms: round(quantile(latencies, 0.99)),
        maxMs: round(latencies.at(-1) ?? null),
        meanMs: round(latencies.length ? latencies.reduce((a, b) => a + b, 0) / latencies.length : null),
        requestsPerSec: round((requests * 1000) / Math.max(durationMs, 1e-3))!,
        startedAt,
        durationMs: round(durationMs)!,
        ourVersion: this.ourVersion,
        theirVersion,
        actorId: actor.id,
      });
    }
    await this.store.insert(rows.map(({ clusterName: _name, ...r }) => r));
    this.log.info({ clusterId: cluster.id, runId, operations, requests, concurrency }, 'federation benchmark finished');
    return { run_id: runId, rows };
  }
}
