import 'reflect-metadata';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { configFrom, engineEnvFromProcess, type Config, type EnvName } from '../config.js';
import { createApp, type App, type AppOptions } from '../../gateway/app.js';
import { OpenApiValidator } from '../../rest-compat/openapi/validator.js';

/**
 * The OpenAPI document of each running test app, by base URL: `call` holds every response it receives to the
 * document, so an undocumented status, a wrong nullability or format fails the test that met it.
 */
const contracts = new Map<string, OpenApiValidator>();

export interface TestApp {
  app: App;
  config: Config;
  /** Base URL of the listening server, e.g. http://127.0.0.1:34567 */
  url: string;
  /** Stops the server and keeps its data (for restart tests). */
  stop(): Promise<void>;
  /** Stops the server and deletes its data. */
  close(): Promise<void>;
}

export interface TestEngines {
  env: Partial<Record<EnvName, string>>;
  dataDir: string;
  drop(): Promise<void>;
}

let counter = 0;

/**
 * Fresh engines for one test file: a temporary data directory (PGlite, chDB, objects) and, in server mode, a new
 * PostgreSQL database and a new ClickHouse database, so test files can run side by side.
 */
export async function createTestEngines(): Promise<TestEngines> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'neurodata-test-'));
  const env: Partial<Record<EnvName, string>> = { ...engineEnvFromProcess(), DATA_DIR: dataDir };
  const suffix = `${process.pid}_${Date.now().toString(36)}_${counter++}`;
  let dropDb: (() => Promise<void>) | undefined;
  if (env.DATABASE_URL) {
    const adminUrl = env.DATABASE_URL;
    const dbName = `nd_test_${suffix}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${dbName}`;
    env.DATABASE_URL = url.toString();
    dropDb = async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await c.end();
    };
  }
  if (env.CLICKHOUSE_URL) env.CLICKHOUSE_DATABASE = `nd_test_${suffix}`;
  return {
    env,
    dataDir,
    async drop() {
      await dropDb?.();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Starts the whole service on a random loopback port, on fresh engines unless `engines` is given. */
export async function startTestApp(
  overrides: Partial<Record<EnvName, string>> = {},
  opts: AppOptions & { engines?: TestEngines } = {},
): Promise<TestApp & { engines: TestEngines }> {
  const engines = opts.engines ?? (await createTestEngines());
  // Test files create many users from one address, and some never let their clock refill the password-check
  // budget; the tests of that budget set their own.
  // Publishing the shipped datasets takes seconds; the tests that need them turn it on.
  const config = configFrom({ LOG_LEVEL: 'silent', NODE_ENV: 'test', PASSWORD_CHECK_BURST: '100000', SEED_DATASETS: 'false', ...engines.env, ...overrides });
  const app = await createApp(config, opts);
  await app.http.listen({ host: '127.0.0.1', port: 0 });
  const address = app.http.server.address() as { port: number };
  const url = `http://127.0.0.1:${address.port}`;
  contracts.set(url, new OpenApiValidator(app.openapi));
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    contracts.delete(url);
    await app.close();
  };
  return {
    app,
    config,
    engines,
    url,
    stop,
    async close() {
      await stop();
      if (!opts.engines) await engines.drop();
    },
  };
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
  const res = await fetch(`${base}${url}`, {
    method,
    headers,
    body: opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : opts.body instanceof Uint8Array ? new Uint8Array(opts.body) : JSON.stringify(opts.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: keep the text */
  }
  const contract = contracts.get(base);
  if (contract) {
    const problems = contract.responseProblems(method, new URL(url, base).pathname, res.status, res.headers.get('content-type'), body);
    if (problems.length) throw new Error(`the response breaks /openapi.json:\n${problems.slice(0, 5).join('\n')}\nbody: ${text.slice(0, 500)}`);
  }
  return { status: res.status, headers: res.headers, body };
}


/** Runs a GraphQL operation against /graphql. */
export async function gql(base: string, query: string, variables: Record<string, unknown> = {}, token?: string) {
  return call(base, 'POST', '/graphql', { body: { query, variables }, token });
}
