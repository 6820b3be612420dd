import { describe, it, expect, beforeAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { GraphQLSchema } from 'graphql';
import { startTestApp, call } from '../kit/app.js';
import { createUser, type TestAccountType } from '../kit/users.js';
import { ROUTES } from '../../rest-compat/routes/index.js';
import { minimalRequest } from '../kit/route-requests.js';

/**
 * The direct path (gateway/direct/) and compiled execution (gateway/local-data-source.ts) against Apollo Server, the
 * gateway and graphql-js's executor: two services on engines of their own, one with GATEWAY_DIRECT_EXECUTION=false
 * and GRAPHQL_COMPILED_EXECUTION=false, are sent the same requests in the same order, so their states evolve
 * alike, and must give the same answers (status, media type, body), generated ids and times aside. Every REST route
 * is called as every kind of caller, then a corpus of GraphQL operations: answered, refused, failing, partial,
 * through fragments, variables and directives, over one subgraph and several.
 */

const CALLERS: { name: string; accountType?: TestAccountType }[] = [
  { name: 'anonymous' },
  { name: 'Regular', accountType: 'REGULAR' },
  { name: 'Academic', accountType: 'ACADEMIC' },
  { name: 'SuperUser', accountType: 'SUPERUSER' },
];

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})/g;
/** Values that differ between two services by design: keys, secrets, tokens and tags they mint, durations they measure. */
const VOLATILE_KEY = /token|secret|password|nonce|state|signature|grant|url$|_ms$|latency|duration|elapsed|^kid$|public_key|scientist_tag|^prefix$/i;

/** Replaces each service's generated ids by their order of first appearance, and times by a marker. */
function normaliser() {
  const ids = new Map<string, string>();
  const text = (s: string) => s.replace(UUID, (id) => ids.get(id.toLowerCase()) ?? (ids.set(id.toLowerCase(), `<id ${ids.size}>`), `<id ${ids.size - 1}>`)).replace(TIME, '<time>');
  const walk = (v: unknown, key = ''): unknown => {
    if (typeof v === 'string') return VOLATILE_KEY.test(key) ? '<volatile>' : text(v);
    if (typeof v === 'number') return VOLATILE_KEY.test(key) ? '<volatile>' : v;
    if (Array.isArray(v)) return v.map((x) => walk(x, key));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    return v;
  };
  return walk;
}

interface Request {
  what: string;
  method: string;
  url: string;
  body?: unknown;
  caller: string;
  headers?: Record<string, string>;
}

interface Answer {
  status: number;
  type: string | null;
  retryAfter: string | null;
  body: unknown;
}

/**
 * Starts a service on fresh engines (seeded alike), creates the same callers, sends it every request in order and
 * closes it: one embedded column store per process, so the two services run one after the other.
 */
async function answersOf(env: Record<string, string>, requests: (firstTermId: string, schema: GraphQLSchema) => Request[]): Promise<{ answers: Answer[]; taken?: number; readied?: number }> {
  const t = await startTestApp({ RATE_LIMIT_BURST: '1000000', RATE_LIMIT_REFILL_PER_SEC: '1000000', ...env });
  try {
    const tokens = new Map<string, string | undefined>();
    for (const c of CALLERS) {
      tokens.set(c.name, c.accountType ? (await createUser(t, { accountType: c.accountType, email: `equivalence-${c.name.toLowerCase()}@example.org`, password: 'equivalence-password' })).accessToken : undefined);
    }
    const normalise = normaliser();
    const firstTermId = (await call(t.url, 'GET', '/v1/ontology/terms?limit=1')).body.items[0].id as string;
    const answers: Answer[] = [];
    for (const req of requests(firstTermId, t.app.composition.apiSchema)) {
      const r = await call(t.url, req.method, req.url, { body: req.body, token: tokens.get(req.caller), headers: req.headers });
      answers.push({ status: r.status, type: r.headers.get('content-type'), retryAfter: r.headers.get('retry-after'), body: normalise(r.body) });
    }
    return { answers, taken: t.app.directExecution?.taken, readied: t.app.directExecution?.readied };
  } finally {
    await t.close();
  }
}

