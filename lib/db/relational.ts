import path from 'node:path';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type pgTypes from 'pg';
import type { RelationalConfig } from '../config.js';
import { abortError, currentRequestScope, outsideRequestScope } from '../request-scope.js';
import { ServiceUnavailable, Timeout } from '../errors.js';
import { narrowModes } from '../data-dir.js';
import { FRESH_SESSION, StatementNames } from './statement-names.js';
import { DATABASE_UNREACHABLE, connectionLost } from './driver-errors.js';
import { packagePath } from '../package-root.js';

/** The Drizzle handle every store uses; the same type on PGlite and PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, Record<string, never>>;

export interface RelationalStore {
  readonly kind: 'pglite' | 'postgres';
  readonly db: Db;
  /** Applies the committed migrations; idempotent. */
  migrate(): Promise<void>;
  /** One real round trip. */
  ping(): Promise<void>;
  /**
   * Follows NOTIFY on `channel`, from any connection and any process, this one's included: `listener` gets
   * 'listening' once every later notice is sure to reach it, 'notice' for each one, and 'lost' when notices may have
   * been missed (the listening connection failed; it reconnects and says 'listening' again). Returns the unsubscribe.
   */
  subscribe(channel: string, listener: (event: ChannelEvent) => void): () => void;
  close(): Promise<void>;
}

export type ChannelEvent = 'listening' | 'notice' | 'lost';

export const MIGRATIONS_DIR = packagePath('migrations');
// Beside this module in both layouts: the build copies it into dist/lib/db/.
const WORKER_FILE = fileURLToPath(new URL('./pglite-worker.mjs', import.meta.url));

/**
 * The freshly initialised database the PGlite worker copies into a new data directory instead of running initdb
 * again (lib/db/pglite-worker.mjs). A cache beside the installed packages, one per PGlite version, holding nothing
 * but what initdb writes: it goes with a reinstall, and the service works the same (only slower) without it.
 */
export const PGLITE_TEMPLATE = packagePath('node_modules', '.cache', 'neurodata', `pglite-${pgliteVersion()}-initdb.tar`);

/** The folder of PGlite's entry point, where its WebAssembly files lie too. */
function pgliteDist(): string {
  return path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
}

function pgliteVersion(): string {
  // PGlite's exports map hides its package.json, so find it above the entry point.
  let dir = pgliteDist();
  for (; path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  }
  throw new Error('@electric-sql/pglite has no package.json');
}

/** Connections to a PostgreSQL server per process: the most statements one process runs there at once. */
export const POSTGRES_POOL_SIZE = 10;

/**
 * PostgreSQL or the embedded PGlite, both through node-postgres: PGlite runs in a worker thread behind a private
 * Unix socket (lib/db/pglite-worker.mjs), so its queries never run on the thread that serves requests, and one
 * driver, one set of type parsers and one cancellation path serve both engines. `pgliteTemplate` moves PGlite's
 * initdb template elsewhere (tests of it).
 */
export async function openRelational(cfg: RelationalConfig, opts: { pgliteTemplate?: string } = {}): Promise<RelationalStore> {
  if (cfg.kind === 'postgres') return openPool('postgres', { connectionString: cfg.url, max: POSTGRES_POOL_SIZE }, { stop: async () => {} });
  const embedded = await startPgliteWorker(cfg.dataDir, opts.pgliteTemplate ?? PGLITE_TEMPLATE);
  // PGlite serves one connection; the pool queues callers, so chunked heavy work and other requests take turns. A
  // transaction keeps the connection until it ends (a 60,000-term import: about 25 s), so callers wait in the queue
  // rather than fail after a few seconds; a caller whose request has meanwhile timed out sends nothing.
  return openPool(
    'pglite',
    { host: embedded.socketDir, port: 5432, user: 'postgres', database: 'postgres', max: 1, connectionTimeoutMillis: 10 * 60_000 },
    embedded,
  );
}

interface Engine {
  stop(): Promise<void>;
  /** A round trip to the engine's own thread, for when its one connection is busy. */
  ping?(): Promise<void>;
}

