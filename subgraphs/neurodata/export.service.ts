import { NotFound } from '../../lib/errors.js';
import { CITATION_FORMATS, citationFormatFor, type CitationFormat, type CitationInput } from './citation.js';
import { toJsonLd } from './jsonld.js';
import type { AssetRecord, DatasetMetadata, RowCounts } from './dataset.model.js';
import { pickMetadata, type Actor, type DatasetService } from './dataset.service.js';
import { parseDatasetRef } from './dataset-access.rules.js';
import type { DatasetStore, StoredDataset } from './store/dataset.store.js';

export const PUBLISHER = 'Neuroscience Data Service';

interface Described {
  dataset: StoredDataset;
  metadata: DatasetMetadata;
  version: number | null;
  publishedAt: Date | null;
  assets: AssetRecord[];
  rowCounts: RowCounts | null;
  canReadData: boolean;
}

/**
 * Citations (BibTeX, RIS) and schema.org JSON-LD of a dataset version. They describe metadata only, so a
 * restricted dataset's are open to every academic caller, as its record is; a draft is described to those who may
 * see it, without a version.
 */
export class ExportService {
  constructor(
    private readonly datasets: DatasetService,
    private readonly store: DatasetStore,
  ) {}

  async citation(actor: Actor, ref: string, opts: { version?: string | null; format?: string | null; accept?: string | null; baseUrl: string }) {
    const format: CitationFormat = citationFormatFor(opts.format ?? undefined, opts.accept ?? undefined);
    const d = await this.describe(actor, ref, opts.version);
    const spec = CITATION_FORMATS[format];
    const text = spec.render(this.citationInput(d, opts.baseUrl));
    const filename = `${d.dataset.slug}${d.version ? `_v${d.version}` : '_draft'}.${spec.extension}`;
    return { format, mediaType: spec.mediaType, filename, text, datasetId: d.dataset.id, version: d.version };
  }

  async jsonLd(actor: Actor, ref: string, opts: { version?: string | null; baseUrl: string }): Promise<Record<string, unknown>> {
    const d = await this.describe(actor, ref, opts.version);
    const base = opts.baseUrl.replace(/\/+$/, '');
    const variables = [];
    if ((d.rowCounts?.neurons ?? 0) > 0) variables.push('neuron identity, class, type and neurotransmitter');
    if ((d.rowCounts?.chemicalConnections ?? 0) > 0) variables.push('chemical synapse weight between neuron pairs');
    if ((d.rowCounts?.electricalConnections ?? 0) > 0) variables.push('gap junction (electrical synapse) weight between neuron pairs');
    if ((d.rowCounts?.morphologies ?? 0) > 0) variables.push('neuron morphology (SWC reconstruction)');
    return toJsonLd({
      ...this.citationInput(d, opts.baseUrl),
      createdAt: d.dataset.createdAt,
      updatedAt: d.dataset.updatedAt,
      distribution: d.assets.map((a) => ({
        name: a.filename,
        contentUrl: `${base}/v1/neurodata/datasets/${d.dataset.id}/assets/${a.id}/content`,
        encodingFormat: a.mediaType,
        contentSize: a.size,
        sha256: a.sha256,
      })),
      variableMeasured: variables,
      catalogUrl: `${base}/v1/neurodata/datasets`,
      isAccessibleForFree: true,
    });
  }

  private citationInput(d: Described, baseUrl: string): CitationInput {
    const base = baseUrl.replace(/\/+$/, '');
    return {
      dataset: { ...d.metadata, id: d.dataset.id },
      version: d.version,
      publishedAt: d.publishedAt,
      url: `${base}/v1/neurodata/datasets/${d.dataset.id}`,
      publisher: `${PUBLISHER}${base ? ` (${new URL(base).host})` : ''}`,
    };
  }

  private async describe(actor: Actor, ref: string, version?: string | null): Promise<Described> {
    const { dataset: key, selector } = parseDatasetRef(ref, version);
    const { dataset, access } = await this.datasets.view(actor, key);
    // Files and what they measure are the data's: a restricted dataset's description names neither.
    const data = (assets: AssetRecord[], rowCounts: RowCounts | null) => (access.canReadData ? { assets, rowCounts } : { assets: [], rowCounts: null });
    if (selector.kind === 'draft' || (selector.kind === 'latest' && dataset.latestVersion === null)) {
      if (!access.canModify || dataset.draftVersion === null) throw new NotFound(`dataset ${JSON.stringify(key)} has no draft you may read`);
      const assets = await this.store.assets(dataset.id, dataset.draftVersion);
      return { dataset, metadata: pickMetadata(dataset), version: null, publishedAt: null, ...data(assets, null), canReadData: access.canReadData };
    }
    const number = selector.kind === 'number' ? selector.version : dataset.latestVersion!;
    const v = await this.store.version(dataset.id, number);
    if (!v) throw new NotFound(`dataset ${JSON.stringify(key)} has no version v${number}; the latest is v${dataset.latestVersion}`);
    return { dataset, metadata: v.metadata, version: v.version, publishedAt: v.publishedAt, ...data(v.assets, v.rowCounts), canReadData: access.canReadData };
  }
}