function restRequests(schema: GraphQLSchema): Request[] {
  const out: Request[] = [];
  for (const route of ROUTES) {
    const req = minimalRequest(route, schema);
    for (const caller of CALLERS) out.push({ what: `${route.method} ${req.url}`, method: route.method, url: req.url, body: req.body, caller: caller.name, headers: req.headers });
  }
  return out;
}

function graphqlRequests(firstTermId: string, missing: string): Request[] {
  const corpus: { query: string; variables?: Record<string, unknown>; operationName?: string; accept?: string }[] = [
    { query: '{ identityPing { subgraph status } ontologyPing { status } }' },
    { query: '{ ontologyPing { subgraph status time } }' },
    { query: 'query Terms($l: Int = 3) { terms(limit: $l) { total limit offset items { id code label synonyms deprecated created_at } } }' },
    { query: 'query Terms($l: Int = 3) { terms(limit: $l) { total items { id } } }', variables: { l: 7 } },
    { query: 'query ($q: String) { terms(limit: 5, search: $q) { total items { label vocabulary } } }', variables: { q: 'hippocampus' } },
    { query: '{ a: terms(limit: 2) { items { id } } b: terms(limit: 1, offset: 3) { items { code } } vocabularies { name term_count } }' },
    { query: '{ terms(limit: 2) { __typename items { __typename id } } }' },
    { query: `{ term(id: "${firstTermId}") { id label parent_id metadata } }` },
    { query: 'query ($id: ID!) { termAncestors(id: $id) { id } termChildren(id: $id) { id } }', variables: { id: firstTermId } },
    { query: `{ term(id: "${missing}") { id } }` },
    { query: `{ term(id: "${missing}") { id } ontologyPing { status } identityPing { status } }` },
    { query: '{ term(id: "not-an-id") { id } }' },
    {
      query: 'query ($t: [String!]!) { termValidation(terms: $t) { valid unrecognized results { input status suggestions { label } } } }',
      variables: { t: ['CA1', 'field ca1', 'hipocampus', 'zzz'] },
    },
    { query: 'query ($skip: Boolean!) { terms(limit: 2) { total items @skip(if: $skip) { id } } }', variables: { skip: true } },
    { query: 'query ($skip: Boolean!) { terms(limit: 2) { total items @include(if: $skip) { id } } }', variables: { skip: true } },
    { query: 'query { ...F ontologyPing { status } } fragment F on Query { identityPing { subgraph } }' },
    { query: 'query A { identityPing { status } } query B { ontologyPing { status } }', operationName: 'B' },
    { query: 'query A { identityPing { status } } query B { ontologyPing { status } }' },
    { query: 'query A { identityPing { status } }', operationName: 'C' },
    { query: '{ profile { id email display_name account_type verified } }' },
    { query: '{ datasets(limit: 5) { total items { id } } collections { total } }' },
    { query: '{ federationClusters { id } }' },
    { query: '{ jobs(limit: 3) { total } savedQueries { total } }' },
    { query: 'query ($q: String!) { syqlPlan(query: $q) { normalised parameters } }', variables: { q: 'MATCH (n) IN "nothing" RETURN n.name LIMIT 1' } },
    { query: '{ terms(limit: 2) { nosuchfield } }' },
    { query: '{ terms(limit: 2) { items { id }' },
    { query: 'query ($l: Int) { terms(limit: $l) { total } }', variables: { l: 'many' } },
    { query: 'query ($q: String) { terms(search: $q) { total } }', variables: { q: 'a\u0000b' } },
    { query: '{ graphMotifs(dataset_id: "celegans_varshney_2011", per_node: "x") { dataset_id } }' },
    { query: 'query ($p: PerNodeSelection) { graphMotifs(dataset_id: "celegans_varshney_2011", per_node: $p) { dataset_id } }', variables: { p: 'x' } },
    { query: 'query ($q: String!, $p: JSONObject) { syqlPlan(query: $q, parameters: $p) { normalised } }', variables: { q: 'MATCH (n) IN "nothing" RETURN n.name', p: [1] } },
    { query: '{ syqlPlan(query: "MATCH (n) IN \\"nothing\\" RETURN n.name", parameters: 5) { normalised } }' },
    { query: '{ graphDegreeDistribution(dataset_id: "", version: "") { dataset_id } }' },
    { query: `{ ${Array.from({ length: 40 }, (_, i) => `a${i}: ontologyPing { status }`).join(' ')} }` },
    { query: `{ ${Array.from({ length: 12 }, (_, i) => `a${i}: terms(limit: 1000) { total }`).join(' ')} }` },
    { query: 'mutation ($input: CreateCollectionInput!) { createCollection(input: $input) { title description visibility dataset_ids owner_id } }', variables: { input: { title: 'Equivalence' } } },
    { query: 'mutation ($input: CreateCollectionInput!) { createCollection(input: $input) { title } }', variables: { input: { title: '' } } },
    { query: '{ collections { total items { title visibility } } }' },
    { query: '{ identityPing { status } ontologyPing { status } }', accept: '*/*' },
    { query: `{ term(id: "${missing}") { id } }`, accept: 'application/json' },
  ];
  return corpus.flatMap((op) =>
    ['anonymous', 'Academic', 'SuperUser'].map((caller) => ({
      what: op.query.slice(0, 120),
      method: 'POST',
      url: '/graphql',
      body: { query: op.query, variables: op.variables, operationName: op.operationName },
      caller,
      headers: op.accept ? { accept: op.accept } : undefined,
    })),
  );
}

