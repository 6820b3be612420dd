import { Args, Ctx, Query, Resolver } from 'type-graphql';
import { Access, AccessClass } from '../../lib/access.js';
import type { RequestContext } from '../../lib/context.js';
import type { GraphService } from './graph.service.js';
import {
  CompareArgs,
  FullAnalysisArgs,
  GraphArgs,
  MetricsArgs,
  MotifsArgs,
  NeighbourhoodArgs,
  PlotArgs,
  ReachabilityArgs,
  ReachabilityCurveArgs,
  ShortestPathArgs,
  SynapseTypeMotifsArgs,
} from './graph.args.js';
import { DegreeDistributionResult, GraphComparisonResult, GraphMetricsResult, GraphSummaryResult, ReciprocityResult } from './graph.types.js';
import {
  FullAnalysisResult,
  MotifsResult,
  NeighbourhoodResult,
  ReachabilityCurveResult,
  ReachabilityResult,
  ShortestPathResult,
  SynapseTypeMotifsResult,
} from './analysis.types.js';

/** Graph analysis of connectomes (spec 4.3 Graph and the graph routes of Analytics): all reads, Academic. */
@Resolver()
export class GraphResolver {
  constructor(private readonly service: GraphService) {}

  @Query(() => GraphMetricsResult, { description: 'Whole-graph metrics of a dataset version (docs/graph.md): density, reciprocity, dyads, components, clustering, degrees, top cells by strength.' })
  @Access(AccessClass.Academic, { token: 'compute' })
  async graphMetrics(@Ctx() ctx: RequestContext, @Args(() => MetricsArgs) args: MetricsArgs) {
    return this.service.metrics(ctx, args) as Promise<GraphMetricsResult>;
  }

  @Query(() => MotifsResult, { description: 'The exact triad census (16 classes); per cell on request; z-scores against degree-preserving random graphs on request.' })
  @Access(AccessClass.Academic, { token: 'compute' })
  async graphMotifs(@Ctx() ctx: RequestContext, @Args(() => MotifsArgs) args: MotifsArgs) {
    return this.service.motifs(ctx, args) as Promise<MotifsResult>;
  }

  @Query(() => SynapseTypeMotifsResult, { description: 'The triad census of the chemical and the electrical graph side by side, each with its null model.' })
  @Access(AccessClass.Academic, { token: 'compute' })
  async graphMotifsBySynapseType(@Ctx() ctx: RequestContext, @Args(() => SynapseTypeMotifsArgs) args: SynapseTypeMotifsArgs) {
    return this.service.compareSynapseTypes(ctx, { ...args, null_model: args.null_model ?? {} }) as Promise<SynapseTypeMotifsResult>;
  }

  @Query(() => ShortestPathResult, { description: 'A shortest path between two cells, its length and the number of shortest paths.' })
  @Access(AccessClass.Academic, { token: 'compute' })
  async graphShortestPath(@Ctx() ctx: RequestContext, @Args(() => ShortestPathArgs) args: ShortestPathArgs) {
    return this.service.shortestPath(ctx, args) as Promise<ShortestPathResult>;
  }

  @Query(() => ReachabilityResult, { description: 'The cells reachable from the sources within max_hops, per hop and cumulatively.' })
  @Access(AccessClass.Academic, { token: 'compute' })
  async graphReachability(@Ctx() ctx: RequestContext, @Args(() => ReachabilityArgs) args: ReachabilityArgs) {
    return this.service.reachability(ctx, args) as Promise<ReachabilityResult>;
  }

  @Query(() => ReachabilityCurveResult, { description: 'Cells reachable within k hops for k = 1..K, from the sources or averaged over every cell; format svg plots it.' })
  @Access(AccessClass.Academic, { token: 'compute' })
  async graphReachabilityCurve(@Ctx() ctx: RequestContext, @Args(() => ReachabilityCurveArgs) args: ReachabilityCurveArgs) {
    return this.service.reachabilityCurve(ctx, args) as Promise<ReachabilityCurveResult>;
  }

  @Query(() => FullAnalysisResult, { description: "Every analysis in one answer; when it would not finish before the request's deadline, where to run it as a job." })
  @Access(AccessClass.Academic, { token: 'compute' })
  async graphFullAnalysis(@Ctx() ctx: RequestContext, @Args(() => FullAnalysisArgs) args: FullAnalysisArgs) {
    return this.service.fullAnalysis(ctx, args) as Promise<FullAnalysisResult>;
  }

  @Query(() => GraphComparisonResult, { description: 'The metrics of several datasets side by side, with differences from the first.' })
  @Access(AccessClass.Academic, { token: 'compute' })
  async graphCompare(@Ctx() ctx: RequestContext, @Args(() => CompareArgs) args: CompareArgs) {
    return this.service.compare(ctx, args) as Promise<GraphComparisonResult>;
  }

  @Query(() => NeighbourhoodResult, { description: "A cell's ego network as Cytoscape.js JSON with a layout; format svg draws it." })
  @Access(AccessClass.Academic, { token: 'compute' })
  async graphNeighbourhood(@Ctx() ctx: RequestContext, @Args(() => NeighbourhoodArgs) args: NeighbourhoodArgs) {
    return this.service.neighbourhood(ctx, args) as Promise<NeighbourhoodResult>;
  }

  @Query(() => GraphSummaryResult, { description: 'A graph summary: size, weight, isolated cells, mean degree, density, reciprocity, components, clustering.' })
  @Access(AccessClass.Academic, { token: 'compute' })
  async graphSummary(@Ctx() ctx: RequestContext, @Args(() => GraphArgs) args: GraphArgs) {
    return this.service.summary(ctx, args) as Promise<GraphSummaryResult>;
  }

  @Query(() => ReciprocityResult, { description: 'Reciprocity with and without self-loops, and the dyad census.' })
  @Access(AccessClass.Academic, { token: 'compute' })
  async graphReciprocity(@Ctx() ctx: RequestContext, @Args(() => GraphArgs) args: GraphArgs) {
    return this.service.reciprocity(ctx, args) as Promise<ReciprocityResult>;
  }

  @Query(() => DegreeDistributionResult, { description: 'In-, out- and total degree histograms; format svg plots them.' })
  @Access(AccessClass.Academic, { token: 'compute' })
  async graphDegreeDistribution(@Ctx() ctx: RequestContext, @Args(() => PlotArgs) args: PlotArgs) {
    return this.service.degreeDistribution(ctx, args) as Promise<DegreeDistributionResult>;
  }
}
