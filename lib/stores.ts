import type { Config } from './config.js';
import { openRelational, type RelationalStore } from './db/relational.js';
import { openColumn, type ColumnStore } from './column/column.js';
import { openObjects, type ObjectStore } from './objects/objects.js';
import { openSearch, type SearchEngine } from './search/search.js';
import { ensureInstanceId } from './db/instance.js';

/** Every store the subgraphs use, opened once per process from the configuration. */
export interface Stores {
  relational: RelationalStore;
  column: ColumnStore;
  objects: ObjectStore;
  search: SearchEngine;
}

export async function openStores(config: Config): Promise<Stores> {
  const relational = await openRelational(config.relational);
  await relational.migrate();
  await ensureInstanceId(relational.db);
  const column = await openColumn(config.column);
  const objects = await openObjects(config.objects);
  const search = await openSearch(config.search);
  return { relational, column, objects, search };
}

export async function closeStores(s: Stores): Promise<void> {
  await Promise.allSettled([s.relational.close(), s.column.close(), s.objects.close()]);
}
