import { ArgsType, Field, Float, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A dataset version an analytics answer is about.' })
export class AnalyticsDataset {
  @Field(() => String)
  dataset_id!: string;

  @Field(() => String)
  slug!: string;

  @Field(() => String)
  title!: string;

  @Field(() => Int)
  version!: number;
}

// ---------------------------------------------------------------------------------------------------------------
// Summary

@ObjectType({ description: 'Cells with one value of a neuron column.' })
export class ValueCountView {
  @Field(() => String)
  value!: string;

  @Field(() => Int)
  n!: number;
}

@ObjectType({ description: 'Cells with one brain region, with its label from the ontology (null for a code it does not have).' })
export class RegionCountView {
  @Field(() => String, { description: 'brain_region code' })
  value!: string;

  @Field(() => String, { nullable: true })
  label!: string | null;

  @Field(() => Int)
  n!: number;
}

@ObjectType({ description: 'Cells by the values of a neuron column: the largest `limit` values, and what they leave out.' })
export class CountBreakdown {
  @Field(() => Int, { description: 'distinct non-empty values' })
  distinct!: number;

  @Field(() => Int, { description: 'cells without a value' })
  without_value!: number;

  @Field(() => [ValueCountView], { description: 'largest first' })
  values!: ValueCountView[];

  @Field(() => Int, { description: 'cells with a value not listed' })
  other_cells!: number;
}

@ObjectType({ description: 'Cells by brain region (codes of the brain_region vocabulary).' })
export class RegionBreakdown {
  @Field(() => Int)
  distinct!: number;

  @Field(() => Int)
  without_value!: number;

  @Field(() => [RegionCountView])
  values!: RegionCountView[];

  @Field(() => Int)
  other_cells!: number;
}

@ObjectType({ description: 'Connection rows of one synapse type and their weights (exact quantiles).' })
export class ConnectionTotalsView {
  @Field(() => String, { description: 'chemical or electrical' })
  synapse_type!: string;

  @Field(() => Int, { description: 'connection rows (chemical: ordered pairs; electrical: unordered pairs)' })
  rows!: number;

  @Field(() => Float, { description: "total weight, in the dataset's weight unit (usually synapses)" })
  weight!: number;

  @Field(() => Float, { nullable: true })
  mean_weight!: number | null;

  @Field(() => Float)
  min_weight!: number;

  @Field(() => Float)
  q25!: number;

  @Field(() => Float)
  median!: number;

  @Field(() => Float)
  q75!: number;

  @Field(() => Float)
  q90!: number;

  @Field(() => Float)
  q99!: number;

  @Field(() => Float)
  max_weight!: number;

  @Field(() => Int)
  self_loops!: number;
}

@ObjectType({ description: 'Connection rows whose weight is in [lower, upper): power-of-two bins.' })
export class WeightBinView {
  @Field(() => String)
  synapse_type!: string;

  @Field(() => Float)
  lower!: number;

  @Field(() => Float)
  upper!: number;

  @Field(() => Int)
  n!: number;
}

@ObjectType({ description: "Morphology files of a version and their summaries' means." })
export class MorphologyTotalsView {
  @Field(() => Int)
  files!: number;

  @Field(() => Int, { description: 'cells with at least one file' })
  neurons!: number;

  @Field(() => Int, { description: 'sample points over every file' })
  points!: number;

  @Field(() => Float, { description: "cable length over every file, in the files' unit" })
  total_length!: number;

  @Field(() => Float, { nullable: true })
  mean_total_length!: number | null;

  @Field(() => Float, { nullable: true })
  mean_tips!: number | null;

  @Field(() => Float, { nullable: true })
  mean_bifurcations!: number | null;

  @Field(() => Float, { nullable: true })
  mean_stems!: number | null;
}

@ObjectType({ description: 'One dataset version summarised.' })
export class DatasetSummaryView extends AnalyticsDataset {
  @Field(() => Boolean)
  is_draft!: boolean;

  @Field(() => Int)
  cells!: number;

  @Field(() => Int, { description: 'cells that are neurons' })
  neurons!: number;

  @Field(() => Int)
  cells_with_region!: number;

  @Field(() => Int)
  cells_with_position!: number;

  @Field(() => CountBreakdown)
  by_class!: CountBreakdown;

  @Field(() => CountBreakdown)
  by_type!: CountBreakdown;

  @Field(() => CountBreakdown, { description: 'a cell with several transmitters counts for each' })
  by_neurotransmitter!: CountBreakdown;

  @Field(() => RegionBreakdown)
  by_region!: RegionBreakdown;

  @Field(() => [ConnectionTotalsView], { description: 'one entry per synapse type present' })
  connections!: ConnectionTotalsView[];

  @Field(() => [WeightBinView], { description: 'the weight distribution per synapse type' })
  weight_histogram!: WeightBinView[];

  @Field(() => MorphologyTotalsView)
  morphologies!: MorphologyTotalsView;
}

@ObjectType({ description: 'Datasets of the catalogue annotated with one term, and their size.' })
export class CatalogueGroup {
  @Field(() => String)
  code!: string;

  @Field(() => String)
  label!: string;

  @Field(() => Int)
  datasets!: number;

  @Field(() => Int, { description: 'over the datasets whose data the caller may read' })
  neurons!: number;

  @Field(() => Int)
  connections!: number;

  @Field(() => Int)
  morphologies!: number;
}

@ObjectType({ description: "The published datasets the caller may see, summarised (each at its newest version). Counts of rows cover only the datasets whose data the caller may read." })
export class CatalogueSummaryView {
  @Field(() => Int)
  datasets!: number;

  @Field(() => Int)
  public_datasets!: number;

  @Field(() => Int)
  restricted_datasets!: number;

  @Field(() => Int, { description: 'restricted datasets the caller sees but may not read: their rows are not counted' })
  datasets_without_data_access!: number;

  @Field(() => Int)
  neurons!: number;

  @Field(() => Int)
  connections!: number;

  @Field(() => Int)
  chemical_connections!: number;

  @Field(() => Int)
  electrical_connections!: number;

  @Field(() => Int)
  morphologies!: number;

  @Field(() => [CatalogueGroup])
  by_species!: CatalogueGroup[];

  @Field(() => [CatalogueGroup])
  by_brain_region!: CatalogueGroup[];

  @Field(() => [CatalogueGroup], { description: 'by microscopy technique' })
  by_technique!: CatalogueGroup[];
}

@ObjectType({ description: 'The catalogue summarised (no dataset_id), or one dataset version (dataset_id).' })
export class AnalyticsSummaryResult {
  @Field(() => String, { description: 'catalogue or dataset' })
  scope!: string;

  @Field(() => CatalogueSummaryView, { nullable: true, description: 'set when scope is catalogue' })
  catalogue!: CatalogueSummaryView | null;

  @Field(() => DatasetSummaryView, { nullable: true, description: 'set when scope is dataset' })
  dataset!: DatasetSummaryView | null;
}

@ArgsType()
export class SummaryArgs {
  @Field(() => String, { nullable: true, description: 'dataset id or slug (optionally @vN); without it, the whole catalogue the caller may see' })
  dataset_id?: string | null;

  @Field(() => String, { nullable: true, description: 'latest (default), a version number, or draft (owners)' })
  version?: string | null;

  @Field(() => Int, { nullable: true, description: 'values listed per breakdown, 1..1000 (default 50)' })
  limit?: number | null;
}

// ---------------------------------------------------------------------------------------------------------------
// Comparison

@ObjectType({ description: 'One metric of every dataset, in the order given, with differences from the first.' })
export class ComparisonRow {
  @Field(() => String)
  metric!: string;

  @Field(() => String)
  description!: string;

  @Field(() => [Float], { nullable: 'items', description: 'one per dataset; null where the metric is undefined' })
  values!: Array<number | null>;

  @Field(() => [Float], { nullable: 'items', description: "value minus the first dataset's" })
  differences!: Array<number | null>;

  @Field(() => [Float], { nullable: 'items', description: "difference over the first dataset's absolute value; null when it is 0" })
  relative_differences!: Array<number | null>;
}

@ObjectType({ description: 'Summary metrics of several datasets side by side.' })
export class AnalyticsComparisonResult {
  @Field(() => String, { description: 'the first dataset, as slug@vN: differences are taken from it' })
  reference!: string;

  @Field(() => [AnalyticsDataset])
  datasets!: AnalyticsDataset[];

  @Field(() => [ComparisonRow])
  rows!: ComparisonRow[];
}

@ArgsType()
export class ComparisonArgs {
  @Field(() => [String], { description: 'datasets (id or slug, optionally @vN), comma-separated or repeated; 2 to 20' })
  datasets!: string[];

  @Field(() => [String], { nullable: true, description: 'metric names, comma-separated or repeated (default: all; docs/analytics.md)' })
  metrics?: string[] | null;
}

@ObjectType({ description: "One metric of the dataset against the reference datasets' mean and sample standard deviation." })
export class ZScoreRow {
  @Field(() => String)
  metric!: string;

  @Field(() => String)
  description!: string;

  @Field(() => Float, { nullable: true })
  value!: number | null;

  @Field(() => Int, { description: 'reference datasets with a value' })
  reference_n!: number;

  @Field(() => Float, { nullable: true })
  reference_mean!: number | null;

  @Field(() => Float, { nullable: true, description: 'sample standard deviation (n - 1)' })
  reference_sd!: number | null;

  @Field(() => Float, { nullable: true, description: '(value - mean) / sd; null when undefined (see note)' })
  z!: number | null;

  @Field(() => Boolean, { description: '|z| > threshold' })
  flagged!: boolean;

  @Field(() => String, { nullable: true, description: 'why z is null' })
  note!: string | null;
}

@ObjectType({ description: "A dataset's metrics as z-scores against a reference set of datasets." })
export class ZScoreComparisonResult {
  @Field(() => AnalyticsDataset)
  dataset!: AnalyticsDataset;

  @Field(() => [AnalyticsDataset])
  reference!: AnalyticsDataset[];

  @Field(() => Float)
  threshold!: number;

  @Field(() => [ZScoreRow])
  rows!: ZScoreRow[];
}

@ArgsType()
export class ZScoreArgs {
  @Field(() => String, { description: 'the dataset (id or slug, optionally @vN)' })
  dataset_id!: string;

  @Field(() => String, { nullable: true, description: 'latest (default), a version number, or draft (owners)' })
  version?: string | null;

  @Field(() => [String], { description: 'reference datasets, comma-separated or repeated; 2 to 50' })
  reference!: string[];

  @Field(() => [String], { nullable: true, description: 'metric names (default: all)' })
  metrics?: string[] | null;
}

// ---------------------------------------------------------------------------------------------------------------
// Atlas comparison

@ObjectType({ description: 'One region (at the chosen level) on both sides.' })
export class AtlasRegionRow {
  @Field(() => String)
  code!: string;

  @Field(() => String)
  label!: string;

  @Field(() => Int, { description: 'depth in the hierarchy (0 = root); less than level for regions annotated above it' })
  depth!: number;

  @Field(() => Boolean)
  in_dataset!: boolean;

  @Field(() => Boolean)
  in_reference!: boolean;

  @Field(() => Int)
  dataset_neurons!: number;

  @Field(() => Int)
  reference_neurons!: number;

  @Field(() => Float, { nullable: true })
  dataset_neuron_fraction!: number | null;

  @Field(() => Float, { nullable: true })
  reference_neuron_fraction!: number | null;

  @Field(() => Float, { nullable: true })
  neuron_std_difference!: number | null;

  @Field(() => Int)
  dataset_outgoing_connections!: number;

  @Field(() => Int)
  reference_outgoing_connections!: number;

  @Field(() => Int)
  dataset_internal_connections!: number;

  @Field(() => Int)
  reference_internal_connections!: number;

  @Field(() => Float, { nullable: true })
  dataset_connection_fraction!: number | null;

  @Field(() => Float, { nullable: true })
  reference_connection_fraction!: number | null;

  @Field(() => Float, { nullable: true })
  connection_std_difference!: number | null;
}

@ObjectType({ description: 'What one side maps and what it could not.' })
export class AtlasTotals {
  @Field(() => Int)
  neurons_mapped!: number;

  @Field(() => Int)
  neurons_unassigned!: number;

  @Field(() => [String], { description: 'region codes of cells that the brain_region vocabulary does not have' })
  unknown_region_codes!: string[];

  @Field(() => Int)
  chemical_connections!: number;

  @Field(() => Int, { description: 'rows whose presynaptic cell maps to a region' })
  chemical_connections_mapped!: number;
}

@ObjectType({ description: 'Two datasets compared region by region through the brain-region hierarchy.' })
export class AtlasComparisonResult {
  @Field(() => AnalyticsDataset)
  dataset!: AnalyticsDataset;

  @Field(() => AnalyticsDataset)
  reference!: AnalyticsDataset;

  @Field(() => Int)
  level!: number;

  @Field(() => [String])
  conventions!: string[];

  @Field(() => [AtlasRegionRow], { description: 'largest first (cells on both sides)' })
  regions!: AtlasRegionRow[];

  @Field(() => [String])
  only_in_dataset!: string[];

  @Field(() => [String])
  only_in_reference!: string[];

  @Field(() => AtlasTotals)
  dataset_totals!: AtlasTotals;

  @Field(() => AtlasTotals)
  reference_totals!: AtlasTotals;
}

@ArgsType()
export class AtlasCompareArgs {
  @Field(() => String, { description: 'the dataset (id or slug, optionally @vN)' })
  dataset_id!: string;

  @Field(() => String, { nullable: true })
  version?: string | null;

  @Field(() => String, { description: 'the dataset or reference atlas dataset to compare with (id or slug, optionally @vN)' })
  reference_id!: string;

  @Field(() => String, { nullable: true })
  reference_version?: string | null;

  @Field(() => Int, { nullable: true, description: 'depth of the brain-region hierarchy to map regions to, 0..12 (0 = root; default 3)' })
  level?: number | null;
}
