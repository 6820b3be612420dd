import { sql, type SQL } from 'drizzle-orm';
import type { Db } from './relational.js';
import { namedQuery } from './named-query.js';

export interface Page {
  limit: number;
  offset: number;
}

/** The parts of `select <columns> from <from> where <where> order by <orderBy>`. */
export interface PagedSelect {
  columns: SQL;
  /** The table, with the alias `columns`, `where` and `orderBy` use. */
  from: SQL;
  where: SQL;
  orderBy: SQL;
}

/**
 * One page of rows with the total before paging, in one round trip: `count(*) over ()` rides along on every row
 * (and comes back as its `total`). A page past the end has no row to carry it, so only then is the total counted
 * on its own, as the query `names.count`.
 */
export async function pagedQuery<T>(db: Db, names: { list: string; count: string }, q: PagedSelect, page: Page): Promise<{ rows: T[]; total: number }> {
  const rows = await namedQuery<T & { total: unknown }>(
    db,
    names.list,
    sql`select ${q.columns}, count(*) over () as total from ${q.from} where ${q.where}
      order by ${q.orderBy} limit ${page.limit} offset ${page.offset}`,
  );
  let total = rows.length ? Number(rows[0].total) : 0;
  if (!rows.length && page.offset > 0) {
    const [c] = await namedQuery<{ n: unknown }>(db, names.count, sql`select count(*) as n from ${q.from} where ${q.where}`);
    total = Number(c.n);
  }
  return { rows, total };
}
