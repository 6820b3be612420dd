import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OutboundClient, OutboundError, type OutboundOptions } from '../outbound/client.js';
import { addressProblem, checkBaseUrl, policyProblems, resolveChecked, type UrlPolicy } from '../outbound/url-policy.js';

const strict: UrlPolicy = { allowedHosts: [], allowedNetworks: [], allowHttp: false };
const local: UrlPolicy = { allowedHosts: [], allowedNetworks: ['127.0.0.0/8'], allowHttp: true };

describe('checkBaseUrl', () => {
  it('normalises an https base URL and keeps its path as a prefix without the trailing slash', () => {
    expect(checkBaseUrl('https://A.Example.org/', strict)).toEqual({ ok: true, url: 'https://a.example.org' });
    expect(checkBaseUrl('https://a.example.org/neuro/', strict)).toEqual({ ok: true, url: 'https://a.example.org/neuro' });
    expect(checkBaseUrl('https://a.example.org:8443', strict)).toEqual({ ok: true, url: 'https://a.example.org:8443' });
  });

  it('refuses port 0, which no cluster can listen on, and names the accepted ports', () => {
    for (const raw of ['https://a.example.org:0', 'https://a.example.org:00/neuro', 'http://127.0.0.1:0']) {
      expect(checkBaseUrl(raw, local), raw).toEqual({ ok: false, reason: expect.stringContaining('port must be between 1 and 65535') });
    }
  });

  it('refuses http unless FEDERATION_ALLOW_HTTP is set', () => {
    const refused = checkBaseUrl('http://a.example.org', strict);
    expect(refused).toMatchObject({ ok: false, reason: expect.stringContaining('FEDERATION_ALLOW_HTTP') });
    expect(checkBaseUrl('http://a.example.org', { ...strict, allowHttp: true })).toEqual({
      ok: true,
      url: 'http://a.example.org',
    });
  });

  it('refuses other schemes, credentials, queries, fragments and text that is not a URL', () => {
    for (const raw of [
      'ftp://a.example.org',
      'file:///etc/passwd',
      'https://user:secret@a.example.org',
      'https://user@a.example.org',
      'https://a.example.org/?x=1',
      'https://a.example.org/?',
      'https://a.example.org/#frag',
      'https://a.example.org#',
      'not a url',
      '/relative/path',
    ]) {
      expect(checkBaseUrl(raw, strict), raw).toMatchObject({ ok: false });
    }
  });

  it('matches allowed hosts exactly and *.domain patterns on sub-domains only', () => {
    const policy = { ...strict, allowedHosts: ['*.example.org', 'cluster.other.net'] };
    expect(checkBaseUrl('https://x.example.org', policy).ok).toBe(true);
    expect(checkBaseUrl('https://a.b.example.org', policy).ok).toBe(true);
    expect(checkBaseUrl('https://cluster.other.net', policy).ok).toBe(true);
    const bare = checkBaseUrl('https://example.org', policy);
    expect(bare).toMatchObject({ ok: false, reason: expect.stringContaining('FEDERATION_ALLOWED_HOSTS') });
    expect(checkBaseUrl('https://badexample.org', policy).ok).toBe(false);
    expect(checkBaseUrl('https://x.other.net', policy).ok).toBe(false);
  });

  it('refuses IP literals of loopback, metadata and private addresses in every spelling', () => {
    for (const raw of [
      'https://127.0.0.1',
      'https://2130706433',
      'https://0x7f.1',
      'https://[::1]',
      'https://[::ffff:127.0.0.1]',
      'https://[::ffff:10.0.0.1]',
      'https://169.254.169.254',
      'https://[fe80::1]',
      'https://0.0.0.0',
    ]) {
      expect(checkBaseUrl(raw, strict), raw).toMatchObject({
        ok: false,
        reason: expect.stringContaining('FEDERATION_ALLOWED_NETWORKS'),
      });
    }
    expect(checkBaseUrl('https://93.184.215.14', strict).ok).toBe(true);
    expect(checkBaseUrl('http://127.0.0.1:8080/', local)).toEqual({ ok: true, url: 'http://127.0.0.1:8080' });
  });
});

