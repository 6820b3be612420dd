import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { SafeIntResolver } from 'graphql-scalars';

export enum SynapseTypeArg {
  chemical = 'chemical',
  electrical = 'electrical',
  all = 'all',
}
registerEnumType(SynapseTypeArg, {
  name: 'GraphSynapseType',
  description: 'chemical: directed (default); electrical: undirected gap junctions; all: directed, chemical arcs plus both arcs of each gap junction',
});

export enum PlotFormat {
  json = 'json',
  svg = 'svg',
}
registerEnumType(PlotFormat, { name: 'PlotFormat', description: 'json (default) or svg: the plot, in the `svg` field (REST: the body itself, image/svg+xml)' });

/** What every graph answer says about the graph it used (docs/graph.md). */
@ObjectType({ description: "What every graph answer says about the graph it used." })
export class GraphAnswer {
  @Field(() => ID)
  dataset_id!: string;

  @Field(() => String)
  slug!: string;

  @Field(() => Int, { description: 'the dataset version the graph was read from' })
  version!: number;

  @Field(() => SynapseTypeArg)
  synapse_type!: SynapseTypeArg;

  @Field(() => Float, { nullable: true, description: 'connection rows lighter than this were left out; null: none' })
  min_weight!: number | null;

  @Field(() => Boolean, { description: 'false for the electrical graph' })
  directed!: boolean;

  @Field(() => Int, { description: 'cells (nodes), isolated ones included' })
  nodes!: number;

  @Field(() => Int, { description: 'arcs (directed) or edges (undirected), self-loops included' })
  edges!: number;

  @Field(() => [String], { description: 'the conventions this answer used, one sentence each (docs/graph.md)' })
  conventions!: string[];
}

@ObjectType({ description: 'A cell of the graph.' })
export class GraphNeuron {
  @Field(() => String)
  neuron_id!: string;

  @Field(() => String, { description: 'its name in the dataset (the neuron_id when it has none)' })
  name!: string;
}

@ObjectType({ description: 'A cell with a value.' })
export class GraphNeuronValue extends GraphNeuron {
  @Field(() => Float)
  value!: number;
}

@ObjectType({ description: 'Unordered pairs of distinct cells by their connections.' })
export class DyadCensus {
  @Field(() => SafeIntResolver, { description: 'pairs connected both ways (undirected: linked pairs)' })
  mutual!: number;

  @Field(() => SafeIntResolver, { description: 'pairs connected one way' })
  asymmetric!: number;

  @Field(() => SafeIntResolver, { description: 'pairs not connected' })
  null!: number;
}

@ObjectType({ description: 'Connected components.' })
export class ComponentStats {
  @Field(() => Int)
  count!: number;

  @Field(() => Int, { description: 'cells in the largest' })
  largest!: number;
}

@ObjectType({ description: 'Whole-graph metrics of a connectome, as NetworkX computes them (docs/graph.md).' })
export class GraphMetricsResult extends GraphAnswer {
  @Field(() => Int)
  self_loops!: number;

  @Field(() => Float, { description: "sum of the weights, in the dataset's weight unit" })
  total_weight!: number;

  @Field(() => Float)
  density!: number;

  @Field(() => Float, { nullable: true, description: 'reciprocated arcs / all arcs, self-loops counted as unreciprocated (NetworkX); null for the electrical graph or without arcs' })
  reciprocity!: number | null;

  @Field(() => Float, { nullable: true, description: 'the same over arcs that are not self-loops (igraph)' })
  reciprocity_excluding_self_loops!: number | null;

  @Field(() => DyadCensus)
  dyads!: DyadCensus;

  @Field(() => ComponentStats)
  weakly_connected_components!: ComponentStats;

  @Field(() => ComponentStats)
  strongly_connected_components!: ComponentStats;

  @Field(() => Float, { description: 'mean local clustering of the undirected, unweighted graph over all cells' })
  average_clustering_undirected!: number;

  @Field(() => Float, { description: '3 x triangles / connected triples of the undirected graph' })
  transitivity_undirected!: number;

  @Field(() => Int)
  max_in_degree!: number;

  @Field(() => Int)
  max_out_degree!: number;

  @Field(() => [GraphNeuronValue], { description: 'the cells with the largest weighted in-degree, ties by neuron_id' })
  top_in_strength!: GraphNeuronValue[];

  @Field(() => [GraphNeuronValue], { description: 'the cells with the largest weighted out-degree, ties by neuron_id' })
  top_out_strength!: GraphNeuronValue[];
}

@ObjectType({ description: 'How many cells have a degree.' })
export class DegreeBin {
  @Field(() => Int)
  degree!: number;

