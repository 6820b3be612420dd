import type { FastifyBaseLogger } from 'fastify';
import type { SubgraphDeps } from '../../../lib/subgraph.js';
import type { DatasetSearchStore } from '../store/search.store.js';
import type { DatasetSearchEngine } from './search.model.js';
import { TypesenseSearchEngine } from './typesense.engine.js';
import { reindexCatalogue, type ManagedSearchEngine } from './catalogue.js';

export { REINDEX_BATCH, reindexCatalogue, type ManagedSearchEngine } from './catalogue.js';

class PostgresSearchEngine implements ManagedSearchEngine {
  readonly name = 'postgres' as const;
  constructor(private readonly store: DatasetSearchStore) {}

  search(plan: Parameters<DatasetSearchEngine['search']>[0]) {
    return this.store.search(plan);
  }

  changed(): void {
    // The catalogue row was written in the dataset write's own transaction.
  }

  async reindex(onProgress?: (done: number, total: number) => void) {
    const { indexed, removed } = await reindexCatalogue(this.store, onProgress);
    return { indexed, removed };
  }
}

/** PostgreSQL full text, or Typesense when TYPESENSE_URL is set (the catalogue rows stay its source either way). */
export function openSearchEngine(deps: Pick<SubgraphDeps, 'stores'>, store: DatasetSearchStore, log: FastifyBaseLogger): ManagedSearchEngine {
  const client = deps.stores.search.client;
  if (deps.stores.search.kind === 'typesense' && client) return new TypesenseSearchEngine(client, store, log);
  return new PostgresSearchEngine(store);
}
