import type { SQL } from 'drizzle-orm';
import type { Db } from './relational.js';
import { Conflict } from '../errors.js';

/**
 * Runs one named query and returns its raw rows. Queries are written as SQL with a leading `/* Store.method *\/`
 * comment so logs and pg_stat_statements can be searched by name; rows come back with snake_case keys. A unique
 * violation becomes Conflict when the caller says what it means; any other driver error is rethrown with the query
 * name, so services never see driver errors.
 */
export async function namedQuery<T>(db: Db, name: string, q: SQL, conflictMessage?: (constraint: string) => string): Promise<T[]> {
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
/** uuid[] and text[] come back as a JS array from node-postgres and as '{a,b}' text where the type parser is off. */
export function fromTextArray(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  const s = String(v ?? '{}');
  return s === '{}' ? [] : s.slice(1, -1).split(',');
}
/** jsonb arrives parsed from both drivers; text only if a driver ever stops parsing it. */
export const fromJson = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));
