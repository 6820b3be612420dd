import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { PassThrough } from 'node:stream';
import { chmod, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { startTestApp, createTestEngines, call, gql, type TestApp, type TestEngines } from '../kit/app.js';
import { paserkSecret } from '../kit/keys.js';
import { expectError } from '../kit/expect.js';
import { createUser } from '../kit/users.js';
import { eventually } from '../kit/eventually.js';
import { sendRaw } from '../kit/request-fuzzer.js';
import { COMPLETE_METADATA } from '../kit/datasets.js';
import { isUuidV7 } from '../../lib/ids.js';
import { ROUTES } from '../../rest-compat/routes/index.js';
import { pathParams } from '../../rest-compat/route-table.js';

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** Every file and directory under `dir` with its permission bits. */
async function modes(dir: string): Promise<{ file: string; mode: number }[]> {
  const out: { file: string; mode: number }[] = [];
  for (const entry of await readdir(dir, { recursive: true })) {
    const file = path.join(dir, entry);
    const s = await stat(file).catch(() => undefined); // chDB and PGlite remove temporary files as we walk
    if (s) out.push({ file: entry, mode: s.mode & 0o777 });
  }
  return out;
}

/** A request whose path is sent exactly as written: fetch would resolve dot segments (`%2e%2e`) as a browser does. */
async function rawCall(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const text = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const r = await sendRaw(base, { method, path, headers: { ...headers, ...(text ? { 'content-type': 'application/json' } : {}) }, body: text }, 30_000);
  let parsed: unknown = r.text;
  try {
    parsed = r.text ? JSON.parse(r.text) : null;
  } catch {
    /* not JSON */
  }
  return { status: r.status, body: parsed };
}

function expectPipelineHeaders(headers: Headers) {
  expect(headers.get('api-version')).toBe('v1');
  expect(isUuidV7(headers.get('x-request-id'))).toBe(true);
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('x-frame-options')).toBe('DENY');
}

