import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestEngines, gql, startTestApp, type TestApp, type TestEngines } from '../../../test/kit/app.js';
import { createTinyDataset } from '../../../test/kit/datasets.js';
import { expectError } from '../../../test/kit/expect.js';
import { startService, type ServiceProcess } from '../../../test/kit/processes.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';

/**
 * Three real clusters on loopback, each with its own data directory (and, in server mode, its own PostgreSQL and
 * ClickHouse databases): hub A in this process, B and C as the service started by an operator. C leaves out the
 * graph subgraph, so its API schema differs from A's.
 */
const PASSWORD = 'a federation password of some length';
const ADMIN = { email: 'operator@cluster.example.org', password: 'an operator password 1234' };

interface Remote {
  name: string;
  service: ServiceProcess;
  engines: TestEngines;
  token: string;
  keys: string[];
  datasetTitle: string;
}

async function startCluster(name: string, title: string, env: Record<string, string> = {}): Promise<Remote> {
  const engines = await createTestEngines();
  const service = await startService(
    engines,
    {
      LOG_LEVEL: 'warn',
      CLUSTER_NAME: name,
      SUPERUSER_EMAIL: ADMIN.email,
      SUPERUSER_PASSWORD: ADMIN.password,
      PASSWORD_CHECK_BURST: '100000',
      FEDERATION_PING_INTERVAL_SEC: '0',
      ...env,
    },
    { timeoutMs: 180_000 },
  );
  const login = await call(service.url, 'POST', '/v1/user/auth/login', { body: ADMIN });
  expect(login.status).toBe(200);
  const token = login.body.access_token as string;
  const asApp = { url: service.url } as TestApp;
  await createTinyDataset(asApp, { accessToken: token } as TestUser, { title, keywords: ['federation test', name] });
  const keys = await call(service.url, 'GET', '/v1/user/auth/keys');
  return { name, service, engines, token, keys: keys.body.keys.map((k: { public_key: string }) => k.public_key), datasetTitle: title };
}

