import type { DatasetSearchStore } from '../store/search.store.js';
import type { DatasetSearchEngine } from './search.model.js';

/** Datasets per re-index batch: one statement each, well under a second on the embedded engine. */
export const REINDEX_BATCH = 200;

/** The search engine as the subgraph runs it: queries, plus keeping an external index in step. */
export interface ManagedSearchEngine extends DatasetSearchEngine {
  /** After a commit changed a dataset: an external engine copies its catalogue row (or drops it); PostgreSQL has it already. */
  changed(datasetId: string): void;
  /** Rebuilds the index from the datasets, reporting progress after each batch. */
  reindex(onProgress?: (done: number, total: number) => void): Promise<{ indexed: number; removed: number }>;
}

/**
 * Rebuilds the PostgreSQL catalogue rows of every published dataset, batch by batch, then drops rows of unpublished
 * ones; returns the ids it indexed, for an external engine to copy.
 */
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
  await store.analyze();
  return { indexed, removed, ids };
}
