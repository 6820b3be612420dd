/**
 * The neurodata subgraph's domain types: what its stores return and its services, citation and JSON-LD builders
 * take. Field names are camelCase here; the GraphQL types (wire names, snake_case) are mapped from these once.
 */

/** An ontology term as a dataset stores it: id and code are kept, so a later rename of the label breaks nothing. */
export interface TermValue {
  termId: string;
  vocabulary: string;
  code: string;
  label: string;
  /** The term's IRI (e.g. http://purl.obolibrary.org/obo/NCBITaxon_6239), when the vocabulary gives one. */
  uri: string | null;
}

/** Whether a creator is a person (cited by family and given name) or an organisation (cited by its whole name). */
export type CreatorKind = 'person' | 'organization';

export interface Creator {
  name: string;
  /**
   * Written with every metadata change; metadata kept before creators had a kind has none, and creatorKind()
   * reads it from the name then.
   */
  kind?: CreatorKind;
  /** ORCID iD as 0000-0002-1825-0097 (no URL prefix). */
  orcid: string | null;
  affiliation: string | null;
}

export interface Publication {
  doi: string | null;
  citation: string | null;
  url: string | null;
  /** The year the paper appeared; search filters and facets use it as the dataset's year. */
  year?: number | null;
}

/** What a publisher edits; a published version keeps a frozen copy of it. */
export interface DatasetMetadata {
  title: string;
  description: string;
  species: TermValue[];
  brainRegions: TermValue[];
  microscopy: TermValue[];
  neurotransmitters: TermValue[];
  keywords: string[];
  /** SPDX licence identifier (CC-BY-4.0, MIT, ...), or null while the draft has none. */
  license: string | null;
  creators: Creator[];
  relatedPublication: Publication | null;
  /** The dataset's own DOI, when one has been assigned. */
  doi: string | null;
  /**
   * The unit of the dataset's stored coordinates (synapse and soma positions): nm, um or voxel; null when not
   * declared. Absent in metadata written before it existed, read as null.
   */
  coordinateUnit?: CoordinateUnit | null;
  /** The size of one voxel in nm along x, y, z; required when coordinateUnit is voxel. */
  voxelSize?: [number, number, number] | null;
  /** The box every stored position lies in, in coordinateUnit (inclusive). */
  bounds?: CoordinateBounds | null;
}

export type CoordinateUnit = 'nm' | 'um' | 'voxel';

export interface CoordinateBounds {
  min: [number, number, number];
  max: [number, number, number];
}

export const VISIBILITIES = ['public', 'restricted'] as const;
export type Visibility = (typeof VISIBILITIES)[number];
/** draft: never published; published: at least one immutable version exists. */
export const DATASET_STATUSES = ['draft', 'published'] as const;
export type DatasetStatus = (typeof DATASET_STATUSES)[number];
export const ASSET_KINDS = ['neurons', 'connections', 'morphology', 'synapses', 'roi_connections', 'annotations', 'rois', 'other'] as const;
export type AssetKind = (typeof ASSET_KINDS)[number];

export interface AssetRecord {
  id: string;
  filename: string;
  kind: AssetKind;
  mediaType: string;
  size: number;
  sha256: string;
  objectKey: string;
  /** Rows ingested into the column store from this file (neurons, connections, 1 per morphology); 0 for others. */
  rows: number;
  createdAt: Date;
}

export interface RowCounts {
  neurons: number;
  connections: number;
  chemicalConnections: number;
  electricalConnections: number;
  morphologies: number;
  /** The synapse-level tables' rows (docs/neurodata-tables.md); 0 for a version published before they existed. */
  synapses: number;
  roiConnections: number;
  neuronAnnotations: number;
  rois: number;
  neuronRois: number;
}

export interface DatasetRecord extends DatasetMetadata {
  id: string;
  ownerId: string;
  maintainerIds: string[];
  visibility: Visibility;
  status: DatasetStatus;
  /** The newest published version number, null before the first publication. */
  latestVersion: number | null;
  createdAt: Date;
  updatedAt: Date;
  publishedAt: Date | null;
}

export interface VersionRecord {
  datasetId: string;
  version: number;
  metadata: DatasetMetadata;
  assets: AssetRecord[];
  rowCounts: RowCounts;
  publishedAt: Date;
  publishedBy: string;
}
