import type { SQL } from 'drizzle-orm';
import type { Db } from '../../../lib/db/relational.js';
import { Conflict } from '../../../lib/errors.js';

/**
 * Runs one named query and returns its raw rows. Queries are written as SQL with a leading `/* Store.method *\/`
 * comment so logs and pg_stat_statements can be searched by name; rows come back with snake_case keys.
 */
export async function query<T>(db: Db, name: string, q: SQL, conflictMessage?: (constraint: string) => string): Promise<T[]> {
  try {
    const res = (await db.execute(q)) as unknown as { rows: T[] };
    return res.rows;
  } catch (e) {
    const cause = (e as { cause?: { code?: string; constraint?: string } }).cause ?? (e as { code?: string; constraint?: string });
    if (cause?.code === '23505' && conflictMessage) throw new Conflict(conflictMessage(cause.constraint ?? ''));
    throw new Error(`query ${name} failed`, { cause: e });
  }
}

/** Timestamps arrive as text from both drivers (Drizzle turns their date parsing off). */
export const toDate = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
export const toDateOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : toDate(v));
