import { mkdir } from 'node:fs/promises';
import { ConfigError, type ColumnConfig } from '../config.js';
import { ch, type ChQuery, bindValues, inline, ident } from './sql.js';
import { currentRequestScope } from '../request-scope.js';

export interface ColumnQueryOptions {
  /** Name of the store method, carried as a leading comment and (on a server) in the query id. */
  name: string;
  signal?: AbortSignal;
  requestId?: string;
  /** Seconds; defaults to 60. */
  maxExecutionTime?: number;
}

/** ClickHouse SQL through chDB in-process or a ClickHouse server; the same SQL on both. */
export interface ColumnStore {
  readonly kind: 'chdb' | 'clickhouse';
  readonly database: string;
  /** Runs a SELECT and returns its rows (JSONEachRow; 64-bit integers come back as numbers when they fit). */
  query<T = Record<string, unknown>>(q: ChQuery, opts: ColumnQueryOptions): Promise<T[]>;
  /** Runs DDL or another statement without a result. */
  command(q: ChQuery, opts: ColumnQueryOptions): Promise<void>;
  /** Inserts rows (objects keyed by column) into a table of this store's database. */
  insert(table: string, rows: Record<string, unknown>[], opts: ColumnQueryOptions): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

const named = (q: ChQuery, opts: ColumnQueryOptions): ChQuery => ({ sql: `/* ${opts.name} */ ${q.sql}`, params: q.params });

/** The caller's options, with the current request's id and abort signal where the caller gave none. */
function scoped(opts: ColumnQueryOptions): ColumnQueryOptions {
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
  return cfg.kind === 'chdb' ? openChdb(cfg.dataDir, cfg.database) : openClickhouseServer(cfg);
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

async function openChdb(dataDir: string, database: string): Promise<ColumnStore> {
  const { Session } = await loadChdb();
  await mkdir(dataDir, { recursive: true });
  const session = new Session(dataDir);
  session.query(`CREATE DATABASE IF NOT EXISTS ${ident(database).text} ENGINE = Atomic`);
  const qualify = (q: ChQuery): ChQuery => q; // tables are referenced unqualified; USE below sets the database
  session.query(`USE ${ident(database).text}`);
  const run = async (q: ChQuery, opts: ColumnQueryOptions, format: string) => {
    const settings = `SETTINGS max_execution_time = ${opts.maxExecutionTime ?? 60}`;
    const text = /^\s*(\/\*.*?\*\/\s*)?(SELECT|WITH)\b/is.test(q.sql) ? `${q.sql} ${settings}` : q.sql;
    const body = named(qualify({ sql: text, params: q.params }), opts);
    const res = Object.keys(body.params).length
      ? await session.queryBindAsync(body.sql, bindValues(body), { format, signal: opts.signal })
      : await session.queryAsync(body.sql, { format, signal: opts.signal });
    return res.text();
  };
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
    async ping() {
      await session.queryAsync('/* ping */ SELECT 1', { format: 'CSV' });
    },
    async close() {
      session.close();
    },
  };
}

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
  };
  const client = createClient({ ...base, database: cfg.database });

  // The server may be down when we start: the service still starts (and /health says degraded), and the database
  // is created and the version probed on the first query that reaches it.
  let ready: Promise<{ canBind: boolean }> | null = null;
  const ensureReady = () => {
    ready ??= (async () => {
      const admin = createClient(base);
      try {
        await admin.command({ query: `CREATE DATABASE IF NOT EXISTS ${ident(cfg.database).text}` });
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

  const prepare = async (q: ChQuery, opts: ColumnQueryOptions) => {
    const { canBind } = await ensureReady();
    const body = named(q, opts);
    return canBind ? { query: body.sql, query_params: bindValues(body) } : { query: inline(body) };
  };
  const queryId = (opts: ColumnQueryOptions) => (opts.requestId ? `${opts.name}-${opts.requestId}-${Date.now()}` : undefined);
  return {
    kind: 'clickhouse',
    database: cfg.database,
    async query<T>(q: ChQuery, given: ColumnQueryOptions) {
      const opts = scoped(given);
      const rs = await client.query({
        ...(await prepare(q, opts)),
        format: 'JSONEachRow',
        abort_signal: opts.signal,
        query_id: queryId(opts),
        clickhouse_settings: { max_execution_time: opts.maxExecutionTime ?? 60, output_format_json_quote_64bit_integers: 0 },
      });
      return rs.json<T>();
    },
    async command(q, given) {
      const opts = scoped(given);
      await client.command({ ...(await prepare(q, opts)), abort_signal: opts.signal, query_id: queryId(opts) });
    },
    async insert(table, rows, given) {
      if (rows.length === 0) return;
      const opts = scoped(given);
      await ensureReady();
      await client.insert({ table: ident(table).text, values: rows, format: 'JSONEachRow', abort_signal: opts.signal, query_id: queryId(opts) });
    },
    async ping() {
      const r = await client.ping();
      if (!r.success) throw r.error;
      await ensureReady();
    },
    close: () => client.close(),
  };
}

export { ch };
