import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../lib/db/relational.js';
import { namedQuery } from '../../../lib/db/named-query.js';
import { pagedQuery } from '../../../lib/db/paged-query.js';
import { col, queryRows, rowOf } from '../../../lib/db/rows.js';
import { benchmarks, clusters } from './tables.js';

/** One benchmark run of one operation against one cluster (tables.ts `benchmarks`), as written. */
export interface NewBenchmark {
  id: string;
  /** Runs started by one request share it. */
  runId: string;
  clusterId: string;
  operation: string;
  requests: number;
  concurrency: number;
  errors: number;
  minMs: number | null;
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  meanMs: number | null;
  requestsPerSec: number;
  startedAt: Date;
  durationMs: number;
  ourVersion: string;
  theirVersion: string | null;
  actorId: string | null;
}

/** A benchmark run with the name of its cluster. */
export interface BenchmarkRow extends NewBenchmark {
  clusterName: string;
}

export interface BenchmarkFilter {
  clusterId?: string;
  operation?: string;
  since?: Date;
}

export interface AggregateRow {
  clusterId: string;
  clusterName: string;
  operation: string;
  bucketStart: Date;
  runs: number;
  requests: number;
  errors: number;
  p50MsMedian: number | null;
  p99MsMax: number | null;
  meanMs: number | null;
  requestsPerSecMean: number;
}

const BENCHMARK_COLUMNS = {
  id: col.text,
  run_id: col.text,
  cluster_id: col.text,
  operation: col.text,
  requests: col.int,
  concurrency: col.int,
  errors: col.int,
  min_ms: col.float.nullable(),
  p50_ms: col.float.nullable(),
  p99_ms: col.float.nullable(),
  max_ms: col.float.nullable(),
  mean_ms: col.float.nullable(),
  requests_per_sec: col.float,
  started_at: col.timestamp,
  duration_ms: col.float,
  our_version: col.text,
  their_version: col.text.nullable(),
  actor_id: col.text.nullable(),
};

/** The stored columns of a run, for the select list. */
const STORED = rowOf(BENCHMARK_COLUMNS);

const BENCHMARK = rowOf(
  { ...BENCHMARK_COLUMNS, cluster_name: col.text },
  (r): BenchmarkRow => ({
    id: r.id,
    runId: r.run_id,
    clusterId: r.cluster_id,
    clusterName: r.cluster_name,
    operation: r.operation,
    requests: r.requests,
    concurrency: r.concurrency,
    errors: r.errors,
    minMs: r.min_ms,
    p50Ms: r.p50_ms,
    p99Ms: r.p99_ms,
    maxMs: r.max_ms,
    meanMs: r.mean_ms,
    requestsPerSec: r.requests_per_sec,
    startedAt: r.started_at,
    durationMs: r.duration_ms,
    ourVersion: r.our_version,
    theirVersion: r.their_version,
    actorId: r.actor_id,
  }),
);

const AGGREGATE = rowOf(
  {
    cluster_id: col.text,
    cluster_name: col.text,
    operation: col.text,
    bucket_start: col.timestamp,
    runs: col.int,
    requests: col.int,
    errors: col.int,
    p50_ms_median: col.float.nullable(),
    p99_ms_max: col.float.nullable(),
    mean_ms: col.float.nullable(),
    requests_per_sec_mean: col.float,
  },
  (r): AggregateRow => ({
    clusterId: r.cluster_id,
    clusterName: r.cluster_name,
    operation: r.operation,
    bucketStart: r.bucket_start,
    runs: r.runs,
    requests: r.requests,
    errors: r.errors,
    p50MsMedian: r.p50_ms_median,
    p99MsMax: r.p99_ms_max,
    meanMs: r.mean_ms,
    requestsPerSecMean: r.requests_per_sec_mean,
  }),
);

/** The runs with their cluster: `b` and `c`. */
const RUNS = sql`${benchmarks} b join ${clusters} c on c.id = b.cluster_id`;

/** The filter's conditions on `b`; every one given must hold. */
function where(f: BenchmarkFilter): SQL {
  const parts: SQL[] = [];
  if (f.clusterId) parts.push(sql`b.cluster_id = ${f.clusterId}`);
  if (f.operation) parts.push(sql`b.operation = ${f.operation}`);
  if (f.since) parts.push(sql`b.started_at >= ${f.since.toISOString()}`);
  return parts.length ? sql.join(parts, sql` and `) : sql`true`;
}

/** Benchmark runs against other clusters, kept with the time and both versions. */
export class BenchmarkStore {
  constructor(private readonly db: Db) {}

  async insert(rows: readonly NewBenchmark[]): Promise<void> {
    if (!rows.length) return;
    const values = rows.map(
      (r) => sql`(${r.id}, ${r.runId}, ${r.clusterId}, ${r.operation}, ${r.requests}, ${r.concurrency}, ${r.errors}, ${r.minMs}, ${r.p50Ms}, ${r.p99Ms},
        ${r.maxMs}, ${r.meanMs}, ${r.requestsPerSec}, ${r.startedAt.toISOString()}, ${r.durationMs}, ${r.ourVersion}, ${r.theirVersion}, ${r.actorId})`,
    );
    await namedQuery(this.db, 'BenchmarkStore.insert', sql`insert into ${benchmarks} (${STORED.columns()}) values ${sql.join(values, sql`, `)}`);
  }

  /** One page of runs, newest first, with the total of runs that pass `f`. */
  async list(f: BenchmarkFilter, limit: number, offset: number): Promise<{ rows: BenchmarkRow[]; total: number }> {
    return pagedQuery(
      this.db,
      { list: 'BenchmarkStore.list', count: 'BenchmarkStore.count' },
      { shape: BENCHMARK, columns: sql`${STORED.columns('b')}, c.name as cluster_name`, from: RUNS, where: where(f), orderBy: sql`b.started_at desc, b.operation` },
      { limit, offset },
    );
  }

  /**
   * Per cluster, operation and time bucket: the runs, their requests and errors, the median of their p50s, the
   * worst p99 and the request-weighted mean latency.
   */
  async aggregate(f: BenchmarkFilter, bucket: 'hour' | 'day' | 'week'): Promise<AggregateRow[]> {
    // A literal, not a parameter: GROUP BY must see the same expression as the select list. `bucket` is one of three words.
    const unit = sql.raw(`'${{ hour: 'hour', day: 'day', week: 'week' }[bucket]}'`);
    const start = sql`date_trunc(${unit}, b.started_at at time zone 'UTC') at time zone 'UTC'`;
    return queryRows(
      this.db,
      'BenchmarkStore.aggregate',
      sql`select b.cluster_id, c.name as cluster_name, b.operation, ${start} as bucket_start,
          count(*)::int as runs, sum(b.requests)::int as requests, sum(b.errors)::int as errors,
          percentile_cont(0.5) within group (order by b.p50_ms) as p50_ms_median, max(b.p99_ms) as p99_ms_max,
          sum(b.mean_ms * (b.requests - b.errors)) / nullif(sum(case when b.mean_ms is null then 0 else b.requests - b.errors end), 0) as mean_ms,
          avg(b.requests_per_sec) as requests_per_sec_mean
        from ${RUNS}
        where ${where(f)}
        group by b.cluster_id, c.name, b.operation, ${start}
        order by c.name, b.operation, ${start}`,
      AGGREGATE,
    );
  }
}
