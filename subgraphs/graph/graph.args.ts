import { ArgsType, Field, Float, Int } from 'type-graphql';
import { PlotFormat, SynapseTypeArg } from './graph.types.js';
import { DirectionArg, NullModelInput, WeightingArg } from './analysis.types.js';
import { PerNodeScalar } from './triad.scalars.js';

@ArgsType()
export class GraphArgs {
  @Field(() => String, { description: 'dataset id or slug, optionally with @latest, @vN or @draft' })
  dataset_id!: string;

  @Field(() => String, { nullable: true, description: 'latest (default), a version number, or draft (owners)' })
  version?: string | null;

  @Field(() => SynapseTypeArg, { nullable: true, description: 'chemical (default), electrical or all' })
  synapse_type?: SynapseTypeArg | null;

  @Field(() => Float, { nullable: true, description: 'leave out connection rows lighter than this (> 0)' })
  min_weight?: number | null;
}

@ArgsType()
export class MetricsArgs extends GraphArgs {
  @Field(() => Int, { nullable: true, description: 'cells in the top strength lists, 1..100 (default 10)' })
  top?: number | null;
}

@ArgsType()
export class MotifsArgs extends GraphArgs {
  @Field(() => PerNodeScalar, { nullable: true, description: "true: every cell's census (graphs of at most 20,000 cells); or a list of neuron ids or names (at most 1000)" })
  per_node?: boolean | string[] | null;

  @Field(() => NullModelInput, { nullable: true, description: 'compare with degree-preserving random graphs: z-scores' })
  null_model?: NullModelInput | null;
}

@ArgsType()
export class SynapseTypeMotifsArgs {
  @Field(() => String, { description: 'dataset id or slug, optionally with @latest, @vN or @draft' })
  dataset_id!: string;

  @Field(() => String, { nullable: true, description: 'latest (default), a version number, or draft (owners)' })
  version?: string | null;

  @Field(() => Float, { nullable: true, description: 'leave out connection rows lighter than this (> 0)' })
  min_weight?: number | null;

  @Field(() => NullModelInput, { nullable: true, description: 'null model for both graphs (default: 20 samples, seed 1)' })
  null_model?: NullModelInput | null;
}

@ArgsType()
export class ShortestPathArgs extends GraphArgs {
  @Field(() => String, { description: 'neuron id or name' })
  source!: string;

  @Field(() => String, { description: 'neuron id or name' })
  target!: string;

  @Field(() => WeightingArg, { nullable: true, description: 'none (default: arcs count 1), distance (weight is the length) or inverse (1/weight is the length)' })
  weighted?: WeightingArg | null;

  @Field(() => Int, { nullable: true, description: 'only paths of at most this many arcs (1..10000)' })
  max_hops?: number | null;
}

@ArgsType()
export class ReachabilityArgs extends GraphArgs {
  @Field(() => [String], { nullable: true, description: 'neuron ids or names (at most 10,000)' })
  sources?: string[] | null;

  @Field(() => String, { nullable: true, description: 'one source (instead of sources)' })
  source?: string | null;

  @Field(() => Int, { nullable: true, description: '1..50 (default 3)' })
  max_hops?: number | null;

  @Field(() => Int, { nullable: true, description: 'reached cells listed, 0..10000 (default 1000)' })
  limit?: number | null;
}

@ArgsType()
export class ReachabilityCurveArgs extends GraphArgs {
  @Field(() => [String], { nullable: true, description: 'neuron ids or names; none: the mean over every cell alone as the source' })
  sources?: string[] | null;

  @Field(() => String, { nullable: true, description: 'one source (instead of sources)' })
  source?: string | null;

  @Field(() => Int, { nullable: true, description: 'K: the curve runs k = 1..K, 1..50 (default 10)' })
  max_hops?: number | null;

  @Field(() => PlotFormat, { nullable: true })
  format?: PlotFormat | null;
}

@ArgsType()
export class PlotArgs extends GraphArgs {
  @Field(() => PlotFormat, { nullable: true })
  format?: PlotFormat | null;
}

@ArgsType()
export class FullAnalysisArgs extends GraphArgs {
  @Field(() => NullModelInput, { nullable: true, description: 'add null-model z-scores to the census' })
  null_model?: NullModelInput | null;

  @Field(() => Int, { nullable: true, description: 'K of the reachability curve, 1..50 (default 10)' })
  curve_max_hops?: number | null;

  @Field(() => String, { nullable: true, description: 'with target: a shortest path' })
  source?: string | null;

  @Field(() => String, { nullable: true })
  target?: string | null;

  @Field(() => WeightingArg, { nullable: true })
  weighted?: WeightingArg | null;

  @Field(() => [String], { nullable: true, description: 'a reachability from these cells' })
  sources?: string[] | null;

  @Field(() => Int, { nullable: true, description: 'hops of that reachability, 1..50 (default 3)' })
  max_hops?: number | null;
}

@ArgsType()
export class CompareArgs {
  @Field(() => [String], { description: 'datasets (id or slug, optionally @vN), comma-separated or repeated: 2..20' })
  datasets!: string[];

  @Field(() => SynapseTypeArg, { nullable: true })
  synapse_type?: SynapseTypeArg | null;

  @Field(() => Float, { nullable: true })
  min_weight?: number | null;

  @Field(() => Int, { nullable: true, description: 'cells in the top strength lists, 1..100 (default 10)' })
  top?: number | null;
}

@ArgsType()
export class NeighbourhoodArgs extends GraphArgs {
  @Field(() => String, { description: 'the centre: neuron id or name' })
  neuron!: string;

  @Field(() => Int, { nullable: true, description: '1..3 (default 1)' })
  hops?: number | null;

  @Field(() => DirectionArg, { nullable: true })
  direction?: DirectionArg | null;

  @Field(() => Int, { nullable: true, description: 'cells at most, nearest first, 1..2000 (default 200)' })
  max_nodes?: number | null;

  @Field(() => PlotFormat, { nullable: true })
  format?: PlotFormat | null;
}
