import type { Viewer } from '../../lib/auth/viewer.js';
import type { RequestContext } from '../../lib/context.js';
import { BadInput, NotFound } from '../../lib/errors.js';
import { isUuid } from '../../lib/ids.js';
import type { SubgraphDeps } from '../../lib/subgraph.js';
import { identity } from '../identity/index.js';
import { BENCHMARK_OPERATIONS, type BenchmarkInput, type BenchmarkService } from './benchmark.service.js';
import type { ClusterChecks, OwnSchema, SchemaReport } from './cluster-checks.service.js';
import type { BenchmarkAggregate, BenchmarkPage, BenchmarkResult } from './benchmark.types.js';
import type { Cluster } from './cluster.types.js';
import type { FederationSchema, FederationStatus, SchemaSyncResult } from './federation-status.types.js';
import type { ClusterPing } from './registration.types.js';
import type { ClusterInput, ClusterRegistry } from './registry.service.js';
import { REMOTE_DOCUMENTS } from './remote.js';
import type { BenchmarkFilter, BenchmarkRow, BenchmarkStore } from './store/benchmark.store.js';
import type { ClusterRow, ClusterState, ClusterStore } from './store/cluster.store.js';

const HISTORY = 20;
/** Clusters checked at once by a status refresh or a schema sync. */
const FAN_OUT = 8;

async function inBatches<T, R>(items: readonly T[], size: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(run))));
  return out;
}

const toBenchmark = (r: BenchmarkRow): BenchmarkResult => ({
  id: r.id,
  run_id: r.runId,
  cluster_id: r.clusterId,
  cluster_name: r.clusterName,
  operation: r.operation,
  requests: r.requests,
  concurrency: r.concurrency,
  errors: r.errors,
  min_ms: r.minMs,
  p50_ms: r.p50Ms,
  p99_ms: r.p99Ms,
  max_ms: r.maxMs,
  mean_ms: r.meanMs,
  requests_per_sec: r.requestsPerSec,
  started_at: r.startedAt,
  duration_ms: r.durationMs,
  our_version: r.ourVersion,
  their_version: r.theirVersion,
});

/** The federation subgraph's operations, over the registry, the checks and the benchmarks. */
export class FederationService {
  constructor(
    private readonly deps: SubgraphDeps,
    readonly ownSchema: () => Promise<OwnSchema>,
    private readonly store: ClusterStore,
    private readonly registry: ClusterRegistry,
    private readonly checks: ClusterChecks,
    private readonly bench: BenchmarkService,
    private readonly benchStore: BenchmarkStore,
    private readonly version: string,
  ) {}

  private baseUrl(ctx: Pick<RequestContext, 'baseUrl'>): string {
    return (this.deps.config.login.publicUrl ?? ctx.baseUrl ?? `http://${this.deps.config.http.host}:${this.deps.config.http.port}`).replace(/\/+$/, '');
  }

  async ping(ctx: Pick<RequestContext, 'baseUrl'>): Promise<ClusterPing> {
    const fed = this.deps.config.federation;
    return {
      status: 'ok',
      name: fed.clusterName,
      base_url: this.baseUrl(ctx),
      version: this.version,
      schema_hash: (await this.ownSchema()).hash,
      time: this.deps.clock.now(),
      accepts_registrations: Boolean(fed.password),
    };
  }

  async signChallenge(nonce: string, audience: string) {
    if (!/^[A-Za-z0-9_-]{16,128}$/.test(nonce)) throw new BadInput('nonce: 16-128 characters of base64url');
    if (audience.length > 500 || !/^https?:\/\/\S+$/.test(audience)) throw new BadInput('audience: the base URL of the asking cluster');
    const cluster = this.deps.config.federation.clusterName;
    return { token: await identity.use(this.deps).signClusterChallenge({ nonce, audience, cluster }), cluster };
  }

  async register(input: ClusterInput & { password: string }, clientIp: string | undefined) {
    const row = await this.registry.register(input, clientIp);
    return {
      cluster_id: row.id,
      name: row.name,
      base_url: row.baseUrl,
      state: row.state,
      message: 'registered: a SuperUser of this cluster verifies it before it becomes active',
    };
  }

