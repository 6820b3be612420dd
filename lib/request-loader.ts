import DataLoader from 'dataloader';

/**
 * A DataLoader per request context for `batch`, so the lookups one request makes (a page of datasets naming 50
 * owners, 50 term references) cost one query, and nothing is cached from one request to the next.
 */
export function perRequestLoader<K, V>(batch: (keys: readonly K[]) => Promise<ReadonlyArray<V | Error>>): (ctx: object) => DataLoader<K, V> {
  const loaders = new WeakMap<object, DataLoader<K, V>>();
  return (ctx) => {
    let loader = loaders.get(ctx);
    if (!loader) loaders.set(ctx, (loader = new DataLoader(batch)));
    return loader;
  };
}
