import { Directive, Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageOf } from '../../schema/page.types.js';
import { JSONObjectScalar } from '../../schema/scalars.js';

/** identity's public profile, referenced by id (the identity subgraph resolves its fields). */
@ObjectType('PublicProfile')
@Directive('@key(fields: "id", resolvable: false)')
export class PublicProfileRef {
  @Field(() => ID)
  id!: string;
}

/** ontology's term, referenced by id (the ontology subgraph resolves its fields). */
@ObjectType('Term')
@Directive('@key(fields: "id", resolvable: false)')
export class TermRef {
  @Field(() => ID)
  id!: string;
}

@ObjectType({ description: 'An ontology term as a dataset keeps it: id and code stay valid when a label is renamed.' })
export class TermValue {
  @Field(() => ID)
  term_id!: string;

  @Field(() => String, { description: 'e.g. NCBITaxon:6239, WBbt:0006749, FBbi:00000258' })
  code!: string;

  @Field(() => String, { description: 'the label when the value was stored' })
  label!: string;

  @Field(() => String)
  vocabulary!: string;

  @Field(() => String, { nullable: true, description: 'the term IRI' })
  uri!: string | null;

  @Field(() => TermRef, { description: 'the term as the ontology holds it now' })
  term!: TermRef;
}

@ObjectType()
export class Creator {
  @Field(() => String)
  name!: string;

  @Field(() => String, { description: 'person | organization: cited by family and given names, or by the whole name' })
  kind!: string;

  @Field(() => String, { nullable: true, description: 'ORCID iD, e.g. 0000-0002-1825-0097' })
  orcid!: string | null;

  @Field(() => String, { nullable: true })
  affiliation!: string | null;
}

@ObjectType()
export class Publication {
  @Field(() => String, { nullable: true })
  doi!: string | null;

  @Field(() => String, { nullable: true, description: 'citation text' })
  citation!: string | null;

  @Field(() => String, { nullable: true })
  url!: string | null;

  @Field(() => Int, { nullable: true, description: 'the year the paper appeared' })
  year!: number | null;
}

@ObjectType({ description: "A box in a dataset's coordinate space, corners inclusive." })
export class DatasetBounds {
  @Field(() => [Float], { description: '[x, y, z]' })
  min!: number[];

  @Field(() => [Float], { description: '[x, y, z]' })
  max!: number[];
}

@InputType()
export class DatasetBoundsInput {
  @Field(() => [Float], { description: '[x, y, z]' })
  min!: number[];

  @Field(() => [Float], { description: '[x, y, z]' })
  max!: number[];
}

@ObjectType({ description: 'Descriptive metadata of a dataset or of one of its published versions.' })
export class DatasetMetadataView {
  @Field(() => String)
  title!: string;

  @Field(() => String)
  description!: string;

  @Field(() => [TermValue])
  species!: TermValue[];

  @Field(() => [TermValue])
  brain_regions!: TermValue[];

  @Field(() => [TermValue], { description: 'microscopy techniques' })
  microscopy!: TermValue[];

  @Field(() => [TermValue])
  neurotransmitters!: TermValue[];

  @Field(() => [String])
  keywords!: string[];

  @Field(() => String, { nullable: true, description: 'SPDX licence identifier' })
  license!: string | null;

  @Field(() => [Creator])
  creators!: Creator[];

  @Field(() => Publication, { nullable: true })
  related_publication!: Publication | null;

  @Field(() => String, { nullable: true, description: "the dataset's own DOI, when assigned" })
  doi!: string | null;

  @Field(() => String, { nullable: true, description: 'unit of the stored coordinates (synapse and soma positions): nm | um | voxel; null when not declared' })
  coordinate_unit!: string | null;

  @Field(() => [Float], { nullable: true, description: 'size of one voxel in nm, [x, y, z]; given whenever coordinate_unit is voxel' })
  voxel_size!: number[] | null;

  @Field(() => DatasetBounds, { nullable: true, description: 'the box every stored position lies in, in coordinate_unit' })
  bounds!: DatasetBounds | null;
}

@ObjectType({ description: "The caller's rights on a dataset." })
export class DatasetAccessSummary {
  @Field(() => String, { description: 'owner | superuser | maintainer | granted | reader | none' })
  role!: string;

  @Field(() => Boolean, { description: 'may read neurons, connections, morphologies, files and results computed from them' })
  can_read_data!: boolean;

  @Field(() => Boolean, { description: 'may edit, upload, publish and decide access requests' })
  can_modify!: boolean;

  @Field(() => Boolean, { description: 'may delete the dataset and change its maintainers' })
  can_administer!: boolean;

  @Field(() => String, { nullable: true, description: "the caller's access request: pending | approved | denied; null when none" })
  request_status!: string | null;
}