  /** Clusters with their keys and latest history, in two queries whatever their number. */
  async views(rows: ClusterRow[]): Promise<Cluster[]> {
    const ids = rows.map((r) => r.id);
    const [keys, events] = await Promise.all([this.store.keysOf(ids), this.store.events(ids, HISTORY)]);
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      base_url: r.baseUrl,
      contact: r.contact,
      state: r.state,
      origin: r.origin,
      health: r.health,
      last_contact_at: r.lastContactAt,
      last_latency_ms: r.lastLatencyMs,
      last_error: r.lastError,
      version: r.version,
      schema_hash: r.schemaHash,
      compatible: r.compatible,
      created_at: r.createdAt,
      verified_at: r.verifiedAt,
      deactivated_at: r.deactivatedAt,
      keys: keys.filter((k) => k.clusterId === r.id).map((k) => ({ kid: k.kid, public_key: k.paserk, added_at: k.addedAt })),
      history: events.filter((e) => e.clusterId === r.id).map((e) => ({ at: e.at, kind: e.kind, message: e.message })),
    }));
  }

  private async view(row: ClusterRow): Promise<Cluster> {
    return (await this.views([row]))[0];
  }

  async clusters(state?: ClusterState): Promise<Cluster[]> {
    return this.views(await this.registry.list(state));
  }

  async add(actor: Viewer, input: ClusterInput): Promise<Cluster> {
    return this.view(await this.registry.add(actor, input));
  }

  async deactivate(actor: Viewer, id: string): Promise<Cluster> {
    return this.view(await this.registry.deactivate(actor, id));
  }

  async verify(actor: Viewer, id: string, ctx: Pick<RequestContext, 'baseUrl' | 'signal'>) {
    const r = await this.registry.verify(actor, id, this.baseUrl(ctx), ctx.signal);
    return { verified: r.verified, checks: r.checks, cluster: await this.view(r.cluster) };
  }

  /** Connectivity is tried on pending clusters too: it helps decide whether to verify one. */
  async connectivity(id: string, signal?: AbortSignal) {
    const cluster = await this.registry.get(id);
    if (cluster.state === 'inactive') await this.registry.active(id, 'a connectivity test');
    return this.checks.connectivity(cluster, signal);
  }

  async schemaTest(id: string, signal?: AbortSignal): Promise<SchemaReport> {
    return this.checks.schema(await this.registry.active(id, 'a schema test'), signal);
  }

  async queryTest(id: string, signal?: AbortSignal) {
    return { ...(await this.checks.query(await this.registry.active(id, 'a query test'), signal)), query: REMOTE_DOCUMENTS.probe };
  }

  async status(ctx: Pick<RequestContext, 'baseUrl' | 'signal'>, refresh: boolean): Promise<FederationStatus> {
    if (refresh) {
      const active = await this.registry.list('active');
      const timeoutMs = this.deps.config.federation.searchTimeoutMs;
      await inBatches(active, FAN_OUT, (c) => this.checks.ping(c, { signal: ctx.signal, timeoutMs, retries: 0 }));
    }
    const clusters = await this.clusters();
    const count = (f: (c: Cluster) => boolean) => clusters.filter(f).length;
    return {
      self: await this.ping(ctx),
      counts: {
        pending: count((c) => c.state === 'pending'),
        active: count((c) => c.state === 'active'),
        inactive: count((c) => c.state === 'inactive'),
        up: count((c) => c.state === 'active' && c.health === 'up'),
        down: count((c) => c.state === 'active' && c.health === 'down'),
      },
      clusters,
      refreshed: refresh,
    };
  }

  async schemaView(): Promise<FederationSchema> {
    const own = await this.ownSchema();
    const [rows, latest] = await Promise.all([this.registry.list(), this.store.latestSchemaChecks()]);
    const byCluster = new Map(latest.map((c) => [c.clusterId, c]));
    return {
      sdl: own.sdl,
      hash: own.hash,
      clusters: rows.map((r) => {
        const c = byCluster.get(r.id);
        return {
          cluster_id: r.id,
          name: r.name,
          state: r.state,
          schema_hash: c?.theirHash ?? r.schemaHash,
          compatible: c ? c.compatible : null,
          breaking_changes: c ? c.changes.filter((x) => x.criticality === 'BREAKING').length : null,
          checked_at: c?.checkedAt ?? null,
        };
      }),
    };
  }

  async schemaSync(signal?: AbortSignal): Promise<SchemaSyncResult> {
    const own = await this.ownSchema();
    const reports = await inBatches(await this.registry.list('active'), FAN_OUT, (c) => this.checks.schema(c, signal));
    return {
      our_hash: own.hash,
      synced_at: this.deps.clock.now(),
      compatible: reports.filter((r) => r.ok && r.compatible).length,
      incompatible: reports.filter((r) => r.ok && !r.compatible).length,
      failed: reports.filter((r) => !r.ok).length,
      clusters: reports,
    };
  }

  async benchmark(actor: Viewer, input: BenchmarkInput & { cluster_id: string }, signal?: AbortSignal) {
    this.bench.checkInput(input);
    const cluster = await this.registry.active(input.cluster_id, 'a benchmark');
    const r = await this.bench.run(actor, cluster, input, signal);
    return { run_id: r.run_id, cluster_id: cluster.id, results: r.rows.map(toBenchmark) };
  }

  private checkFilter(f: BenchmarkFilter): BenchmarkFilter {
    if (f.clusterId && !isUuid(f.clusterId)) throw new NotFound(`no cluster ${f.clusterId}`);
    if (f.operation && !(f.operation in BENCHMARK_OPERATIONS)) throw new BadInput(`operation: one of ${Object.keys(BENCHMARK_OPERATIONS).join(', ')}`);
    return f;
  }

  async benchmarks(f: BenchmarkFilter, limit: number, offset: number): Promise<BenchmarkPage> {
    if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new BadInput('limit: 1..200');
    if (!Number.isInteger(offset) || offset < 0 || offset > 100_000) throw new BadInput('offset: 0..100000');
    const { rows, total } = await this.benchStore.list(this.checkFilter(f), limit, offset);
    return { items: rows.map(toBenchmark), total, limit, offset };
  }

  async benchmarkAggregate(f: BenchmarkFilter, bucket: string): Promise<BenchmarkAggregate> {
    if (!['hour', 'day', 'week'].includes(bucket)) throw new BadInput('bucket: hour, day or week');
    const rows = await this.benchStore.aggregate(this.checkFilter(f), bucket as 'hour' | 'day' | 'week');
    return {
      bucket,
      items: rows.map((r) => ({
        cluster_id: r.clusterId,
        cluster_name: r.clusterName,
        operation: r.operation,
        bucket_start: r.bucketStart,
        runs: r.runs,
        requests: r.requests,
        errors: r.errors,
        error_rate: r.requests ? r.errors / r.requests : 0,
        p50_ms_median: r.p50MsMedian,
        p99_ms_max: r.p99MsMax,
        mean_ms: r.meanMs,
        requests_per_sec_mean: r.requestsPerSecMean,
      })),
    };
  }
}
