import DataLoader from 'dataloader';
import type { GraphQLSchema } from 'graphql';
import { buildFederatedSchema } from '../../schema/federation.js';
import { pingResolver } from '../../schema/health.types.js';
import type { SubgraphDeps } from '../../lib/subgraph.js';
import type { RequestContext } from '../../lib/context.js';
import { requireClass, AccessClass } from '../../lib/access.js';
import { createDownloadSigner, loadDownloadSigningSecret, type DataRead } from '../../lib/objects/signed-url.js';
import { findTermsByName, narrowerTerms, suggestTermsForWord, validateTermValues } from '../ontology/index.js';
import { accountStanding, existingAccountIds } from '../identity/index.js';
import { DatasetStore } from './store/dataset.store.js';
import { AccessRequestStore } from './store/access-request.store.js';
import { LineageStore } from './store/lineage.store.js';
import { CollectionStore } from './store/collection.store.js';
import { DataStore } from './store/data.store.js';
import { migrateColumnTables } from './store/clickhouse/migrations.js';
import { DatasetService, type Actor } from './dataset.service.js';
import { AssetService } from './asset.service.js';
import { AccessRequestService } from './access-request.service.js';
import { LineageService } from './lineage.service.js';
import { CollectionService } from './collection.service.js';
import { ExportService } from './export.service.js';
import { DownloadGrantService } from './download-grant.service.js';
import { DatasetResolver } from './dataset.resolver.js';
import { AssetResolver } from './asset.resolver.js';
import { AccessRequestResolver } from './access-request.resolver.js';
import { LineageResolver } from './lineage.resolver.js';
import { CollectionResolver } from './collection.resolver.js';
import { ExportResolver } from './export.resolver.js';
import { actorOf, toDataset } from './dataset.mappers.js';
import { seedShippedDatasets, type SeedReport } from './seed.js';
import { DatasetSearchStore } from './store/search.store.js';
import { DatasetSearchService } from './search/search.service.js';
import { SearchResolver } from './search/search.resolver.js';
import { searchFederationOf } from './search/federated-search.js';
import { openSearchEngine, REINDEX_BATCH } from './search/search-engine.js';
import type { RowCounts } from './dataset.model.js';

export const SUBGRAPH_NAME = 'neurodata';
/** The shipped datasets' metadata is checked against the ontology's shipped vocabularies, and owned by an account. */
export const startsAfter = ['identity', 'ontology'] as const;

export { DATA_TABLES, NEURON_COLUMNS, CONNECTION_COLUMNS, MORPHOLOGY_COLUMNS, type DataTable } from './store/clickhouse/columns.js';
export type { DatasetAccess, DatasetRole } from './dataset-access.rules.js';
export { migrateColumnTables } from './store/clickhouse/migrations.js';

const built = new WeakMap<object, ReturnType<typeof buildServices>>();

/** The subgraph's services over these stores, built once per set of stores. */
export function services(deps: Pick<SubgraphDeps, 'stores' | 'config' | 'clock' | 'log'>): ReturnType<typeof buildServices> {
  let s = built.get(deps.stores);
  if (!s) built.set(deps.stores, (s = buildServices(deps)));
  return s;
}

/** Builds every service of the subgraph from its dependencies: the one place they are wired. */
async function buildServices(deps: Pick<SubgraphDeps, 'stores' | 'config' | 'clock' | 'log'>) {
  const db = deps.stores.relational.db;
  const log = deps.log.child({ subgraph: SUBGRAPH_NAME });
  const store = new DatasetStore(db);
  const requests = new AccessRequestStore(db);
  const data = new DataStore(deps.stores.column);
  const signer = createDownloadSigner(await loadDownloadSigningSecret(deps.config.dataDir));
  const searchStore = new DatasetSearchStore(db);
  const searchEngine = openSearchEngine(deps, searchStore, log.child({ component: 'DatasetSearch' }));
  const datasets = new DatasetService(
    store,
    requests,
    data,
    deps.stores.objects,
    async (values) => validateTermValues(deps, values),
    (ids) => existingAccountIds(deps, ids),
    deps.clock,
    log.child({ component: 'DatasetService' }),
    (id) => searchEngine.changed(id),
  );
  const ontology = {
    findTermsByName: (phrases: readonly string[], vocabularies: readonly string[]) => findTermsByName(deps, phrases, vocabularies),
    narrowerTerms: (ids: readonly string[]) => narrowerTerms(deps, ids),
    suggestTermsForWord: (word: string, vocabularies: readonly string[], minScore: number) => suggestTermsForWord(deps, word, vocabularies, minScore),
  };
  return {
    searchStore,
    searchEngine,
    search: new DatasetSearchService(searchStore, searchEngine, ontology, (ids, requesterId) => requests.statusesFor(ids, requesterId)),
    store,
    data,
    datasets,
    assets: new AssetService(datasets, store, data, deps.stores.objects, signer, deps.config.assets, deps.clock, log.child({ component: 'AssetService' })),
    grants: new DownloadGrantService(signer, datasets, (id) => accountStanding(deps, id), deps.clock),
    requests: new AccessRequestService(datasets, requests, store, deps.clock),
    lineage: new LineageService(datasets, new LineageStore(db), store, deps.clock),
    collections: new CollectionService(new CollectionStore(db), datasets, deps.clock),
    exports: new ExportService(datasets, store),
  };
}

