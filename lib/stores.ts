import { ConfigError, type Config } from './config.js';
import { unavailableIn } from './errors.js';
import { openRelational, type RelationalStore } from './db/relational.js';
import { openColumn, type ColumnStore } from './column/column.js';
import { openObjects, type ObjectStore } from './objects/objects.js';
import { openSearch, type SearchEngine } from './search/search.js';
import { ensureInstanceId } from './db/instance.js';
import type { Limits, LimitsLog } from './limits/limits.js';
import { openLimits } from './limits/open-limits.js';

/** Every store the subgraphs use, opened once per process from the configuration. */
export interface Stores {
  relational: RelationalStore;
  column: ColumnStore;
  objects: ObjectStore;
  search: SearchEngine;
  /** Rate limits and login throttles: in this process, or shared through Redis (REDIS_URL). */
  limits: Limits;
}

const consoleLog: LimitsLog = { warn: (obj, msg) => console.warn(msg, obj), info: () => {} };

export async function openStores(config: Config, log: LimitsLog = consoleLog): Promise<Stores> {
  const relational = await openRelational(config.relational);
  try {
    await relational.migrate();
  } catch (e) {
    await relational.close().catch(() => {});
    throw unreachable(config, e);
  }
  await ensureInstanceId(relational.db);
  const column = await openColumn(config.column);
  const objects = await openObjects(config.objects);
  const search = await openSearch(config.search);
  const limits = await openLimits(config.limits, log);
  return { relational, column, objects, search, limits };
}

/** PostgreSQL that cannot be reached or entered at start-up is the operator's to fix: say so without a stack trace. */
function unreachable(config: Config, e: unknown): unknown {
  if (config.relational.kind !== 'postgres') return e;
  // The driver's own error, below the ServiceUnavailable the relational store makes of a connection failure.
  const lost = unavailableIn(e);
  const err = (lost?.cause ?? e) as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err.code ?? err.cause?.code;
  const message = err.cause?.message ?? err.message ?? String(e);
  const connection = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', '28P01', '28000', '3D000'].includes(code ?? '');
  if (!lost && !connection && !/timeout exceeded when trying to connect|Connection terminated/i.test(message)) return e;
  const where = new URL(config.relational.url);
  return new ConfigError([
    `DATABASE_URL: cannot use PostgreSQL at ${where.hostname}:${where.port || 5432}${where.pathname} (${message}); check that the server runs, the database exists and the user may log in`,
  ]);
}

export async function closeStores(s: Stores): Promise<void> {
  await Promise.allSettled([s.relational.close(), s.column.close(), s.objects.close(), s.limits.close()]);
}
