import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { sql } from 'drizzle-orm';
import { configFrom } from '../../config.js';
import { createTestEngines, type TestEngines } from '../../../test/kit/app.js';
import { namedQuery } from '../named-query.js';
import { pagedQuery } from '../paged-query.js';
import { openRelational, type RelationalStore } from '../relational.js';
import { col, rowOf } from '../rows.js';

describe(pagedQuery.name, () => {
  let engines: TestEngines;
  let store: RelationalStore;
  const item = rowOf({ id: col.int });
  const select = (owner: string) => ({ shape: item, columns: item.columns('n'), from: sql`paged_items n`, where: sql`n.owner = ${owner}`, orderBy: sql`n.id desc` });
  const names = { list: 'PagedTest.list', count: 'PagedTest.count' };

  beforeAll(async () => {
    engines = await createTestEngines();
    store = await openRelational(configFrom(engines.env).relational);
    await namedQuery(store.db, 'PagedTest.create', sql.raw('create table paged_items (id int primary key, owner text not null)'));
    await namedQuery(store.db, 'PagedTest.fill', sql.raw(`insert into paged_items select i, case when i % 2 = 0 then 'even' else 'odd' end from generate_series(1, 9) i`));
  });
  afterAll(async () => {
    await store?.close();
    await engines?.drop();
  });

  it('answers one page in order with the total of every matching row', async () => {
    const page = await pagedQuery(store.db, names, select('odd'), { limit: 2, offset: 1 });
    expect(page.rows).toEqual([{ id: 7 }, { id: 5 }]);
    expect(page.total).toBe(5);
  });

  it('still counts the rows for a page past the end, and answers 0 when none match', async () => {
    expect(await pagedQuery(store.db, names, select('even'), { limit: 10, offset: 10 })).toEqual({ rows: [], total: 4 });
    expect(await pagedQuery(store.db, names, select('none'), { limit: 10, offset: 0 })).toEqual({ rows: [], total: 0 });
  });
});
