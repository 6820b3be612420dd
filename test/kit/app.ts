import 'reflect-metadata';
import { gunzipSync, inflateSync } from 'node:zlib';
import type { InjectOptions } from 'fastify';
import { configFrom, type Config, type EnvName } from '../../lib/config.js';
import { createApp, type App, type AppOptions } from '../../gateway/app.js';
import { OpenApiValidator } from '../../rest-compat/openapi/validator.js';
import { createTestEngines, type TestEngines } from './engines.js';

export { createTestEngines, type TestEngines };

/**
 * The OpenAPI document of each running test app, by base URL: `call` holds every response it receives to the
 * document, so an undocumented status, a wrong nullability or format fails the test that met it.
 */
const contracts = new Map<string, OpenApiValidator>();

/** Apps that answer without a socket, by their pseudo-origin (`http://in-process-<n>.test`). */
const inProcess = new Map<string, App>();

/** Validators by document: a suite that starts many apps with the same document compiles it once. */
const validators = new Map<string, OpenApiValidator>();
function validatorFor(openapi: Record<string, unknown>): OpenApiValidator {
  const key = JSON.stringify(openapi);
  let v = validators.get(key);
  if (!v) validators.set(key, (v = new OpenApiValidator(openapi)));
  return v;
}

export interface TestApp {
  app: App;
  config: Config;
  /**
   * Base URL for `call` and `gql`: a pseudo-origin such as http://in-process-3.test that they answer through
   * `app.http.inject()`, or, with `listen: true`, the loopback address of a listening server.
   */
  url: string;
  /** Stops the server and keeps its data (for restart tests). */
  stop(): Promise<void>;
  /** Stops the server and deletes its data. */
  close(): Promise<void>;
}

export interface StartOptions extends AppOptions {
  /** Engines to start on (a restart test passes the engines of the app it stopped); fresh ones by default. */
  engines?: TestEngines;
  /**
   * Listen on a random loopback port, for tests about the socket itself (streaming, ranges, aborts, CORS and
   * compression on the wire, remote subgraphs, spawned processes, browsers and curl). Without it the app answers
   * `call` and `gql` in-process.
   */
  listen?: boolean;
  /**
   * With `listen`, the port to listen on instead of a random one: for a test whose configuration must name the
   * app's own address before it starts (PUBLIC_URL, which login providers send browsers back to). Take it from
   * `freePort()`.
   */
  port?: number;
}

let appCounter = 0;

/**
 * Apps started and not yet stopped. Test files share worker processes (vitest's isolate off), and chDB opens one
 * data directory per process at a time: an app a failed test left running would break the next file's apps.
 */
const running = new Set<() => Promise<void>>();

/** Counts `close` among the apps running until it is called (the subgraph tier's servers are counted too). */
export function trackRunning(close: () => Promise<void>): { untrack(): void } {
  running.add(close);
  return { untrack: () => running.delete(close) };
}

/** Closes the apps a test file left running (the kit's setup calls it after each file). */
export async function closeLeftoverApps(): Promise<void> {
  const left = [...running];
  running.clear();
  await Promise.allSettled(left.map((close) => close()));
}

/**
 * The configuration of a test app or subgraph on `engines`: quiet, NODE_ENV=test; no shipped datasets (publishing
 * them takes seconds: the tests that need them turn it on); a password-check budget no test file exhausts from its
 * one address, though some never let their clock refill it (the tests of that budget set their own).
 */
export function testConfig(engines: TestEngines, overrides: Partial<Record<EnvName, string>> = {}): Config {
  return configFrom({ LOG_LEVEL: 'silent', NODE_ENV: 'test', PASSWORD_CHECK_BURST: '100000', SEED_DATASETS: 'false', ...engines.env, ...overrides });
}

/** Starts the whole service on fresh engines (unless `engines` is given), in-process unless `listen` is set. */
export async function startTestApp(
  overrides: Partial<Record<EnvName, string>> = {},
  opts: StartOptions = {},
): Promise<TestApp & { engines: TestEngines }> {
  const { engines: given, listen, port, ...appOptions } = opts;
  const engines = given ?? (await createTestEngines());
  const config = testConfig(engines, overrides);
  const app = await createApp(config, appOptions);
  let url: string;
  if (listen) {
    await app.http.listen({ host: '127.0.0.1', port: port ?? 0 });
    const address = app.http.server.address() as { port: number };
    url = `http://127.0.0.1:${address.port}`;
  } else {
    await app.http.ready();
    url = `http://in-process-${process.pid}-${appCounter++}.test`;
    inProcess.set(url, app);
  }
  contracts.set(url, validatorFor(app.openapi));
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    running.delete(close);
    contracts.delete(url);
    inProcess.delete(url);
    await app.close();
  };
  const close = async () => {
    await stop();
    if (!given) await engines.drop();
  };
  running.add(close);
  return { app, config, engines, url, stop, close };
}

