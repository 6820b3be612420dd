import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFrom } from '../../../lib/config.js';
import { openRelational, type RelationalStore } from '../../../lib/db/relational.js';
import { newId } from '../../../lib/ids.js';
import { createTestEngines, type TestEngines } from '../../../test/kit/app.js';
import { BenchmarkStore, type NewBenchmark } from '../store/benchmark.store.js';
import { ClusterStore, type NewCluster } from '../store/cluster.store.js';

// PGlite without DATABASE_URL, PostgreSQL with it.
let engines: TestEngines;
let relational: RelationalStore;
let clusters: ClusterStore;
let benchmarks: BenchmarkStore;

beforeAll(async () => {
  engines = await createTestEngines();
  relational = await openRelational(configFrom({ ...engines.env, LOG_LEVEL: 'silent', NODE_ENV: 'test' }).relational);
  await relational.migrate();
  clusters = new ClusterStore(relational.db);
  benchmarks = new BenchmarkStore(relational.db);
});

afterAll(async () => {
  await relational?.close();
  await engines?.drop();
});

let seq = 0;
const at = (iso: string) => new Date(iso);
function cluster(over: Partial<NewCluster> = {}): NewCluster {
  const n = ++seq;
  return { name: `cluster-${n}`, baseUrl: `https://c${n}.example.org`, contact: 'ops@example.org', origin: 'admin', keys: [{ kid: `kid-${n}`, paserk: `k4.public.${n}` }], at: at('2026-03-01T10:00:00Z'), ...over };
}

describe(ClusterStore.name, () => {
  it('creates a pending cluster with its keys and first event, and gives null when its name, base URL or a key is taken', async () => {
    const c = cluster();
    const row = await clusters.create(c);
    expect(row).toMatchObject({ name: c.name, baseUrl: c.baseUrl, state: 'pending', origin: 'admin', health: 'unknown', lastContactAt: null, compatible: null, createdAt: c.at });
    expect(await clusters.get(row!.id)).toEqual(row);
    expect(await clusters.keysOf([row!.id])).toEqual([{ kid: c.keys[0].kid, clusterId: row!.id, paserk: c.keys[0].paserk, addedAt: c.at }]);
    expect((await clusters.events([row!.id], 5)).map((e) => [e.kind, e.message])).toEqual([['added', 'added by a SuperUser with 1 key(s)']]);

    expect(await clusters.create(cluster({ name: c.name.toUpperCase() }))).toBeNull();
    expect(await clusters.create(cluster({ baseUrl: c.baseUrl }))).toBeNull();
    expect(await clusters.create(cluster({ keys: [{ kid: c.keys[0].kid, paserk: 'k4.public.other' }] }))).toBeNull();
    // Nothing of a refused cluster is kept.
    expect((await clusters.list()).filter((r) => r.baseUrl === c.baseUrl)).toHaveLength(1);
    expect(await clusters.conflicts({ name: c.name.toUpperCase(), baseUrl: c.baseUrl, keys: c.keys })).toEqual([
      `a cluster named ${c.name.toUpperCase()} is registered already`,
      `a cluster at ${c.baseUrl} is registered already`,
      `key ${c.keys[0].kid} belongs to a registered cluster already`,
    ]);
    expect(await clusters.conflicts(cluster({ keys: [] }))).toEqual([]);
  });

  it('changes state only from the states given, and answers key checks for active clusters only', async () => {
    const c = cluster();
    const row = (await clusters.create(c))!;
    expect(await clusters.activeKey(c.keys[0].kid)).toBeNull();
    expect(await clusters.setState(row.id, ['inactive'], 'active', at('2026-03-01T11:00:00Z'), { kind: 'verified', message: 'no' })).toBe(false);
    expect(await clusters.setState(row.id, ['pending'], 'active', at('2026-03-01T11:00:00Z'), { kind: 'verified', message: 'verified' })).toBe(true);
    expect(await clusters.get(row.id)).toMatchObject({ state: 'active', verifiedAt: at('2026-03-01T11:00:00Z'), deactivatedAt: null });
    expect(await clusters.activeKey(c.keys[0].kid)).toEqual({ paserk: c.keys[0].paserk, clusterId: row.id, clusterName: c.name });
    expect((await clusters.list('active')).map((r) => r.id)).toContain(row.id);
    expect((await clusters.list('pending')).map((r) => r.id)).not.toContain(row.id);
    expect((await clusters.events([row.id], 1)).map((e) => e.kind)).toEqual(['verified']);
  });

  it('records contacts, writing a change of health to the history, and claims each due ping once', async () => {
    const row = (await clusters.create(cluster({ keys: [] })))!;
    await clusters.setState(row.id, ['pending'], 'active', at('2026-03-01T11:00:00Z'), { kind: 'verified', message: 'verified' });
    expect(await clusters.recordContact(row.id, { at: at('2026-03-01T12:00:00Z'), health: 'up', latencyMs: 12.5, version: '1.2.3', schemaHash: 'sha256:a' })).toEqual({ before: 'unknown', name: row.name });
    expect(await clusters.recordContact(row.id, { at: at('2026-03-01T12:01:00Z'), health: 'down', error: 'refused' })).toEqual({ before: 'up', name: row.name });
    expect(await clusters.get(row.id)).toMatchObject({ health: 'down', lastContactAt: at('2026-03-01T12:01:00Z'), lastLatencyMs: null, lastError: 'refused', version: '1.2.3', schemaHash: 'sha256:a' });
    expect((await clusters.events([row.id], 2)).map((e) => e.message)).toEqual(['stopped answering: refused', 'answers again (13 ms)']);
    expect(await clusters.recordContact(newId(), { at: at('2026-03-01T12:02:00Z'), health: 'up' })).toBeNull();

    const now = at('2026-03-01T13:00:00Z');
    expect((await clusters.claimDuePings(now, 60_000)).map((r) => r.id)).toContain(row.id);
    expect((await clusters.claimDuePings(now, 60_000)).map((r) => r.id)).not.toContain(row.id);
    expect(await clusters.get(row.id)).toMatchObject({ checkClaimedAt: now });
  });

  it('keeps schema checks and gives the latest of each cluster', async () => {
    const row = (await clusters.create(cluster({ keys: [] })))!;
    const check = { clusterId: row.id, ourHash: 'sha256:ours', sdl: 'type Query { a: Int }' };
    await clusters.saveSchemaCheck({ ...check, checkedAt: at('2026-03-01T10:00:00Z'), theirHash: 'sha256:old', compatible: true, changes: [] });
    const changes = [{ type: 'FIELD_REMOVED', criticality: 'BREAKING', message: 'a was removed', path: 'Query.a' }];
    await clusters.saveSchemaCheck({ ...check, checkedAt: at('2026-03-02T10:00:00Z'), theirHash: 'sha256:new', compatible: false, changes });
    const latest = (await clusters.latestSchemaChecks()).filter((c) => c.clusterId === row.id);
    expect(latest).toEqual([{ id: expect.any(String), ...check, checkedAt: at('2026-03-02T10:00:00Z'), theirHash: 'sha256:new', compatible: false, changes }]);
    expect(await clusters.get(row.id)).toMatchObject({ compatible: false, schemaHash: 'sha256:new' });
  });
});

