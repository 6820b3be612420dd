import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { PassThrough } from 'node:stream';
import { startTestApp, call, gql, type TestApp } from '../kit/app.js';
import { eventually } from '../kit/eventually.js';
import { createUser } from '../kit/users.js';
import { createTinyDataset } from '../kit/datasets.js';
import { paserkSecret } from '../kit/keys.js';

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

  it('answers a value its scalar refuses, and an empty dataset id or version, as BAD_USER_INPUT, and logs no fault', async () => {
    const user = await createUser(t, { accountType: 'ACADEMIC' });
    const plan = 'MATCH (n) IN "nothing" RETURN n.name';
    const cases: { query: string; variables?: Record<string, unknown> }[] = [
      { query: '{ graphMotifs(dataset_id: "celegans_varshney_2011", per_node: "x") { dataset_id } }' },
      { query: 'query ($p: PerNodeSelection) { graphMotifs(dataset_id: "celegans_varshney_2011", per_node: $p) { dataset_id } }', variables: { p: 'x' } },
      { query: 'query ($q: String!, $p: JSONObject) { syqlPlan(query: $q, parameters: $p) { normalised } }', variables: { q: plan, p: 5 } },
      { query: 'query ($q: String!, $p: JSONObject) { syqlPlan(query: $q, parameters: $p) { normalised } }', variables: { q: plan, p: [1, 2] } },
      { query: `{ syqlPlan(query: ${JSON.stringify(plan)}, parameters: 5) { normalised } }` },
      { query: '{ graphMotifs(dataset_id: "", version: "") { dataset_id } }' },
      { query: '{ graphDegreeDistribution(dataset_id: "", version: "") { dataset_id } }' },
    ];
    for (const c of cases) {
      const r = await gql(t.url, c.query, c.variables, user.accessToken);
      expect(r.status, c.query).toBeLessThan(500);
      expect(r.body.errors?.map((e: { extensions: { code: string } }) => e.extensions.code), c.query).toEqual(['BAD_USER_INPUT']);
      const id = r.headers.get('x-request-id');
      await eventually(() => lines.some((l) => l.requestId === id && l.msg === 'request completed'), { what: 'the request log line' });
      expect(lines.filter((l) => l.requestId === id && Number(l.level) >= 50), c.query).toEqual([]);
    }
  });
});

/** One lookup of each kind at the root, each of something that does not exist. */
const MISSING = '00000000-0000-4000-8000-000000000000';
const LOOKUPS = `
  missingDataset: dataset(dataset_id: "${MISSING}") { id }
  missingVersion: datasetVersion(dataset_id: "${MISSING}", version: "1") { version }
  missingCollection: collection(collection_id: "${MISSING}") { id }
  missingPublished: publishedDataset(slug: "no_such_dataset") { slug }
  missingTerm: term(id: "NOPE:0000000") { id }
  missingQuery: savedQuery(id: "${MISSING}") { id }
  missingJob: job(job_id: "${MISSING}") { job_id }
  missingProfile: publicProfile(user_id: "${MISSING}") { id }`;

describe('root lookups by id or slug', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());


  it('a missing object is null beside its NOT_FOUND error, and the fields beside it keep their data', async () => {
    const user = await createUser(t, { accountType: 'ACADEMIC' });
    const d = await createTinyDataset(t, user);
    const r = await gql(t.url, `{ existing: dataset(dataset_id: "${d.slug}") { id slug } ${LOOKUPS} }`, {}, user.accessToken);
    expect(r.status).toBe(200);
    expect(r.body.data.existing).toEqual({ id: d.id, slug: d.slug });
    const aliases = [...LOOKUPS.matchAll(/(\w+):/g)].map((m) => m[1]).filter((a) => a.startsWith('missing'));
    for (const alias of aliases) expect(r.body.data[alias], alias).toBeNull();
    const byPath = Object.fromEntries(r.body.errors.map((e: { path: string[]; extensions: { code: string } }) => [e.path.join('.'), e.extensions.code]));
    expect(byPath).toEqual(Object.fromEntries(aliases.map((a) => [a, 'NOT_FOUND'])));
  });

  it('the REST routes of these lookups still answer 404 with {"error"} for a missing object', async () => {
    const user = await createUser(t, { accountType: 'ACADEMIC' });
    for (const path of [`/v1/neurodata/datasets/${MISSING}`, `/v1/neurodata/collections/${MISSING}`, '/v1/ontology/terms/NOPE:0000000', `/v1/queries/${MISSING}`, `/v1/jobs/${MISSING}`, `/v1/user/profile/${MISSING}`]) {
      const res = await call(t.url, 'GET', path, { token: user.accessToken });
      expect(res.status, path).toBe(404);
      expect(Object.keys(res.body), path).toEqual(['error']);
    }
  });

});

// Its own app: one embedded column store per process, and the lookups' app is closed by now.
describe('errors in production', () => {
  let prod: TestApp;
  beforeAll(async () => {
    prod = await startTestApp({ NODE_ENV: 'production', API_DOMAIN: 'https://neurodata.example.org', TOKEN_SECRET_KEY: paserkSecret() });
  });
  afterAll(async () => prod?.close());

  it('an error names no internal subgraph', async () => {
    const user = await createUser(prod, { accountType: 'ACADEMIC' });
    const r = await gql(prod.url, `{ ${LOOKUPS} }`, {}, user.accessToken);
    expect(r.body.errors.length).toBeGreaterThan(0);
    for (const e of r.body.errors) {
      expect(e.extensions.code).toBe('NOT_FOUND');
      expect(e.extensions).not.toHaveProperty('serviceName');
    }
  });
});
