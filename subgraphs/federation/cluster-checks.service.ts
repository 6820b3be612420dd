import type { FastifyBaseLogger } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import type { Clock } from '../../lib/clock.js';
import { quantile } from './benchmark.service.js';
import type { TlsDetails } from './outbound/client.js';
import { callProblem, dataOf, type RemoteCluster } from './remote.js';
import { compareSchemas, parseSdl, schemaHash, type Compatibility } from './schema-compat.js';
import type { ClusterRow, ClusterStore } from './store/cluster.store.js';

export interface ConnectivityReport {
  cluster_id: string;
  ok: boolean;
  base_url: string;
  round_trips_ms: number[];
  latency_ms: number | null;
  name: string | null;
  version: string | null;
  schema_hash: string | null;
  tls: TlsDetails | null;
  error: string | null;
  checked_at: Date;
}

export interface SchemaReport extends Compatibility {
  cluster_id: string;
  cluster_name: string;
  ok: boolean;
  our_hash: string;
  their_hash: string | null;
  error: string | null;
  checked_at: Date;
}

export interface QueryCheck {
  name: string;
  ok: boolean;
  detail: string;
}

export interface QueryTestReport {
  cluster_id: string;
  ok: boolean;
  latency_ms: number | null;
  checks: QueryCheck[];
  datasets_total: number | null;
  error: string | null;
  checked_at: Date;
}

const ROUND_TRIPS = 3;
const median = (xs: number[]) => quantile([...xs].sort((a, b) => a - b), 0.5);
const round = (ms: number) => Math.round(ms * 1000) / 1000;

/** Our API schema (what clients of this cluster see), its SDL and hash. */
export interface OwnSchema {
  schema: GraphQLSchema;
  sdl: string;
  hash: string;
}

/**
 * What a SuperUser asks of one cluster or all (spec 4.4): connectivity, schema compatibility, the standard query,
 * and the live status. Each contact is recorded, so status shows the last one.
 */
