import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { PassThrough } from 'node:stream';
import { startTestApp, call, gql, type TestApp } from '../kit/app.js';
import { eventually } from '../kit/eventually.js';

describe('/graphql and request logs', () => {
  let t: TestApp;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => {
      for (const l of chunk.toString().split('\n')) if (l.trim()) lines.push(JSON.parse(l));
    });
    t = await startTestApp({ LOG_LEVEL: 'info' }, { logStream: stream });
  });
  afterAll(async () => t?.close());

  it('answers queries by POST and by GET', async () => {
    const post = await gql(t.url, '{ ontologyPing { subgraph status } }');
    expect(post.body).toEqual({ data: { ontologyPing: { subgraph: 'ontology', status: 'ok' } } });
    const get = await call(t.url, 'GET', `/graphql?query=${encodeURIComponent('{ graphPing { subgraph } }')}`);
    expect(get.body).toEqual({ data: { graphPing: { subgraph: 'graph' } } });
  });

  it('serves the GraphiQL explorer to a browser, with assets from the package', async () => {
    const page = await call(t.url, 'GET', '/graphql', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.body).toContain('/docs/assets/graphiql.min.js');
    expect(page.body).not.toMatch(/https?:\/\/(unpkg|cdn|jsdelivr)/);
    const asset = await call(t.url, 'GET', '/docs/assets/graphiql.min.js');
    expect(asset.status).toBe(200);
    expect(String(asset.body).length).toBeGreaterThan(10_000);
  });

  it('reports a GraphQL validation error with its code', async () => {
    const r = await gql(t.url, '{ noSuchField }');
    expect(r.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('writes one structured line per request, carrying the request id and no credentials', async () => {
    const r = await call(t.url, 'GET', '/v1/federation/ping', { headers: { authorization: 'Bearer v4.public.not-a-real-token-SECRET123' } });
    const id = r.headers.get('x-request-id');
    const done = await eventually(() => lines.find((l) => l.requestId === id && l.msg === 'request completed'), { what: 'the request log line' });
    expect(done).toMatchObject({ method: 'GET', path: '/v1/federation/ping', status: 200, requestId: id });
    expect(typeof done.durationMs).toBe('number');
    expect(JSON.stringify(lines)).not.toContain('SECRET123');
  });
});
