import { NotFound } from '../../lib/errors.js';
import { CITATION_FORMATS, citationFormatFor, toCitationText, type CitationFormat, type CitationInput } from './citation.js';
import { conditionsOfAccess, toJsonLd } from './jsonld.js';
import type { AssetRecord, DatasetMetadata, RowCounts, VersionRecord } from './dataset.model.js';
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

/** A citation file of one format. */
export interface CitationFile {
  format: CitationFormat;
  mediaType: string;
  filename: string;
  text: string;
}

/** What the public record of a published dataset cites and describes (search/published-dataset.service.ts). */
export interface PublicExports {
  /** The citation as one line of a reference list. */
  text: string;
  /** BibTeX and RIS. */
  files: CitationFile[];
  /** schema.org Dataset without distribution. */
  jsonLd: Record<string, unknown>;
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
    const c = citationFile(d, format, citationInput(d, opts.baseUrl));
    return { ...c, datasetId: d.dataset.id, version: d.version };
  }

  async jsonLd(actor: Actor, ref: string, opts: { version?: string | null; baseUrl: string }): Promise<Record<string, unknown>> {
    return jsonLdOf(await this.describe(actor, ref, opts.version), opts.baseUrl);
  }

  /**
   * The citations and JSON-LD of a published version for its public record, by the same builders as `citation` and
   * `jsonLd`: never a file (no distribution), and what the data measure only when `rowCounts` is given (the caller
   * decided the viewer may read the data). `catalogUrl` is the catalogue's page, named in place of the API's (which
   * needs an Academic account).
   */
  publicExports(dataset: StoredDataset, version: VersionRecord, rowCounts: RowCounts | null, opts: { baseUrl: string; catalogUrl: string }): PublicExports {
    const d: Described = { dataset, metadata: version.metadata, version: version.version, publishedAt: version.publishedAt, assets: [], rowCounts, canReadData: rowCounts !== null };
    const input = citationInput(d, opts.baseUrl);
    return {
      text: toCitationText(input),
      files: (Object.keys(CITATION_FORMATS) as CitationFormat[]).map((format) => citationFile(d, format, input)),
      jsonLd: jsonLdOf(d, opts.baseUrl, opts),
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

const trimBase = (baseUrl: string) => baseUrl.replace(/\/+$/, '');

/**
 * A dataset's landing page, `/datasets/{slug}` under the service's base URL (PUBLIC_URL, or the one the request
 * used): the URL and `@id` its citations and JSON-LD name, whoever asks and by whichever route, since it opens to
 * everyone (the API's record needs an Academic account and is named by an id of this install).
 */
export function datasetPageUrl(baseUrl: string, slug: string): string {
  return `${trimBase(baseUrl)}/datasets/${encodeURIComponent(slug)}`;
}

/** What a citation is built from. */
function citationInput(d: Described, baseUrl: string): CitationInput {
  const base = trimBase(baseUrl);
  return {
    dataset: { ...d.metadata, id: d.dataset.id, slug: d.dataset.slug },
    version: d.version,
    publishedAt: d.publishedAt,
    url: datasetPageUrl(base, d.dataset.slug),
    publisher: `${PUBLISHER}${base ? ` (${new URL(base).host})` : ''}`,
  };
}

function citationFile(d: Described, format: CitationFormat, input: CitationInput): CitationFile {
  const spec = CITATION_FORMATS[format];
  return { format, mediaType: spec.mediaType, filename: `${d.dataset.slug}${d.version ? `_v${d.version}` : '_draft'}.${spec.extension}`, text: spec.render(input) };
}

function jsonLdOf(d: Described, baseUrl: string, pages?: { catalogUrl: string }): Record<string, unknown> {
  const base = trimBase(baseUrl);
  const variables = [];
  if ((d.rowCounts?.neurons ?? 0) > 0) variables.push('neuron identity, class, type and neurotransmitter');
  if ((d.rowCounts?.chemicalConnections ?? 0) > 0) variables.push('chemical synapse weight between neuron pairs');
  if ((d.rowCounts?.electricalConnections ?? 0) > 0) variables.push('gap junction (electrical synapse) weight between neuron pairs');
  if ((d.rowCounts?.morphologies ?? 0) > 0) variables.push('neuron morphology (SWC reconstruction)');
  return toJsonLd({
    ...citationInput(d, baseUrl),
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
    // The catalogue's page, like the dataset's: open to everyone.
    catalogUrl: pages?.catalogUrl ?? `${base}/datasets`,
    isAccessibleForFree: true,
    conditionsOfAccess: conditionsOfAccess(d.dataset.visibility),
  });
}
