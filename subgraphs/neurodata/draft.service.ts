import { NotFound } from '../../lib/errors.js';
import type { RowCounts } from './dataset.model.js';
import type { Actor, DatasetService } from './dataset.service.js';
import type { DatasetStore } from './store/dataset.store.js';
import type { IngestProgress } from './store/ingest-progress.store.js';
import type { SynapseSummary } from './store/data.store.js';

/** What the summary needs of the column store. */
export interface DraftData {
  rowCounts(datasetId: string, version: number): Promise<RowCounts>;
  synapseSummary(at: { datasetId: string; version: number }): Promise<SynapseSummary>;
}

export interface DraftSummary {
  datasetId: string;
  version: number;
  tables: Array<{ table: string; rows: number }>;
  synapses: SynapseSummary | null;
  missing: string[];
  ingest: IngestProgress | null;
}

/** The column tables a summary lists, with the RowCounts field of each. */
const TABLE_COUNTS: Array<[string, keyof RowCounts]> = [
  ['neurons', 'neurons'],
  ['connections', 'connections'],
  ['morphologies', 'morphologies'],
  ['synapses', 'synapses'],
  ['roi_connections', 'roiConnections'],
  ['neuron_annotations', 'neuronAnnotations'],
  ['neuron_rois', 'neuronRois'],
  ['rois', 'rois'],
];

/** A draft's contents and what publishing it still needs: for those who may change the dataset. */
export class DraftService {
  constructor(
    private readonly datasets: DatasetService,
    private readonly store: DatasetStore,
    private readonly data: DraftData,
  ) {}

  async summary(actor: Actor, idOrSlug: string): Promise<DraftSummary> {
    const { dataset } = await this.datasets.viewForChange(actor, idOrSlug);
    if (dataset.draftVersion === null) {
      throw new NotFound(`dataset ${dataset.slug} has no open draft (latest is v${dataset.latestVersion}); an edit or an upload opens one`);
    }
    const at = { datasetId: dataset.id, version: dataset.draftVersion };
    const ingest = await this.store.currentIngest(dataset.id);
    const counts = await this.data.rowCounts(at.datasetId, at.version);
    return {
      datasetId: dataset.id,
      version: at.version,
      tables: TABLE_COUNTS.map(([table, field]) => ({ table, rows: Number(counts[field] ?? 0) })),
      // Two scans of every synapse: not while an ingest or the derived tables' build runs, when clients poll this
      // summary for the ingest's progress and the scans would compete with the build (minutes at FlyWire's size).
      synapses: Number(counts.synapses ?? 0) > 0 && !ingest ? await this.data.synapseSummary(at) : null,
      missing: await this.datasets.missingForPublication(dataset),
      ingest,
    };
  }
}
