import http from 'node:http';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/kit/app.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';
import { ClusterStore } from '../store/cluster.store.js';

/** A stand-in cluster that answers the federation ping, and can be made to stop answering. */
function pingServer() {
  let up = true;
  let pings = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      if (!up) return void req.socket.destroy();
      pings++;
      const ping = { name: 'watched', base_url: '', version: '9.9.9', schema_hash: `sha256:${'0'.repeat(64)}`, time: new Date().toISOString(), accepts_registrations: false };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ data: { federationPing: ping } }));
    });
  });
  return {
    server,
    setUp: (v: boolean) => (up = v),
    pings: () => pings,
  };
}

const until = async (what: string, check: () => Promise<boolean> | boolean, timeoutMs = 15_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe('scheduled monitoring of active clusters', () => {
  let t: TestApp;
  let superuser: TestUser;
  let logs = '';
  const stand = pingServer();

  beforeAll(async () => {
    await new Promise<void>((r) => stand.server.listen(0, '127.0.0.1', r));
    const stream = new PassThrough();
    stream.on('data', (d) => (logs += d));
    t = await startTestApp(
      { LOG_LEVEL: 'info', FEDERATION_PING_INTERVAL_SEC: '1', FEDERATION_ALLOW_HTTP: 'true', FEDERATION_ALLOWED_NETWORKS: '127.0.0.0/8', FEDERATION_TIMEOUT_MS: '1000' },
      { listen: true, logStream: stream },
    );
    superuser = await createUser(t, { accountType: 'SUPERUSER' });
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    stand.server.close();
  });

  it('pings active clusters on schedule and logs and records each change of health', async () => {
    const { port } = stand.server.address() as { port: number };
    const store = new ClusterStore(t.app.stores.relational.db);
    const row = (await store.create({ name: 'watched', baseUrl: `http://127.0.0.1:${port}`, contact: 'ops@example.org', origin: 'admin', keys: [], at: new Date() }))!;
    // A pending cluster is never called.
    await new Promise((r) => setTimeout(r, 1500));
    expect(stand.pings()).toBe(0);
    await store.setState(row.id, ['pending'], 'active', new Date(), { kind: 'verified', message: 'verified in the test' });

    await until('the first scheduled ping', async () => (await store.get(row.id))?.health === 'up');
    expect(logs).toMatch(/"msg":"cluster is up"/);
    stand.setUp(false);
    await until('the cluster reported down', async () => (await store.get(row.id))?.health === 'down');
    expect(logs).toMatch(/"name":"watched".*"msg":"cluster is down"/);
    stand.setUp(true);
    await until('the cluster reported up again', async () => (await store.get(row.id))?.health === 'up');
    expect(logs).toMatch(/"msg":"cluster is up again"/);

    const list = await call(t.url, 'GET', '/v1/federation/clusters', { token: superuser.accessToken });
    const kinds = list.body[0].history.map((e: { kind: string }) => e.kind);
    expect(kinds.slice(0, 3)).toEqual(['up', 'down', 'up']);
    expect(list.body[0]).toMatchObject({ version: '9.9.9', health: 'up', last_latency_ms: expect.any(Number) });
  }, 60_000);
});
