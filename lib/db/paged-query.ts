import { sql, type SQL } from 'drizzle-orm';
import type { Db } from './relational.js';
import { namedQuery } from './named-query.js';
import { col, rowOf, type RowShape } from './rows.js';

export interface Page {
  limit: number;
  offset: number;
}

/** The parts of `select <columns> from <from> where <where> order by <orderBy>`, and the shape of its rows. */
export interface PagedSelect<T> {
  shape: RowShape<T>;
  /** The select list; the shape's columns when not given. */
  columns?: SQL;
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
export async function pagedQuery<T>(db: Db, names: { list: string; count: string }, q: PagedSelect<T>, page: Page): Promise<{ rows: T[]; total: number }> {
  const raw = await namedQuery(
    db,
    names.list,
    sql`select ${q.columns ?? q.shape.columns()}, count(*) over () as total from ${q.from} where ${q.where}
      order by ${q.orderBy} limit ${page.limit} offset ${page.offset}`,
  );
  let total = raw.length ? TOTAL.parse(raw[0], names.list).total : 0;
  if (!raw.length && page.offset > 0) {
    const [c] = await namedQuery(db, names.count, sql`select count(*) as total from ${q.from} where ${q.where}`);
    total = TOTAL.parse(c, names.count).total;
  }
  return { rows: raw.map((r) => q.shape.parse(r, names.list)), total };
}

const TOTAL = rowOf({ total: col.int });
