import type { RequestContext } from '../../lib/context.js';
import { actorOfViewer, requireClass, AccessClass } from '../../lib/access.js';
import type { DataRead } from '../../lib/objects/signed-url.js';
import { defineSubgraph, pingOf, type HandleOf, type SubgraphDeps } from '../../lib/subgraph.js';
import { migrateColumnTables } from './store/clickhouse/migrations.js';
import { DatasetResolver } from './dataset.resolver.js';
import { AssetResolver } from './asset.resolver.js';
import { AccessRequestResolver } from './access-request.resolver.js';
import { LineageResolver } from './lineage.resolver.js';
import { CollectionResolver } from './collection.resolver.js';
import { ExportResolver } from './export.resolver.js';
import { DataReadResolver } from './data-read.resolver.js';
import { DraftResolver } from './draft.resolver.js';
import { SynapseReadResolver } from './synapse-read.resolver.js';
import { NeuronSearchResolver } from './neuron-search.resolver.js';
import { SearchResolver } from './search/search.resolver.js';
import { PublishedDatasetResolver } from './search/published-dataset.resolver.js';
import { actorOf, toDataset } from './dataset.mappers.js';
import { seedShippedDatasets, type SeedReport } from './seed.js';
import { REINDEX_BATCH } from './search/search-engine.js';
import type { RowCounts } from './dataset.model.js';
import { buildNeurodataServices, type NeurodataServices } from './services.js';

export const SUBGRAPH_NAME = 'neurodata' as const;

export { DATA_TABLES, NEURON_COLUMNS, CONNECTION_COLUMNS, MORPHOLOGY_COLUMNS, type DataTable } from './store/clickhouse/columns.js';
export type { DatasetAccess, DatasetRole } from './dataset-access.rules.js';
export { migrateColumnTables } from './store/clickhouse/migrations.js';
export type { DataRead } from '../../lib/objects/signed-url.js';
export type { CatalogueEntry } from './dataset.service.js';
export type { TermValue, RowCounts } from './dataset.model.js';

type Caller = Pick<RequestContext, 'viewer' | 'authError' | 'reloadViewer' | 'log'>;

/** What another subgraph gets when it reads a dataset's data: the version it resolved to, echoed in its answers. */
export interface DatasetVersionRef {
  datasetId: string;
  slug: string;
  title: string;
  /** The version the data rows carry in the column tables (docs/neurodata-tables.md). */
  version: number;
  /** True when the caller (owner, maintainer, SuperUser) asked for the unpublished draft. */
  isDraft: boolean;
  visibility: 'public' | 'restricted';
  rowCounts: RowCounts;
}

