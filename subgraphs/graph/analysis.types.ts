import { Field, Float, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { SafeIntResolver } from 'graphql-scalars';
import { JSONObjectScalar } from '../../schema/scalars.js';
import { GraphAnswer, GraphNeuron, GraphMetricsResult, DegreeDistributionResult, SynapseTypeArg } from './graph.types.js';
import { TriadCountsScalar, TriadValuesScalar } from './triad.scalars.js';

export enum WeightingArg {
  none = 'none',
  distance = 'distance',
  inverse = 'inverse',
}
registerEnumType(WeightingArg, { name: 'PathWeighting', description: 'none: arcs count 1 (default); distance: the weight is the length; inverse: 1 / weight is the length' });

export enum DirectionArg {
  out = 'out',
  in = 'in',
  both = 'both',
}
registerEnumType(DirectionArg, { name: 'NeighbourhoodDirection', description: 'follow arcs forwards (out), backwards (in) or both ways (default)' });

@InputType({ description: 'Degree-preserving random graphs to compare the census with.' })
export class NullModelInput {
  @Field(() => Int, { nullable: true, description: 'random graphs, 1..1000 (default 20)' })
  samples?: number;

  @Field(() => Int, { nullable: true, description: 'seed of the random numbers (default 1): the same seed gives the same z-scores' })
  seed?: number;

  @Field(() => Int, { nullable: true, description: 'swaps attempted per arc, 1..100 (default 10)' })
  swaps_per_edge?: number;
}

@ObjectType({ description: 'The null model a census was compared with.' })
export class NullModelResult {
  @Field(() => Int)
  samples!: number;

  @Field(() => Int)
  seed!: number;

  @Field(() => Int)
  swaps_per_edge!: number;

  @Field(() => TriadValuesScalar, { description: 'mean count per class over the random graphs' })
  mean!: Record<string, number>;

  @Field(() => TriadValuesScalar, { description: 'sample standard deviation per class' })
  sd!: Record<string, number>;

  @Field(() => TriadValuesScalar, { description: '(observed - mean) / sd; null where sd is 0' })
  z!: Record<string, number | null>;
}

@ObjectType({ description: "A cell's census: the triads it takes part in, by class." })
export class NodeTriadCensus extends GraphNeuron {
  @Field(() => TriadCountsScalar)
  census!: Record<string, number>;
}

@ObjectType({ description: 'The triad census (motifs of three cells) of a connectome.' })
export class MotifsResult extends GraphAnswer {
  @Field(() => TriadCountsScalar, { description: 'exact count of every triad class, in the standard order; self-loops ignored' })
  triadic_census!: Record<string, number>;

  @Field(() => SafeIntResolver, { description: 'n (n-1) (n-2) / 6' })
  triads!: number;

  @Field(() => [NodeTriadCensus], { nullable: true, description: 'per cell, when per_node was asked for' })
  per_node!: NodeTriadCensus[] | null;

  @Field(() => NullModelResult, { nullable: true, description: 'when null_model was given' })
  null_model!: NullModelResult | null;
}

@ObjectType({ description: 'The census of the chemical and the electrical graph side by side.' })
export class SynapseTypeMotifsResult {
  @Field(() => MotifsResult)
  chemical!: MotifsResult;

  @Field(() => MotifsResult)
  electrical!: MotifsResult;
}

@ObjectType({ description: 'A shortest path between two cells.' })
export class ShortestPathResult extends GraphAnswer {
  @Field(() => GraphNeuron)
  source!: GraphNeuron;

  @Field(() => GraphNeuron)
  target!: GraphNeuron;

  @Field(() => WeightingArg)
  weighted!: WeightingArg;

  @Field(() => String, { description: 'what length counts: arcs, weight (weight as distance) or 1/weight (inverse weight as distance)' })
  length_unit!: string;

  @Field(() => Int, { nullable: true })
  max_hops!: number | null;

  @Field(() => Float, { nullable: true, description: 'null when there is no path (within max_hops)' })
  length!: number | null;

  @Field(() => Int, { nullable: true, description: 'arcs on the path' })
  hops!: number | null;

  @Field(() => [GraphNeuron], { description: 'the lexicographically smallest shortest path by neuron_id; empty when there is none' })
  path!: GraphNeuron[];

  @Field(() => Float, { description: 'how many distinct shortest paths there are (exact up to 2^53)' })
  number_of_shortest_paths!: number;
}

@ObjectType({ description: 'Cells reached at one hop.' })
export class HopCount {
  @Field(() => Int)
  hop!: number;

  @Field(() => Int, { description: 'cells first reached at this hop' })
  new!: number;

  @Field(() => Int, { description: 'cells reached within this many hops (sources excluded)' })
  cumulative!: number;
}

@ObjectType({ description: 'A reached cell and its distance from the sources.' })
export class ReachedNeuron extends GraphNeuron {
  @Field(() => Int)
  hop!: number;
}

@ObjectType({ description: 'What the sources reach within max_hops.' })
export class ReachabilityResult extends GraphAnswer {
  @Field(() => [GraphNeuron])
  sources!: GraphNeuron[];

  @Field(() => Int)
  max_hops!: number;

  @Field(() => [HopCount])
  per_hop!: HopCount[];

  @Field(() => Int, { description: 'cells reached (sources excluded)' })
  reached_total!: number;

  @Field(() => [ReachedNeuron], { description: 'the reached cells by hop, then neuron_id; at most limit' })
  reached!: ReachedNeuron[];

  @Field(() => Boolean, { description: 'true when reached lists fewer cells than reached_total' })
  truncated!: boolean;
}

@ObjectType({ description: 'One point of a reachability curve.' })
export class CurvePoint {
  @Field(() => Int)
  hops!: number;

  @Field(() => Float, { description: 'cells reached within this many hops (mean over the sources when averaged)' })
  reachable!: number;

  @Field(() => Float, { description: 'reachable / (cells that are not sources)' })
  fraction!: number;
}

@ObjectType({ description: 'Cells reachable within k hops, for k = 1..max_hops.' })
export class ReachabilityCurveResult extends GraphAnswer {
  @Field(() => [GraphNeuron], { nullable: true, description: 'the sources; null when the curve is the mean over every cell alone as the source' })
  sources!: GraphNeuron[] | null;

  @Field(() => Int)
  max_hops!: number;

  @Field(() => [CurvePoint])
  curve!: CurvePoint[];

  @Field(() => String, { nullable: true, description: 'the curve as an SVG plot, with format svg' })
  svg!: string | null;
}

@ObjectType({ description: 'How to run an analysis that does not fit in one request.' })
export class JobPointer {
  @Field(() => String)
  reason!: string;

  @Field(() => Float, { description: 'estimated time of the whole analysis' })
  estimated_seconds!: number;

  @Field(() => Float, { description: 'time this request had' })
  deadline_seconds!: number;

  @Field(() => String)
  method!: string;

  @Field(() => String, { description: 'the jobs route that runs the same analysis with progress' })
  path!: string;

  @Field(() => JSONObjectScalar, { description: 'the body to send there' })
  body!: Record<string, unknown>;
}

@ObjectType({ description: 'Every analysis of a connectome in one answer, or where to run it as a job.' })
export class FullAnalysisResult extends GraphAnswer {
  @Field(() => String, { description: 'complete, or run_as_job when the analysis would not finish before the request deadline (see job)' })
  status!: string;

  @Field(() => GraphMetricsResult, { nullable: true })
  metrics!: GraphMetricsResult | null;

  @Field(() => MotifsResult, { nullable: true })
  motifs!: MotifsResult | null;

  @Field(() => DegreeDistributionResult, { nullable: true })
  degree_distribution!: DegreeDistributionResult | null;

  @Field(() => ReachabilityCurveResult, { nullable: true, description: 'averaged over every cell' })
  reachability_curve!: ReachabilityCurveResult | null;

  @Field(() => ShortestPathResult, { nullable: true, description: 'when source and target were given' })
  shortest_path!: ShortestPathResult | null;

  @Field(() => ReachabilityResult, { nullable: true, description: 'when sources were given' })
  reachability!: ReachabilityResult | null;

  @Field(() => JobPointer, { nullable: true, description: 'when status is run_as_job' })
  job!: JobPointer | null;
}

@ObjectType({ description: "A cell's ego network: the cells within some hops and the connections among them." })
export class NeighbourhoodResult extends GraphAnswer {
  @Field(() => GraphNeuron)
  center!: GraphNeuron;

  @Field(() => Int)
  hops!: number;

  @Field(() => DirectionArg)
  direction!: DirectionArg;

  @Field(() => Int, { description: 'cells in the network' })
  network_nodes!: number;

  @Field(() => Int, { description: 'connections among them' })
  network_edges!: number;

  @Field(() => Boolean, { description: 'true when max_nodes cut the network (nearest cells kept)' })
  truncated!: boolean;

  @Field(() => JSONObjectScalar, { description: 'Cytoscape.js JSON (elements with preset positions from a concentric layout): opens in Cytoscape desktop or cytoscape.js as it is' })
  cytoscape!: Record<string, unknown>;

  @Field(() => String, { nullable: true, description: 'the network as an SVG drawing, with format svg' })
  svg!: string | null;
}

export { SynapseTypeArg };
