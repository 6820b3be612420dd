import type { AssetRecord, DatasetMetadata, RowCounts, TermValue as TermValueRecord, VersionRecord } from './dataset.model.js';
import type { ViewedDataset } from './dataset.service.js';
import type { StoredDataset } from './store/dataset.store.js';
import type { AccessRequestRecord } from './store/access-request.store.js';
import type { Dataset, DatasetAsset, DatasetMetadataView, DatasetVersion, RowCountsView, TermValue } from './dataset.types.js';
import type { AccessRequest } from './access-request.types.js';
import type { RequestContext } from '../../lib/context.js';
import { actorOfViewer } from '../../lib/access.js';
import type { Actor } from './dataset.service.js';
import { creatorKind } from './citation.js';

/** The actor of a request; the root field's access check has run, so a viewer is present. */
export function actorOf(ctx: RequestContext): Actor {
  return actorOfViewer(ctx.viewer!);
}

/** Whom a download URL is issued to: the caller, marked when their token came from another cluster. */
export function grantHolderOf(ctx: RequestContext): { id: string; remote: boolean } {
  return { id: ctx.viewer!.id, remote: Boolean(ctx.viewer!.origin) };
}

const toTermValue = (t: TermValueRecord): TermValue => ({ term_id: t.termId, code: t.code, label: t.label, vocabulary: t.vocabulary, uri: t.uri, term: { id: t.termId } });

export function toMetadataView(m: DatasetMetadata): DatasetMetadataView {
  return {
    title: m.title,
    description: m.description,
    species: m.species.map(toTermValue),
    brain_regions: m.brainRegions.map(toTermValue),
    microscopy: m.microscopy.map(toTermValue),
    neurotransmitters: m.neurotransmitters.map(toTermValue),
    keywords: m.keywords,
    license: m.license,
    creators: m.creators.map((c) => ({ name: c.name, kind: creatorKind(c), orcid: c.orcid, affiliation: c.affiliation })),
    related_publication: m.relatedPublication ? { doi: m.relatedPublication.doi, citation: m.relatedPublication.citation, url: m.relatedPublication.url, year: m.relatedPublication.year ?? null } : null,
    doi: m.doi,
    coordinate_unit: m.coordinateUnit ?? null,
    voxel_size: m.voxelSize ?? null,
    bounds: m.bounds ?? null,
  };
}

export function toDataset(v: ViewedDataset): Dataset {
  const d: StoredDataset = v.dataset;
  return {
    ...toMetadataView(d),
    id: d.id,
    slug: d.slug,
    visibility: d.visibility,
    status: d.status,
    latest_version: d.latestVersion,
    draft_version: v.access.canModify ? d.draftVersion : null,
    owner_id: d.ownerId,
    owner: { id: d.ownerId },
    maintainer_ids: d.maintainerIds,
    maintainers: d.maintainerIds.map((id) => ({ id })),
    access: {
      role: v.access.role,
      can_read_data: v.access.canReadData,
      can_modify: v.access.canModify,
      can_administer: v.access.canAdminister,
      request_status: v.requestStatus,
    },
    created_at: d.createdAt,
    updated_at: d.updatedAt,
    published_at: d.publishedAt,
  };
}

export const toAsset = (a: AssetRecord): DatasetAsset => ({
  id: a.id,
  filename: a.filename,
  kind: a.kind,
  media_type: a.mediaType,
  size: a.size,
  sha256: a.sha256,
  rows: a.rows,
  created_at: a.createdAt,
});

export const toRowCountsView = (c: RowCounts): RowCountsView => ({
  neurons: c.neurons,
  connections: c.connections,
  chemical_connections: c.chemicalConnections,
  electrical_connections: c.electricalConnections,
  morphologies: c.morphologies,
  synapses: c.synapses,
  roi_connections: c.roiConnections,
  neuron_annotations: c.neuronAnnotations,
  rois: c.rois,
  neuron_rois: c.neuronRois,
});

/** A version as the viewer sees it: without `canReadData` (a restricted dataset), no files and no row counts. */
export function toVersion(slug: string, v: VersionRecord & { note: string | null }, canReadData: boolean): DatasetVersion {
  if (!canReadData) return { ...toVersion(slug, v, true), assets: [], row_counts: null };
  return {
    dataset_id: v.datasetId,
    version: v.version,
    reference: `${slug}@v${v.version}`,
    metadata: toMetadataView(v.metadata),
    assets: v.assets.map(toAsset),
    row_counts: toRowCountsView(v.rowCounts),
    note: v.note,
    published_at: v.publishedAt,
    published_by: v.publishedBy,
  };
}

export const toAccessRequest = (r: AccessRequestRecord): AccessRequest => ({
  id: r.id,
  dataset_id: r.datasetId,
  requester_id: r.requesterId,
  requester: { id: r.requesterId },
  status: r.status,
  message: r.message,
  response_message: r.responseMessage,
  decided_by: r.decidedBy,
  decided_at: r.decidedAt,
  created_at: r.createdAt,
  updated_at: r.updatedAt,
});
