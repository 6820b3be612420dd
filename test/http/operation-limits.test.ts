import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestApp, call, gql, type TestApp } from '../kit/app.js';
import { createUser, type TestUser } from '../kit/users.js';

const aliases = (n: number, field: string) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ')} }`;

describe('GraphQL operation limits on /graphql and /v1', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_BURST: '100000', RATE_LIMIT_REFILL_PER_SEC: '100000' });
    user = await createUser(t);
  });
  afterAll(async () => t?.close());

  it('refuses 200 aliases of terms(limit: 1000) with a 400 that names the alias limit, before running any of them', async () => {
    const r = await gql(t.url, aliases(200, 'terms(limit: 1000) { total items { id label } }'));
    expect(r.status).toBe(400);
    expect(r.body.data).toBeUndefined();
    expect(r.body.errors[0].message).toMatch(/aliases/i);
    expect(r.body.errors[0].message).toMatch(/15/);
  });

  it('refuses an operation whose list sizes multiply past the item limit, and names the estimate and the limit', async () => {
    // 12 aliases stay under the alias limit, but 12 x 1000 items exceed 10,000.
    const r = await gql(t.url, aliases(12, 'terms(limit: 1000) { items { id } }'));

    expect(r.status).toBe(400);
    expect(r.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(r.body.errors[0].message).toMatch(/12000 list items.*limit is 10000/);
  });

  it('counts limits given through variables', async () => {
    const query = `query($n: Int) { ${Array.from({ length: 12 }, (_, i) => `a${i}: terms(limit: $n) { items { id } }`).join(' ')} }`;
    expect((await gql(t.url, query, { n: 1000 })).status).toBe(400);
    const small = await gql(t.url, query, { n: 10 });
    expect(small.status).toBe(200);
    expect(small.body.errors).toBeUndefined();
  });

  it("counts limits left to a variable's default", async () => {
    const query = (def: number) => `query Q($l: Int = ${def}) { ${Array.from({ length: 15 }, (_, i) => `a${i}: terms(limit: $l) { items { id } }`).join(' ')} }`;
    const r = await gql(t.url, query(1000));
    expect(r.status).toBe(400);
    expect(r.body.data).toBeUndefined();
    expect(r.body.errors[0].message).toMatch(/15000 list items.*limit is 10000/);
    const small = await gql(t.url, query(10));
    expect(small.status).toBe(200);
    expect(small.body.errors).toBeUndefined();
    // A variable sent explicitly wins over its default.
    expect((await gql(t.url, query(1000), { l: 5 })).status).toBe(200);
  });

  it('counts the values of list arguments at every alias that receives them', async () => {
    const query = `query ($t: [String!]!) { ${Array.from({ length: 15 }, (_, i) => `a${i}: termValidation(terms: $t) { valid }`).join(' ')} }`;
    const r = await gql(t.url, query, { t: Array.from({ length: 10_000 }, (_, i) => `v${i}`) }, user.accessToken);
    expect(r.status).toBe(400);
    expect(r.body.data).toBeUndefined();
    expect(r.body.errors[0].message).toMatch(/list arguments hold 150000 values .*limit is 20000/);
  });

  it('gives callers who are not signed in a smaller budget of list bytes than signed-in ones, on REST as on /graphql', async () => {
    // 8,000 copies of one valid term: about 300 KB, cheap to check.
    const terms = Array.from({ length: 8000 }, () => 'transmission electron microscopy (TEM)');
    const anonymous = await call(t.url, 'POST', '/v1/ontology/terms/validate', { body: { terms } });
    expect(anonymous.status).toBe(400);
    expect(anonymous.body.error).toMatch(/list arguments hold 304000 bytes.*limit is 262144 bytes per operation for callers who are not signed in \(signed-in callers may send 1048576\)/);
    const signedIn = await call(t.url, 'POST', '/v1/ontology/terms/validate', { body: { terms }, token: user.accessToken });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.valid).toHaveLength(8000);

    const long = Array.from({ length: 300 }, (_, i) => `${i}`.padEnd(1000, 'x'));
    const fourTimes = await gql(t.url, `query ($t: [String!]!) { a: termValidation(terms: $t) { valid } b: termValidation(terms: $t) { valid } c: termValidation(terms: $t) { valid } d: termValidation(terms: $t) { valid } }`, { t: long }, user.accessToken);
    expect(fourTimes.status).toBe(400);
    expect(fourTimes.body.errors[0].message).toMatch(/list arguments hold 1200000 bytes.*limit is 1048576 bytes per operation:/);
  });

  it('refuses 300 login aliases in one request without checking a single password', async () => {
    const r = await gql(t.url, `mutation ${aliases(300, 'login(email: "x@example.org", password: "wrong-password") { access_token }')}`);
    expect(r.status).toBe(400);
    expect(r.body.errors[0].message).toMatch(/aliases/i);
  });

  it('refuses a document nested deeper than the depth limit', async () => {
    // The schema has no recursive types today, so depth is checked before field validation, on the document.
    const deep = `{ terms(limit: 1) { items { ${'children { '.repeat(20)} id ${'} '.repeat(20)} } } }`;
    const r = await gql(t.url, deep);
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: { message: string }) => e.message).join(' ')).toMatch(/depth limit of 12/i);
  });

  it('refuses a document with more tokens than the token limit', async () => {
    const r = await gql(t.url, `{ ${'ontologyPing { status } '.repeat(2000)} }`);
    expect(r.status).toBe(400);
    expect(r.body.errors[0].message).toMatch(/Document contains more th.. 5000 tokens/);
  });

  it('still answers ordinary operations and REST routes', async () => {
    const q = await gql(t.url, '{ terms(limit: 1000) { total items { id label synonyms } } }');
    expect(q.status).toBe(200);
    expect(q.body.errors).toBeUndefined();
    const rest = await call(t.url, 'GET', '/v1/ontology/terms?limit=1000');
    expect(rest.status).toBe(200);
    expect(rest.body.items.length).toBeGreaterThan(100);
  });
});
