import { ArgsType, Field, Float, Int, ObjectType } from 'type-graphql';
import { AnalyticsDataset } from '../analytics/analytics.types.js';

@ObjectType({ description: "A point in the file's coordinates." })
export class PointView {
  @Field(() => Float)
  x!: number;

  @Field(() => Float)
  y!: number;

  @Field(() => Float)
  z!: number;
}

@ObjectType({ description: 'Neurite length of one SWC type.' })
export class TypeLengthView {
  @Field(() => Int, { description: '0 undefined, 2 axon, 3 basal dendrite, 4 apical dendrite, 5 and above custom' })
  type!: number;

  @Field(() => String, { description: 'undefined, axon, basal_dendrite, apical_dendrite or custom_N' })
  name!: string;

  @Field(() => Float)
  length!: number;
}

@ObjectType({ description: 'One neurite: the samples reached from one stem, away from the soma.' })
export class StemView {
  @Field(() => Float, { description: "id of the stem's first sample" })
  first_id!: number;

  @Field(() => Int)
  type!: number;

  @Field(() => String)
  type_name!: string;

  @Field(() => Int)
  n_points!: number;

  @Field(() => Int)
  n_bifurcations!: number;

  @Field(() => Int)
  n_tips!: number;

  @Field(() => Int)
  n_sections!: number;

  @Field(() => Float)
  length!: number;

  @Field(() => Float)
  surface_area!: number;

  @Field(() => Float)
  volume!: number;

  @Field(() => Float)
  max_path_distance!: number;

  @Field(() => Int)
  max_branch_order!: number;

  @Field(() => Int)
  strahler_order!: number;
}

@ObjectType({ description: 'One connected tree of the file (a root with parent -1 and what hangs from it).' })
export class TreeView {
  @Field(() => Float)
  root_id!: number;

  @Field(() => Int)
  n_points!: number;

  @Field(() => Int)
  n_soma_points!: number;

  @Field(() => Int)
  n_stems!: number;

  @Field(() => Float)
  total_length!: number;
}

@ObjectType({ description: 'Bounding box of every sample, soma included.' })
export class BoundingBoxView {
  @Field(() => Float)
  min_x!: number;

  @Field(() => Float)
  min_y!: number;

  @Field(() => Float)
  min_z!: number;

  @Field(() => Float)
  max_x!: number;

  @Field(() => Float)
  max_y!: number;

  @Field(() => Float)
  max_z!: number;

  @Field(() => Float)
  extent_x!: number;

  @Field(() => Float)
  extent_y!: number;

  @Field(() => Float)
  extent_z!: number;
}

@ObjectType({ description: 'Sholl analysis: neurite segments crossing spheres around the soma centre.' })
export class ShollView {
  @Field(() => PointView, { description: 'the soma centre, or the first root of a file without soma' })
  center!: PointView;

  @Field(() => [Float])
  radii!: number[];

  @Field(() => [Int], { description: 'crossings of each sphere' })
  crossings!: number[];
}

@ObjectType({ description: "One neuron's morphometrics (docs/morphometrics.md: definitions, units, NeuroM and L-Measure conventions)." })
export class NeuronMorphometricsView {
  @Field(() => Int)
  n_points!: number;

  @Field(() => Int)
  n_soma_points!: number;

  @Field(() => Int)
  n_trees!: number;

  @Field(() => Int)
  n_stems!: number;

  @Field(() => Int, { description: 'neurite samples with two or more branches (a trifurcation counts once)' })
  n_bifurcations!: number;

  @Field(() => Int, { description: 'neurite samples with three or more branches' })
  n_multifurcations!: number;

  @Field(() => Int)
  n_tips!: number;

  @Field(() => Int)
  n_sections!: number;

  @Field(() => Float, { description: "neurite cable length, in the file's unit" })
  total_length!: number;

  @Field(() => [TypeLengthView])
  length_by_type!: TypeLengthView[];

  @Field(() => Float)
  max_path_distance!: number;

  @Field(() => Int)
  max_branch_order!: number;

  @Field(() => Float)
  max_euclidean_distance!: number;

  @Field(() => Int)
  strahler_order!: number;

