import http from 'node:http';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/kit/app.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';
import { eventually } from '../../../test/kit/eventually.js';
import { ClusterStore } from '../store/cluster.store.js';

/** A stand-in cluster that answers the federation ping, and can be made to stop answering. */
function pingServer(name = 'watched') {
  let up = true;
  let pings = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      if (!up) return void req.socket.destroy();
      pings++;
      const ping = { name, base_url: '', version: '9.9.9', schema_hash: `sha256:${'0'.repeat(64)}`, time: new Date().toISOString(), accepts_registrations: false };
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

describe('scheduled monitoring of active clusters', () => {
  let t: TestApp;
  let superuser: TestUser;
  let logs = '';
  const stand = pingServer();
  /** An active cluster beside it, whose pings show that a monitoring round ran. */
  const control = pingServer('control');

  beforeAll(async () => {
    await new Promise<void>((r) => stand.server.listen(0, '127.0.0.1', r));
    await new Promise<void>((r) => control.server.listen(0, '127.0.0.1', r));
    const stream = new PassThrough();
    stream.on('data', (d) => (logs += d));
    t = await startTestApp(
      { LOG_LEVEL: 'info', FEDERATION_PING_INTERVAL_SEC: '1', FEDERATION_ALLOW_HTTP: 'true', FEDERATION_ALLOWED_NETWORKS: '127.0.0.0/8', FEDERATION_TIMEOUT_MS: '1000' },
      { logStream: stream },
    );
    superuser = await createUser(t, { accountType: 'SUPERUSER' });
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    stand.server.close();
    control.server.close();
  });

  it('pings active clusters on schedule and logs and records each change of health', async () => {
    const { port } = stand.server.address() as { port: number };
    const store = new ClusterStore(t.app.stores.relational.db);
    const row = (await store.create({ name: 'watched', baseUrl: `http://127.0.0.1:${port}`, contact: 'ops@example.org', origin: 'admin', keys: [], at: new Date() }))!;
    // A pending cluster is never called: not in a round that pinged an active one.
    const controlPort = (control.server.address() as { port: number }).port;
    const active = (await store.create({ name: 'control', baseUrl: `http://127.0.0.1:${controlPort}`, contact: 'ops@example.org', origin: 'admin', keys: [], at: new Date() }))!;
    await store.setState(active.id, ['pending'], 'active', new Date(), { kind: 'verified', message: 'verified in the test' });
    await eventually(async () => (await store.get(active.id))?.health === 'up', { timeoutMs: 15_000, what: 'a round that pinged the active cluster' });
    expect(control.pings()).toBeGreaterThan(0);
    expect(stand.pings()).toBe(0);
    await store.setState(row.id, ['pending'], 'active', new Date(), { kind: 'verified', message: 'verified in the test' });

    await eventually(async () => (await store.get(row.id))?.health === 'up', { timeoutMs: 15_000, what: 'the first scheduled ping' });
    // The change is logged once its record has been written: the log line may follow the stored health by a moment.
    await eventually(async () => /"name":"watched".*"msg":"cluster is up"/.test(logs), { timeoutMs: 15_000, what: 'the log line of the change' });
    stand.setUp(false);
    await eventually(async () => (await store.get(row.id))?.health === 'down', { timeoutMs: 15_000, what: 'the cluster reported down' });
    await eventually(async () => /"name":"watched".*"msg":"cluster is down"/.test(logs), { timeoutMs: 15_000, what: 'the log line of the change' });
    stand.setUp(true);
    await eventually(async () => (await store.get(row.id))?.health === 'up', { timeoutMs: 15_000, what: 'the cluster reported up again' });
    await eventually(async () => /"name":"watched".*"msg":"cluster is up again"/.test(logs), { timeoutMs: 15_000, what: 'the log line of the change' });

    const list = await call(t.url, 'GET', '/v1/federation/clusters', { token: superuser.accessToken });
    const watched = list.body.find((c: { name: string }) => c.name === 'watched');
    const kinds = watched.history.map((e: { kind: string }) => e.kind);
    expect(kinds.slice(0, 3)).toEqual(['up', 'down', 'up']);
    expect(watched).toMatchObject({ version: '9.9.9', health: 'up', last_latency_ms: expect.any(Number) });
  }, 60_000);
});
