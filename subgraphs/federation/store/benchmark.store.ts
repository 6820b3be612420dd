import { and, desc, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../../../lib/db/relational.js';
import { benchmarks, clusters } from './tables.js';

export type BenchmarkRow = typeof benchmarks.$inferSelect & { clusterName: string };

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

const where = (f: BenchmarkFilter) =>
  and(
    f.clusterId ? eq(benchmarks.clusterId, f.clusterId) : undefined,
    f.operation ? eq(benchmarks.operation, f.operation) : undefined,
    f.since ? gte(benchmarks.startedAt, f.since) : undefined,
  );

/** Benchmark runs against other clusters, kept with the time and both versions. */
export class BenchmarkStore {
  constructor(private readonly db: Db) {}

  async insert(rows: (typeof benchmarks.$inferInsert)[]): Promise<void> {
    if (rows.length) await this.db.insert(benchmarks).values(rows);
  }

  async list(f: BenchmarkFilter, limit: number, offset: number): Promise<{ rows: BenchmarkRow[]; total: number }> {
    const rows = await this.db
      .select({ b: benchmarks, clusterName: clusters.name })
      .from(benchmarks)
      .innerJoin(clusters, eq(clusters.id, benchmarks.clusterId))
      .where(where(f))
      .orderBy(desc(benchmarks.startedAt), benchmarks.operation)
      .limit(limit)
      .offset(offset);
    const [{ n }] = await this.db.select({ n: sql<number>`count(*)::int` }).from(benchmarks).where(where(f));
    return { rows: rows.map((r) => ({ ...r.b, clusterName: r.clusterName })), total: n };
  }

  /**
   * Per cluster, operation and time bucket: the runs, their requests and errors, the median of their p50s, the
   * worst p99 and the request-weighted mean latency.
   */
  async aggregate(f: BenchmarkFilter, bucket: 'hour' | 'day' | 'week'): Promise<AggregateRow[]> {
    // A literal, not a parameter: GROUP BY must see the same expression as the select list. `bucket` is one of three words.
    const unit = sql.raw(`'${{ hour: 'hour', day: 'day', week: 'week' }[bucket]}'`);
    const start = sql<Date>`date_trunc(${unit}, ${benchmarks.startedAt} at time zone 'UTC') at time zone 'UTC'`;
    const rows = await this.db
      .select({
        clusterId: benchmarks.clusterId,
        clusterName: clusters.name,
        operation: benchmarks.operation,
        bucketStart: start,
        runs: sql<number>`count(*)::int`,
        requests: sql<number>`sum(${benchmarks.requests})::int`,
        errors: sql<number>`sum(${benchmarks.errors})::int`,
        p50MsMedian: sql<number | null>`percentile_cont(0.5) within group (order by ${benchmarks.p50Ms})`,
        p99MsMax: sql<number | null>`max(${benchmarks.p99Ms})`,
        meanMs: sql<number | null>`sum(${benchmarks.meanMs} * (${benchmarks.requests} - ${benchmarks.errors})) / nullif(sum(case when ${benchmarks.meanMs} is null then 0 else ${benchmarks.requests} - ${benchmarks.errors} end), 0)`,
        requestsPerSecMean: sql<number>`avg(${benchmarks.requestsPerSec})`,
      })
      .from(benchmarks)
      .innerJoin(clusters, eq(clusters.id, benchmarks.clusterId))
      .where(where(f))
      .groupBy(benchmarks.clusterId, clusters.name, benchmarks.operation, start)
      .orderBy(clusters.name, benchmarks.operation, start);
    return rows.map((r) => ({
      ...r,
      bucketStart: new Date(r.bucketStart),
      p50MsMedian: r.p50MsMedian === null ? null : Number(r.p50MsMedian),
      p99MsMax: r.p99MsMax === null ? null : Number(r.p99MsMax),
      meanMs: r.meanMs === null ? null : Number(r.meanMs),
      requestsPerSecMean: Number(r.requestsPerSecMean),
    }));
  }
}