@ObjectType({ description: 'A dataset. Readers see the metadata of its latest published version; owners and maintainers see the open draft.' })
@Directive('@key(fields: "id")')
export class Dataset extends DatasetMetadataView {
  @Field(() => ID, { description: 'UUID v7' })
  id!: string;

  @Field(() => String, { description: 'short stable name, usable wherever a dataset id is, e.g. celegans_varshney_2011@v1' })
  slug!: string;

  @Field(() => String, { description: 'public | restricted' })
  visibility!: string;

  @Field(() => String, { description: 'draft (never published) | published' })
  status!: string;

  @Field(() => Int, { nullable: true, description: 'newest published version; null before the first publication' })
  latest_version!: number | null;

  @Field(() => Int, { nullable: true, description: 'the version number the open draft will get; shown to owners and maintainers only' })
  draft_version!: number | null;

  @Field(() => ID)
  owner_id!: string;

  @Field(() => PublicProfileRef)
  owner!: PublicProfileRef;

  @Field(() => [ID])
  maintainer_ids!: string[];

  @Field(() => [PublicProfileRef])
  maintainers!: PublicProfileRef[];

  @Field(() => DatasetAccessSummary)
  access!: DatasetAccessSummary;

  @Field(() => Date)
  created_at!: Date;

  @Field(() => Date)
  updated_at!: Date;

  @Field(() => Date, { nullable: true })
  published_at!: Date | null;
}

@ObjectType()
export class DatasetPage extends PageOf(Dataset) {}

@ObjectType({ description: 'A draft that cannot be published yet, and what it lacks.' })
export class IncompleteDataset {
  @Field(() => Dataset)
  dataset!: Dataset;

  @Field(() => [String], { description: 'each missing piece, e.g. "license: an SPDX identifier"' })
  missing!: string[];
}

@ObjectType()
export class IncompleteDatasetPage extends PageOf(IncompleteDataset) {}

@ObjectType({ description: 'A file of a dataset version.' })
export class DatasetAsset {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  filename!: string;

  @Field(() => String, { description: 'neurons | connections | morphology | synapses | roi_connections | annotations | rois | other' })
  kind!: string;

  @Field(() => String)
  media_type!: string;

  @Field(() => Float, { description: 'bytes' })
  size!: number;

  @Field(() => String, { description: 'SHA-256 of the bytes, hex' })
  sha256!: string;

  @Field(() => Int, { description: 'rows ingested into the column store from this file (1 per morphology, 0 for other files)' })
  rows!: number;

  @Field(() => Date)
  created_at!: Date;
}

@ObjectType()
export class RowCountsView {
  @Field(() => Int)
  neurons!: number;

  @Field(() => Int)
  connections!: number;

  @Field(() => Int)
  chemical_connections!: number;

  @Field(() => Int, { description: 'gap-junction pairs (each unordered pair once)' })
  electrical_connections!: number;

  @Field(() => Int)
  morphologies!: number;

  @Field(() => Int, { description: 'synapse rows (synapse-level connectomes; 0 for others)' })
  synapses!: number;

  @Field(() => Int, { description: 'per-ROI connection rows: (pre, post, ROI) with a weight' })
  roi_connections!: number;

  @Field(() => Int, { description: 'neurons with annotations (cell type, class, lineage, ...)' })
  neuron_annotations!: number;

  @Field(() => Int, { description: 'regions of interest of the ROI hierarchy' })
  rois!: number;

  @Field(() => Int, { description: 'per-neuron per-ROI count rows' })
  neuron_rois!: number;
}

@ObjectType({ description: 'An immutable published version.' })
export class DatasetVersion {
  @Field(() => ID)
  dataset_id!: string;

  @Field(() => Int)
  version!: number;

  @Field(() => String, { description: 'how data routes address it, e.g. celegans_varshney_2011@v1' })
  reference!: string;

  @Field(() => DatasetMetadataView)
  metadata!: DatasetMetadataView;

  @Field(() => [DatasetAsset])
  assets!: DatasetAsset[];

  @Field(() => RowCountsView, { nullable: true, description: 'null (and no assets) when you may not read the data of a restricted dataset' })
  row_counts!: RowCountsView | null;

  @Field(() => String, { nullable: true })
  note!: string | null;

  @Field(() => Date)
  published_at!: Date;

  @Field(() => ID)
  published_by!: string;
}

@ObjectType()
export class DatasetVersionList {
  @Field(() => ID)
  dataset_id!: string;

  @Field(() => Int, { nullable: true })
  latest_version!: number | null;

  @Field(() => Int, { nullable: true, description: 'shown to owners and maintainers only' })
  draft_version!: number | null;

  @Field(() => [DatasetVersion], { description: 'newest first' })
  items!: DatasetVersion[];
}

