import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import net from 'node:net';
import http from 'node:http';
import { brotliCompressSync, deflateSync, gunzipSync, gzipSync } from 'node:zlib';
import { startTestApp, call, type TestApp } from '../kit/app.js';
import { paserkSecret } from '../kit/keys.js';
import { createUser } from '../kit/users.js';
import { isUuidV7 } from '../../lib/ids.js';

/** A TCP server that accepts connections and never answers: a component that hangs. */
async function blackHole(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => sockets.add(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

describe('request pipeline', () => {
  let t: TestApp;
  // On a port: the preflight and the compressed answers are checked as a client receives them.
  beforeAll(async () => {
    t = await startTestApp({}, { listen: true });
  });
  afterAll(async () => t?.close());

  it('gives every response a fresh UUID v7 request id and the api-version header', async () => {
    const a = await call(t.url, 'GET', '/health');
    const b = await call(t.url, 'GET', '/health');
    expect(isUuidV7(a.headers.get('x-request-id'))).toBe(true);
    expect(isUuidV7(b.headers.get('x-request-id'))).toBe(true);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
    expect(a.headers.get('api-version')).toBe('v1');
  });

  it('ignores a request id sent by the client', async () => {
    const r = await call(t.url, 'GET', '/health', { headers: { 'x-request-id': '01890a5d-ac96-774b-bcce-b302099a8057' } });
    expect(r.headers.get('x-request-id')).not.toBe('01890a5d-ac96-774b-bcce-b302099a8057');
  });

  it('answers an unknown route with 404, the error body and the pipeline headers', async () => {
    const r = await call(t.url, 'GET', '/v1/no/such/route');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: expect.stringContaining('/v1/no/such/route') });
    expect(r.headers.get('api-version')).toBe('v1');
    expect(isUuidV7(r.headers.get('x-request-id'))).toBe(true);
  });

  it('answers malformed JSON with 400 and exactly one error field', async () => {
    const r = await call(t.url, 'POST', '/graphql', { body: '{"query": ', headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(400);
    expect(Object.keys(r.body)).toEqual(['error']);
    expect(r.body.error).toMatch(/JSON/);
    expect(r.headers.get('api-version')).toBe('v1');
  });

  it('reads a gzip, deflate or br JSON body, refuses one that does not decompress with 400 and an unknown encoding with 415', async () => {
    const query = JSON.stringify({ query: '{ __typename }' });
    for (const [encoding, encode] of Object.entries({ gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync })) {
      const ok = await call(t.url, 'POST', '/graphql', { body: encode(Buffer.from(query)), headers: { 'content-type': 'application/json', 'content-encoding': encoding } });
      expect(ok.status, encoding).toBe(200);
      expect(ok.body.data).toEqual({ __typename: 'Query' });
    }
    const whole = gzipSync(Buffer.from(query));
    const corrupt: Array<[string, Uint8Array]> = [
      ['gzip', Buffer.from('{"query": "not gzip"}')],
      ['gzip', whole.subarray(0, whole.length - 6)],
      ['deflate', Buffer.from('{"query": "not deflate"}')],
      ['br', Buffer.alloc(64, 0xff)],
    ];
    for (const [encoding, body] of corrupt) {
      for (const path of ['/graphql', '/v1/user/auth/login']) {
        const r = await call(t.url, 'POST', path, { body, headers: { 'content-type': 'application/json', 'content-encoding': encoding } });
        expect(r.status, `${path} ${encoding}: ${JSON.stringify(r.body)}`).toBe(400);
        expect(r.body.error).toMatch(new RegExp(`Content-Encoding ${encoding}`));
      }
    }
    const unknown = await call(t.url, 'POST', '/graphql', { body: query, headers: { 'content-type': 'application/json', 'content-encoding': 'compress' } });
    expect(unknown.status).toBe(415);
    expect(unknown.body.error).toMatch(/Content-Encoding "compress".*gzip, deflate, br/);
  });

  it('is permissive with CORS outside production', async () => {
    const r = await call(t.url, 'GET', '/health', { headers: { origin: 'http://localhost:3000' } });
    expect(r.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    const pre = await fetch(`${t.url}/graphql`, { method: 'OPTIONS', headers: { origin: 'https://lab.example.org', 'access-control-request-method': 'POST' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('https://lab.example.org');
  });

  it('compresses a large response when the client asks for br or gzip', async () => {
    for (const encoding of ['br', 'gzip']) {
      const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
        http.get(`${t.url}/openapi.json`, { headers: { 'accept-encoding': encoding } }, resolve).on('error', reject),
      );
      res.resume();
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['api-version']).toBe('v1');
    }
    const plain = await new Promise<http.IncomingMessage>((resolve, reject) => http.get(`${t.url}/openapi.json`, resolve).on('error', reject));
    plain.resume();
    expect(plain.headers['content-encoding']).toBeUndefined();
  });

  it('sends a large operation answer whole, with its length in bytes, plain or compressed', async () => {
    const get = (path: string, headers: Record<string, string>) =>
      new Promise<{ res: http.IncomingMessage; body: Buffer }>((resolve, reject) =>
        http
          .get(`${t.url}${path}`, { headers }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ res, body: Buffer.concat(chunks) }));
          })
          .on('error', reject),
      );
    // Over a hundred kilobytes of JSON: sent as bytes rather than as a string (lib/json-body.ts).
    const plain = await get('/v1/ontology/terms?limit=1000&include_deprecated=true', {});
    expect(plain.res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(plain.res.headers['content-length'])).toBe(plain.body.length);
    const page = JSON.parse(plain.body.toString('utf8')) as { items: { label: string }[]; total: number };
    expect(page.items).toHaveLength(Math.min(1000, page.total));
    expect(plain.body.length).toBeGreaterThan(100_000);
    const gzipped = await get('/v1/ontology/terms?limit=1000&include_deprecated=true', { 'accept-encoding': 'gzip' });
    expect(gzipped.res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.body).equals(plain.body)).toBe(true);
    const query = `{ terms(limit: 1000) { total items { id label synonyms } } }`;
    const viaGraphql = await call(t.url, 'POST', '/graphql', { body: JSON.stringify({ query }), headers: { 'content-type': 'application/json' } });
    expect(viaGraphql.status).toBe(200);
    expect((viaGraphql.body as { data: { terms: { items: unknown[] } } }).data.terms.items).toHaveLength(Math.min(1000, page.total));
  });
});

