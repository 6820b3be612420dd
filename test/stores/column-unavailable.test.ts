import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import net from 'node:net';
import { call, startTestApp, type TestApp } from '../kit/app.js';
import { createUser, type TestUser } from '../kit/users.js';
import { createTinyDataset } from '../kit/datasets.js';
import { eventually } from '../kit/eventually.js';
import { engineEnvFromProcess } from '../kit/settings.js';

/** The server this run uses, if any (unset on the embedded engines). */
const SERVER_URL = engineEnvFromProcess().CLICKHOUSE_URL;

/**
 * A TCP relay in front of the ClickHouse server, which the test can take away (connections refused, as while the
 * server restarts), make drop every connection it accepts (reset, as a failing load balancer does), or put back.
 */
async function relay(target: URL) {
  let mode: 'pass' | 'reset' = 'pass';
  const sockets = new Set<net.Socket>();
  const accept = (client: net.Socket) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    if (mode === 'reset') return void client.resetAndDestroy();
    const upstream = net.connect(Number(target.port), target.hostname);
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  };
  let server = net.createServer(accept);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  const dropAll = () => {
    for (const s of sockets) s.destroy();
  };
  return {
    url: `http://127.0.0.1:${port}`,
    reset() {
      mode = 'reset';
      dropAll();
    },
    async stop() {
      dropAll();
      await new Promise((r) => server.close(r));
    },
    async start() {
      mode = 'pass';
      server = net.createServer(accept);
      await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    },
    async close() {
      dropAll();
      await new Promise((r) => server.close(r));
    },
  };
}

// Server mode only: chDB runs inside the service's process, with no connection that can be refused or lost.
describe.runIf(SERVER_URL)('requests when the ClickHouse server goes away', () => {
  let t: TestApp;
  let user: TestUser;
  let gate: Awaited<ReturnType<typeof relay>>;
  let slug: string;
  const count = () => call(t.url, 'POST', '/v1/syql/exec', { token: user.accessToken, body: { query: `MATCH (a:Neuron) IN "${slug}" RETURN count(*) AS n` } });

  beforeAll(async () => {
    gate = await relay(new URL(SERVER_URL!));
    t = await startTestApp({ CLICKHOUSE_URL: gate.url, RATE_LIMIT_BURST: '100000' });
    user = await createUser(t, { accountType: 'ACADEMIC' });
    slug = (await createTinyDataset(t, user)).slug;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await gate?.close();
  });

  it('answer 503 naming the column store while the server refuses connections, and succeed once it is back', async () => {
    expect((await count()).status).toBe(200);
    await gate.stop();
    try {
      const down = await count();
      expect(down.status, JSON.stringify(down.body)).toBe(503);
      expect(down.body).toEqual({ error: 'the column store (ClickHouse server) cannot be reached; retry later' });
    } finally {
      await gate.start();
    }
    const back = await eventually(async () => ((await count()).status === 200 ? true : undefined), { what: 'the query answering again' });
    expect(back).toBe(true);
  });

  it('answer 503 naming the column store when the server drops the connection, and succeed once it does not', async () => {
    gate.reset();
    try {
      const lost = await count();
      expect(lost.status, JSON.stringify(lost.body)).toBe(503);
      expect(lost.body.error).toMatch(/^the column store \(ClickHouse server\) (connection was lost; retry|cannot be reached; retry later)$/);
    } finally {
      await gate.stop();
      await gate.start();
    }
    expect((await count()).status).toBe(200);
  });
});

describe.skipIf(SERVER_URL)('requests when the ClickHouse server goes away (embedded)', () => {
  it.skip('needs a ClickHouse server: chDB, the embedded engine here, runs in the process and has no connection to lose', () => {});
});
