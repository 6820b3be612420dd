import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestApp, call, gql, type TestApp } from '../kit/app.js';
import { createUser, type TestAccountType } from '../kit/users.js';
import { ROUTES } from '../../rest-compat/routes/index.js';
import { pathParams } from '../../rest-compat/route-table.js';
import { minimalRequest } from '../kit/route-requests.js';
import { AccessClass, accessRegistry, satisfies } from '../../lib/access.js';

const CALLERS: { name: string; accountType?: TestAccountType; holds: AccessClass }[] = [
  { name: 'anonymous', holds: AccessClass.Public },
  { name: 'Regular', accountType: 'REGULAR', holds: AccessClass.User },
  { name: 'Academic (verified)', accountType: 'ACADEMIC', holds: AccessClass.Academic },
  { name: 'Service', accountType: 'SERVICE', holds: AccessClass.Academic },
  { name: 'SuperUser', accountType: 'SUPERUSER', holds: AccessClass.SuperUser },
];

describe('access matrix: every route × every account type', () => {
  let t: TestApp;
  const tokens = new Map<string, string | undefined>();
  beforeAll(async () => {
    // Hundreds of calls from one address: the rate limit is not what this test is about.
    t = await startTestApp({ RATE_LIMIT_BURST: '1000000', RATE_LIMIT_REFILL_PER_SEC: '1000000' });
    for (const c of CALLERS) tokens.set(c.name, c.accountType ? (await createUser(t, { accountType: c.accountType })).accessToken : undefined);
  });
  afterAll(async () => t?.close());

  it('answers 401 to anonymous callers of non-Public routes, 403 to too-low classes, and neither to sufficient ones', async () => {
    const schema = t.app.composition.apiSchema;
    const failures: string[] = [];
    const checked = { unauthenticated: 0, forbidden: 0, allowed: 0 };
    for (const route of ROUTES) {
      const required = route.kind === 'graphql' ? accessRegistry.get(route.field) : route.access;
      if (!required) {
        failures.push(`${route.method} ${route.path}: ${route.kind === 'graphql' ? route.field : ''} declares no access class`);
        continue;
      }
      const req = minimalRequest(route, schema);
      const statuses = new Map<string, number>();
      for (const caller of CALLERS) {
        const r = await call(t.url, route.method, req.url, { body: req.body, token: tokens.get(caller.name), headers: req.headers });
        statuses.set(caller.name, r.status);
        const denied = r.status === 401 || r.status === 403;
        let expected: string | undefined;
        if (required !== AccessClass.Public && caller.holds === AccessClass.Public) {
          checked.unauthenticated++;
          expected = r.status === 401 ? undefined : '401';
        } else if (!satisfies(caller.holds, required)) {
          checked.forbidden++;
          expected = r.status === 403 ? undefined : '403';
        } else {
          checked.allowed++;
          // A Public route may refuse the credentials in its own body (login, refresh): then it refuses everyone alike.
          if (denied && !(required === AccessClass.Public && statuses.get('anonymous') === r.status)) expected = 'neither 401 nor 403';
        }
        if (expected) failures.push(`${route.method} ${req.url} [${required}] as ${caller.name}: expected ${expected}, got ${r.status} ${JSON.stringify(r.body).slice(0, 160)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(checked.unauthenticated).toBeGreaterThan(0);
    expect(checked.forbidden).toBeGreaterThan(0);
    expect(checked.allowed).toBeGreaterThan(0);
  });

  it('checks the access class before the body: an empty body answers 401 anonymously and 403 to a Regular user', async () => {
    const failures: string[] = [];
    let swept = 0;
    for (const route of ROUTES) {
      const required = route.kind === 'graphql' ? accessRegistry.get(route.field) : route.access;
      if (!required || required === AccessClass.Public) continue;
      let url = route.path;
      // A path parameter no route would accept: nothing of the request is read before the access check.
      for (const p of pathParams(route.path)) url = url.replace(`{${p}}`, 'not-an-id');
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
      const expectations: [string, number][] = [['anonymous', 401]];
      if (!satisfies(AccessClass.User, required)) expectations.push(['Regular', 403]);
      for (const [caller, status] of expectations) {
        const r = await call(t.url, route.method, url, { body, token: tokens.get(caller) });
        swept++;
        const message = String(r.body?.error ?? '');
        const says = status === 401 ? /authentication required|Authorization/ : /access class|verified academic account/;
        if (r.status !== status || !says.test(message)) failures.push(`${route.method} ${route.path} [${required}] as ${caller}: expected ${status}, got ${r.status} ${message.slice(0, 160)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(swept).toBeGreaterThan(50);
  });

  it('refuses before reading the body at all: malformed JSON and unknown fields are 401 to anonymous callers', async () => {
    for (const [method, url] of [
      ['POST', '/v1/syql/exec'],
      ['POST', '/v1/jobs'],
      ['POST', '/v1/federation/clusters'],
      ['POST', `/v1/neurodata/datasets/${randomUUID()}/assets`],
    ] as const) {
      const malformed = await call(t.url, method, url, { body: '{"query": ', headers: { 'content-type': 'application/json' } });
      expect(malformed.status, `${method} ${url}`).toBe(401);
      expect(malformed.body.error).toMatch(/authentication required/);
    }
    const bad = await call(t.url, 'POST', '/v1/syql/exec', { body: { no_such_field: 1 }, token: 'not-a-token' });
    expect(bad.status).toBe(401);
    expect(bad.body.error).not.toMatch(/no_such_field|query/);
  });

  it('refuses GraphQL operations by the access class of their root fields before their variables are read', async () => {
    const mutation = 'mutation Create($input: CreateCollectionInput!) { createCollection(input: $input) { id } }';
    const anonymous = await gql(t.url, mutation);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.errors[0]).toMatchObject({ message: expect.stringMatching(/authentication required/), extensions: { code: 'UNAUTHENTICATED' } });
    expect(anonymous.body.data).toBeUndefined();
    const badToken = await gql(t.url, mutation, {}, 'not-a-token');
    expect(badToken.status).toBe(401);
    expect(badToken.body.errors[0].message).not.toMatch(/authentication required/);
    const regular = await gql(t.url, mutation, { input: 'not even an object' }, tokens.get('Regular'));
    expect(regular.status).toBe(403);
    expect(regular.body.errors[0].extensions).toEqual({ code: 'FORBIDDEN', reason: 'ACADEMIC_REQUIRED' });
    // A root field behind a fragment counts the same; one refused field refuses the whole operation.
    const viaFragment = await gql(t.url, 'query { ...F ontologyPing { status } } fragment F on Query { federationClusters { id } }', {}, tokens.get('Academic (verified)'));
    expect(viaFragment.status).toBe(403);
    expect(viaFragment.body.errors[0].message).toMatch(/SuperUser/);
    // A caller who may run it reaches the variables' own checks.
    const academic = await gql(t.url, mutation, {}, tokens.get('Academic (verified)'));
    expect(academic.status).toBe(400);
    expect(academic.body.errors[0].message).toMatch(/\$input/);
  });

  it('answers 400 naming an operationName the document does not hold', async () => {
    const r = await call(t.url, 'POST', '/graphql', { body: { query: 'query A { ontologyPing { status } } query B { federationPing { status } }', operationName: 'C' } });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].message).toBe('operationName: the document has no operation named "C" (the document holds A, B)');
    const unnamed = await call(t.url, 'POST', '/graphql', { body: { query: 'query A { ontologyPing { status } } query B { federationPing { status } }' } });
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.errors[0].message).toMatch(/^operationName: required when the document holds several operations/);
    const right = await call(t.url, 'POST', '/graphql', { body: { query: 'query A { ontologyPing { status } } query B { federationPing { status } }', operationName: 'B' } });
    expect(right.body.data).toEqual({ federationPing: { status: 'ok' } });
  });

  it('covers every route of the table', () => {
    const graphqlRoutes = ROUTES.filter((r) => r.kind === 'graphql');
    expect(graphqlRoutes.length).toBeGreaterThan(0);
    for (const r of graphqlRoutes) expect(accessRegistry.has(r.field), r.field).toBe(true);
  });
});