async function openPool(kind: RelationalStore['kind'], options: pgTypes.PoolConfig, engine: Engine): Promise<RelationalStore> {
  const pg = (await import('pg')).default;
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  const Pool = keepOnStatementErrors(pg);
  const pool = new Pool({ connectionTimeoutMillis: 5000, ...options, Client: abortableClient(pg, kind === 'postgres', new StatementNames()) });
  // An idle client that loses its server must not crash the process; the next query reports the failure.
  pool.on('error', () => {});
  const db = drizzle({ client: pool, casing: 'snake_case' }) as unknown as Db;
  const channels = kind === 'postgres' ? ownConnectionChannels(pg, options) : sharedConnectionChannels(pool);
  const pinger = kind === 'postgres' ? ownConnectionPing(pg, options) : undefined;
  return {
    kind,
    db,
    subscribe: channels.subscribe,
    migrate: () => migrate(db as never, { migrationsFolder: MIGRATIONS_DIR }),
    ping: async () => {
      if (pinger) return pinger.ping();
      // The embedded engine has one connection: while a transaction holds it, asking its thread proves it is alive
      // without waiting for the transaction to end.
      if (engine.ping && pool.idleCount === 0 && pool.totalCount >= (options.max ?? 1)) return engine.ping();
      // The pool's own query: the ping needs none of the ORM's statement building.
      await pool.query('/* ping */ select 1');
    },
    close: async () => {
      await channels.close();
      await pinger?.close();
      await pool.end();
      await engine.stop();
    },
  };
}

interface Channels {
  subscribe: RelationalStore['subscribe'];
  close(): Promise<void>;
}

/** A channel name as LISTEN takes it: an identifier, quoted. */
const listenStatement = (channel: string) => `LISTEN "${channel.replaceAll('"', '""')}"`;

/**
 * PostgreSQL: each channel is followed on a connection of its own, outside the pool (a pooled connection may be
 * closed while idle, and notices reach a connection only between its statements). When it fails, the listener is
 * told notices may be lost, and it reconnects with a growing pause.
 */
/**
 * Health pings on a connection of their own: the pool's may all be held by requests (ten aliases of one query, an
 * import's transaction), and a ping queued behind them would report a busy server as a slow one. A ping that finds
 * the previous one still unanswered gives up that connection; one that fails on a connection that had answered
 * before (closed by the server since: a restart, an idle timeout) tries once more on a new one.
 */
function ownConnectionPing(pg: typeof pgTypes, options: pgTypes.PoolConfig): { ping(): Promise<void>; close(): Promise<void> } {
  type Connection = { client: Promise<pgTypes.Client>; pending: boolean; answered: boolean };
  let current: Connection | undefined;
  const drop = (conn: Connection) => {
    if (current === conn) current = undefined;
    conn.client.then((c) => c.end()).catch(() => {});
  };
  const open = (): Connection => {
    const c = new pg.Client({ ...options, application_name: 'health check' });
    c.on('error', () => {});
    return { client: c.connect().then(() => c), pending: false, answered: false };
  };
  const once = async (): Promise<void> => {
    if (current?.pending) drop(current);
    const conn = (current ??= open());
    conn.pending = true;
    try {
      await (await conn.client).query('/* ping */ select 1');
      conn.pending = false;
      conn.answered = true;
    } catch (e) {
      drop(conn);
      if (!conn.answered) throw e;
      return once();
    }
  };
  return {
    ping: once,
    async close() {
      if (current) drop(current);
    },
  };
}

function ownConnectionChannels(pg: typeof pgTypes, options: pgTypes.PoolConfig): Channels {
  const stops = new Set<() => Promise<void>>();
  return {
    subscribe(channel, listener) {
      let client: pgTypes.Client | undefined;
      let stopped = false;
      let failures = 0;
      let timer: NodeJS.Timeout | undefined;
      const retry = () => {
        if (!stopped) timer = setTimeout(connect, Math.min(30_000, 250 * 2 ** failures++)).unref();
      };
      const connect = async () => {
        const c = new pg.Client(options);
        c.on('error', () => {});
        c.on('notification', (n) => {
          if (n.channel === channel) listener('notice');
        });
        c.on('end', () => {
          if (client !== c) return;
          client = undefined;
          listener('lost');
          retry();
        });
        try {
          await c.connect();
          await c.query(listenStatement(channel));
          if (stopped) return void c.end().catch(() => {});
          client = c;
          failures = 0;
          listener('listening');
        } catch {
          c.end().catch(() => {});
          retry();
        }
      };
      void connect();
      const stop = async () => {
        stopped = true;
        clearTimeout(timer);
        stops.delete(stop);
        const c = client;
        client = undefined;
        await c?.end().catch(() => {});
      };
      stops.add(stop);
      return () => void stop();
    },
    close: async () => {
      await Promise.all([...stops].map((stop) => stop()));
    },
  };
}