@ObjectType({ description: 'The files of one version (or of the open draft).' })
export class DatasetAssetList {
  @Field(() => ID)
  dataset_id!: string;

  @Field(() => Int)
  version!: number;

  @Field(() => Boolean)
  draft!: boolean;

  @Field(() => [DatasetAsset])
  items!: DatasetAsset[];
}

@ObjectType()
export class DeletedDataset {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  slug!: string;

  @Field(() => Boolean)
  deleted!: boolean;
}

@ObjectType({ description: 'Where to stream an upload before it is attached (used by the upload route).' })
export class UploadTarget {
  @Field(() => ID)
  dataset_id!: string;

  @Field(() => String)
  upload_key!: string;

  @Field(() => Float)
  max_bytes!: number;
}

@InputType()
export class CreatorInput {
  @Field(() => String)
  name!: string;

  @Field(() => String, {
    nullable: true,
    description: 'person | organization; when absent, a name with an organisation word (Institute, Consortium, ...) or a web domain (NeuroMorpho.Org) is an organization',
  })
  kind?: string | null;

  @Field(() => String, { nullable: true })
  orcid?: string | null;

  @Field(() => String, { nullable: true })
  affiliation?: string | null;
}

@InputType()
export class PublicationInput {
  @Field(() => String, { nullable: true })
  doi?: string | null;

  @Field(() => String, { nullable: true })
  citation?: string | null;

  @Field(() => String, { nullable: true })
  url?: string | null;

  @Field(() => Int, { nullable: true, description: 'the year the paper appeared (1600..2200); search filters datasets by it' })
  year?: number | null;
}

@InputType()
export class UpdateDatasetInput {
  @Field(() => String, { nullable: true })
  title?: string | null;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => [String], { nullable: true, description: 'species: term codes, labels (e.g. NCBITaxon:6239 or Caenorhabditis elegans)' })
  species?: string[] | null;

  @Field(() => [String], { nullable: true, description: 'brain regions: term codes or labels' })
  brain_regions?: string[] | null;

  @Field(() => [String], { nullable: true, description: 'microscopy techniques: term codes or labels' })
  microscopy?: string[] | null;

  @Field(() => [String], { nullable: true, description: 'neurotransmitters: term codes or labels' })
  neurotransmitters?: string[] | null;

  @Field(() => [String], { nullable: true })
  keywords?: string[] | null;

  @Field(() => String, { nullable: true, description: 'SPDX licence identifier, e.g. CC-BY-4.0' })
  license?: string | null;

  @Field(() => [CreatorInput], { nullable: true })
  creators?: CreatorInput[] | null;

  @Field(() => PublicationInput, { nullable: true })
  related_publication?: PublicationInput | null;

  @Field(() => String, { nullable: true })
  doi?: string | null;

  @Field(() => String, { nullable: true, description: 'unit of the stored coordinates: nm | um | voxel (null clears)' })
  coordinate_unit?: string | null;

  @Field(() => [Float], { nullable: true, description: 'size of one voxel in nm, [x, y, z], each > 0; required when coordinate_unit is voxel' })
  voxel_size?: number[] | null;

  @Field(() => DatasetBoundsInput, { nullable: true, description: 'the box every stored position lies in, in coordinate_unit; uploads outside it are refused' })
  bounds?: DatasetBoundsInput | null;

  @Field(() => String, { nullable: true, description: 'public (default) | restricted' })
  visibility?: string | null;

  @Field(() => String, { nullable: true })
  slug?: string | null;

  @Field(() => [ID], { nullable: true, description: 'account ids; only the owner or a SuperUser may change them' })
  maintainer_ids?: string[] | null;
}

@InputType()
export class CreateDatasetInput extends UpdateDatasetInput {
  @Field(() => String)
  declare title: string;
}

@ObjectType({ description: 'A W3C PROV record of who did what to a dataset, and when.' })
export class ProvenanceEventView {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: 'create | update | upload | remove_asset | publish | derive | access_request | access_decision' })
  activity!: string;

  @Field(() => ID)
  agent_id!: string;

  @Field(() => PublicProfileRef)
  agent!: PublicProfileRef;

  @Field(() => Int, { nullable: true })
  version!: number | null;

  @Field(() => JSONObjectScalar)
  details!: Record<string, unknown>;

  @Field(() => Date)
  at!: Date;
}

@ObjectType()
export class DatasetProvenance {
  @Field(() => ID)
  dataset_id!: string;

  @Field(() => [ProvenanceEventView], { description: 'oldest first' })
  events!: ProvenanceEventView[];

  @Field(() => JSONObjectScalar, { description: 'the same as a PROV-JSON document (https://www.w3.org/submissions/prov-json/)' })
  prov!: Record<string, unknown>;
}
