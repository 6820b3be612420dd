import type { FastifyBaseLogger } from 'fastify';
import type { SubgraphDeps } from '../../../lib/subgraph.js';
import type { DatasetSearchStore } from '../store/search.store.js';
import type { DatasetSearchEngine } from './search.model.js';
import { TypesenseSearchEngine } from './typesense.engine.js';

/** Datasets per re-index batch: one statement each, well under a second on the embedded engine. */
export const REINDEX_BATCH = 200;

/** The search engine as the subgraph runs it: queries, plus keeping an external index in step. */
export interface ManagedSearchEngine extends DatasetSearchEngine {
  /** After a commit changed a dataset: an external engine copies its catalogue row (or drops it); PostgreSQL has it already. */
  changed(datasetId: string): void;
  /** Rebuilds the index from the datasets, reporting progress after each batch. */
  reindex(onProgress?: (done: number, total: number) => void): Promise<{ indexed: number; removed: number }>;
}

/** Rebuilds the PostgreSQL catalogue rows of every published dataset, batch by batch, then drops rows of unpublished ones. */
export async function reindexCatalogue(store: DatasetSearchStore, onProgress?: (done: number, total: number) => void): Promise<{ indexed: number; removed: number; ids: string[] }> {
  const total = await store.countPublished();
  const ids: string[] = [];
  let after: string | null = null;
  let indexed = 0;
  for (;;) {
    const batch = await store.publishedIds(after, REINDEX_BATCH);
    if (!batch.length) break;
    indexed += await store.syncMany(batch);
    ids.push(...batch);
    after = batch[batch.length - 1];
    onProgress?.(indexed, total);
  }
  const removed = await store.pruneUnpublished();
  return { indexed, removed, ids };
}

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
