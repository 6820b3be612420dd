import type { SubgraphDeps } from '../../lib/subgraph.js';
import { openDownloadSigner } from '../../lib/objects/signed-url.js';
import { ontology } from '../ontology/index.js';
import { identity } from '../identity/index.js';
import { DatasetStore } from './store/dataset.store.js';
import { AccessRequestStore } from './store/access-request.store.js';
import { LineageStore } from './store/lineage.store.js';
import { CollectionStore } from './store/collection.store.js';
import { DataStore } from './store/data.store.js';
import { DatasetSearchStore } from './store/search.store.js';
import { DatasetService } from './dataset.service.js';
import { AssetService } from './asset.service.js';
import { AccessRequestService } from './access-request.service.js';
import { LineageService } from './lineage.service.js';
import { CollectionService } from './collection.service.js';
import { ExportService } from './export.service.js';
import { PerUserSlots } from '../../lib/per-user-slots.js';
import { DataReadService } from './data-read.service.js';
import { DraftService } from './draft.service.js';
import { TableIngestService } from './table-ingest.service.js';
import { readTableFile, tableKindOfUpload } from './table-files.js';
import { SynapseReadService } from './synapse-read.service.js';
import { NeuronSearchService } from './neuron-search.service.js';
import { SynapseReadStore } from './store/synapse-read.store.js';
import { serviceVersion } from '../../lib/package-root.js';
import { DownloadGrantService } from './download-grant.service.js';
import { DatasetSearchService } from './search/search.service.js';
import { PublishedDatasetService } from './search/published-dataset.service.js';
import { searchFederationOf } from './search/federated-search.js';
import { openSearchEngine } from './search/search-engine.js';
import { perRequestLoader } from '../../lib/request-loader.js';

/** Every service of the neurodata subgraph over these stores: the one place they are wired. */
export async function buildNeurodataServices(deps: SubgraphDeps) {
  const db = deps.stores.relational.db;
  const ontologyTerms = ontology.use(deps);
  const accounts = identity.use(deps);
  const store = new DatasetStore(db);
  const requests = new AccessRequestStore(db);
  const data = new DataStore(deps.stores.column);
  const signer = await openDownloadSigner(deps.config.dataDir);
  const searchStore = new DatasetSearchStore(db);
  const searchEngine = openSearchEngine(deps, searchStore, deps.log.child({ component: 'DatasetSearch' }));
  const datasets = new DatasetService(
    store,
    requests,
    data,
    deps.stores.objects,
    async (values) => ontologyTerms.validateTermValues(values),
    (ids) => accounts.existingAccountIds(ids),
    deps.clock,
    deps.log.child({ component: 'DatasetService' }),
    (id) => searchEngine.changed(id),
  );
  const datasetLoader = perRequestLoader(async (ids: readonly string[]) => {
    const found = new Map((await datasets.findMany(ids)).map((d) => [d.id, d]));
    return ids.map((id) => found.get(id) ?? null);
  });
  const exports = new ExportService(datasets, store);
  // One budget for a user's heavy reads, whichever route they come through.
  const heavyReads = new PerUserSlots(
    deps.config.assets.readsPerUser,
    (n) => `you are running ${n} large data reads already, the most one user may run at once (DATA_READS_MAX_CONCURRENT_PER_USER): wait for one to finish, or narrow the read`,
  );
  const tables: TableIngestService = new TableIngestService(datasets, store, data, deps.stores.objects, readTableFile, (d) => d.bounds ?? null,
    async (phrases) => (await ontologyTerms.findTermsByName(phrases, ['brain_region'])).filter((m) => m.status === 'active').map((m) => ({ input: m.input, code: m.term.code })),
    deps.config.assets, deps.clock, deps.log.child({ component: 'TableIngest' }));
  datasets.onBeforePublish((actor, d) => tables.deriveBeforePublish(actor, d));
  const requestStatuses = (ids: string[], requesterId: string) => requests.statusesFor(ids, requesterId);
  const synapseStore = new SynapseReadStore(deps.stores.column);
  return {
    datasetLoader,
    federation: searchFederationOf(deps),
    searchStore,
    searchEngine,
    search: new DatasetSearchService(searchStore, searchEngine, ontologyTerms, requestStatuses),
    published: new PublishedDatasetService(store, searchStore, requestStatuses, exports),
    store,
    data,
    datasets,
    assets: new AssetService(datasets, store, data, deps.stores.objects, signer, deps.config.assets, deps.clock, deps.log.child({ component: 'AssetService' }), tables, tableKindOfUpload),
    drafts: new DraftService(datasets, store, data),
    grants: new DownloadGrantService(signer, datasets, (id) => accounts.accountStanding(id), deps.clock),
    requests: new AccessRequestService(datasets, requests, store, deps.clock),
    lineage: new LineageService(datasets, new LineageStore(db), store, deps.clock),
    collections: new CollectionService(new CollectionStore(db), datasets, deps.clock),
    exports,
    reads: new DataReadService(datasets, data, deps.stores.objects, deps.clock, serviceVersion(), heavyReads),
    synapseReads: new SynapseReadService(datasets, synapseStore, data, deps.stores.objects, deps.clock, serviceVersion(), heavyReads),
    neuronSearch: new NeuronSearchService(datasets, synapseStore, data, deps.stores.objects, deps.clock, serviceVersion(), heavyReads),
  };
}

export type NeurodataServices = Awaited<ReturnType<typeof buildNeurodataServices>>;