describe('request pipeline limits', () => {
  it('answers 429 with Retry-After and RateLimit headers when the bucket is empty', async () => {
    const t = await startTestApp({ RATE_LIMIT_BURST: '3', RATE_LIMIT_REFILL_PER_SEC: '0.01' });
    try {
      const statuses: number[] = [];
      let last;
      for (let i = 0; i < 5; i++) {
        last = await call(t.url, 'GET', '/v1/federation/ping');
        statuses.push(last.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      expect(last!.body).toEqual({ error: expect.stringMatching(/rate limit/) });
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(last!.headers.get('ratelimit-limit')).toBe('3');
      expect(last!.headers.get('ratelimit-remaining')).toBe('0');
      expect(last!.headers.get('api-version')).toBe('v1');
      expect(isUuidV7(last!.headers.get('x-request-id'))).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('answers 413 for a body over the limit without waiting for the rest of it', async () => {
    // On a port: the early answer to a body still on its way is a matter of the socket.
    const t = await startTestApp({ BODY_LIMIT_BYTES: '1000' }, { listen: true });
    try {
      const big = await call(t.url, 'POST', '/graphql', { body: { query: `{ federationPing { status } }`, pad: 'x'.repeat(5000) } });
      expect(big.status).toBe(413);
      expect(big.body).toEqual({ error: expect.stringContaining('1000') });
      expect(big.headers.get('api-version')).toBe('v1');

      // Announce 50 MB, send 10 bytes: the answer must come without the rest of the body.
      const { port } = new URL(t.url);
      const answer = await new Promise<string>((resolve, reject) => {
        const s = net.connect(Number(port), '127.0.0.1', () => {
          s.write('POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 52428800\r\n\r\n{"query":');
        });
        let data = '';
        s.on('data', (d) => {
          data += d.toString();
          if (data.includes('\r\n\r\n') && data.includes('}')) {
            s.destroy();
            resolve(data);
          }
        });
        s.on('error', reject);
        setTimeout(() => reject(new Error('no answer before the body was complete')), 5000).unref();
      });
      expect(answer).toMatch(/^HTTP\/1\.1 413/);
      expect(answer).toContain('{"error":');

      // The limit holds for the decompressed body: a small gzip, deflate or br body that expands past it is 413.
      const expanded = Buffer.from(JSON.stringify({ query: '{ __typename }', pad: ' '.repeat(200_000) }));
      for (const [encoding, encode] of Object.entries({ gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync })) {
        const bomb = encode(expanded);
        expect(bomb.length).toBeLessThan(1000);
        const r = await call(t.url, 'POST', '/graphql', { body: bomb, headers: { 'content-type': 'application/json', 'content-encoding': encoding } });
        expect(r.status, encoding).toBe(413);
        expect(r.body.error).toMatch(/1000 bytes.*decompressed/);
      }
    } finally {
      await t.close();
    }
  });

  it('holds callers without a valid token (none, or one that does not verify) to a smaller body limit than signed-in callers, compressed or not', async () => {
    const t = await startTestApp({ BODY_LIMIT_BYTES_ANONYMOUS: '20000' });
    try {
      const user = await createUser(t);
      const body = { query: '{ __typename }', pad: 'x'.repeat(50_000) };
      const anonymous = await call(t.url, 'POST', '/graphql', { body });
      expect(anonymous.status).toBe(413);
      expect(anonymous.body.error).toMatch(/20000 bytes for callers without a valid token \(BODY_LIMIT_BYTES_ANONYMOUS.*sign in/);
      const zipped = await call(t.url, 'POST', '/graphql', { body: gzipSync(Buffer.from(JSON.stringify(body))), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
      expect(zipped.status).toBe(413);
      expect(zipped.body.error).toContain('BODY_LIMIT_BYTES_ANONYMOUS');
      const signedIn = await call(t.url, 'POST', '/graphql', { body, headers: { authorization: `Bearer ${user.accessToken}` } });
      expect(signedIn.status).toBe(200);
      expect(signedIn.body.data).toEqual({ __typename: 'Query' });
      // Any Authorization header is not a token: a caller whose token does not verify has the anonymous budget.
      for (const authorization of ['Bearer x', `Bearer ${user.accessToken}x`, 'Basic eDp5']) {
        const wrong = await call(t.url, 'POST', '/graphql', { body, headers: { authorization } });
        expect(wrong.status, authorization).toBe(413);
        expect(wrong.body.error, authorization).toContain('BODY_LIMIT_BYTES_ANONYMOUS');
        const wrongZipped = await call(t.url, 'POST', '/v1/ontology/terms/validate', {
          body: gzipSync(Buffer.from(JSON.stringify({ terms: Array.from({ length: 5000 }, (_, i) => `term ${i}`) }))),
          headers: { authorization, 'content-type': 'application/json', 'content-encoding': 'gzip' },
        });
        expect(wrongZipped.status, authorization).toBe(413);
      }
    } finally {
      await t.close();
    }
  });

  it('answers 408 when the request exceeds the configured timeout, and aborts the work', async () => {
    const hole = await blackHole();
    const t = await startTestApp({ REQUEST_TIMEOUT_MS: '300', HEALTH_TIMEOUT_MS: '20000', TYPESENSE_URL: hole.url, TYPESENSE_API_KEY: 'k' });
    try {
      const started = Date.now();
      const r = await call(t.url, 'GET', '/health');
      expect(r.status).toBe(408);
      expect(r.body).toEqual({ error: expect.stringContaining('300 ms') });
      expect(r.headers.get('api-version')).toBe('v1');
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      await t.close();
      await hole.close();
    }
  });

  it('allows only the configured origin in production', async () => {
    const t = await startTestApp({ NODE_ENV: 'production', API_DOMAIN: 'https://neurodata.example.org', TOKEN_SECRET_KEY: paserkSecret() });
    try {
      const good = await call(t.url, 'GET', '/health', { headers: { origin: 'https://neurodata.example.org' } });
      expect(good.headers.get('access-control-allow-origin')).toBe('https://neurodata.example.org');
      const bad = await call(t.url, 'GET', '/health', { headers: { origin: 'https://elsewhere.example.com' } });
      expect(bad.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await t.close();
    }
  });
});