/** The neurodata subgraph: datasets, their files and access, collections, lineage, search. */
export const neurodata = defineSubgraph({
  name: SUBGRAPH_NAME,
  /** The shipped datasets' metadata is checked against the ontology's shipped vocabularies, and owned by an account. */
  startsAfter: ['identity', 'ontology'],
  services: buildNeurodataServices,
  resolvers: (s) => [
    pingOf(SUBGRAPH_NAME),
    new DatasetResolver(s.datasets, s.lineage),
    new AssetResolver(s.assets, s.grants),
    new AccessRequestResolver(s.requests),
    new LineageResolver(s.lineage),
    new CollectionResolver(s.collections, s.datasets),
    new ExportResolver(s.exports),
    new DraftResolver(s.drafts),
    new DataReadResolver(s.reads, s.synapseReads),
    new SynapseReadResolver(s.synapseReads),
    new NeuronSearchResolver(s.neuronSearch),
    new SearchResolver(s.search, s.federation),
    new PublishedDatasetResolver(s.published),
  ],
  referenceResolvers: (s) => ({
    Dataset: {
      // A reference resolves to what the caller may see of it (null otherwise), like every other read.
      __resolveReference: async (ref: { id: string }, ctx: RequestContext) => {
        if (!ctx?.viewer) return null;
        const d = await s.datasetLoader(ctx).load(String(ref.id));
        if (!d) return null;
        const [viewed] = await s.datasets.present(actorOf(ctx), [d]);
        return viewed ? toDataset(viewed) : null;
      },
    },
  }),
  exports: (services) => ({
    /**
     * The one access decision for reading a dataset's data, for every subgraph (query, graph, analytics, jobs):
     * `ref` is `id-or-slug[@latest|@vN|@draft]` (or give `version` separately). Requires the Academic class; throws
     * NotFound (absent, or a draft the caller may not see), Forbidden with how to request access (restricted), or
     * Conflict (nothing published yet). Other subgraphs read the rows from the column tables of
     * docs/neurodata-tables.md with the returned (datasetId, version), never from this subgraph's relational tables.
     */
    async resolveDatasetVersion(ctx: Caller, ref: string, version?: string | number | null): Promise<DatasetVersionRef> {
      const viewer = await requireClass(ctx, AccessClass.Academic);
      const s = await services();
      const r = await s.datasets.resolve(actorOfViewer(viewer), ref, version);
      return {
        datasetId: r.dataset.id,
        slug: r.dataset.slug,
        title: r.dataset.title,
        version: r.version,
        isDraft: r.isDraft,
        visibility: r.dataset.visibility,
        rowCounts: await s.data.rowCounts(r.dataset.id, r.version),
      };
    },
    /**
     * For data computed earlier from datasets (job results): throws unless the caller may still read every one of
     * these dataset versions by the decision as it stands now, with the errors reading the data directly would give
     * (NotFound when the dataset is gone or a draft is no longer theirs, Forbidden with how to ask when restricted).
     */
    async checkStillReadable(ctx: Caller, reads: readonly DataRead[]): Promise<void> {
      const viewer = await requireClass(ctx, AccessClass.Academic);
      await (await services()).datasets.checkStillReadable(actorOfViewer(viewer), reads);
    },
    /**
     * For the analytics catalogue summary: every published dataset the caller may see, with its newest version's
     * metadata, and row counts only where the caller may read the data. Requires the Academic class.
     */
    async publishedCatalogue(ctx: Caller) {
      const viewer = await requireClass(ctx, AccessClass.Academic);
      return (await services()).datasets.catalogue(actorOfViewer(viewer));
    },
    /**
     * Rebuilds the search index from the datasets (npm run search:reindex): the PostgreSQL catalogue rows and, when
     * Typesense is configured, its collection. Reports progress after each batch.
     */
    async reindexSearch(onProgress?: (done: number, total: number) => void) {
      const s = await services();
      return { engine: s.searchEngine.name, ...(await s.searchEngine.reindex(onProgress)) };
    },
  }),
  /** Applies the column store's migrations and, on a first start, publishes the shipped datasets (SEED_DATASETS). */
  async onStart(s, deps) {
    try {
      const { applied } = await migrateColumnTables(deps.stores.column);
      if (applied.length) deps.log.info({ applied }, 'column store migrations applied');
    } catch (err) {
      // The service starts without its column store (and /health says degraded); the tables are created once it answers.
      deps.log.warn({ err: (err as Error).message }, 'column store unreachable: its migrations are retried every 10 s; shipped datasets are published on a later start');
      retryMigrations(deps);
      return;
    }
    await catchUpSearch(s, deps);
    if (!deps.config.seedDatasets) return;
    const report = await seedShippedDatasets(deps, s, { onlyMissing: true });
    const created = report.filter((r) => r.action === 'published');
    if (created.length) deps.log.info({ datasets: created.map((r) => ({ slug: r.slug, ms: r.ms })) }, 'shipped datasets published');
  },
  /** Publishes the shipped datasets that are missing (npm run seed -- neurodata), reporting each one. */
  async seed(s, deps, onProgress): Promise<SeedReport[]> {
    await migrateColumnTables(deps.stores.column);
    return seedShippedDatasets(deps, s, { onlyMissing: true, onProgress });
  },
});

/** What other subgraphs reach of neurodata: `neurodata.use(deps)`. */
export type NeurodataHandle = HandleOf<typeof neurodata>;

/** Rows for published datasets the catalogue lacks or shows stale (a database older than search, or restored from a backup). */
async function catchUpSearch(s: NeurodataServices, deps: SubgraphDeps): Promise<void> {
  let written = 0;
  for (let n = -1; n !== 0; written += n) n = await s.searchStore.syncStale(REINDEX_BATCH);
  if (!written) return;
  await s.searchStore.analyze();
  deps.log.info({ datasets: written }, 'search catalogue caught up');
}

function retryMigrations(deps: SubgraphDeps): void {
  const timer = setInterval(() => {
    migrateColumnTables(deps.stores.column).then(
      ({ applied }) => {
        clearInterval(timer);
        deps.log.info({ applied }, 'column store reachable again: migrations applied');
      },
      () => undefined,
    );
  }, 10_000);
  timer.unref();
}
