import type { FastifyBaseLogger } from 'fastify';
import type { Client } from 'typesense';
import type { DatasetSearchStore } from '../store/search.store.js';
import type { SearchPlan, SearchResultPage } from './search.model.js';
import type { ManagedSearchEngine } from './search-engine.js';

/** Placeholder signature; the Typesense adapter is written next. */
export class TypesenseSearchEngine implements ManagedSearchEngine {
  readonly name = 'typesense' as const;
  constructor(
    private readonly client: Client,
    private readonly store: DatasetSearchStore,
    private readonly log: FastifyBaseLogger,
  ) {}
  search(plan: SearchPlan): Promise<SearchResultPage> {
    return this.store.search(plan);
  }
  changed(): void {}
  async reindex() {
    return { indexed: 0, removed: 0 };
  }
}