describe('a federation of three clusters', () => {
  let a: TestApp;
  let b: Remote;
  let c: Remote;
  let superuser: TestUser;
  let academic: TestUser;
  let regular: TestUser;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    [a, b, c] = await Promise.all([
      startTestApp({
        CLUSTER_NAME: 'hub-a',
        FEDERATION_PASSWORD: PASSWORD,
        FEDERATION_ALLOW_HTTP: 'true',
        FEDERATION_ALLOWED_NETWORKS: '127.0.0.0/8',
        FEDERATION_TIMEOUT_MS: '5000',
        FEDERATION_SEARCH_TIMEOUT_MS: '4000',
        FEDERATION_RETRIES: '1',
        FEDERATION_PING_INTERVAL_SEC: '0',
      }, { listen: true }),
      startCluster('cluster-b', 'Zebrafish hindbrain reticulospinal connectome'),
      startCluster('cluster-c', 'Drosophila mushroom body olfactory connectome', { SUBGRAPHS_DISABLED: 'graph' }),
    ]);
    [superuser, academic, regular] = await Promise.all([createUser(a, { accountType: 'SUPERUSER' }), createUser(a, { accountType: 'ACADEMIC' }), createUser(a, { accountType: 'REGULAR' })]);
  }, 300_000);

  afterAll(async () => {
    await Promise.all([b, c].filter(Boolean).map(async (r) => (await r.service.stop(), await r.engines.drop())));
    await a?.close();
  });

  const su = (method: string, path: string, body?: unknown) => call(a.url, method, path, { token: superuser.accessToken, body });
  const register = (r: Remote, overrides: Record<string, unknown> = {}) =>
    call(a.url, 'POST', '/v1/federation/register', { body: { password: PASSWORD, name: r.name, base_url: r.service.url, contact: `ops@${r.name}.example.org`, public_keys: r.keys, ...overrides } });

  it('answers its ping publicly: name, base URL, version, schema hash, open registrations', async () => {
    const ping = await call(a.url, 'GET', '/v1/federation/ping');
    expect(ping.status).toBe(200);
    expect(ping.body).toMatchObject({ status: 'ok', name: 'hub-a', base_url: a.url, accepts_registrations: true, schema_hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
    const bPing = await call(b.service.url, 'GET', '/v1/federation/ping');
    expect(bPing.body).toMatchObject({ name: 'cluster-b', accepts_registrations: false });
    // Same code, same schema; C serves less.
    expect(bPing.body.schema_hash).toBe(ping.body.schema_hash);
    expect((await call(c.service.url, 'GET', '/v1/federation/ping')).body.schema_hash).not.toBe(ping.body.schema_hash);
  });

  it('refuses registrations with a wrong password, at a cluster without one, and for addresses the policy does not allow', async () => {
    expectError(await register(b, { password: 'not the federation password' }), 401, /wrong federation password/);
    expectError(await call(b.service.url, 'POST', '/v1/federation/register', { body: { password: PASSWORD, name: 'x', base_url: a.url, contact: 'x@example.org', public_keys: b.keys } }), 403, /accepts no registrations/);
    expectError(await register(b, { base_url: 'http://169.254.169.254' }), 400, /base_url/);
    expectError(await register(b, { base_url: 'https://10.1.2.3' }), 400, /base_url/);
    expectError(await register(b, { base_url: `${b.service.url}/?next=http://evil.example.org` }), 400, /base_url/);
    expectError(await register(b, { base_url: 'ftp://cluster-b.example.org' }), 400, /base_url/);
    expectError(await register(b, { public_keys: ['k4.public.not-a-key'] }), 400, /public_keys\[0\]/);
    expectError(await register(b, { name: 'no spaces allowed' }), 400, /name/);
  });

  it('registers B and C as pending clusters; a second registration of the same cluster conflicts', async () => {
    for (const r of [b, c]) {
      const res = await register(r);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ name: r.name, base_url: r.service.url, state: 'pending' });
      ids[r.name] = res.body.cluster_id;
    }
    expectError(await register(b), 409, /registered already/);
    const list = await su('GET', '/v1/federation/clusters');
    expect(list.status).toBe(200);
    expect(list.body.map((x: { name: string; state: string }) => [x.name, x.state])).toEqual([
      ['cluster-b', 'pending'],
      ['cluster-c', 'pending'],
    ]);
    expect(list.body[0].history[0]).toMatchObject({ kind: 'registered' });
    expect(list.body[0].keys.map((k: { public_key: string }) => k.public_key)).toEqual(b.keys);
  });

  it('refuses every SuperUser route to anonymous, Regular and Academic callers', async () => {
    const id = ids['cluster-b'];
    const routes: [string, string, unknown?][] = [
      ['GET', '/v1/federation/clusters'],
      ['POST', '/v1/federation/clusters', { name: 'x', base_url: 'https://x.example.org', contact: 'x', public_keys: b.keys }],
      ['DELETE', `/v1/federation/clusters/${id}`],
      ['POST', `/v1/federation/clusters/${id}/verify`],
      ['POST', `/v1/federation/clusters/${id}/test/connectivity`],
      ['POST', `/v1/federation/clusters/${id}/test/schema`],
      ['POST', `/v1/federation/clusters/${id}/test/query`],
      ['GET', '/v1/federation/status'],
      ['GET', '/v1/federation/schema'],
      ['POST', '/v1/federation/schema/sync'],
      ['GET', '/v1/federation/benchmarks'],
      ['POST', '/v1/federation/benchmarks', { cluster_id: id }],
      ['GET', '/v1/federation/benchmarks/aggregate'],
    ];
    for (const [method, path, body] of routes) {
      expectError(await call(a.url, method, path, { body }), 401);
      expectError(await call(a.url, method, path, { body, token: regular.accessToken }), 403);
      expectError(await call(a.url, method, path, { body, token: academic.accessToken }), 403);
    }
    // Nothing changed: B is still pending.
    expect((await su('GET', '/v1/federation/clusters?state=pending')).body).toHaveLength(2);
  });

  it('does not use an unverified cluster: its tokens are refused and tests and benchmarks answer 409', async () => {
    expectError(await call(a.url, 'GET', '/v1/analytics/summary', { token: b.token }), 401, /key this service does not accept/);
    expectError(await su('POST', `/v1/federation/clusters/${ids['cluster-b']}/test/query`), 409, /pending: verify it first/);
    expectError(await su('POST', '/v1/federation/benchmarks', { cluster_id: ids['cluster-b'] }), 409, /pending/);
    expectError(await su('POST', `/v1/federation/clusters/${'0'.repeat(8)}-0000-7000-8000-${'0'.repeat(12)}/verify`), 404);
  });

  it('verifies B and C: each answers at its base URL, publishes its registered keys and signs a fresh challenge', async () => {
    for (const r of [b, c]) {
      const v = await su('POST', `/v1/federation/clusters/${ids[r.name]}/verify`);
      expect(v.status).toBe(200);
      expect(v.body.checks.map((x: { name: string; ok: boolean }) => [x.name, x.ok])).toEqual([
        ['ping', true],
        ['keys', true],
        ['challenge', true],
      ]);
      expect(v.body).toMatchObject({ verified: true, cluster: { state: 'active', health: 'up', verified_at: expect.any(String) } });
    }
  });

  it('fails verification of a cluster whose registered key is not the one it signs with', async () => {
    const other = await call(a.url, 'GET', '/v1/user/auth/keys');
    const added = await su('POST', '/v1/federation/clusters', { name: 'impostor', base_url: `${b.service.url}/impostor`, contact: 'x@example.org', public_keys: [other.body.keys[0].public_key] });
    expect(added.status).toBe(201);
    const v = await su('POST', `/v1/federation/clusters/${added.body.id}/verify`);
    expect(v.body.verified).toBe(false);
    expect(v.body.cluster.state).toBe('pending');
    expect(v.body.checks.at(-1).ok).toBe(false);
    await su('DELETE', `/v1/federation/clusters/${added.body.id}`);
  });

  it('runs connectivity, schema and query tests: B is identical, C is incompatible with its missing fields named', async () => {
    const conn = await su('POST', `/v1/federation/clusters/${ids['cluster-b']}/test/connectivity`);
    expect(conn.status).toBe(200);
    expect(conn.body).toMatchObject({ ok: true, name: 'cluster-b', tls: null, error: null, version: expect.any(String) });
    expect(conn.body.round_trips_ms).toHaveLength(3);
    expect(conn.body.latency_ms).toBeGreaterThan(0);

    const sb = await su('POST', `/v1/federation/clusters/${ids['cluster-b']}/test/schema`);
    expect(sb.body).toMatchObject({ ok: true, compatible: true, identical: true, breaking: [] });
    expect(sb.body.their_hash).toBe(sb.body.our_hash);

    const sc = await su('POST', `/v1/federation/clusters/${ids['cluster-c']}/test/schema`);
    expect(sc.body).toMatchObject({ ok: true, compatible: false, identical: false });
    const removed = sc.body.breaking.map((x: { path: string }) => x.path);
    expect(removed).toContain('Query.graphMetrics');
    expect(sc.body.breaking.find((x: { path: string }) => x.path === 'Query.graphMetrics')).toMatchObject({ type: 'FIELD_REMOVED', criticality: 'BREAKING', message: expect.stringMatching(/graphMetrics.*removed/) });

    for (const r of [b, c]) {
      const q = await su('POST', `/v1/federation/clusters/${ids[r.name]}/test/query`);
      expect(q.body).toMatchObject({ ok: true, datasets_total: 1, error: null });
      expect(q.body.checks.every((x: { ok: boolean }) => x.ok)).toBe(true);
    }
  });

  it('benchmarks B and keeps the figures, listed and aggregated per operation', async () => {
    const run = await su('POST', '/v1/federation/benchmarks', { cluster_id: ids['cluster-b'], operations: ['ping', 'search'], requests: 12, concurrency: 3 });
    expect(run.status).toBe(201);
    expect(run.body.results).toHaveLength(2);
    for (const r of run.body.results) {
      expect(r).toMatchObject({ cluster_name: 'cluster-b', requests: 12, concurrency: 3, errors: 0, their_version: expect.any(String) });
      expect(r.p50_ms).toBeGreaterThan(0);
      expect(r.p99_ms).toBeGreaterThanOrEqual(r.p50_ms);
      expect(r.max_ms).toBeGreaterThanOrEqual(r.p99_ms);
      expect(r.min_ms).toBeLessThanOrEqual(r.p50_ms);
    }
    expectError(await su('POST', '/v1/federation/benchmarks', { cluster_id: ids['cluster-b'], requests: 100_000 }), 400, /requests/);
    expectError(await su('POST', '/v1/federation/benchmarks', { cluster_id: ids['cluster-b'], operations: ['drop tables'] }), 400, /operations/);
    const list = await su('GET', `/v1/federation/benchmarks?cluster_id=${ids['cluster-b']}`);
    expect(list.body.total).toBe(2);
    const agg = await su('GET', '/v1/federation/benchmarks/aggregate?bucket=hour');
    expect(agg.status, JSON.stringify(agg.body)).toBe(200);
    expect(agg.body.items.map((x: { operation: string }) => x.operation).sort()).toEqual(['ping', 'search']);
    expect(agg.body.items[0]).toMatchObject({ cluster_name: 'cluster-b', runs: 1, requests: 12, errors: 0, error_rate: 0 });
  });

  it('shows both clusters in the status, and the schema sync records C as incompatible', async () => {
    const status = await su('GET', '/v1/federation/status?refresh=true');
    expect(status.status).toBe(200);
    expect(status.body.counts).toMatchObject({ active: 2, up: 2, down: 0 });
    for (const x of status.body.clusters.filter((k: { state: string }) => k.state === 'active')) {
      expect(x).toMatchObject({ health: 'up', version: expect.any(String), schema_hash: expect.stringMatching(/^sha256:/), last_contact_at: expect.any(String) });
    }
    const sync = await su('POST', '/v1/federation/schema/sync');
    expect(sync.body).toMatchObject({ compatible: 1, incompatible: 1, failed: 0 });
    const schema = await su('GET', '/v1/federation/schema');
    expect(schema.body.sdl).toContain('graphMetrics');
    const byName = Object.fromEntries(schema.body.clusters.map((x: { name: string }) => [x.name, x]));
    expect(byName['cluster-b']).toMatchObject({ compatible: true, breaking_changes: 0, schema_hash: schema.body.hash });
    expect(byName['cluster-c'].compatible).toBe(false);
    expect(byName['cluster-c'].breaking_changes).toBeGreaterThan(0);
  });

  it('finds datasets held at B and C in one ranking, each hit naming its cluster', async () => {
    const r = await call(a.url, 'GET', '/v1/search/fulltext?scope=federation&q=connectome');
    expect(r.status).toBe(200);
    const titles = r.body.items.map((h: { title: string; cluster: { name: string } }) => [h.title, h.cluster.name]);
    expect(titles).toEqual(expect.arrayContaining([[b.datasetTitle, 'cluster-b'], [c.datasetTitle, 'cluster-c']]));
    expect(r.body.clusters.map((x: { name: string; status: string }) => [x.name, x.status]).sort()).toEqual([
      ['cluster-b', 'ok'],
      ['cluster-c', 'ok'],
      ['hub-a', 'ok'],
    ]);
    const scores = r.body.items.map((h: { score: number }) => h.score);
    expect(scores).toEqual([...scores].sort((x, y) => y - x));
    // Their annotations point at this cluster's terms (same vocabulary and code), so `term` resolves here.
    const hit = r.body.items.find((h: { cluster: { name: string } }) => h.cluster.name === 'cluster-b');
    expect(hit.species.map((s: { code: string }) => s.code)).toEqual(['NCBITaxon:6239']);
    const local = await gql(a.url, '{ term(id: $id) { code } }'.replace('$id', JSON.stringify(hit.species[0].term_id)));
    expect(local.body.data?.term?.code ?? local.body).toBe('NCBITaxon:6239');
    const fish = await call(a.url, 'GET', '/v1/search/fulltext?scope=federation&q=hindbrain');
    expect(fish.body.items.map((h: { title: string }) => h.title)).toEqual([b.datasetTitle]);
    expect(fish.body.items[0].url.startsWith(b.service.url)).toBe(true);
    // The local scope stays local.
    expect((await call(a.url, 'GET', '/v1/search/fulltext?q=hindbrain')).body.total).toBe(0);
  });

  it("accepts B's tokens at A, capped at Academic and for reading only", async () => {
    const read = await call(a.url, 'GET', '/v1/analytics/summary', { token: b.token });
    expect(read.status).toBe(200);
    expectError(await call(a.url, 'GET', '/v1/federation/status', { token: b.token }), 403);
    expectError(
      await call(a.url, 'POST', '/v1/neurodata/datasets', { token: b.token, body: { title: 'from elsewhere', description: 'x' } }),
      403,
      /issued by the cluster cluster-b can read here/,
    );
  });

  it('keeps status and search working when C stops, with C reported down', async () => {
    await c.service.stop();
    const status = await su('GET', '/v1/federation/status?refresh=true');
    const byName = Object.fromEntries(status.body.clusters.map((x: { name: string }) => [x.name, x]));
    expect(byName['cluster-c']).toMatchObject({ state: 'active', health: 'down', last_error: expect.any(String) });
    expect(byName['cluster-b'].health).toBe('up');
    expect(byName['cluster-c'].history[0]).toMatchObject({ kind: 'down' });
    const r = await call(a.url, 'GET', '/v1/search/fulltext?scope=federation&q=connectome');
    expect(r.status).toBe(200);
    expect(r.body.items.map((h: { title: string }) => h.title)).toEqual([b.datasetTitle]);
    const cEntry = r.body.clusters.find((x: { name: string }) => x.name === 'cluster-c');
    expect(cEntry).toMatchObject({ status: 'unreachable', error: expect.any(String) });
  });

  it("lets B's tokens run SyQL and ask for download URLs at A, and says that the profile needs an account here", async () => {
    const d = await createTinyDataset(a, academic, { title: 'Hub wiring for callers of other clusters' });
    const exec = await call(a.url, 'POST', '/v1/syql/exec', { token: b.token, body: { query: `MATCH (n:Neuron) IN "${d.slug}" RETURN count(*) AS n` } });
    expect(exec.status, JSON.stringify(exec.body)).toBe(200);
    expect(exec.body.rows[0][0]).toBeGreaterThan(0);
    const urls = await call(a.url, 'POST', '/v1/neurodata/download-urls', { token: b.token, body: { dataset_id: d.id } });
    expect(urls.status, JSON.stringify(urls.body)).toBe(200);
    expect(urls.body.urls.length).toBeGreaterThan(0);
    for (const path of ['/v1/user/profile', '/v1/user/authenticate/institutional']) {
      expectError(await call(a.url, 'GET', path, { token: b.token }), 403, /issued by the cluster cluster-b can read here, but \w+ reads an account: it needs an account on this cluster/);
    }
    const viaGraphql = await gql(a.url, '{ profile { email } }', {}, b.token);
    expect(viaGraphql.status).toBe(403);
    expect(viaGraphql.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it("deactivating B makes B's tokens useless at A at once, and keeps its record and history", async () => {
    expect((await call(a.url, 'GET', '/v1/analytics/summary', { token: b.token })).status).toBe(200);
    const d = await su('DELETE', `/v1/federation/clusters/${ids['cluster-b']}`);
    expect(d.status).toBe(200);
    expect(d.body).toMatchObject({ state: 'inactive', deactivated_at: expect.any(String) });
    expect(d.body.history[0]).toMatchObject({ kind: 'deactivated' });
    expectError(await call(a.url, 'GET', '/v1/analytics/summary', { token: b.token }), 401, /key this service does not accept/);
    const r = await call(a.url, 'GET', '/v1/search/fulltext?scope=federation&q=hindbrain');
    expect(r.body.items).toEqual([]);
    expectError(await su('POST', `/v1/federation/clusters/${ids['cluster-b']}/test/query`), 409, /deactivated/);
    const gqlStatus = await gql(a.url, '{ federationClusters(state: "inactive") { name state } }', {}, superuser.accessToken);
    expect(gqlStatus.body.data.federationClusters.map((x: { name: string }) => x.name)).toContain('cluster-b');
  });
});