/**
 * PGlite: its one connection serves everything, this process is the only one that reaches the database, and a
 * session is sent its own notices. So every connection the pool opens listens before its first statement, and a
 * notice arrives with the answer to the statement that committed it, before its caller resumes.
 */
function sharedConnectionChannels(pool: pgTypes.Pool): Channels {
  const listeners = new Map<string, Set<(event: ChannelEvent) => void>>();
  pool.on('connect', (client) => {
    // Outside any request's scope: a request that is aborted must not stop the connection from listening.
    for (const channel of listeners.keys()) outsideRequestScope(() => client.query(listenStatement(channel))).catch(() => {});
    client.on('notification', (n) => {
      for (const listener of listeners.get(n.channel) ?? []) listener('notice');
    });
  });
  return {
    subscribe(channel, listener) {
      let set = listeners.get(channel);
      if (!set) listeners.set(channel, (set = new Set()));
      set.add(listener);
      // Through the pool: the connection open now, or the next one (which also listens as it opens).
      outsideRequestScope(() => pool.query(listenStatement(channel))).then(
        () => set.has(listener) && listener('listening'),
        () => undefined,
      );
      return () => void set.delete(listener);
    },
    close: async () => listeners.clear(),
  };
}

/**
 * Errors that leave the connection usable: one the server answered for a statement (it carries a SQLSTATE, e.g. a
 * unique violation or the query_canceled of an aborted request), or the refusal to send a statement for a request
 * already gone.
 */
function connectionSurvives(e: unknown): boolean {
  if (e instanceof Timeout) return true;
  const code = (e as { code?: unknown } | null)?.code;
  return e instanceof Error && typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && 'severity' in e;
}

/**
 * A pool whose `query` keeps its connection after a statement fails (a unique violation, a division by zero):
 * node-postgres's own closes the connection after any error. Reconnecting costs a round of authentication on
 * PostgreSQL; on PGlite, which serves one connection, the new connection races the old one's teardown and the
 * next statement fails with ECONNRESET. Connection and abort errors still discard the connection.
 */
function keepOnStatementErrors(pg: typeof pgTypes): typeof pgTypes.Pool {
  return class Pool extends pg.Pool {
    // A session that cannot be opened (the server down, starting, or refusing the database; every connection busy
    // past the timeout) is the database being unavailable, which the request is told as such (503).
    connect(...args: unknown[]): Promise<pgTypes.PoolClient> {
      const callback = args[0] as ((err: Error | undefined, ...rest: unknown[]) => void) | undefined;
      const unreachable = (e: Error) => connectionLost(e, DATABASE_UNREACHABLE) ?? new ServiceUnavailable(DATABASE_UNREACHABLE, e);
      const base = super.connect as unknown as (cb?: (err: Error | undefined, ...rest: unknown[]) => void) => Promise<pgTypes.PoolClient>;
      if (typeof callback === 'function') return base.call(this, (err, ...rest) => callback(err && unreachable(err), ...rest));
      return base.call(this).catch((e: Error) => {
        throw unreachable(e);
      });
    }

    query(...args: unknown[]): never {
      if (typeof args[args.length - 1] === 'function') return (super.query as (...a: unknown[]) => never)(...args);
      return (async () => {
        const client = await this.connect();
        try {
          const result = await (client.query as (...a: unknown[]) => Promise<unknown>)(...args);
          client.release();
          return result;
        } catch (e) {
          client.release(connectionSurvives(e) && !(client as unknown as { _ending?: boolean })._ending ? undefined : (e as Error));
          throw e;
        }
      })() as never;
    }
  } as unknown as typeof pgTypes.Pool;
}

/**
 * A node-postgres client that honours the current request's abort signal: a query is not sent once the request
 * was aborted, and a query running when it aborts is cancelled on the server (a second connection sends
 * pg_cancel_backend, as psql's Ctrl-C does). PGlite cannot cancel a running statement; there the work stops at
 * the next statement, which is why heavy work is split into bounded statements.
 */
