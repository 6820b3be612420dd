import { BadInput, NotFound } from '../../../lib/errors.js';
import { decideAccess } from '../dataset-access.rules.js';
import type { RowCounts } from '../dataset.model.js';
import type { Actor } from '../dataset.service.js';
import { datasetPageUrl, type ExportService, type PublicExports } from '../export.service.js';
import type { DatasetStore } from '../store/dataset.store.js';
import type { DatasetSearchStore } from '../store/search.store.js';
import type { SearchRow } from './search.model.js';

/** A published dataset's public record, as one viewer (or an anonymous visitor) may see it. */
export interface PublishedRecord {
  /** The catalogue row: the latest published version's metadata. */
  row: SearchRow;
  /** Every published version, newest first: number, date and note (never files or counts). */
  versions: Array<{ version: number; publishedAt: Date; note: string | null }>;
  /** The latest version's row counts; null for a restricted dataset unless the viewer may read its data. */
  counts: RowCounts | null;
  /** Whether the data routes would answer this viewer: an Academic account (or above) the dataset grants its data. */
  canReadData: boolean;
  /** The dataset's page (`/datasets/{slug}`): what the citations and the JSON-LD name as its URL. */
  pageUrl: string;
  exports: PublicExports;
}

const ANONYMOUS: Actor = { id: '', superuser: false };

/**
 * The public record of a published dataset (spec 4.1, Public, like search): what a search hit shows of it, its
 * creators, its published versions, its citations and its schema.org JSON-LD. Search's rule decides what the viewer
 * sees: a restricted dataset's counts only with access to its data, and never its files, checksums, neuron names or
 * download URLs (the JSON-LD has no distribution). A dataset never published answers 404, to its owner too (their
 * draft is at the Academic `dataset` query).
 */
export class PublishedDatasetService {
  constructor(
    private readonly datasets: DatasetStore,
    private readonly catalogue: DatasetSearchStore,
    private readonly requestStatuses: (datasetIds: string[], requesterId: string) => Promise<Map<string, string>>,
    private readonly exports: ExportService,
  ) {}

  /**
   * By slug (or id); NotFound unless the dataset has a published version. `holdsAcademic`: the viewer holds the
   * Academic class or above, which every data route requires before the dataset's own rule.
   */
  async find(viewer: (Actor & { holdsAcademic: boolean }) | null, slug: string, baseUrl: string): Promise<PublishedRecord> {
    const key = String(slug ?? '').trim();
    if (!key || key.length > 200) throw new BadInput('slug: expected the slug (or id) of a published dataset');
    const dataset = await this.datasets.find(key);
    const [row] = dataset && dataset.latestVersion !== null ? await this.catalogue.rowsByIds([dataset.id]) : [];
    if (!dataset || !row) throw new NotFound(`no published dataset ${JSON.stringify(key)}`);

    const asksFor = viewer && row.visibility === 'restricted' && row.ownerId !== viewer.id;
    const requestStatus = asksFor ? ((await this.requestStatuses([row.datasetId], viewer.id)).get(row.datasetId) ?? null) : null;
    const access = decideAccess(viewer ?? ANONYMOUS, { ownerId: row.ownerId, maintainerIds: row.maintainerIds, visibility: row.visibility, status: 'published' }, requestStatus);
    const counts = access.canReadData ? row.rowCounts : null;

    const versions = await this.datasets.versions(dataset.id);
    const shown = versions.find((v) => v.version === row.version);
    if (!shown) throw new NotFound(`no published dataset ${JSON.stringify(key)}`);
    const base = baseUrl.replace(/\/+$/, '');
    const pageUrl = datasetPageUrl(base, row.slug);
    return {
      row,
      versions: versions.map((v) => ({ version: v.version, publishedAt: v.publishedAt, note: v.note })),
      counts,
      canReadData: Boolean(viewer?.holdsAcademic) && access.canReadData,
      pageUrl,
      exports: this.exports.publicExports(dataset, shown, counts, { baseUrl, catalogUrl: `${base}/datasets` }),
    };
  }
}