  @Field(() => Float, { description: 'frustum model (NeuroM)' })
  surface_area!: number;

  @Field(() => Float, { description: 'frustum model (NeuroM)' })
  volume!: number;

  @Field(() => Float, { description: 'cylinder model (L-Measure)' })
  surface_area_cylinder!: number;

  @Field(() => Float, { description: 'cylinder model (L-Measure)' })
  volume_cylinder!: number;

  @Field(() => PointView, { nullable: true })
  soma_center!: PointView | null;

  @Field(() => Float, { nullable: true })
  soma_radius!: number | null;

  @Field(() => Float, { nullable: true })
  soma_surface_area!: number | null;

  @Field(() => BoundingBoxView)
  bounding_box!: BoundingBoxView;

  @Field(() => ShollView)
  sholl!: ShollView;

  @Field(() => [StemView])
  stems!: StemView[];

  @Field(() => [TreeView])
  trees!: TreeView[];
}

@ObjectType({ description: "One morphology file's measures, or why it has none." })
export class MorphologyFileMeasures {
  @Field(() => String)
  neuron!: string;

  @Field(() => String)
  file!: string;

  @Field(() => String)
  sha256!: string;

  @Field(() => NeuronMorphometricsView, { nullable: true, description: 'null when the file could not be read (see error)' })
  morphometrics!: NeuronMorphometricsView | null;

  @Field(() => String, { nullable: true })
  error!: string | null;
}

@ObjectType({ description: 'The distribution of one measure over the files measured (quartiles of type 7, sample SD).' })
export class MeasureDistribution {
  @Field(() => String)
  measure!: string;

  @Field(() => Int)
  n!: number;

  @Field(() => Float, { nullable: true })
  mean!: number | null;

  @Field(() => Float, { nullable: true, description: 'null for fewer than two values' })
  sd!: number | null;

  @Field(() => Float, { nullable: true })
  min!: number | null;

  @Field(() => Float, { nullable: true })
  q1!: number | null;

  @Field(() => Float, { nullable: true })
  median!: number | null;

  @Field(() => Float, { nullable: true })
  q3!: number | null;

  @Field(() => Float, { nullable: true })
  max!: number | null;
}

@ObjectType({ description: "Morphometrics of one neuron's files, or of a dataset's files with each measure's distribution." })
export class MorphometricsResult {
  @Field(() => AnalyticsDataset)
  dataset!: AnalyticsDataset;

  @Field(() => String, { nullable: true, description: 'the neuron asked for; null for the whole dataset' })
  neuron!: string | null;

  @Field(() => Int)
  total_files!: number;

  @Field(() => Int, { description: 'files measured (at most 5000 per request)' })
  measured_files!: number;

  @Field(() => Int)
  failed_files!: number;

  @Field(() => Int)
  offset!: number;

  @Field(() => Int)
  limit!: number;

  @Field(() => [MorphologyFileMeasures], { description: 'files by neuron and name, from offset' })
  files!: MorphologyFileMeasures[];

  @Field(() => [MeasureDistribution], { description: 'over every measured file' })
  distribution!: MeasureDistribution[];

  @Field(() => Float, { nullable: true, description: 'spacing of the default Sholl spheres; null when sholl_radii were given' })
  sholl_step!: number | null;
}

@ArgsType()
export class MorphometricsArgs {
  @Field(() => String, { description: 'dataset id or slug, optionally with @vN' })
  dataset_id!: string;

  @Field(() => String, { nullable: true, description: 'latest (default), a version number, or draft (owners)' })
  version?: string | null;

  @Field(() => String, { nullable: true, description: 'a neuron id; without it, every morphology of the dataset' })
  neuron?: string | null;

  @Field(() => [Float], { nullable: true, description: "Sholl sphere radii in the file's unit (at most 1000)" })
  sholl_radii?: number[] | null;

  @Field(() => Float, { nullable: true, description: 'spacing of the default Sholl spheres (default 10), when no radii are given' })
  sholl_step?: number | null;

  @Field(() => Int, { nullable: true, description: 'files listed, 1..1000 (default 100)' })
  limit?: number | null;

  @Field(() => Int, { nullable: true, description: 'files skipped before the list (default 0)' })
  offset?: number | null;
}