function abortableClient(pg: typeof pgTypes, canCancel: boolean, names: StatementNames): typeof pgTypes.Client {
  return class AbortableClient extends pg.Client {
    constructor(...args: ConstructorParameters<typeof pgTypes.Client>) {
      super(...args);
      // A session the server ends (a failover, a restart, pg_terminate_backend, an idle timeout) emits 'error' on its
      // client, and an 'error' nobody hears ends the process. The pool listens only while the client is idle; a
      // client held by a transaction learns of it from its running statement or its next one, which fails with
      // ServiceUnavailable, and the pool then discards it.
      this.on('error', () => {});
    }

    // Named statements skip parsing; the session is prepared for them (statement-names.ts) before the pool hands
    // the connection out.
    connect(...args: unknown[]): never {
      const callback = args[0] as ((err?: Error) => void) | undefined;
      if (!callback) return new Promise<void>((resolve, reject) => this.connect((err?: Error) => (err ? reject(err) : resolve()))) as never;
      (super.connect as (cb: (err?: Error) => void) => void)((err) => {
        if (err) return callback(err);
        (super.query as (text: string, cb: () => void) => void)(FRESH_SESSION, () => callback());
      });
      return undefined as never;
    }

    // The overloads of Client.query (and connect) are not expressible on a subclass without restating them all.
    query(...given: unknown[]): never {
      // Repeated statements go out named, so the server parses them once per connection.
      const args = names.name(given);
      const last = args[args.length - 1];
      if (typeof last === 'function') args[args.length - 1] = (err: Error | undefined, ...rest: unknown[]) => (last as (...a: unknown[]) => void)(err && (connectionLost(err) ?? err), ...rest);
      const signal = currentRequestScope()?.signal;
      const run = () => {
        const result = (super.query as (...a: unknown[]) => unknown)(...args);
        return result instanceof Promise
          ? result.catch((e: unknown) => {
              throw connectionLost(e) ?? e;
            })
          : result;
      };
      if (!signal) return run() as never;
      const callback = typeof args[args.length - 1] === 'function' ? (args[args.length - 1] as (e: Error) => void) : null;
      if (signal.aborted) {
        const err = abortError(signal);
        if (callback) {
          queueMicrotask(() => callback(err));
          return undefined as never;
        }
        return Promise.reject(err) as never;
      }
      const result = run();
      if (!canCancel || !(result instanceof Promise)) return result as never;
      const onAbort = () => void this.cancelRunning();
      signal.addEventListener('abort', onAbort, { once: true });
      return result.then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          return value;
        },
        (e: unknown) => {
          signal.removeEventListener('abort', onAbort);
          // 57014: query_canceled, the answer to our own pg_cancel_backend.
          throw signal.aborted && (e as { code?: string }).code === '57014' ? abortError(signal) : e;
        },
      ) as never;
    }

    private async cancelRunning(): Promise<void> {
      const pid = (this as unknown as { processID?: number }).processID;
      if (!pid) return;
      const canceller = new pg.Client((this as unknown as { connectionParameters: pgTypes.ClientConfig }).connectionParameters);
      // Ended by the server with the others in a failover: that must not end the process (see AbortableClient).
      canceller.on('error', () => {});
      try {
        await canceller.connect();
        await canceller.query('/* cancelAbortedRequest */ SELECT pg_cancel_backend($1)', [pid]);
      } catch {
        // The statement ends on its own or with the connection; a failed cancel only costs time.
      } finally {
        await canceller.end().catch(() => {});
      }
    }
  } as unknown as typeof pgTypes.Client;
}

/**
 * Starts the worker and waits until PGlite serves. A new, empty data directory is filled from the initdb template
 * when there is one; should that fail (a damaged template), what it wrote and the template go, and initdb runs
 * instead, saving a new template.
 */
async function launchWorker(dataDir: string, socketPath: string, state: 'empty' | 'fresh' | 'existing', template: string): Promise<Worker> {
  if (state === 'empty' && existsSync(template)) {
    try {
      return await runWorker({ dataDir, socketPath, template: { file: template, load: true } });
    } catch {
      // The template may belong to whoever built the installation: then it stays, and so does this fallback.
      await rm(template, { force: true }).catch(() => {});
      for (const entry of await readdir(dataDir)) await rm(path.join(dataDir, entry), { recursive: true, force: true });
    }
  }
  return runWorker({ dataDir, socketPath, template: state === 'existing' ? null : { file: template, load: false } });
}

