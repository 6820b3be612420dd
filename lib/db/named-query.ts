import { sql, type SQL } from 'drizzle-orm';
import type { Db } from './relational.js';
import { queryError, type DriverErrorMessages } from './driver-errors.js';

/**
 * Runs one named query and returns its raw rows, which a row shape reads (lib/db/rows.ts: queryRows). The statement is sent with its name as a leading
 * `/* Store.method *\/` comment, written here, so logs and pg_stat_statements can be searched by name; rows come
 * back with snake_case keys. A driver error becomes Conflict or BadInput where `errors` says what it means to the
 * user (a function: the message of a unique violation); any other is rethrown with the query name, so services
 * never see driver errors (queryError).
 */
export async function namedQuery(db: Db, name: string, q: SQL, errors?: DriverErrorMessages | ((constraint: string) => string)): Promise<unknown[]> {
  if (!QUERY_NAME.test(name)) throw new Error(`a query name is Store.method, not ${JSON.stringify(name)}`);
  try {
    const res = (await db.execute(sql`/* ${sql.raw(name)} */ ${q}`)) as unknown as { rows: unknown[] };
    return res.rows;
  } catch (e) {
    throw queryError(e, name, typeof errors === 'function' ? { unique: errors } : errors);
  }
}

/** What a query's name may be: it is written into the statement as a comment. */
const QUERY_NAME = /^[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)+$/;