describe(BenchmarkStore.name, () => {
  it('lists runs newest first with their cluster, and aggregates them per day', async () => {
    const row = (await clusters.create(cluster({ keys: [] })))!;
    const runId = newId();
    const run = (operation: string, startedAt: string, over: Partial<NewBenchmark> = {}): NewBenchmark => ({
      id: newId(),
      runId,
      clusterId: row.id,
      operation,
      requests: 10,
      concurrency: 2,
      errors: 0,
      minMs: 1,
      p50Ms: 2,
      p99Ms: 5,
      maxMs: 6,
      meanMs: 2.5,
      requestsPerSec: 40,
      startedAt: at(startedAt),
      durationMs: 250,
      ourVersion: '1.0.0',
      theirVersion: null,
      actorId: null,
      ...over,
    });
    await benchmarks.insert([
      run('ping', '2026-03-01T10:00:00Z'),
      run('search', '2026-03-01T11:00:00Z', { errors: 10, minMs: null, p50Ms: null, p99Ms: null, maxMs: null, meanMs: null, theirVersion: '2.0.0' }),
      run('ping', '2026-03-02T10:00:00Z', { p50Ms: 4, p99Ms: 9, meanMs: 4.5, requestsPerSec: 20 }),
    ]);
    const page = await benchmarks.list({ clusterId: row.id }, 2, 0);
    expect(page.total).toBe(3);
    expect(page.rows.map((r) => [r.operation, r.startedAt.toISOString()])).toEqual([
      ['ping', '2026-03-02T10:00:00.000Z'],
      ['search', '2026-03-01T11:00:00.000Z'],
    ]);
    expect(page.rows[1]).toMatchObject({ clusterName: row.name, runId, errors: 10, meanMs: null, theirVersion: '2.0.0', actorId: null });
    expect(await benchmarks.list({ clusterId: row.id }, 2, 10)).toEqual({ rows: [], total: 3 });
    expect((await benchmarks.list({ clusterId: row.id, operation: 'ping', since: at('2026-03-02T00:00:00Z') }, 10, 0)).total).toBe(1);

    const days = await benchmarks.aggregate({ clusterId: row.id }, 'day');
    expect(days).toEqual([
      { clusterId: row.id, clusterName: row.name, operation: 'ping', bucketStart: at('2026-03-01T00:00:00Z'), runs: 1, requests: 10, errors: 0, p50MsMedian: 2, p99MsMax: 5, meanMs: 2.5, requestsPerSecMean: 40 },
      { clusterId: row.id, clusterName: row.name, operation: 'ping', bucketStart: at('2026-03-02T00:00:00Z'), runs: 1, requests: 10, errors: 0, p50MsMedian: 4, p99MsMax: 9, meanMs: 4.5, requestsPerSecMean: 20 },
      { clusterId: row.id, clusterName: row.name, operation: 'search', bucketStart: at('2026-03-01T00:00:00Z'), runs: 1, requests: 10, errors: 10, p50MsMedian: null, p99MsMax: null, meanMs: null, requestsPerSecMean: 40 },
    ]);
  });
});