export type NeurodataServices = Awaited<ReturnType<typeof buildServices>>;

/** Builds the neurodata subgraph's federated schema; `Dataset` is an entity other subgraphs can reference by id. */
export async function buildSchema(deps: SubgraphDeps): Promise<GraphQLSchema> {
  const s = await services(deps);
  // One loader per request context: a page of references to datasets costs one query.
  const loaders = new WeakMap<object, DataLoader<string, Awaited<ReturnType<DatasetService['findMany']>>[number] | null>>();
  const loaderFor = (ctx: object) => {
    let l = loaders.get(ctx);
    if (!l) {
      l = new DataLoader(async (ids: readonly string[]) => {
        const found = new Map((await s.datasets.findMany(ids)).map((d) => [d.id, d]));
        return ids.map((id) => found.get(id) ?? null);
      });
      loaders.set(ctx, l);
    }
    return l;
  };
  const Ping = pingResolver(SUBGRAPH_NAME);
  return buildFederatedSchema({
    resolvers: [Ping, DatasetResolver, AssetResolver, AccessRequestResolver, LineageResolver, CollectionResolver, ExportResolver, SearchResolver],
    instances: [
      new (Ping as new () => object)(),
      new DatasetResolver(s.datasets, s.lineage),
      new AssetResolver(s.assets, s.grants),
      new AccessRequestResolver(s.requests),
      new LineageResolver(s.lineage),
      new CollectionResolver(s.collections, s.datasets),
      new ExportResolver(s.exports),
      new SearchResolver(s.search, searchFederationOf(deps)),
    ],
    referenceResolvers: {
      Dataset: {
        // A reference resolves to what the caller may see of it (null otherwise), like every other read.
        __resolveReference: async (ref: { id: string }, ctx: RequestContext) => {
          if (!ctx?.viewer) return null;
          const d = await loaderFor(ctx).load(String(ref.id));
          if (!d) return null;
          const [viewed] = await s.datasets.present(actorOf(ctx), [d]);
          return viewed ? toDataset(viewed) : null;
        },
      },
    },
  });
}

/** Applies the column store's migrations and, on a first start, publishes the shipped datasets (SEED_DATASETS). */
export async function onStart(deps: SubgraphDeps): Promise<void> {
  try {
    const { applied } = await migrateColumnTables(deps.stores.column);
    if (applied.length) deps.log.info({ applied }, 'column store migrations applied');
  } catch (err) {
    // The service starts without its column store (and /health says degraded); the tables are created once it answers.
    deps.log.warn({ err: (err as Error).message }, 'column store unreachable: its migrations are retried every 10 s; shipped datasets are published on a later start');
    retryMigrations(deps);
    return;
  }
  await catchUpSearch(deps);
  if (!deps.config.seedDatasets) return;
  const report = await seedShippedDatasets(deps, await services(deps), { onlyMissing: true });
  const created = report.filter((r) => r.action === 'published');
  if (created.length) deps.log.info({ datasets: created.map((r) => ({ slug: r.slug, ms: r.ms })) }, 'shipped datasets published');
}

