import { describe, it, expect, afterEach } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { createTestEngines, startTestApp, call, gql, type TestEngines } from '../../lib/testkit/app.js';

const root = path.resolve(import.meta.dirname, '../..');

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

/** Serves one subgraph alone in its own process, as an operator would with npm run subgraph. */
async function serveSubgraph(name: string, engines: TestEngines): Promise<{ url: string; logs: () => string; stop: () => Promise<void> }> {
  const port = await freePort();
  let out = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'gateway/cli/serve-subgraph.ts', name, '--port', String(port)], {
    cwd: root,
    env: { ...process.env, ...engines.env, LOG_LEVEL: 'info', NODE_ENV: 'test' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}/graphql`;
  for (let i = 0; i < 200; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false);
    if (ok) break;
    if (child.exitCode !== null) throw new Error(`subgraph exited: ${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    logs: () => out,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

describe('gateway over remote subgraphs', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.reverse()) await c();
    cleanups.length = 0;
  });

  it('composes a subgraph served alone over HTTP and forwards the request id to it', async () => {
    const subEngines = await createTestEngines();
    cleanups.push(() => subEngines.drop());
    const sub = await serveSubgraph('federation', subEngines);
    cleanups.push(() => sub.stop());
    const t = await startTestApp({ SUBGRAPH_FEDERATION_URL: sub.url });
    cleanups.push(() => t.close());

    const r = await gql(t.url, '{ federationPing { subgraph status } identityPing { subgraph } }');
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ federationPing: { subgraph: 'federation', status: 'ok' }, identityPing: { subgraph: 'identity' } });
    const rest = await call(t.url, 'GET', '/v1/federation/ping');
    expect(rest.status).toBe(200);
    expect(rest.body.subgraph).toBe('federation');
    const requestId = rest.headers.get('x-request-id')!;
    await new Promise((r) => setTimeout(r, 200));
    expect(sub.logs()).toContain(requestId);
  });

  it('keeps answering what it can when a remote subgraph is down, and names the missing part with 503', async () => {
    const port = await freePort();
    const t = await startTestApp({ SUBGRAPH_FEDERATION_URL: `http://127.0.0.1:${port}/graphql` });
    cleanups.push(() => t.close());

    const fine = await gql(t.url, '{ identityPing { status } ontologyPing { status } }');
    expect(fine.body.data).toEqual({ identityPing: { status: 'ok' }, ontologyPing: { status: 'ok' } });

    const mixed = await gql(t.url, '{ identityPing { status } federationPing { status } }');
    expect(mixed.body.data?.identityPing).toEqual({ status: 'ok' });
    expect(mixed.body.errors[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
    expect(mixed.body.errors[0].message).toMatch(/federation service is unavailable/);

    const rest = await call(t.url, 'GET', '/v1/federation/ping');
    expect(rest.status).toBe(503);
    expect(rest.body).toEqual({ error: expect.stringMatching(/federation service is unavailable/) });
  });
});