/**
 * PGlite's WebAssembly, compiled once per process. Compiling it (9 MB, optimised on V8's background threads) costs
 * more CPU than the rest of a start together; a compiled module passes to a worker thread without a copy, so a
 * process that opens databases more than once (the tests, a restart within the process) compiles it once.
 */
let compiled: Promise<{ pgliteWasmModule: WebAssembly.Module; initdbWasmModule: WebAssembly.Module }> | undefined;
function pgliteModules() {
  if (!compiled) {
    const compiling = (async () => {
      const [pglite, initdb] = await Promise.all(['pglite.wasm', 'initdb.wasm'].map(async (f) => WebAssembly.compile(await readFile(path.join(pgliteDist(), f)))));
      return { pgliteWasmModule: pglite, initdbWasmModule: initdb };
    })();
    // A failed compile (files missing mid-reinstall) is tried again by the next start.
    compiling.catch(() => compiled === compiling && (compiled = undefined));
    compiled = compiling;
  }
  return compiled;
}

async function runWorker(opts: { dataDir: string; socketPath: string; template: { file: string; load: boolean } | null }): Promise<Worker> {
  const workerData = { ...opts, modules: await pgliteModules() };
  const worker = new Worker(WORKER_FILE, { workerData });
  worker.unref();
  try {
    await new Promise<void>((resolve, reject) => {
      worker.once('message', (m: { ready?: boolean; error?: string }) => (m.ready ? resolve() : reject(new Error(`PGlite failed to start: ${m.error}`))));
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`PGlite worker exited with code ${code} while starting`)));
    });
  } catch (e) {
    await worker.terminate();
    throw e;
  }
  return worker;
}

/** Starts PGlite in its worker thread, serving `dataDir` on a Unix socket in a fresh private directory. */
async function startPgliteWorker(dataDir: string, template: string): Promise<Engine & { socketDir: string }> {
  const onDisk = !dataDir.startsWith('memory://');
  const fresh = onDisk && !existsSync(path.join(dataDir, 'PG_VERSION'));
  if (onDisk) await mkdir(dataDir, { recursive: true, mode: 0o700 });
  // Only a directory with nothing in it may be filled from the template: should that fail, all it holds can go.
  const state = !fresh ? 'existing' : (await readdir(dataDir)).length === 0 ? 'empty' : 'fresh';
  // mkdtemp makes the directory 0700: only this user can reach the socket; Unix socket paths are limited to about
  // 100 bytes, so it lives in the temporary directory rather than under a possibly long DATA_DIR.
  const socketDir = await mkdtemp(path.join(os.tmpdir(), 'nd-pglite-'));
  let worker: Worker;
  try {
    worker = await launchWorker(dataDir, path.join(socketDir, '.s.PGSQL.5432'), state, template);
  } catch (e) {
    await rm(socketDir, { recursive: true, force: true });
    throw e;
  }
  // PGlite sets the modes of the files it creates past the umask: initdb's (0666) on a first start, and the relation
  // caches (pg_internal.init, 0644) it writes again on every start. Narrow them after each start.
  if (onDisk) await narrowModes(dataDir);
  worker.removeAllListeners('exit');
  worker.removeAllListeners('error');
  worker.on('error', () => {});
  let pings = 0;
  return {
    socketDir,
    ping: () =>
      new Promise<void>((resolve) => {
        const id = ++pings;
        const onMessage = (m: { pong?: number }) => {
          if (m.pong !== id) return;
          worker.off('message', onMessage);
          resolve();
        };
        worker.on('message', onMessage);
        worker.postMessage({ ping: id });
      }),
    stop: async () => {
      // PGlite flushes its files on close; terminating the thread first could lose the last writes.
      const closed = new Promise<void>((resolve) => {
        worker.once('message', () => resolve());
        worker.once('exit', () => resolve());
      });
      worker.postMessage('close');
      await closed;
      await worker.terminate();
      await rm(socketDir, { recursive: true, force: true });
    },
  };
}