/** Rows for published datasets the catalogue lacks or shows stale (a database older than search, or restored from a backup). */
async function catchUpSearch(deps: SubgraphDeps): Promise<void> {
  const s = await services(deps);
  let written = 0;
  for (let n = -1; n !== 0; written += n) n = await s.searchStore.syncStale(REINDEX_BATCH);
  if (!written) return;
  await s.searchStore.analyze();
  deps.log.info({ datasets: written }, 'search catalogue caught up');
}

/**
 * Rebuilds the search index from the datasets (npm run search:reindex): the PostgreSQL catalogue rows and, when
 * Typesense is configured, its collection. Reports progress after each batch.
 */
export async function reindexSearch(deps: Pick<SubgraphDeps, 'stores' | 'config' | 'clock' | 'log'>, onProgress?: (done: number, total: number) => void) {
  const s = await services(deps);
  return { engine: s.searchEngine.name, ...(await s.searchEngine.reindex(onProgress)) };
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

/** Publishes the shipped datasets that are missing (npm run seed -- neurodata), reporting each one. */
export async function seed(deps: SubgraphDeps, onProgress?: (message: string) => void): Promise<SeedReport[]> {
  await migrateColumnTables(deps.stores.column);
  return seedShippedDatasets(deps, await services(deps), { onlyMissing: true, onProgress });
}

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

/**
 * The one access decision for reading a dataset's data, for every subgraph (query, graph, analytics, jobs):
 * `ref` is `id-or-slug[@latest|@vN|@draft]` (or give `version` separately). Requires the Academic class; throws
 * NotFound (absent, or a draft the caller may not see), Forbidden with how to request access (restricted), or
 * Conflict (nothing published yet). Other subgraphs read the rows from the column tables of
 * docs/neurodata-tables.md with the returned (datasetId, version), never from this subgraph's relational tables.
 */
export async function resolveDatasetVersion(
  deps: Pick<SubgraphDeps, 'stores' | 'config' | 'clock' | 'log'>,
  ctx: Pick<RequestContext, 'viewer' | 'authError' | 'reloadViewer' | 'log'>,
  ref: string,
  version?: string | number | null,
): Promise<DatasetVersionRef> {
  const viewer = await requireClass(ctx, AccessClass.Academic);
  const s = await services(deps);
  const actor: Actor = { id: viewer.id, superuser: viewer.accountType === 'SUPERUSER' };
  const r = await s.datasets.resolve(actor, ref, version);
  return {
    datasetId: r.dataset.id,
    slug: r.dataset.slug,
    title: r.dataset.title,
    version: r.version,
    isDraft: r.isDraft,
    visibility: r.dataset.visibility,
    rowCounts: await s.data.rowCounts(r.dataset.id, r.version),
  };
}

/**
 * For data computed earlier from datasets (job results): throws unless the caller may still read every one of
 * these dataset versions by the decision as it stands now, with the errors reading the data directly would give
 * (NotFound when the dataset is gone or a draft is no longer theirs, Forbidden with how to ask when restricted).
 */
export async function checkStillReadable(
  deps: Pick<SubgraphDeps, 'stores' | 'config' | 'clock' | 'log'>,
  ctx: Pick<RequestContext, 'viewer' | 'authError' | 'reloadViewer' | 'log'>,
  reads: readonly DataRead[],
): Promise<void> {
  const viewer = await requireClass(ctx, AccessClass.Academic);
  const s = await services(deps);
  await s.datasets.checkStillReadable({ id: viewer.id, superuser: viewer.accountType === 'SUPERUSER' }, reads);
}

export type { DataRead } from '../../lib/objects/signed-url.js';
export type { CatalogueEntry } from './dataset.service.js';
export type { TermValue, RowCounts } from './dataset.model.js';

/**
 * For the analytics catalogue summary: every published dataset the caller may see, with its newest version's
 * metadata, and row counts only where the caller may read the data. Requires the Academic class.
 */
export async function publishedCatalogue(
  deps: Pick<SubgraphDeps, 'stores' | 'config' | 'clock' | 'log'>,
  ctx: Pick<RequestContext, 'viewer' | 'authError' | 'reloadViewer' | 'log'>,
) {
  const viewer = await requireClass(ctx, AccessClass.Academic);
  const s = await services(deps);
  return s.datasets.catalogue({ id: viewer.id, superuser: viewer.accountType === 'SUPERUSER' });
}