describe('the direct path answers as Apollo Server and the gateway do', () => {
  let rest: Request[];
  let graphql: Request[];
  let reference: { answers: Answer[]; taken?: number; readied?: number };
  let direct: { answers: Answer[]; taken?: number; readied?: number };

  beforeAll(async () => {
    const missing = randomUUID();
    const requests = (firstTermId: string, schema: GraphQLSchema) => {
      // One set of requests for both services: the minimal requests hold random ids, made once.
      if (!rest) {
        rest = restRequests(schema);
        graphql = graphqlRequests(firstTermId, missing);
      }
      return [...rest, ...graphql];
    };
    reference = await answersOf({ GATEWAY_DIRECT_EXECUTION: 'false', GRAPHQL_COMPILED_EXECUTION: 'false' }, requests);
    direct = await answersOf({ GATEWAY_DIRECT_EXECUTION: 'true', GRAPHQL_COMPILED_EXECUTION: 'true' }, requests);
  });

  const differences = (from: number, to: number, requests: Request[]) => {
    const out: string[] = [];
    for (let i = from; i < to; i++) {
      const [a, b] = [reference.answers[i], direct.answers[i]].map((x) => JSON.stringify(x));
      const req = requests[i - from];
      if (a !== b) out.push(`${req.what} as ${req.caller}:\n  gateway: ${a.slice(0, 600)}\n  direct:  ${b.slice(0, 600)}`);
    }
    return out;
  };

  it('gives the same answer on every REST route, as every kind of caller', () => {
    expect(differences(0, rest.length, rest)).toEqual([]);
    expect(rest.length).toBeGreaterThan(400);
  });

  it('gives the same answer to a corpus of GraphQL operations', () => {
    expect(differences(rest.length, rest.length + graphql.length, graphql)).toEqual([]);
  });

  it('took most operations through the direct path, and none with it turned off', () => {
    expect(reference.taken).toBeUndefined();
    // Invalid, refused and multi-step operations went to Apollo Server, as designed; the rest did not.
    expect(direct.taken).toBeGreaterThan(rest.length / 4 + graphql.length / 2);
  });

  it("readied every REST route's operation in the background after start, before its first request", () => {
    expect(reference.readied).toBeUndefined();
    expect(direct.readied).toBe(ROUTES.filter((r) => r.kind === 'graphql').length);
  });
});
