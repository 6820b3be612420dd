import path from 'node:path';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type pgTypes from 'pg';
import type { RelationalConfig } from '../config.js';
import { abortError, currentRequestScope } from '../request-scope.js';
import { narrowModes } from '../data-dir.js';

/** The Drizzle handle every store uses; the same type on PGlite and PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, Record<string, never>>;

export interface RelationalStore {
  readonly kind: 'pglite' | 'postgres';
  readonly db: Db;
  /** Applies the committed migrations; idempotent. */
  migrate(): Promise<void>;
  /** One real round trip. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');
const WORKER_FILE = fileURLToPath(new URL('./pglite-worker.mjs', import.meta.url));

/**
 * PostgreSQL or the embedded PGlite, both through node-postgres: PGlite runs in a worker thread behind a private
 * Unix socket (lib/db/pglite-worker.mjs), so its queries never run on the thread that serves requests, and one
 * driver, one set of type parsers and one cancellation path serve both engines.
 */
export async function openRelational(cfg: RelationalConfig): Promise<RelationalStore> {
  if (cfg.kind === 'postgres') return openPool('postgres', { connectionString: cfg.url, max: 10 }, { stop: async () => {} });
  const embedded = await startPgliteWorker(cfg.dataDir);
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
  const pool = new pg.Pool({ connectionTimeoutMillis: 5000, ...options, Client: abortableClient(pg, kind === 'postgres') });
  // An idle client that loses its server must not crash the process; the next query reports the failure.
  pool.on('error', () => {});
  const db = drizzle({ client: pool, casing: 'snake_case' }) as unknown as Db;
  return {
    kind,
    db,
    migrate: () => migrate(db as never, { migrationsFolder: MIGRATIONS_DIR }),
    ping: async () => {
      // The embedded engine has one connection: while a transaction holds it, asking its thread proves it is alive
      // without waiting for the transaction to end.
      if (engine.ping && pool.idleCount === 0 && pool.totalCount >= (options.max ?? 1)) return engine.ping();
      await db.execute(sql`/* ping */ select 1`);
    },
    close: async () => {
      await pool.end();
      await engine.stop();
    },
  };
}

/**
 * A node-postgres client that honours the current request's abort signal: a query is not sent once the request
 * was aborted, and a query running when it aborts is cancelled on the server (a second connection sends
 * pg_cancel_backend, as psql's Ctrl-C does). PGlite cannot cancel a running statement; there the work stops at
 * the next statement, which is why heavy work is split into bounded statements.
 */
function abortableClient(pg: typeof pgTypes, canCancel: boolean): typeof pgTypes.Client {
  return class AbortableClient extends pg.Client {
    // The overloads of Client.query are not expressible on a subclass without restating them all.
    query(...args: unknown[]): never {
      const signal = currentRequestScope()?.signal;
      const run = () => (super.query as (...a: unknown[]) => unknown)(...args);
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

/** Starts PGlite in its worker thread, serving `dataDir` on a Unix socket in a fresh private directory. */
async function startPgliteWorker(dataDir: string): Promise<Engine & { socketDir: string }> {
  const onDisk = !dataDir.startsWith('memory://');
  const fresh = onDisk && !existsSync(path.join(dataDir, 'PG_VERSION'));
  if (onDisk) await mkdir(dataDir, { recursive: true, mode: 0o700 });
  // mkdtemp makes the directory 0700: only this user can reach the socket; Unix socket paths are limited to about
  // 100 bytes, so it lives in the temporary directory rather than under a possibly long DATA_DIR.
  const socketDir = await mkdtemp(path.join(os.tmpdir(), 'nd-pglite-'));
  const worker = new Worker(WORKER_FILE, { workerData: { dataDir, socketPath: path.join(socketDir, '.s.PGSQL.5432') } });
  worker.unref();
  try {
    await new Promise<void>((resolve, reject) => {
      worker.once('message', (m: { ready?: boolean; error?: string }) => (m.ready ? resolve() : reject(new Error(`PGlite failed to start: ${m.error}`))));
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`PGlite worker exited with code ${code} while starting`)));
    });
  } catch (e) {
    await worker.terminate();
    await rm(socketDir, { recursive: true, force: true });
    throw e;
  }
  // PGlite's initdb sets the modes of the files it creates (0666) past the umask: narrow them once, after it.
  if (fresh) await narrowModes(dataDir);
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