describe('addressProblem', () => {
  it('refuses loopback by default and allows it inside FEDERATION_ALLOWED_NETWORKS', () => {
    expect(addressProblem('127.0.0.1', strict)).toMatch(/loopback/);
    expect(addressProblem('::1', strict)).toMatch(/loopback/);
    expect(addressProblem('127.0.0.1', local)).toBeNull();
    expect(addressProblem('::1', { ...strict, allowedNetworks: ['::1/128'] })).toBeNull();
  });

  it('refuses the cloud metadata address and other non-public ranges', () => {
    expect(addressProblem('169.254.169.254', strict)).toMatch(/link-local/);
    expect(addressProblem('10.1.2.3', strict)).toMatch(/private/);
    expect(addressProblem('172.31.0.1', strict)).toMatch(/private/);
    expect(addressProblem('192.168.1.1', strict)).toMatch(/private/);
    expect(addressProblem('100.64.0.1', strict)).toMatch(/carrier-grade/);
    expect(addressProblem('224.0.0.1', strict)).toMatch(/multicast/);
    expect(addressProblem('255.255.255.255', strict)).toMatch(/broadcast/);
    expect(addressProblem('240.0.0.1', strict)).toMatch(/reserved/);
    expect(addressProblem('0.0.0.0', strict)).toMatch(/unspecified/);
    expect(addressProblem('::', strict)).toMatch(/unspecified/);
    expect(addressProblem('fd00::1', strict)).toMatch(/private/);
    expect(addressProblem('fe80::1%eth0', strict)).toMatch(/link-local/);
    expect(addressProblem('ff02::1', strict)).toMatch(/multicast/);
    expect(addressProblem('64:ff9b::a00:1', strict)).toMatch(/translation/);
  });

  it('reads an IPv4-mapped IPv6 address as the IPv4 address it stands for', () => {
    expect(addressProblem('::ffff:10.0.0.1', strict)).toMatch(/^10\.0\.0\.1 is a private address/);
    expect(addressProblem('::ffff:7f00:1', strict)).toMatch(/^127\.0\.0\.1 is a loopback/);
    expect(addressProblem('::ffff:127.0.0.1', local)).toBeNull();
  });

  it('allows public addresses and refuses text that is not an address', () => {
    expect(addressProblem('93.184.215.14', strict)).toBeNull();
    expect(addressProblem('2606:2800:21f:cb07:6820:80da:af6b:8b2c', strict)).toBeNull();
    expect(addressProblem('example.org', strict)).toMatch(/not an IP address/);
  });

  it('skips allowed networks that are not CIDRs and policyProblems names them', () => {
    const policy = { ...strict, allowedNetworks: ['127.0.0.1', '10.0.0.0/33'], allowedHosts: ['Bad Host'] };
    expect(addressProblem('127.0.0.1', policy)).toMatch(/loopback/);
    expect(policyProblems(policy)).toHaveLength(3);
    expect(policyProblems(local)).toEqual([]);
  });
});

describe('resolveChecked', () => {
  it('refuses a host name that resolves to a loopback address', async () => {
    await expect(resolveChecked('localhost', strict)).rejects.toMatchObject({ code: 'ERR_FEDERATION_ADDRESS_REFUSED' });
  });
});

// ---- OutboundClient against real servers on 127.0.0.1 ----

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
interface TestServer {
  base: string;
  port: number;
  hits: number;
  server: Server;
}

const servers: Server[] = [];