/** Whether `base` is an app started without a socket (its URL works with `call` and `gql`, not with `fetch`). */
export function isInProcess(base: string): boolean {
  return inProcess.has(base);
}

interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * What `fetch` sends and does, without a socket: its default request headers, following redirects within the
 * origin, and decoding gzip and deflate bodies; so a test sees the same status, headers and body either way.
 */
async function injectLikeFetch(app: App, base: string, method: string, url: string, headers: Record<string, string>, body: string | Uint8Array | undefined): Promise<RawResponse> {
  for (let redirects = 0; ; redirects++) {
    const target = new URL(url, base);
    const request: InjectOptions = {
      method: method as InjectOptions['method'],
      url: target.pathname + target.search,
      headers: {
        host: target.host,
        accept: '*/*',
        'accept-language': '*',
        'sec-fetch-mode': 'cors',
        'user-agent': 'node',
        'accept-encoding': 'gzip, deflate',
        ...lowerCaseKeys(headers),
      },
      payload: body === undefined ? undefined : typeof body === 'string' ? body : Buffer.from(body),
      remoteAddress: '127.0.0.1',
    };
    const res = await app.http.inject(request);
    const location = res.headers.location;
    if (res.statusCode >= 300 && res.statusCode < 400 && typeof location === 'string' && redirects < 20) {
      const next = new URL(location, target);
      if (next.origin !== target.origin) throw new Error(`${method} ${url} redirects to ${next.origin}, outside the in-process app: start it with { listen: true }`);
      // fetch turns a redirected POST into a GET for 301-303 and keeps it for 307 and 308.
      if (res.statusCode === 303 || ((res.statusCode === 301 || res.statusCode === 302) && method === 'POST')) {
        if (method !== 'HEAD') method = 'GET';
        body = undefined;
        delete headers['content-type'];
      }
      url = next.pathname + next.search;
      continue;
    }
    const out = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) out.append(name, String(v));
    }
    const encoding = (out.get('content-encoding') ?? '').trim().toLowerCase();
    const raw = res.rawPayload;
    const decoded = method === 'HEAD' || raw.length === 0 ? raw : encoding === 'gzip' || encoding === 'x-gzip' ? gunzipSync(raw) : encoding === 'deflate' ? inflateSync(raw) : raw;
    return { status: res.statusCode, headers: out, text: decoded.toString('utf8') };
  }
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

/** JSON request helper for HTTP tests: returns status, headers and the parsed body. */
export async function call(
  base: string,
  method: string,
  url: string,
  opts: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  // Bytes (a compressed body) are sent as they are; strings as text; anything else as JSON.
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const payload = opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : opts.body instanceof Uint8Array ? new Uint8Array(opts.body) : JSON.stringify(opts.body);
  const app = inProcess.get(base);
  let res: RawResponse;
  if (app) {
    res = await injectLikeFetch(app, base, method, url, headers, payload);
  } else {
    const r = await fetch(`${base}${url}`, { method, headers, body: payload });
    res = { status: r.status, headers: r.headers, text: await r.text() };
  }
  const { text } = res;
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: keep the text */
  }
  const contract = contracts.get(base);
  if (contract) {
    const problems = contract.responseProblems(method, new URL(url, base).pathname, res.status, res.headers.get('content-type'), body, (name) => res.headers.get(name));
    if (problems.length) throw new Error(`the response breaks /openapi.json:\n${problems.slice(0, 5).join('\n')}\nbody: ${text.slice(0, 500)}`);
  }
  return { status: res.status, headers: res.headers, body };
}

/** Runs a GraphQL operation against /graphql. */
export async function gql(base: string, query: string, variables: Record<string, unknown> = {}, token?: string) {
  return call(base, 'POST', '/graphql', { body: { query, variables }, token });
}