describe('input from anyone', () => {
  let t: TestApp;
  let engines: TestEngines;
  const logLines: string[] = [];
  beforeAll(async () => {
    // An empty database, so the service creates every file of the data directory itself, as on a first start.
    engines = await createTestEngines({ seeded: false });
    // A data directory as older versions left it: readable by everyone.
    await chmod(engines.dataDir, 0o755);
    const logs = new PassThrough();
    logs.on('data', (chunk: Buffer) => logLines.push(chunk.toString()));
    // The sweeps below send hundreds of requests that are answered at once: more than one client's default burst.
    // On a port: oversized headers and raw requests are refused by the HTTP parser, before the app sees them.
    t = await startTestApp({ LOG_LEVEL: 'debug', RATE_LIMIT_BURST: '5000' }, { listen: true, engines, logStream: logs });
  });
  afterAll(async () => {
    await t?.close();
    await engines?.drop();
  });

  it('answers a NUL character in a query or path parameter with 400 naming the parameter', async () => {
    const query = await call(t.url, 'GET', '/v1/ontology/terms?q=%00');
    expect(query.status).toBe(400);
    expect(query.body).toEqual({ error: expect.stringMatching(/^query parameter q: .*NUL/) });
    const param = await call(t.url, 'GET', '/v1/ontology/terms/%00');
    expect(param.status).toBe(400);
    expect(param.body).toEqual({ error: expect.stringMatching(/^path parameter id: .*NUL/) });
  });

  it('answers a dot segment (. or .., encoded or not) as a path parameter with 400 naming the parameter, on every parameterised route', async () => {
    // A SuperUser passes every route's access check, so each request reaches its path parameters.
    const admin = { authorization: `Bearer ${(await createUser(t, { accountType: 'SUPERUSER' })).accessToken}` };
    const answers: string[] = [];
    for (const route of ROUTES.filter((r) => pathParams(r.path).length)) {
      for (const dots of ['%2e%2e', '..', '%2E', '.', '..%2f..']) {
        const url = route.path.replace(/\{[^}]+\}/g, dots);
        for (const headers of [{}, admin]) {
          const r = await rawCall(t.url, route.method, url, route.method === 'GET' || route.method === 'DELETE' ? undefined : {}, headers);
          if (r.status >= 500) answers.push(`${route.method} ${url}: ${r.status} ${JSON.stringify(r.body)}`);
        }
      }
    }
    expect(answers).toEqual([]);
    expectError(await rawCall(t.url, 'GET', '/v1/ontology/terms/%2e%2e'), 400, /^path parameter id: "\.\." is not a valid value$/);
    expectError(await rawCall(t.url, 'GET', '/v1/neurodata/datasets/./versions/..', undefined, admin), 400, /^path parameter (dataset_id|version)[: ]/);
    expectError(await rawCall(t.url, 'DELETE', '/v1/federation/clusters/%2e%2e', undefined, admin), 400, /^path parameter cluster_id: "\.\." is not a valid value$/);
    expectError(await rawCall(t.url, 'DELETE', '/v1/federation/clusters/%2e%2e'), 401);
  });

  it('answers a NUL character in a REST body with 400 naming the field', async () => {
    const validate = await call(t.url, 'POST', '/v1/ontology/terms/validate', { body: { terms: ['hippocampus', 'CA1\u0000'] } });
    expect(validate.status).toBe(400);
    expect(validate.body).toEqual({ error: expect.stringMatching(/^terms\[1\]: .*NUL/) });
    const login = await call(t.url, 'POST', '/v1/user/auth/login', { body: { email: 'a\u0000@example.org', password: 'correct horse battery' } });
    expect(login.status).toBe(400);
    expect(login.body).toEqual({ error: expect.stringMatching(/^email: .*NUL/) });
  });

  it('answers a lone UTF-16 surrogate in any text of a body or variable with 400 naming the field, before anything is stored', async () => {
    const owner = await createUser(t, { accountType: 'ACADEMIC' });
    const fields: Array<[string, Record<string, unknown>]> = [
      ['title', { title: 'x\ud800yz' }],
      ['description', { description: 'trailing \udc00' }],
      ['keywords[1]', { keywords: ['fine', 'x\udbffy'] }],
      ['creators[0].name', { creators: [{ name: 'Ada \ud83d', orcid: '0000-0002-1825-0097' }] }],
    ];
    for (const [field, value] of fields) {
      const r = await call(t.url, 'POST', '/v1/neurodata/datasets', { token: owner.accessToken, body: { title: 'Surrogates', ...COMPLETE_METADATA, ...value } });
      expectError(r, 400, new RegExp(`^(input\\.)?${field.replace(/[.[\]]/g, '\\$&')}: .*lone UTF-16 surrogate`));
    }
    const variable = await gql(t.url, 'query ($q: String) { terms(q: $q) { total } }', { q: 'a\udfffb' });
    expect(variable.status).toBe(400);
    expect(variable.body.errors[0]).toMatchObject({ message: expect.stringMatching(/^q: .*lone UTF-16 surrogate/), extensions: { code: 'BAD_USER_INPUT' } });
    // A surrogate pair is one character (an emoji here), accepted as any other.
    const pair = await call(t.url, 'POST', '/v1/neurodata/datasets', { token: owner.accessToken, body: { ...COMPLETE_METADATA, title: 'Worms \ud83e\udeb1' } });
    expect(pair.status).toBe(201);
    expect(pair.body.title).toBe('Worms \u{1FAB1}');
  });

  it('refuses a NUL character in a GraphQL string, written inline or sent as a variable', async () => {
    const inline = await gql(t.url, '{ terms(q: "\\u0000") { total } }');
    const variable = await gql(t.url, 'query ($q: String) { terms(q: $q) { total } }', { q: 'a\u0000b' });
    const byGet = await call(t.url, 'GET', `/graphql?query=${encodeURIComponent('query ($q: String) { terms(q: $q) { total } }')}&variables=${encodeURIComponent('{"q":"\\u0000"}')}`);
    for (const r of [inline, variable, byGet]) {
      expect(r.status).toBe(400);
      expect(r.body.errors[0]).toMatchObject({ message: expect.stringMatching(/^q: .*NUL/), extensions: { code: 'BAD_USER_INPUT' } });
    }
  });

  it('refuses an email longer than 254 characters at login and registration, before looking it up', async () => {
    // Random characters: a long repetitive key would compress and slip under PostgreSQL's index row limit.
    const email = `${Array.from({ length: 3000 }, () => 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(Math.random() * 36)]).join('')}@example.org`;
    const login = await call(t.url, 'POST', '/v1/user/auth/login', { body: { email, password: 'correct horse battery' } });
    const register = await call(t.url, 'POST', '/v1/user/auth/register', { body: { email, password: 'correct horse battery', display_name: 'Long' } });
    for (const r of [login, register]) {
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: expect.stringMatching(/^email: at most 254 characters/) });
    }
  });

  it('refuses a JSON body nested deeper than 64 levels with 400, on /graphql and /v1', async () => {
    const deep = nested(10_000);
    const graphql = await call(t.url, 'POST', '/graphql', { body: `{"query":"{ federationPing { status } }","variables":{"a":${deep}}}` });
    const rest = await call(t.url, 'POST', '/v1/user/auth/login', { body: `{"email":${deep},"password":"x"}` });
    for (const r of [graphql, rest]) {
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: 'the JSON body is nested deeper than 64 levels' });
    }
  });

  it('accepts a body nested 64 levels deep, and brackets inside strings do not count', async () => {
    const atLimit = await call(t.url, 'POST', '/graphql', { body: `{"query":"{ federationPing { status } }","variables":{"a":${nested(62)}}}` });
    expect(atLimit.status).toBe(200);
    const inString = await call(t.url, 'POST', '/graphql', { body: { query: `{ federationPing { status } } # ${'[{'.repeat(5000)} \\" ${'['.repeat(100)}` } });
    expect(inString.status).toBe(200);
    expect(inString.body.data.federationPing.status).toBe('ok');
  });

  it('refuses credentials in the query string on every route, asking for the body, and never logs them', async () => {
    const login = await call(t.url, 'POST', '/v1/user/auth/login?email=ada%40example.org&password=Hunter2-in-the-url');
    expect(login.status).toBe(400);
    expect(login.body).toEqual({ error: expect.stringMatching(/^query parameter password: .*send them in the JSON request body/) });
    for (const url of ['/v1/user/auth/refresh?refresh_token=Hunter2-in-the-url', '/v1/nope?access_token=Hunter2-in-the-url', '/health?client_secret=Hunter2-in-the-url']) {
      const r = await call(t.url, url.startsWith('/v1/user') ? 'POST' : 'GET', url);
      expect(r.status, url).toBe(400);
      expect(r.body.error, url).toMatch(/credentials are not accepted in the URL/);
    }
    await eventually(() => logLines.join('').includes('request completed'), { what: 'the request log lines' });
    expect(logLines.join('')).not.toContain('Hunter2');
  });

  it('answers headers too large (431), a path segment too long (414) and an undecodable URL with the error body and pipeline headers', async () => {
    const headers = await call(t.url, 'GET', '/health', { headers: { 'x-padding': 'a'.repeat(20_000) } });
    expect(headers.status).toBe(431);
    expect(headers.body).toEqual({ error: expect.stringContaining('headers') });
    expectPipelineHeaders(headers.headers);
    // Written on the raw socket, and still with the code clients choose by.
    expect(headers.headers.get('x-error-code')).toBe('REQUEST_HEADER_FIELDS_TOO_LARGE');

    const segment = await call(t.url, 'GET', `/v1/user/profile/${'a'.repeat(300)}`, { headers: { origin: 'https://lab.example.org' } });
    expect(segment.status).toBe(414);
    expect(segment.body).toEqual({ error: expect.stringContaining('longer than') });
    expect(segment.headers.get('x-error-code')).toBe('URI_TOO_LONG');
    expectPipelineHeaders(segment.headers);
    expect(segment.headers.get('access-control-allow-origin')).toBe('https://lab.example.org');

    const undecodable = await call(t.url, 'GET', '/v1/user/profile/%zz');
    expect(undecodable.status).toBe(400);
    expect(undecodable.body).toEqual({ error: expect.stringContaining('percent-encoded') });
    expect(undecodable.headers.get('x-error-code')).toBe('BAD_USER_INPUT');
    expectPipelineHeaders(undecodable.headers);

    const media = await call(t.url, 'POST', '/graphql', { body: '<query/>', headers: { 'content-type': 'application/xml' } });
    expect(media.status).toBe(415);
    expect(media.body).toEqual({ error: expect.stringContaining('application/json') });
    expect(media.headers.get('x-error-code')).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers a preflight for every method the API uses, with the Authorization and Content-Type headers', async () => {
    const pre = await fetch(`${t.url}/v1/user/profile`, {
      method: 'OPTIONS',
      headers: { origin: 'https://lab.example.org', 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('https://lab.example.org');
    expect(pre.headers.get('access-control-allow-methods')!.split(/,\s*/)).toEqual(expect.arrayContaining(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']));
    expect(pre.headers.get('access-control-allow-headers')!.toLowerCase().split(/,\s*/)).toEqual(expect.arrayContaining(['authorization', 'content-type']));
  });

  it('sends the security headers on data, errors and the documentation pages', async () => {
    for (const r of [await call(t.url, 'GET', '/health'), await call(t.url, 'GET', '/v1/nope'), await call(t.url, 'POST', '/graphql', { body: '{' })]) {
      expectPipelineHeaders(r.headers);
      expect(r.headers.get('referrer-policy')).toBe('no-referrer');
      expect(r.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(r.headers.get('strict-transport-security')).toBeNull(); // production only
    }
    for (const page of ['/docs', '/graphql']) {
      const r = await call(t.url, 'GET', page, { headers: { accept: 'text/html' } });
      expect(r.status, page).toBe(200);
      expect(r.headers.get('x-frame-options')).toBe('DENY');
      expect(r.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
      expect(r.headers.get('content-security-policy')).toMatch(/script-src 'self' 'sha256-/);
    }
  });

  it('keeps the data directory and everything in it readable by the service user only', async () => {
    await call(t.url, 'GET', '/health'); // writes and deletes a probe object
    expect((await stat(engines.dataDir)).mode & 0o777).toBe(0o700);
    const entries = await modes(engines.dataDir);
    expect(entries.map((e) => e.file)).toContain(path.join('keys', 'token.k4.secret'));
    expect(entries.filter((e) => (e.mode & 0o077) !== 0)).toEqual([]);
  });

});

describe('the data directory after a restart', () => {
  // Not beside the app above: chDB opens one data directory per process at a time.
  it('keeps everything readable by the service user only after a restart on the same data directory', async () => {
    const again = await startTestApp({}, { engines: await createTestEngines() });
    try {
      await again.stop();
      const restarted = await startTestApp({}, { engines: again.engines });
      try {
        await call(restarted.url, 'GET', '/health');
        const entries = await modes(again.engines.dataDir);
        expect(entries.filter((e) => (e.mode & 0o077) !== 0)).toEqual([]);
      } finally {
        await restarted.stop();
      }
    } finally {
      await again.engines.drop();
    }
  });
});

describe('rate limit and CORS', () => {
  it('lets a browser read a 429 from the allowed origin, and still tells other origins nothing', async () => {
    const t = await startTestApp({
      NODE_ENV: 'production',
      API_DOMAIN: 'https://neurodata.example.org',
      TOKEN_SECRET_KEY: paserkSecret(),
      RATE_LIMIT_BURST: '1',
      RATE_LIMIT_REFILL_PER_SEC: '0.01',
    });
    try {
      await call(t.url, 'GET', '/v1/federation/ping');
      const allowed = await call(t.url, 'GET', '/v1/federation/ping', { headers: { origin: 'https://neurodata.example.org' } });
      expect(allowed.status).toBe(429);
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://neurodata.example.org');
      expect(allowed.headers.get('access-control-expose-headers')).toMatch(/Retry-After/);
      const foreign = await call(t.url, 'GET', '/v1/federation/ping', { headers: { origin: 'https://elsewhere.example.com' } });
      expect(foreign.status).toBe(429);
      expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await t.close();
    }
  });
});

describe('production settings', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ NODE_ENV: 'production', API_DOMAIN: 'https://neurodata.example.org', TOKEN_SECRET_KEY: paserkSecret() });
  });
  afterAll(async () => t?.close());

  it('turns introspection off by default, with an error that says so', async () => {
    const r = await gql(t.url, '{ __schema { queryType { name } } }');
    expect(r.status).toBe(400);
    expect(r.body.errors[0].message).toMatch(/introspection .*turned off/);
    const typed = await gql(t.url, '{ __type(name: "Query") { name } }');
    expect(typed.status).toBe(400);
    const plain = await gql(t.url, '{ federationPing { __typename status } }');
    expect(plain.body.data.federationPing).toEqual({ __typename: expect.any(String), status: 'ok' });
  });

  it('suggests no field names nor enum values in errors, since the schema is not to be read there', async () => {
    const r = await gql(t.url, '{ federationPin { status } }');
    expect(r.status).toBe(400);
    expect(r.body.errors[0].message).toBe('Cannot query field "federationPin" on type "Query".');
    const arg = await gql(t.url, '{ terms(limt: 3) { total } }');
    expect(arg.body.errors[0].message).not.toMatch(/Did you mean|limit/);
    // Nor enum values, as a literal or through a variable, on /graphql and on REST.
    const literal = await gql(t.url, 'mutation { createApiToken(input: { name: "x", scope: writ }) { id } }');
    expect(literal.status).toBe(400);
    expect(literal.body.errors[0].message).not.toMatch(/Did you mean|"write"/);
    const variable = await gql(t.url, 'mutation ($i: CreateApiTokenInput!) { createApiToken(input: $i) { id } }', { i: { name: 'x', scope: 'writ' } });
    expect(variable.body.errors[0].message).not.toMatch(/Did you mean|"write"/);
    const user = await createUser(t);
    const rest = await call(t.url, 'POST', '/v1/user/tokens', { token: user.accessToken, body: { name: 'x', scope: 'writ' } });
    expect(rest.status).toBe(400);
    expect(rest.body.error).not.toMatch(/Did you mean|"write"/);
  });

  it('serves neither /docs nor the GraphiQL page by default', async () => {
    for (const [url, accept] of [
      ['/docs', 'text/html'],
      ['/docs/assets/swagger-ui.css', '*/*'],
      ['/graphql', 'text/html'],
    ] as const) {
      const r = await call(t.url, 'GET', url, { headers: { accept } });
      expect(r.status, url).toBe(404);
      expect(r.body, url).toEqual({ error: expect.any(String) });
    }
  });

  it('asks browsers to use https only', async () => {
    const r = await call(t.url, 'GET', '/health');
    expect(r.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
  });
});