async function serve(handler: Handler): Promise<TestServer> {
  const state = { hits: 0 } as TestServer;
  const server = createServer((req, res) => {
    state.hits++;
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => handler(req, res, body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.server = server;
  state.port = (server.address() as AddressInfo).port;
  state.base = `http://127.0.0.1:${state.port}`;
  return state;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

function client(overrides: Partial<OutboundOptions> = {}): OutboundClient {
  return new OutboundClient({
    policy: local,
    timeoutMs: 2_000,
    maxResponseBytes: 64 * 1024,
    retries: 0,
    userAgent: 'neurodata-test/1',
    ...overrides,
  });
}

async function failure(promise: Promise<unknown>): Promise<OutboundError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OutboundError);
  return err as OutboundError;
}

describe(OutboundClient.name, () => {
  it('posts the query as JSON to {base}/graphql and returns data, errors, status and size', async () => {
    let seen: { method?: string; url?: string; headers?: IncomingMessage['headers']; body?: string } = {};
    const target = await serve((req, res, body) => {
      seen = { method: req.method, url: req.url, headers: req.headers, body };
      json(res, 200, { data: { ping: 'pong' }, errors: [{ message: 'partial', extensions: { code: 'X' } }] });
    });

    const answer = await client().graphql<{ ping: string }>(`${target.base}/neuro/`, '{ ping }', { a: 1 }, {
      headers: { 'x-request-id': 'r1', host: 'evil.example.org' },
    });

    expect(answer.data).toEqual({ ping: 'pong' });
    expect(answer.errors).toEqual([{ message: 'partial', extensions: { code: 'X' } }]);
    expect(answer.status).toBe(200);
    expect(answer.bytes).toBeGreaterThan(0);
    expect(answer.latencyMs).toBeGreaterThanOrEqual(0);
    expect(answer.tls).toBeNull();
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe('/neuro/graphql');
    expect(seen.headers?.['content-type']).toBe('application/json');
    expect(seen.headers?.accept).toBe('application/json');
    expect(seen.headers?.['user-agent']).toBe('neurodata-test/1');
    expect(seen.headers?.['x-request-id']).toBe('r1');
    expect(seen.headers?.host).toBe(`127.0.0.1:${target.port}`);
    expect(JSON.parse(seen.body ?? '')).toEqual({ query: '{ ping }', variables: { a: 1 } });
  });

  it('returns a 4xx GraphQL answer with its errors and throws http for a 500', async () => {
    const bad = await serve((_req, res) => json(res, 400, { errors: [{ message: 'Cannot query field' }] }));
    const answer = await client().graphql(bad.base, '{ nope }');
    expect(answer).toMatchObject({ status: 400, data: null, errors: [{ message: 'Cannot query field' }] });

    const broken = await serve((_req, res) => json(res, 500, { errors: [{ message: 'boom' }] }));
    const err = await failure(client().graphql(broken.base, '{ ping }'));
    expect(err).toMatchObject({ kind: 'http', status: 500 });
  });

  it('refuses a redirect and does not follow it', async () => {
    const elsewhere = await serve((_req, res) => json(res, 200, { data: {} }));
    const redirecting = await serve((_req, res) => {
      res.writeHead(302, { location: `${elsewhere.base}/graphql` });
      res.end();
    });
    const err = await failure(client().graphql(redirecting.base, '{ ping }'));
    expect(err.kind).toBe('refused');
    expect(err.message).toMatch(/redirects are not followed/);
    expect(redirecting.hits).toBe(1);
    expect(elsewhere.hits).toBe(0);
  });

  it('times out a server that never answers', async () => {
    const silent = await serve(() => undefined);
    const started = Date.now();
    const err = await failure(client({ timeoutMs: 300 }).graphql(silent.base, '{ ping }'));
    expect(err.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('times out a server that sends its headers and then trickles the body', async () => {
    const trickle = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":');
      const timer = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(timer));
    });
    const err = await failure(client({ timeoutMs: 400 }).graphql(trickle.base, '{ ping }'));
    expect(err.kind).toBe('timeout');
  });

  it('stops reading a body larger than the limit', async () => {
    const huge = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(16 * 1024, 0x20);
      for (let i = 0; i < 64; i++) res.write(chunk);
      res.end();
    });
    const err = await failure(client().graphql(huge.base, '{ ping }'));
    expect(err.kind).toBe('too_large');
  });

  it('refuses a declared content-length above the limit before reading', async () => {
    const declared = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) });
      res.write('{');
    });
    const err = await failure(client().graphql(declared.base, '{ ping }'));
    expect(err.kind).toBe('too_large');
  });

  it('retries 503 answers and succeeds on the third attempt', async () => {
    const flaky = await serve((_req, res) => {
      if (flaky.hits <= 2) {
        res.writeHead(503, { 'retry-after': '0' });
        res.end('busy');
      } else json(res, 200, { data: { ping: 'pong' } });
    });
    const answer = await client({ retries: 2 }).graphql(flaky.base, '{ ping }');
    expect(answer.data).toEqual({ ping: 'pong' });
    expect(flaky.hits).toBe(3);
  });

  it('gives up with the last status when the retries run out', async () => {
    const down = await serve((_req, res) => {
      res.writeHead(503, { 'retry-after': '0' });
      res.end();
    });
    const err = await failure(client().graphql(down.base, '{ ping }', undefined, { retries: 1 }));
    expect(err).toMatchObject({ kind: 'http', status: 503 });
    expect(down.hits).toBe(2);
  });

  it('reports a body that is not JSON as bad_response and does not retry it', async () => {
    const html = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>hello</html>');
    });
    const err = await failure(client({ retries: 3 }).graphql(html.base, '{ ping }'));
    expect(err.kind).toBe('bad_response');
    expect(html.hits).toBe(1);
  });

  it('reports a closed port as unreachable', async () => {
    const gone = await serve(() => undefined);
    servers.splice(servers.indexOf(gone.server), 1);
    await new Promise((resolve) => gone.server.close(resolve));
    const err = await failure(client().graphql(gone.base, '{ ping }'));
    expect(err.kind).toBe('unreachable');
  });

  it('stops at once when the caller aborts, without retrying', async () => {
    const controller = new AbortController();
    // The caller gives up once the request has reached the server, which never answers.
    const silent = await serve(() => controller.abort());
    const err = await failure(
      client({ retries: 3, timeoutMs: 10_000 }).graphql(silent.base, '{ ping }', undefined, {
        signal: controller.signal,
      }),
    );
    expect(err.kind).toBe('aborted');
    expect(silent.hits).toBe(1);

    const already = await failure(client().graphql(silent.base, '{ ping }', undefined, { signal: controller.signal }));
    expect(already.kind).toBe('aborted');
  });

  it('refuses a base URL that the policy refuses, on every call', async () => {
    const target = await serve((_req, res) => json(res, 200, { data: {} }));
    const err = await failure(client({ policy: { ...local, allowHttp: false } }).graphql(target.base, '{ ping }'));
    expect(err.kind).toBe('refused');
    expect(target.hits).toBe(0);
  });

  it('refuses a host name that resolves to a loopback address when loopback is not allowed', async () => {
    const target = await serve((_req, res) => json(res, 200, { data: {} }));
    const policy = { ...strict, allowHttp: true };
    const err = await failure(client({ policy, retries: 2 }).graphql(`http://localhost:${target.port}`, '{ ping }'));
    expect(err.kind).toBe('refused');
    expect(err.message).toMatch(/localhost resolves to .*loopback/);
    expect(target.hits).toBe(0);
  });
});