export class ClusterChecks {
  constructor(
    private readonly store: ClusterStore,
    private readonly remote: RemoteCluster,
    private readonly ownSchema: () => Promise<OwnSchema>,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Pings the cluster a few times in a row: round trips, the median, TLS details, name, version and schema hash. */
  async connectivity(cluster: ClusterRow, signal?: AbortSignal): Promise<ConnectivityReport> {
    const trips: number[] = [];
    let last: Awaited<ReturnType<RemoteCluster['ping']>> | undefined;
    let error: string | null = null;
    for (let i = 0; i < ROUND_TRIPS && !error; i++) {
      try {
        last = await this.remote.ping(cluster.baseUrl, { signal, retries: 0 });
        trips.push(round(last.answer.latencyMs));
      } catch (e) {
        error = callProblem(e).message;
      }
    }
    const latency = median(trips);
    await this.record(cluster, error ? { health: 'down', error } : { health: 'up', latencyMs: latency, version: last!.ping.version, schemaHash: last!.ping.schema_hash });
    return {
      cluster_id: cluster.id,
      ok: !error,
      base_url: cluster.baseUrl,
      round_trips_ms: trips,
      latency_ms: latency,
      name: last?.ping.name ?? null,
      version: last?.ping.version ?? null,
      schema_hash: last?.ping.schema_hash ?? null,
      tls: last?.answer.tls ?? null,
      error,
      checked_at: this.clock.now(),
    };
  }

  /** Fetches the cluster's API schema, compares it with ours and keeps the report. */
  async schema(cluster: ClusterRow, signal?: AbortSignal): Promise<SchemaReport> {
    const ours = await this.ownSchema();
    const checkedAt = this.clock.now();
    const failed = (error: string): SchemaReport => ({
      cluster_id: cluster.id,
      cluster_name: cluster.name,
      ok: false,
      compatible: false,
      identical: false,
      breaking: [],
      dangerous: [],
      non_breaking: [],
      our_hash: ours.hash,
      their_hash: null,
      error,
      checked_at: checkedAt,
    });
    let theirs: { sdl: string; hash: string };
    try {
      theirs = await this.remote.schema(cluster.baseUrl, { signal });
    } catch (e) {
      const error = callProblem(e).message;
      if (callProblem(e).kind !== 'bad_response') await this.record(cluster, { health: 'down', error });
      return failed(error);
    }
    const parsed = parseSdl(theirs.sdl);
    if ('problem' in parsed) return failed(parsed.problem);
    const comparison = await compareSchemas(ours.schema, parsed.schema);
    const theirHash = schemaHash(theirs.sdl);
    await this.store.saveSchemaCheck({
      clusterId: cluster.id,
      checkedAt,
      theirHash,
      ourHash: ours.hash,
      compatible: comparison.compatible,
      sdl: theirs.sdl,
      changes: [...comparison.breaking, ...comparison.dangerous, ...comparison.non_breaking],
    });
    if (!comparison.compatible) this.log.warn({ clusterId: cluster.id, name: cluster.name, breaking: comparison.breaking.length }, 'cluster schema is incompatible with ours');
    return { cluster_id: cluster.id, cluster_name: cluster.name, ok: true, ...comparison, our_hash: ours.hash, their_hash: theirHash, error: null, checked_at: checkedAt };
  }

  /** Runs the standard read-only query and checks that every part of the answer has the shape our schema gives it. */
  async query(cluster: ClusterRow, signal?: AbortSignal): Promise<QueryTestReport> {
    const checkedAt = this.clock.now();
    let answer;
    try {
      answer = await this.remote.probe(cluster.baseUrl, { signal });
    } catch (e) {
      return { cluster_id: cluster.id, ok: false, latency_ms: null, checks: [], datasets_total: null, error: callProblem(e).message, checked_at: checkedAt };
    }
    const checks: QueryCheck[] = [];
    const check = (name: string, ok: boolean, detail: string) => checks.push({ name, ok, detail });
    let total: number | null = null;
    try {
      const data = dataOf(answer as never, 'standard query') as { federationPing?: { name?: unknown; version?: unknown }; searchDatasets?: Record<string, unknown> };
      check('no errors', true, 'the answer has data and no errors');
      const ping = data.federationPing;
      check('federationPing', typeof ping?.name === 'string' && typeof ping?.version === 'string', `name ${String(ping?.name)}, version ${String(ping?.version)}`);
      const search = data.searchDatasets ?? {};
      const items = search.items;
      total = typeof search.total === 'number' ? search.total : null;
      check('searchDatasets.total', Number.isInteger(search.total) && (search.total as number) >= 0, `total ${String(search.total)}`);
      check('searchDatasets.limit', search.limit === 5 && search.offset === 0, `limit ${String(search.limit)}, offset ${String(search.offset)}`);
      const itemProblems = Array.isArray(items)
        ? items.flatMap((it: Record<string, unknown>, i: number) =>
            [
              typeof it?.dataset_id !== 'string' && 'dataset_id',
              typeof it?.slug !== 'string' && 'slug',
              typeof it?.title !== 'string' && 'title',
              !Number.isInteger(it?.version) && 'version',
              !['public', 'restricted'].includes(it?.visibility as string) && 'visibility',
              typeof it?.url !== 'string' && 'url',
            ]
              .filter(Boolean)
              .map((f) => `items[${i}].${f}`),
          )
        : ['items is not a list'];
      check('searchDatasets.items', itemProblems.length === 0 && (items as unknown[]).length <= 5, itemProblems.length ? `wrong shape: ${itemProblems.slice(0, 5).join(', ')}` : `${(items as unknown[]).length} hit(s) of the expected shape`);
    } catch (e) {
      check('no errors', false, callProblem(e).message);
    }
    const ok = checks.every((c) => c.ok);
    await this.record(cluster, { health: 'up', latencyMs: answer.latencyMs });
    return { cluster_id: cluster.id, ok, latency_ms: round(answer.latencyMs), checks, datasets_total: total, error: ok ? null : checks.find((c) => !c.ok)!.detail, checked_at: checkedAt };
  }

  /** One ping, recorded: what the status refresh and the scheduled monitoring do. */
  async ping(cluster: ClusterRow, opts: { signal?: AbortSignal; timeoutMs?: number; retries?: number } = {}): Promise<void> {
    try {
      const { ping, answer } = await this.remote.ping(cluster.baseUrl, opts);
      await this.record(cluster, { health: 'up', latencyMs: round(answer.latencyMs), version: ping.version, schemaHash: ping.schema_hash });
    } catch (e) {
      await this.record(cluster, { health: 'down', error: callProblem(e).message });
    }
  }

  private async record(cluster: ClusterRow, o: { health: 'up' | 'down'; latencyMs?: number | null; error?: string; version?: string; schemaHash?: string }) {
    const r = await this.store.recordContact(cluster.id, { at: this.clock.now(), ...o });
    if (r && r.before !== o.health) {
      if (o.health === 'down') this.log.warn({ clusterId: cluster.id, name: r.name, error: o.error }, 'cluster is down');
      else this.log.info({ clusterId: cluster.id, name: r.name, latencyMs: o.latencyMs }, r.before === 'down' ? 'cluster is up again' : 'cluster is up');
    }
  }
}
