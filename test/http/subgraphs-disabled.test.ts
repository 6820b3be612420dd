import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createUser } from '../kit/users.js';
import { ConfigError, loadConfig } from '../../lib/config.js';
import { startTestApp, call, gql, type TestApp } from '../kit/app.js';

/** The root fields the graph subgraph contributes (schema/supergraph.graphql, @join__field(graph: GRAPH)). */
const GRAPH_FIELDS = ['graphPing', 'graphMetrics', 'graphMotifs', 'graphCompare', 'graphSummary', 'analyticsSummary', 'metaAnalysis'];

describe('SUBGRAPHS_DISABLED=graph', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ SUBGRAPHS_DISABLED: 'graph' });
  });
  afterAll(async () => t?.close());

  it('composes neither the graph subgraph nor its fields; the others still answer', async () => {
    expect(t.app.composition.subgraphs).not.toContain('graph');
    expect(t.app.composition.schemas.graph).toBeUndefined();
    const fields = await gql(t.url, '{ __schema { queryType { fields { name } } } }');
    const names: string[] = fields.body.data.__schema.queryType.fields.map((f: { name: string }) => f.name);
    for (const name of GRAPH_FIELDS) expect(names, name).not.toContain(name);
    expect(names).toEqual(expect.arrayContaining(['identityPing', 'neurodataPing', 'queryPing', 'datasets', 'searchDatasets']));

    const gone = await gql(t.url, '{ graphPing { subgraph } }');
    expect(gone.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const alive = await gql(t.url, '{ identityPing { subgraph status } neurodataPing { subgraph status } }');
    expect(alive.body).toEqual({ data: { identityPing: { subgraph: 'identity', status: 'ok' }, neurodataPing: { subgraph: 'neurodata', status: 'ok' } } });
    const search = await gql(t.url, '{ searchDatasets(facets: false) { total } }');
    expect(search.body.errors).toBeUndefined();
    expect(typeof search.body.data.searchDatasets.total).toBe('number');
  });

  it('answers the graph routes 404 like any unknown route', async () => {
    for (const [method, path] of [
      ['GET', '/v1/graph/some-dataset/metrics'],
      ['POST', '/v1/graph/some-dataset/motifs'],
      ['GET', '/v1/graph/compare?datasets=a,b'],
      ['GET', '/v1/analytics/graph/some-dataset/summary'],
    ]) {
      // The route is (rightly) not in /openapi.json, so call() has no documented answer to hold this one to.
      const res = await call(t.url, method, path, method === 'POST' ? { body: {} } : {});
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(typeof res.body.error, `${method} ${path}`).toBe('string');
    }
    // The routes of enabled subgraphs are mounted.
    const search = await call(t.url, 'GET', '/v1/search/fulltext?q=worm');
    expect(search.status).toBe(200);
  });

  it('leaves the graph routes out of /openapi.json', async () => {
    const r = await call(t.url, 'GET', '/openapi.json');
    expect(r.status).toBe(200);
    const paths = Object.keys(r.body.paths);
    expect(paths.filter((p) => p.startsWith('/v1/graph'))).toEqual([]);
    expect(paths.filter((p) => p.startsWith('/v1/analytics/graph'))).toEqual([]);
    expect(paths).toContain('/v1/search/fulltext');
    // The query subgraph is still there, with its handler route.
    expect(paths).toContain('/v1/syql/plan');
    expect(paths).toContain('/v1/jobs/{job_id}/result');
  });

  it('offers no graph analyses as jobs either: the route is gone like the other graph routes', async () => {
    const user = await createUser(t, { accountType: 'ACADEMIC' });
    const res = await call(t.url, 'POST', '/v1/jobs/graph', { token: user.accessToken, body: { dataset_id: 'celegans_varshney_2011' } });
    expect(res.status).toBe(404);
    expect(typeof res.body.error).toBe('string');
    const doc = await call(t.url, 'GET', '/openapi.json');
    expect(Object.keys(doc.body.paths)).not.toContain('/v1/jobs/graph');
  });

  it('stays healthy', async () => {
    const r = await call(t.url, 'GET', '/health');
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('healthy');
  });
});

describe('SUBGRAPHS_DISABLED', () => {
  it('refuses a subgraph that cannot be left out, naming the variable', () => {
    let err: unknown;
    try {
      loadConfig({ SUBGRAPHS_DISABLED: 'identity' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect(String((err as Error).message)).toMatch(/SUBGRAPHS_DISABLED/);
    expect(loadConfig({ SUBGRAPHS_DISABLED: 'query, graph' }).subgraphs.disabled).toEqual(['query', 'graph']);
    expect(loadConfig({}).subgraphs.disabled).toEqual([]);
  });
});

describe('SUBGRAPHS_DISABLED=query', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ SUBGRAPHS_DISABLED: 'query' });
  });
  afterAll(async () => t?.close());

  it('mounts neither its GraphQL routes nor the job result handler, and documents neither', async () => {
    for (const [method, path] of [
      ['GET', '/v1/jobs/00000000-0000-4000-8000-000000000000/result'],
      ['GET', '/v1/jobs'],
      ['POST', '/v1/syql/plan'],
    ]) {
      const res = await call(t.url, method, path, method === 'POST' ? { body: {} } : {});
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(typeof res.body.error).toBe('string');
    }
    const doc = await call(t.url, 'GET', '/openapi.json');
    const paths = Object.keys(doc.body.paths);
    expect(paths.filter((p) => p.startsWith('/v1/jobs') || p.startsWith('/v1/syql') || p.startsWith('/v1/queries'))).toEqual([]);
    expect(paths).toContain('/v1/graph/{dataset_id}/metrics');
    const ping = await gql(t.url, '{ graphPing { subgraph } }');
    expect(ping.body).toEqual({ data: { graphPing: { subgraph: 'graph' } } });
  });
});