  @Field(() => Int)
  count!: number;
}

@ObjectType({ description: 'A degree histogram with its summary.' })
export class DegreeHistogram {
  @Field(() => [DegreeBin], { description: 'every degree that occurs, ascending' })
  bins!: DegreeBin[];

  @Field(() => Float)
  mean!: number;

  @Field(() => Float)
  median!: number;

  @Field(() => Int)
  max!: number;
}

@ObjectType({ description: 'In-, out- and total degree distributions (degrees count arcs, not weights).' })
export class DegreeDistributionResult extends GraphAnswer {
  @Field(() => DegreeHistogram)
  in!: DegreeHistogram;

  @Field(() => DegreeHistogram)
  out!: DegreeHistogram;

  @Field(() => DegreeHistogram, { description: 'in + out (electrical: the degree, a self-loop counting twice)' })
  total!: DegreeHistogram;

  @Field(() => String, { nullable: true, description: 'the three histograms as an SVG plot, with format svg' })
  svg!: string | null;
}

@ObjectType({ description: 'A graph summary of one dataset version.' })
export class GraphSummaryResult extends GraphAnswer {
  @Field(() => Float)
  total_weight!: number;

  @Field(() => Int)
  self_loops!: number;

  @Field(() => Int, { description: 'cells without any connection' })
  isolated_cells!: number;

  @Field(() => Float, { description: 'edges / nodes (directed: the mean in- and out-degree)' })
  mean_degree!: number;

  @Field(() => Float)
  density!: number;

  @Field(() => Float, { nullable: true })
  reciprocity!: number | null;

  @Field(() => ComponentStats)
  weakly_connected_components!: ComponentStats;

  @Field(() => ComponentStats)
  strongly_connected_components!: ComponentStats;

  @Field(() => Float)
  average_clustering_undirected!: number;

  @Field(() => Float)
  transitivity_undirected!: number;

  @Field(() => Int)
  max_in_degree!: number;

  @Field(() => Int)
  max_out_degree!: number;
}

@ObjectType({ description: 'Reciprocity of a connectome: how often a connection is returned.' })
export class ReciprocityResult extends GraphAnswer {
  @Field(() => Float, { nullable: true, description: 'reciprocated arcs / all arcs, self-loops counted as unreciprocated (NetworkX)' })
  reciprocity!: number | null;

  @Field(() => Float, { nullable: true, description: 'the same over arcs that are not self-loops (igraph)' })
  reciprocity_excluding_self_loops!: number | null;

  @Field(() => SafeIntResolver, { description: 'arcs whose reverse exists (twice the mutual dyads)' })
  reciprocated_arcs!: number;

  @Field(() => Int)
  self_loops!: number;

  @Field(() => DyadCensus)
  dyads!: DyadCensus;
}

@ObjectType({ description: 'One dataset of a comparison: its metrics and their difference from the first dataset.' })
export class GraphComparisonItem {
  @Field(() => GraphMetricsResult)
  metrics!: GraphMetricsResult;

  @Field(() => GraphMetricDifferences, { description: "this dataset's value minus the first dataset's (zeros for the first)" })
  difference!: GraphMetricDifferences;
}

@ObjectType({ description: 'Differences of the scalar metrics (null where either value is null).' })
export class GraphMetricDifferences {
  @Field(() => Int)
  nodes!: number;

  @Field(() => Int)
  edges!: number;

  @Field(() => Int)
  self_loops!: number;

  @Field(() => Float)
  total_weight!: number;

  @Field(() => Float)
  density!: number;

  @Field(() => Float, { nullable: true })
  reciprocity!: number | null;

  @Field(() => Float, { nullable: true })
  reciprocity_excluding_self_loops!: number | null;

  @Field(() => Float)
  average_clustering_undirected!: number;

  @Field(() => Float)
  transitivity_undirected!: number;

  @Field(() => Int)
  weakly_connected_components!: number;

  @Field(() => Int)
  strongly_connected_components!: number;

  @Field(() => Int)
  max_in_degree!: number;

  @Field(() => Int)
  max_out_degree!: number;
}

@ObjectType({ description: 'Graph metrics of several datasets side by side, with differences from the first.' })
export class GraphComparisonResult {
  @Field(() => SynapseTypeArg)
  synapse_type!: SynapseTypeArg;

  @Field(() => Float, { nullable: true })
  min_weight!: number | null;

  @Field(() => String, { description: 'slug of the dataset the differences are taken from (the first)' })
  reference!: string;

  @Field(() => [GraphComparisonItem])
  items!: GraphComparisonItem[];
}
