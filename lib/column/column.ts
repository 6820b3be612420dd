import { randomUUID } from 'node:crypto';
import { mkdir, open, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import { ConfigError, type ColumnConfig } from '../config.js';
import { ch, type ChQuery, bindValues, inline, ident, quoteString } from './sql.js';
import { abortError, currentRequestScope, throwIfRequestAborted } from '../request-scope.js';
import { FreedMemory } from './freed-memory.js';
import { ServiceUnavailable, causesOf, mapRejections } from '../errors.js';

export interface ColumnQueryOptions {
  /** Name of the store method, carried as a leading comment and (on a server) in the query id. */
  name: string;
  signal?: AbortSignal;
  requestId?: string;
  /** Seconds; defaults to 60. */
  maxExecutionTime?: number;
  /**
   * The id the engine runs the query under, so that another request can stop it with `ColumnStore.kill`
   * ([A-Za-z0-9_-], at most 128 characters). Unset: an id made of the name, the request id and a sequence number.
   */
  queryId?: string;
  /** What the statement may cost the engine; exceeding one stops it with the engine's error (see `engineLimitOf`). */
  limits?: EngineLimits;
  /**
   * A long statement that must not hold up others. chDB runs the statements of one connection one at a time, and
   * every statement with bound values one at a time across the process: such a statement runs on a connection of its
   * own, with its values as escaped literals (as on a server without query parameters). No effect on a server.
   */
  parallel?: boolean;
  /**
   * `background`: a long statement nobody waits for in a request (a job's count and export, a whole-table read for
   * a background computation). It must never hold up the statements of interactive requests: on chDB it runs on a
   * connection of its own (as `parallel`), on a server through a client of its own, whose connections interactive
   * statements never wait for and whose HTTP time limit is the statement's own. Default `interactive`.
   */
  lane?: ColumnLane;
}

export type ColumnLane = 'interactive' | 'background';

/** Per-statement limits of the engine (ClickHouse settings both chDB and an 18.16 server accept). */
export interface EngineLimits {
  maxMemoryUsage?: number;
  maxRowsToRead?: number;
  maxBytesToRead?: number;
  /** Rows of the result; more stops the statement (result_overflow_mode = 'throw'). */
  maxResultRows?: number;
  maxThreads?: number;
  /** Bytes a GROUP BY may hold before it spills to disk (then slower, not failed). */
  maxBytesBeforeExternalGroupBy?: number;
}

/** The limits as ClickHouse settings. */
function limitSettings(l: EngineLimits | undefined): Record<string, number | string> {
  const out: Record<string, number | string> = {};
  if (!l) return out;
  if (l.maxMemoryUsage) out.max_memory_usage = l.maxMemoryUsage;
  if (l.maxRowsToRead) out.max_rows_to_read = l.maxRowsToRead;
  if (l.maxBytesToRead) out.max_bytes_to_read = l.maxBytesToRead;
  if (l.maxResultRows) {
    out.max_result_rows = l.maxResultRows;
    out.result_overflow_mode = 'throw';
  }
  if (l.maxThreads) out.max_threads = l.maxThreads;
  if (l.maxBytesBeforeExternalGroupBy) out.max_bytes_before_external_group_by = l.maxBytesBeforeExternalGroupBy;
  return out;
}

/** The engine's limits, by the ClickHouse error code that says one was exceeded. */
const LIMIT_CODES: Record<number, EngineLimitName> = {
  158: 'rows_to_read',
  159: 'execution_time',
  160: 'execution_time', // TOO_SLOW: the engine predicted it would not finish in time
  241: 'memory',
  307: 'bytes_to_read',
  396: 'result_rows',
};
export type EngineLimitName = 'execution_time' | 'memory' | 'rows_to_read' | 'bytes_to_read' | 'result_rows';

/**
 * Which engine limit an error from a query reports, when it reports one: chDB's and a server's errors carry the
 * ClickHouse code as `Code: N` in the message (the server's client also as `code`).
 */
export function engineLimitOf(e: unknown): EngineLimitName | undefined {
  const code = engineCodeOf(e);
  return code === undefined ? undefined : LIMIT_CODES[code];
}

/** The ClickHouse error code an error from a query carries (in `code` or as `Code: N` in its message), or its causes'. */
export function engineCodeOf(e: unknown): number | undefined {
  for (let err = e as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0; err && depth < 5; err = err.cause as typeof err, depth++) {
    const fromCode = typeof err.code === 'string' && /^\d+$/.test(err.code) ? Number(err.code) : undefined;
    const fromText = typeof err.message === 'string' ? Number(/\bCode: (\d+)/.exec(err.message)?.[1]) : undefined;
    const code = fromCode ?? fromText;
    if (code) return code;
  }
  return undefined;
}

/** Options of a TabSeparated insert: the columns the text holds, in order (default: all of the table's, in order). */
export type TsvInsertOptions = ColumnQueryOptions & { columns?: readonly string[] };

/** ClickHouse SQL through chDB in-process or a ClickHouse server; the same SQL on both. */
export interface ColumnStore {
  readonly kind: 'chdb' | 'clickhouse';
  readonly database: string;
  /**
   * The cluster (from the servers' remote_servers) the data tables are sharded over, when CLICKHOUSE_CLUSTER is set:
   * their DDL runs ON CLUSTER, and inserts return only once every shard has its rows (insert_distributed_sync).
   */
  readonly cluster?: string;
  /**
   * Runs a SELECT and returns its rows (JSONEachRow; 64-bit integers come back as numbers when they fit), unchecked:
   * a store reads them through a row shape with `columnRows` (rows.ts) instead of naming T.
   */
  query<T = Record<string, unknown>>(q: ChQuery, opts: ColumnQueryOptions): Promise<T[]>;
  /** Runs DDL or another statement without a result. */
  command(q: ChQuery, opts: ColumnQueryOptions): Promise<void>;
  /** Inserts rows (objects keyed by column) into a table of this store's database. */
  insert(table: string, rows: Record<string, unknown>[], opts: ColumnQueryOptions): Promise<void>;
  /**
   * Inserts text already encoded as TabSeparated (each chunk holds whole lines, each ending in '\n'), as it comes:
   * nothing is parsed or re-encoded in this process. On chDB the chunks are spooled to a file beside its data and
   * read by the engine (INSERT ... FROM INFILE), 256 MB at a time; on a server they are streamed as the body of one
   * INSERT. Rejects with the engine's error (a malformed line names its row and column). Neither engine makes a large
   * insert atomic: the blocks written before the failure (about a million rows) keep their rows, so callers write
   * into a partition they can drop on failure.
   */
  insertTsv(table: string, chunks: Iterable<string> | AsyncIterable<string>, opts: TsvInsertOptions): Promise<void>;
  /**
   * Runs a SELECT and yields its result as TabSeparated text, in chunks of whole lines, for results too large to
   * hold as rows. A server streams it; chDB holds the whole result (as bytes) until the last chunk is taken, since
   * a chDB stream cannot share its session with other queries. Stop early by leaving the loop.
   */
  queryTsv(q: ChQuery, opts: ColumnQueryOptions): AsyncIterable<string>;
  /**
   * Stops the query running under `queryId` (given in its options), wherever it is in its work: `KILL QUERY` on a
   * server, and on chDB from a second connection to the same engine (queries of one connection run one at a time).
   * The query's caller gets the engine's "cancelled" error. Resolves to whether a running query was found.
   */
  kill(queryId: string): Promise<boolean>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

const QUERY_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** Checks an explicit query id: it travels into SQL text (a comment on chDB, KILL's condition). */
export function checkQueryId(id: string): string {
  if (!QUERY_ID.test(id)) throw new Error(`invalid ClickHouse query id: ${JSON.stringify(id)}`);
  return id;
}

/** The query's name as a leading comment; on chDB the explicit query id too, which is how `kill` finds it. */
const named = (q: ChQuery, opts: ColumnQueryOptions): ChQuery => ({
  sql: `/* ${opts.name}${opts.queryId ? ` query_id=${checkQueryId(opts.queryId)};` : ''} */ ${q.sql}`,
  params: q.params,
});

/** The caller's options, with the current request's id and abort signal where the caller gave none. */
function scoped<O extends ColumnQueryOptions>(opts: O): O {
  const scope = currentRequestScope();
  if (!scope) return opts;
  return { ...opts, signal: opts.signal ?? scope.signal, requestId: opts.requestId ?? scope.requestId };
}

function parseEachRow<T>(text: string): T[] {
  const out: T[] = [];
  for (const line of text.split('\n')) if (line.trim()) out.push(JSON.parse(line) as T);
  return out;
}

export async function openColumn(cfg: ColumnConfig): Promise<ColumnStore> {
  return answeringUnavailable(cfg.kind === 'chdb' ? await openChdb(cfg.dataDir, cfg.database, cfg.maxMemoryBytes) : await openClickhouseServer(cfg));
}

/** Socket errors of the HTTP connection to a ClickHouse server: the server is down, restarting or unreachable. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
const LOST_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
/**
 * ClickHouse errors that say the engine cannot take work now rather than that the statement is wrong, by code:
 * a full disk, memory the system would not give, the limit of simultaneous queries, a read-only table (a replica
 * that lost its keeper), the disk refusing reads or writes, and the shards of a cluster that do not answer.
 */
const ENGINE_UNAVAILABLE: Record<number, string> = {
  74: 'it cannot read its files',
  75: 'it cannot write its files',
  173: 'the system refused it memory',
  202: 'too many queries run at once',
  209: 'a shard did not answer in time',
  210: 'a shard cannot be reached',
  242: 'its tables are read-only',
  243: 'its disk is full',
  279: 'a shard cannot be reached',
};

/**
 * The ServiceUnavailable (503, retryable) for an error of the column store that is the engine's state, not the
 * statement's fault: its server cannot be reached or dropped the connection, or the engine (chDB or the server)
 * reports one of ENGINE_UNAVAILABLE. Undefined for any other error, which the caller reports as before.
 */
export function columnUnavailable(e: unknown, kind: ColumnStore['kind']): ServiceUnavailable | undefined {
  const engine = kind === 'chdb' ? 'the embedded column store (chDB)' : 'the column store (ClickHouse server)';
  for (const err of causesOf(e)) {
    if (err instanceof ServiceUnavailable) return err;
    const code = typeof err.code === 'string' ? err.code : '';
    const message = typeof err.message === 'string' ? err.message : '';
    if (kind === 'clickhouse' && (UNREACHABLE_CODES.has(code) || /\bconnect (ECONNREFUSED|EHOSTUNREACH|ENETUNREACH)\b/.test(message))) {
      return new ServiceUnavailable(`${engine} cannot be reached; retry later`, e);
    }
    if (kind === 'clickhouse' && (LOST_CODES.has(code) || /socket hang up|\bECONNRESET\b|other side closed/i.test(message))) {
      return new ServiceUnavailable(`${engine} connection was lost; retry`, e);
    }
    const engineCode = /^\d+$/.test(code) ? Number(code) : Number(/\bCode: (\d+)/.exec(message)?.[1]);
    if (ENGINE_UNAVAILABLE[engineCode]) return new ServiceUnavailable(`${engine} is unavailable: ${ENGINE_UNAVAILABLE[engineCode]}; retry later`, e);
  }
  return undefined;
}

/**
 * The store with its failures that are the engine's state answered as ServiceUnavailable (columnUnavailable), so a
 * request that meets a restarting server or a full disk gets a 503 naming the column store instead of a 500. A
 * request that was aborted keeps its own error. The ping keeps the engine's message: /health shows it to operators.
 */
function answeringUnavailable(store: ColumnStore): ColumnStore {
  const mapped = (e: unknown, opts?: ColumnQueryOptions) => (opts?.signal?.aborted ? e : (columnUnavailable(e, store.kind) ?? e));
  const guard = <A extends unknown[], R>(f: (...args: A) => Promise<R>) => mapRejections(f, (e, args) => mapped(e, scoped(args[args.length - 1] as ColumnQueryOptions)));
  return {
    kind: store.kind,
    database: store.database,
    cluster: store.cluster,
    query: guard(store.query.bind(store)) as ColumnStore['query'],
    command: guard(store.command.bind(store)),
    insert: guard(store.insert.bind(store)),
    insertTsv: guard(store.insertTsv.bind(store)),
    queryTsv(q, opts) {
      const inner = store.queryTsv(q, opts);
      return (async function* () {
        try {
          yield* inner;
        } catch (e) {
          throw mapped(e, scoped(opts));
        }
      })();
    },
    kill: mapRejections(store.kill.bind(store), (e) => mapped(e)),
    ping: () => store.ping(),
    close: () => store.close(),
  };
}

type ChdbModule = typeof import('chdb');

/**
 * Loads chDB. Its native library comes in a per-platform package that the lock file holds for linux-x64 only, so
 * npm may leave it out elsewhere: start-up then says what is missing and how to proceed instead of crashing.
 */
export async function loadChdb(load: () => Promise<ChdbModule> = () => import('chdb')): Promise<ChdbModule> {
  try {
    return await load();
  } catch (e) {
    const platform = `${process.platform}-${process.arch}`;
    throw new ConfigError([
      `CLICKHOUSE_URL: unset, and the embedded column store (chDB) is unavailable on this platform (${platform}): ${(e as Error).message}. ` +
        "Install chDB's native package for this platform (npm install --include=optional, or reinstall without the lock file), " +
        'or set CLICKHOUSE_URL to a ClickHouse server (see README, Platforms)',
    ]);
  }
}

async function openChdb(dataDir: string, database: string, maxMemoryBytes?: number): Promise<ColumnStore> {
  const { Session } = await loadChdb();
  await mkdir(dataDir, { recursive: true });
  // One process owns the data directory, so whatever a previous process left in the spool is garbage.
  const spool = path.join(dataDir, 'insert-spool');
  await rm(spool, { recursive: true, force: true });
  // The engine is one per process and the first connection configures it: its memory across every query.
  // Long statements parse on every connection (the ids of a neuron search are one bound value each).
  const session = new Session(dataDir, {
    connectionArgs: [`--max_query_size=${MAX_QUERY_BYTES}`, ...(maxMemoryBytes ? [`--max_server_memory_usage=${Math.floor(maxMemoryBytes)}`] : [])],
  });
  let control: InstanceType<typeof Session> | null = null;
  session.query(`CREATE DATABASE IF NOT EXISTS ${ident(database).text} ENGINE = Atomic`);
  const qualify = (q: ChQuery): ChQuery => q; // tables are referenced unqualified; USE below sets the database
  session.query(`USE ${ident(database).text}`);
  // Connections for parallel statements, kept open between them.
  const idle: InstanceType<typeof Session>[] = [];
  let closed = false;
  // What a statement used stays with its connection's allocator until that connection purges (freed-memory.ts), and
  // only once the statement's threads have let go of it, a little after its answer: connections that ran a statement
  // while the process was large are purged shortly after, when idle, and before they are closed.
  const freed = new FreedMemory(CHDB_PURGE_ABOVE_BYTES);
  const unpurged = new Set<InstanceType<typeof Session>>();
  /** Connections beyond the idle ones, closed once purged. */
  const closing = new Set<InstanceType<typeof Session>>();
  let purgeTimer: NodeJS.Timeout | null = null;
  const purge = (c: InstanceType<typeof Session>) => {
    unpurged.delete(c);
    return c.queryAsync('/* ColumnStore.purgeFreedMemory */ SYSTEM JEMALLOC PURGE', { format: 'CSV' }).then(() => undefined, () => undefined);
  };
  const purgeIdle = async () => {
    purgeTimer = null;
    for (const c of [...unpurged]) if (!closed && (c === session || idle.includes(c))) await purge(c);
  };
  /** After a statement on `c`: while the process holds much more than it did, `c` is purged once idle. */
  const noteFreed = (c: InstanceType<typeof Session>) => {
    if (!freed.shouldPurge()) return;
    unpurged.add(c);
    purgeTimer ??= setTimeout(() => void purgeIdle(), CHDB_PURGE_DELAY_MS);
    purgeTimer.unref();
  };
  const afterStatement = async <T>(c: InstanceType<typeof Session>, statement: Promise<T>): Promise<T> => {
    try {
      return await statement;
    } finally {
      noteFreed(c);
    }
  };
  const killMarked = async (queryId: string): Promise<boolean> => {
    // After close nothing runs, and a new connection would keep the data directory bound to this process.
    if (closed) return false;
    // A second connection to the same engine runs beside the first; KILL finds the query by its marker setting.
    // ASYNC: on chDB a SYNC kill waits for the killed query's connection and never returns; the caller of the killed
    // query gets its error within milliseconds anyway.
    control ??= new Session(dataDir);
    const marker = quoteString(`query_id=${checkQueryId(queryId)};`);
    const out = await control.queryAsync(
      `/* ColumnStore.kill */ KILL QUERY WHERE position(query, ${marker}) > 0 AND position(query, 'KILL QUERY') = 0 ASYNC`,
      { format: 'TabSeparated' },
    );
    return out.text().trim().length > 0;
  };
  /**
   * Runs a statement (values inlined, its query id set) on a connection of its own. Its caller stops waiting when
   * its signal aborts, and the statement is killed; the connection goes back to the idle ones only once the engine
   * is done with the statement, so no later statement queues behind what an aborted one left running.
   */
  const onOwnConnection = (text: string, format: string, opts: ColumnQueryOptions & { queryId: string }) => {
    const signal = opts.signal;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    let c = idle.pop();
    if (!c) {
      c = new Session(dataDir, { connectionArgs: [`--max_query_size=${MAX_QUERY_BYTES}`] });
      c.query(`USE ${ident(database).text}`);
    }
    const conn = c;
    const native = conn.queryAsync(text, { format });
    let settled = false;
    const release = () => {
      settled = true;
      noteFreed(conn);
      // A statement that ends after the store closed must not keep its connection: the process could open no other
      // data directory while it lives.
      if (!closed && idle.length < PARALLEL_IDLE_CONNECTIONS) idle.push(conn);
      else if (!closed && unpurged.has(conn)) {
        closing.add(conn);
        setTimeout(() => void purge(conn).finally(() => closing.delete(conn) && conn.close()), CHDB_PURGE_DELAY_MS).unref();
      } else conn.close();
    };
    // A statement that failed (killed, say) stays listed in system.processes until its connection runs the next
    // one, and would seem to run on: a trivial statement clears it before the connection is used again.
    native.then(release, () => (closed ? release() : conn.queryAsync('/* ColumnStore.clear */ SELECT 1', { format: 'Null' }).then(release, release)));
    if (!signal) return native;
    return new Promise<Awaited<typeof native>>((resolve, reject) => {
      const onAbort = () => {
        reject(abortError(signal));
        // A kill sent before the engine lists the statement finds nothing: it is sent again until the statement ends.
        void (async () => {
          for (let i = 0; i < KILL_ATTEMPTS && !settled && !closed; i++) {
            await killMarked(opts.queryId).catch(() => false);
            await Promise.race([native.catch(() => undefined), new Promise((r) => setTimeout(r, KILL_RETRY_MS).unref())]);
          }
        })();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      native.then(
        (r) => {
          signal.removeEventListener('abort', onAbort);
          resolve(r);
        },
        (e: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(e);
        },
      );
    });
  };
  const execute = async (q: ChQuery, given: ColumnQueryOptions, format: string) => {
    const own = given.parallel || given.lane === 'background';
    // A statement on its own connection always carries a query id: an abort stops it by that id.
    const opts = own && !given.queryId ? { ...given, queryId: `own-${PROCESS_TAG}-${(++querySeq).toString(36)}` } : given;
    // The engine prints a bound query without its comments, so the query id that `kill` looks for rides in a setting.
    const marker = opts.queryId ? `, log_comment = ${quoteString(`query_id=${checkQueryId(opts.queryId)};`)}` : '';
    const limits = Object.entries(limitSettings(opts.limits)).map(([k, v]) => `, ${k} = ${typeof v === 'string' ? quoteString(v) : v}`).join('');
    // The engine's threads run inside this process: a background statement's run at a lower priority (as the worker
    // pool's, lib/workers/thread-priority.ts), so on a busy machine requests' statements get a core first.
    const priority = opts.lane === 'background' ? `, os_thread_priority = ${BACKGROUND_THREAD_PRIORITY}` : '';
    const settings = `SETTINGS max_execution_time = ${opts.maxExecutionTime ?? 60}${limits}${priority}${marker}`;
    const text = /^\s*(\/\*.*?\*\/\s*)?(SELECT|WITH)\b/is.test(q.sql) ? `${q.sql} ${settings}` : q.sql;
    const body = named(qualify({ sql: text, params: q.params }), opts);
    if (own) return onOwnConnection(inline(body), format, opts as ColumnQueryOptions & { queryId: string });
    return afterStatement(
      session,
      Object.keys(body.params).length
        ? session.queryBindAsync(body.sql, bindValues(body), { format, signal: opts.signal })
        : session.queryAsync(body.sql, { format, signal: opts.signal }),
    );
  };
  const run = async (q: ChQuery, opts: ColumnQueryOptions, format: string) => (await execute(q, opts, format)).text();
  const tsvBytes = async (q: ChQuery, opts: ColumnQueryOptions) => (await execute(q, opts, 'TabSeparated')).bytes();
  return {
    kind: 'chdb',
    database,
    async query<T>(q: ChQuery, opts: ColumnQueryOptions) {
      return parseEachRow<T>(await run(q, scoped(opts), 'JSONEachRow'));
    },
    async command(q, opts) {
      await run(q, scoped(opts), 'CSV');
    },
    async insert(table, rows, opts) {
      if (rows.length === 0) return;
      const payload = rows.map((r) => JSON.stringify(r)).join('\n');
      await session.queryAsync(`/* ${opts.name} */ INSERT INTO ${ident(table).text} FORMAT JSONEachRow\n${payload}`, { format: 'CSV' });
    },
    async insertTsv(table, chunks, given) {
      const opts = scoped(given);
      // The engine reads a file with about a third of the CPU it spends on the same rows inline in the statement.
      await mkdir(spool, { recursive: true });
      const file = path.join(spool, `${randomUUID()}.tsv`);
      const statement = `/* ${opts.name} */ INSERT INTO ${ident(table).text}${columnList(opts.columns)} FROM INFILE ${quoteString(file)} FORMAT TabSeparated`;
      try {
        for await (const _ of spoolSpans(chunks, file, CHDB_INSERT_FILE_BYTES)) {
          throwIfRequestAborted(opts.signal);
          await session.queryAsync(statement, { format: 'CSV', signal: opts.signal });
        }
      } finally {
        await rm(file, { force: true });
      }
    },
    queryTsv(q, given) {
      const opts = scoped(given);
      return (async function* () {
        const result = await tsvBytes(q, opts);
        yield* lineChunks(result, TSV_READ_CHUNK_BYTES);
      })();
    },
    kill: killMarked,
    async ping() {
      // The second connection: the first runs one query at a time, and a long one must not make the engine look down.
      control ??= new Session(dataDir);
      // Nothing to read back: the Null format skips writing a result, about 40% of this statement's CPU.
      await control.queryAsync('/* ping */ SELECT 1', { format: 'Null' });
    },
    async close() {
      closed = true;
      if (purgeTimer) clearTimeout(purgeTimer);
      for (const c of closing) c.close();
      closing.clear();
      for (const c of idle.splice(0)) c.close();
      control?.close();
      session.close();
    },
  };
}

const PROCESS_TAG = randomUUID().slice(0, 6);
let querySeq = 0;

async function openClickhouseServer(cfg: Extract<ColumnConfig, { kind: 'clickhouse' }>): Promise<ColumnStore> {
  const { createClient, ClickHouseLogLevel } = await import('@clickhouse/client');
  // Errors reach the caller, who decides what to log; the client's own logger would print them a second time.
  const base = {
    url: cfg.url,
    username: cfg.user,
    password: cfg.password,
    request_timeout: 60_000,
    log: { level: ClickHouseLogLevel.OFF },
    clickhouse_settings: { output_format_json_quote_64bit_integers: 0 as const },
    // The server closes an idle keep-alive connection after keep_alive_timeout (3 s by default on older servers).
    // The client's default 2.5 s leaves only 0.5 s of margin, which a busy event loop overruns, so it would send on a
    // closed socket ("socket hang up"). At 1 s a loaded process still retires the socket first.
    keep_alive: { idle_socket_ttl: 1000 },
  };
  // Through Distributed tables an insert returns once its rows are on their shard, so a read right after it sees them
  // (on both lanes: an INSERT ... SELECT of a job is followed by reads of what it wrote).
  const settings = { ...base.clickhouse_settings, ...(cfg.cluster ? { insert_distributed_sync: 1 as const } : {}) };
  const client = createClient({ ...base, database: cfg.database, clickhouse_settings: settings });
  // The background lane: a client of its own, so a job's export or count holds none of the connections interactive
  // statements take turns on, and its HTTP time limit is the statement's (max_execution_time), not a request's.
  let backgroundClient: ReturnType<typeof createClient> | null = null;
  const clientFor = (opts: ColumnQueryOptions) =>
    opts.lane === 'background'
      ? (backgroundClient ??= createClient({ ...base, database: cfg.database, clickhouse_settings: settings, request_timeout: BACKGROUND_REQUEST_TIMEOUT_MS, max_open_connections: BACKGROUND_CONNECTIONS }))
      : client;

  // The server may be down when we start: the service still starts (and /health says degraded), and the database
  // is created and the version probed on the first query that reaches it.
  let ready: Promise<{ canBind: boolean }> | null = null;
  const ensureReady = () => {
    ready ??= (async () => {
      const admin = createClient(base);
      try {
        // On a cluster the database must exist on every node: the local shards and Distributed tables live in it.
        const onCluster = cfg.cluster ? ` ON CLUSTER ${ident(cfg.cluster).text}` : '';
        await admin.command({ query: `CREATE DATABASE IF NOT EXISTS ${ident(cfg.database).text}${onCluster}` });
        const rows = await (await admin.query({ query: 'SELECT version() AS v', format: 'JSONEachRow' })).json<{ v: string }>();
        // Query parameters arrived in ClickHouse 19; older servers get escaped, typed literals instead.
        return { canBind: Number.parseInt(rows[0]?.v ?? '0', 10) >= 19 };
      } finally {
        await admin.close();
      }
    })().catch((e) => {
      ready = null;
      throw e;
    });
    return ready;
  };
  await ensureReady().catch(() => undefined);

  // The server's /ping, asked directly: the client waits a timer turn (at least a millisecond) before every request
  // it sends, and /health, which waits for this round trip, is polled.
  const pingUrl = new URL(cfg.url);
  pingUrl.pathname = '/ping';
  pingUrl.search = '';
  pingUrl.username = '';
  pingUrl.password = '';
  const pingHeaders = { authorization: `Basic ${Buffer.from(`${cfg.user ?? 'default'}:${cfg.password ?? ''}`).toString('base64')}` };
  const pingAgent = new Agent({ connections: 2, headersTimeout: 10_000, bodyTimeout: 10_000 });
  const pingServer = async () => {
    const r = await request(pingUrl, { headers: pingHeaders, dispatcher: pingAgent });
    const body = await r.body.text();
    if (r.statusCode !== 200) throw new Error(`ClickHouse answered /ping with ${r.statusCode}: ${body.slice(0, 200)}`);
  };

  const prepare = async (q: ChQuery, opts: ColumnQueryOptions) => {
    const { canBind } = await ensureReady();
    const body = named(q, opts);
    return canBind ? { query: body.sql, query_params: bindValues(body) } : { query: inline(body) };
  };
  // A server refuses a query id already running, and one request may run the same query twice at once (two fields
  // of one GraphQL operation): a number of this process's own, after a tag of the process (subgraphs served apart
  // see the same request id), keeps every id unique while still naming the query and its request.
  const queryId = (opts: ColumnQueryOptions) =>
    opts.queryId ? checkQueryId(opts.queryId) : opts.requestId ? `${opts.name}-${opts.requestId}-${PROCESS_TAG}${(++querySeq).toString(36)}` : undefined;
  return {
    kind: 'clickhouse',
    database: cfg.database,
    cluster: cfg.cluster,
    async query<T>(q: ChQuery, given: ColumnQueryOptions) {
      const opts = scoped(given);
      const rs = await clientFor(opts).query({
        ...(await prepare(q, opts)),
        format: 'JSONEachRow',
        abort_signal: opts.signal,
        query_id: queryId(opts),
        clickhouse_settings: { max_execution_time: opts.maxExecutionTime ?? 60, output_format_json_quote_64bit_integers: 0, max_query_size: String(MAX_QUERY_BYTES), ...limitSettings(opts.limits) },
      });
      return rs.json<T>();
    },
    async command(q, given) {
      const opts = scoped(given);
      // 18.16 takes max_memory_usage only from the request, not from the SETTINGS of an INSERT's SELECT.
      await clientFor(opts).command({ ...(await prepare(q, opts)), abort_signal: opts.signal, query_id: queryId(opts), clickhouse_settings: limitSettings(opts.limits) });
    },
    async insert(table, rows, given) {
      if (rows.length === 0) return;
      const opts = scoped(given);
      await ensureReady();
      await client.insert({ table: ident(table).text, values: rows, format: 'JSONEachRow', abort_signal: opts.signal, query_id: queryId(opts) });
    },
    async insertTsv(table, chunks, given) {
      const opts = scoped(given);
      await ensureReady();
      await client.insert({
        table: ident(table).text,
        values: Readable.from(chunks, { objectMode: false }),
        format: 'TabSeparated',
        columns: opts.columns?.map((c: string) => ident(c).text) as [string, ...string[]] | undefined,
        abort_signal: opts.signal,
        // An insert has no room for the name as a comment, so it always travels in the query id.
        query_id: queryId(opts) ?? `${opts.name}-${randomUUID()}`,
      });
    },
    queryTsv(q, given) {
      const opts = scoped(given);
      return (async function* () {
        const prepared = await prepare(q, opts);
        const { stream } = await clientFor(opts).exec({
          ...prepared,
          query: `${prepared.query}\nFORMAT TabSeparated`,
          abort_signal: opts.signal,
          query_id: queryId(opts),
          clickhouse_settings: { max_execution_time: opts.maxExecutionTime ?? 60, max_query_size: String(MAX_QUERY_BYTES), ...limitSettings(opts.limits) },
        });
        yield* wholeLines(stream as AsyncIterable<Buffer>);
      })();
    },
    async kill(id) {
      await ensureReady();
      const rs = await client.query({ query: `/* ColumnStore.kill */ KILL QUERY WHERE query_id = ${quoteString(checkQueryId(id))} SYNC`, format: 'TabSeparated' });
      return (await rs.text()).trim().length > 0;
    },
    async ping() {
      await pingServer();
      await ensureReady();
    },
    async close() {
      await Promise.all([client.close(), backgroundClient?.close(), pingAgent.close()]);
    },
  };
}

/** The longest statement text the engine parses: values written as literals (10,000 values of an IN list) make it long. */
const MAX_QUERY_BYTES = 16 * 1024 * 1024;
/** Idle chDB connections kept for parallel statements. */
const PARALLEL_IDLE_CONNECTIONS = 4;
/** How far the process may grow past the least it held before a connection that ran a statement purges (freed-memory.ts). */
const CHDB_PURGE_ABOVE_BYTES = 256 * 1024 * 1024;
/** How long after such a statement's answer its connection purges (the statement's threads let go of its memory after it). */
const CHDB_PURGE_DELAY_MS = 200;
/** The nice value a background statement's threads run at on chDB, above the process's own. */
const BACKGROUND_THREAD_PRIORITY = 10;
/** Kills sent to an aborted chDB statement on its own connection until it ends, KILL_RETRY_MS apart. */
const KILL_ATTEMPTS = 50;
const KILL_RETRY_MS = 100;
/** A background statement's HTTP time limit on a server: its max_execution_time bounds it (jobs: up to 30 min). */
const BACKGROUND_REQUEST_TIMEOUT_MS = 2 * 60 * 60 * 1000;
/** Connections of the background lane on a server: jobs per process are few, each holds one at a time. */
const BACKGROUND_CONNECTIONS = 10;
/** Spooled TabSeparated text chDB reads per statement: bounds the disk an insert holds beside the data. */
const CHDB_INSERT_FILE_BYTES = 256 * 1024 * 1024;
/** Size of the text chunks queryTsv yields from a result chDB holds whole. */
const TSV_READ_CHUNK_BYTES = 4 * 1024 * 1024;

const columnList = (columns: readonly string[] | undefined) => (columns?.length ? ` (${columns.map((c) => ident(c).text).join(', ')})` : '');

/**
 * Writes the chunks to `file`, yielding each time it holds at least `size` characters (and once at the end when
 * anything is left); the file is emptied before the next chunk is written, so the caller reads it in between.
 */
async function* spoolSpans(chunks: Iterable<string> | AsyncIterable<string>, file: string, size: number): AsyncGenerator<void> {
  let handle = await open(file, 'w');
  let length = 0;
  try {
    for await (const chunk of chunks) {
      if (!chunk) continue;
      await handle.write(chunk);
      length += chunk.length;
      if (length >= size) {
        await handle.close();
        yield;
        handle = await open(file, 'w');
        length = 0;
      }
    }
    await handle.close();
    if (length) yield;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** UTF-8 text of `bytes` in chunks of about `size` bytes, each cut after a '\n' (so no character is split). */
function* lineChunks(bytes: Uint8Array, size: number): Generator<string> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let start = 0;
  while (start < buf.length) {
    let end = Math.min(buf.length, start + size);
    if (end < buf.length) {
      const nl = buf.indexOf(10, end - 1);
      end = nl < 0 ? buf.length : nl + 1;
    }
    yield buf.toString('utf8', start, end);
    start = end;
  }
}

/** Re-cuts a byte stream into UTF-8 text chunks that end after a '\n'. */
async function* wholeLines(stream: AsyncIterable<Buffer>): AsyncGenerator<string> {
  let rest: Buffer | null = null;
  for await (const piece of stream) {
    const buf: Buffer = rest ? Buffer.concat([rest, piece]) : piece;
    const nl = buf.lastIndexOf(10);
    if (nl < 0) {
      rest = buf;
      continue;
    }
    yield buf.toString('utf8', 0, nl + 1);
    rest = nl + 1 < buf.length ? buf.subarray(nl + 1) : null;
  }
  if (rest?.length) yield rest.toString('utf8');
}

export { ch };
