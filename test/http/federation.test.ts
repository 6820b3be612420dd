import { describe, it, expect, afterEach } from 'vitest';
import { createTestEngines, startTestApp, call, gql } from '../kit/app.js';
import { eventually } from '../kit/eventually.js';
import { freePort, serveSubgraph } from '../kit/processes.js';

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

    const r = await gql(t.url, '{ federationPing { status name schema_hash } identityPing { subgraph } }');
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ federationPing: { status: 'ok', name: t.config.federation.clusterName, schema_hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) }, identityPing: { subgraph: 'identity' } });
    // The subgraph served alone reports the API schema the gateway serves: composed from the same code.
    const own = await gql(t.url, '{ federationApiSchema { hash } }');
    expect(own.body.data.federationApiSchema.hash).toBe(r.body.data.federationPing.schema_hash);
    const rest = await call(t.url, 'GET', '/v1/federation/ping');
    expect(rest.status).toBe(200);
    expect(rest.body.status).toBe('ok');
    const requestId = rest.headers.get('x-request-id')!;
    await eventually(() => sub.logs().includes(requestId), { what: `the subgraph's log line of request ${requestId}` });
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
