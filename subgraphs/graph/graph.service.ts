import type { RequestContext } from '../../lib/context.js';
import { BadInput } from '../../lib/errors.js';
import { runTask, taskOwner } from '../../lib/workers/pool.js';
import { remainingRequestTime } from '../../lib/request-scope.js';
import type { DatasetVersionRef } from '../neurodata/index.js';
import type { GraphMetrics } from './engine/metrics.js';
import type { PathResult } from './engine/paths.js';
import { seedState, summariseNullModel, type NullModelResult as EngineNullModel, type RngState } from './engine/rewire.js';
import type { Direction, EgoOut, GraphCost, GraphData, GraphProgress, GraphRequest, GraphSpec, NullModelSpec, Weighting } from './graph.model.js';
import { GRAPH_TASK, GraphLoader } from './graph-loader.js';
import { GRAPH_LIMITS, graphSpec, intParam, nodeOf, nullModelSpec, splitList } from './graph-params.js';
import { CENSUS_CONVENTIONS, graphConventions, LENGTH_UNIT, METRIC_CONVENTIONS, NULL_MODEL_CONVENTION, PATH_CONVENTION, REACH_CONVENTION } from './conventions.js';
import { triadObject } from './triad.scalars.js';
import { curvePlot, degreePlot, neighbourhoodPlot } from './graph-plots.js';

type Viewer = Pick<RequestContext, 'viewer' | 'authError' | 'reloadViewer' | 'log' | 'clientIp'>;
export type ResolveVersion = (ctx: Viewer, ref: string, version?: string | null) => Promise<DatasetVersionRef>;

/** Which graph of which dataset version: every route's common arguments. */
export interface GraphArgs {
  dataset_id: string;
  version?: string | null;
  synapse_type?: string | null;
  min_weight?: number | null;
}

interface Opened {
  ref: DatasetVersionRef;
  spec: GraphSpec;
  data: GraphData;
  key: string | null;
  /** Whose work it is on the worker pool (its fair shares): the caller's, in a request or a job alike. */
  owner: string | undefined;
}

interface Shape {
  nodes: number;
  edges: number;
  directed: boolean;
}

type Neuron = { neuron_id: string; name: string };
type Progress = (p: GraphProgress) => void;

/**
 * Rates of the engine's heavy loops on one worker thread, measured on the benchmark's FlyWire-scale graph
 * (docs/benchmarks.md, Graph) with a margin: they decide whether a full analysis fits in a request.
 */
/** Census: steps are the sum over cells of their squared number of neighbours (measured: 1.5e9 per second). */
const CENSUS_STEPS_PER_SECOND = 5e8;
/** Null model: attempted double-edge swaps (measured: 2.4e6 per second; random memory access bound). */
const SWAPS_PER_SECOND = 2e6;
/** Reachability curve over every cell: 64 sources at a time as bit sets, each hop a pass over the arcs (measured: 1-4e9 words per second). */
const CURVE_WORDS_PER_SECOND = 7e8;
/** Building the adjacency, metrics and the other linear passes: arc visits per second. */
const ARC_VISITS_PER_SECOND = 1.5e8;
/** Part of the remaining request time a full analysis may plan to use. */
const DEADLINE_SHARE = 0.7;
/**
 * Worker time of one piece of a null model: between pieces the pool may run other users' tasks, so a thousand
 * samples do not hold a thread for their whole run.
 */
const NULL_MODEL_PIECE_MS = 250;

/** Every graph computation of the service: access, parameters, the cells by name, the worker, the answer. */
export class GraphService {
  constructor(
    private readonly resolveVersion: ResolveVersion,
    private readonly loader: GraphLoader,
  ) {}

  async metrics(ctx: Viewer, args: GraphArgs & { top?: number | null }) {
    const top = intParam('top', args.top, GRAPH_LIMITS.top);
    const g = await this.open(ctx, args);
    return this.metricsOf(g, await this.run<Shape & { metrics: GraphMetrics }>(g, { kind: 'metrics', graph: g.spec, top }));
  }

  async motifs(ctx: Viewer, args: GraphArgs & { per_node?: boolean | string[] | null; null_model?: Parameters<typeof nullModelSpec>[0] }, onProgress?: Progress) {
    const nullModel = nullModelSpec(args.null_model);
    const perNode = args.per_node ?? false;
    if (Array.isArray(perNode) && perNode.length > GRAPH_LIMITS.perNodeNamed) throw new BadInput(`per_node: at most ${GRAPH_LIMITS.perNodeNamed} cells`);
    const g = await this.open(ctx, args);
    return this.motifsOf(g, perNode, nullModel, onProgress);
  }

  async compareSynapseTypes(ctx: Viewer, args: Omit<GraphArgs, 'synapse_type'> & { null_model?: Parameters<typeof nullModelSpec>[0] }, onProgress?: Progress) {
    const nullModel = nullModelSpec(args.null_model);
    const chemical = await this.open(ctx, { ...args, synapse_type: 'chemical' });
    const electrical = { ...chemical, spec: { ...chemical.spec, type: 'electrical' as const } };
    return {
      chemical: await this.motifsOf(chemical, false, nullModel, onProgress),
      electrical: await this.motifsOf(electrical, false, nullModel, onProgress),
    };
  }

  async shortestPath(ctx: Viewer, args: GraphArgs & { source: string; target: string; weighted?: Weighting | null; max_hops?: number | null }) {
    const weighted = args.weighted ?? 'none';
    const maxHops = args.max_hops === null || args.max_hops === undefined ? null : intParam('max_hops', args.max_hops, GRAPH_LIMITS.pathHops);
    const g = await this.open(ctx, args);
    const source = nodeOf(g.data, args.source, 'source', where(g));
    const target = nodeOf(g.data, args.target, 'target', where(g));
    const r = await this.run<Shape & { path: PathResult }>(g, { kind: 'path', graph: g.spec, source, target, weighted, maxHops });
    return this.pathOf(g, r, source, target, weighted, maxHops);
  }

  async reachability(ctx: Viewer, args: GraphArgs & { sources?: string[] | null; source?: string | null; max_hops?: number | null; limit?: number | null }) {
    const maxHops = intParam('max_hops', args.max_hops, GRAPH_LIMITS.reachabilityHops);
    const limit = intParam('limit', args.limit, GRAPH_LIMITS.reachedListed);
    const names = sourceNames(args.sources, args.source, true)!;
    const g = await this.open(ctx, args);
    const sources = names.map((s) => nodeOf(g.data, s, 'sources', where(g)));
    return this.reachabilityOf(g, sources, maxHops, limit);
  }

  async reachabilityCurve(ctx: Viewer, args: GraphArgs & { sources?: string[] | null; source?: string | null; max_hops?: number | null; format?: string | null }, onProgress?: Progress) {
    const maxHops = intParam('max_hops', args.max_hops, GRAPH_LIMITS.curveHops);
    const names = sourceNames(args.sources, args.source, false);
    const g = await this.open(ctx, args);
    const sources = names ? [...new Set(names.map((s) => nodeOf(g.data, s, 'sources', where(g))))] : null;
    const result = await this.curveOf(g, sources, maxHops, onProgress);
    return { ...result, svg: args.format === 'svg' ? curvePlot(result) : null };
  }

  async degreeDistribution(ctx: Viewer, args: GraphArgs & { format?: string | null }) {
    const g = await this.open(ctx, args);
    const result = await this.degreesOf(g);
    return { ...result, svg: args.format === 'svg' ? degreePlot(result) : null };
  }

  async summary(ctx: Viewer, args: GraphArgs) {
    const g = await this.open(ctx, args);
    const m = await this.run<Shape & { metrics: GraphMetrics }>(g, { kind: 'metrics', graph: g.spec, top: 1 });
    const d = await this.run<Shape & { degrees: DegreesOut }>(g, { kind: 'degrees', graph: g.spec });
    const x = m.metrics;
    return {
      ...this.echo(g, m, METRIC_CONVENTIONS(m.directed)),
      total_weight: x.total_weight,
      self_loops: x.self_loops,
      isolated_cells: d.degrees.total.find((b) => b.degree === 0)?.count ?? 0,
      mean_degree: m.nodes ? m.edges / m.nodes : 0,
      density: x.density,
      reciprocity: x.reciprocity,
      weakly_connected_components: x.weakly_connected_components,
      strongly_connected_components: x.strongly_connected_components,
      average_clustering_undirected: x.average_clustering_undirected,
      transitivity_undirected: x.transitivity_undirected,
      max_in_degree: x.max_in_degree,
      max_out_degree: x.max_out_degree,
    };
  }

  async reciprocity(ctx: Viewer, args: GraphArgs) {
    const g = await this.open(ctx, args);
    const m = await this.run<Shape & { metrics: GraphMetrics }>(g, { kind: 'metrics', graph: g.spec, top: 1 });
    return {
      ...this.echo(g, m, METRIC_CONVENTIONS(m.directed).slice(0, 2)),
      reciprocity: m.metrics.reciprocity,
      reciprocity_excluding_self_loops: m.metrics.reciprocity_excluding_self_loops,
      reciprocated_arcs: m.directed ? 2 * m.metrics.dyads.mutual : 0,
      self_loops: m.metrics.self_loops,
      dyads: m.metrics.dyads,
    };
  }

  async compare(ctx: Viewer, args: { datasets: string[]; version?: string | null; synapse_type?: string | null; min_weight?: number | null; top?: number | null }) {
    const refs = splitList(args.datasets);
    if (refs.length < GRAPH_LIMITS.compared.min || refs.length > GRAPH_LIMITS.compared.max) {
      throw new BadInput(`datasets: give ${GRAPH_LIMITS.compared.min} to ${GRAPH_LIMITS.compared.max} datasets (id or slug, optionally @vN), comma-separated or repeated`);
    }
    const top = intParam('top', args.top, GRAPH_LIMITS.top);
    const results = [];
    for (const dataset_id of refs) results.push(await this.metrics(ctx, { dataset_id, synapse_type: args.synapse_type, min_weight: args.min_weight, top }));
    const first = results[0];
    const diff = (a: number | null, b: number | null) => (a === null || b === null ? null : a - b);
    return {
      synapse_type: first.synapse_type,
      min_weight: first.min_weight,
      reference: first.slug,
      items: results.map((r) => ({
        metrics: r,
        difference: {
          nodes: r.nodes - first.nodes,
          edges: r.edges - first.edges,
          self_loops: r.self_loops - first.self_loops,
          total_weight: r.total_weight - first.total_weight,
          density: r.density - first.density,
          reciprocity: diff(r.reciprocity, first.reciprocity),
          reciprocity_excluding_self_loops: diff(r.reciprocity_excluding_self_loops, first.reciprocity_excluding_self_loops),
          average_clustering_undirected: r.average_clustering_undirected - first.average_clustering_undirected,
          transitivity_undirected: r.transitivity_undirected - first.transitivity_undirected,
          weakly_connected_components: r.weakly_connected_components.count - first.weakly_connected_components.count,
          strongly_connected_components: r.strongly_connected_components.count - first.strongly_connected_components.count,
          max_in_degree: r.max_in_degree - first.max_in_degree,
          max_out_degree: r.max_out_degree - first.max_out_degree,
        },
      })),
    };
  }

  /**
   * Metrics, census (with its null model when asked), degree distribution, the reachability curve over all cells
   * and, when given, a shortest path and a reachability: in one answer. In a request (`asJob` false) it first
   * estimates the time and, when it would not finish before the deadline, answers where to run it as a job
   * instead; a job (the graph job kind, graph-job.ts) runs it whatever the time, reporting progress step by step.
   */
  async fullAnalysis(ctx: Viewer, args: FullAnalysisArgs, opts: { asJob?: boolean; onProgress?: Progress } = {}) {
    const { nullModel, curveHops, reachHops } = fullAnalysisParams(args);
    const weighted = args.weighted ?? 'none';
    const g = await this.open(ctx, args);
    const pathEnds = args.source != null ? [nodeOf(g.data, args.source, 'source', where(g)), nodeOf(g.data, args.target!, 'target', where(g))] : null;
    const sources = args.sources?.length ? args.sources.map((s) => nodeOf(g.data, s, 'sources', where(g))) : null;
    const cost = await this.run<GraphCost>(g, { kind: 'estimate', graph: g.spec });
    const seconds = estimateSeconds(cost, nullModel, curveHops);
    const remaining = remainingRequestTime() / 1000;
    if (!opts.asJob && seconds > remaining * DEADLINE_SHARE) {
      const shape = { nodes: cost.nodes, edges: cost.edges, directed: g.spec.type !== 'electrical' };
      return {
        ...this.echo(g, shape, []),
        status: 'run_as_job',
        metrics: null,
        motifs: null,
        degree_distribution: null,
        reachability_curve: null,
        shortest_path: null,
        reachability: null,
        job: {
          reason: `the full analysis of ${where(g)} is estimated at ${seconds.toFixed(1)} s, more than this request's deadline allows`,
          estimated_seconds: Math.round(seconds * 10) / 10,
          deadline_seconds: Math.round(remaining * 10) / 10,
          method: 'POST',
          path: '/v1/jobs/graph',
          body: { analysis: 'full-analysis', ...fullAnalysisBody(args, g) },
        },
      };
    }
    // A worker's last reports may arrive after its result: progress only ever moves forwards.
    let reached = 0;
    const report = (step: string, fraction: number) => {
      if (fraction < reached) return;
      reached = fraction;
      opts.onProgress?.({ step, fraction });
    };
    const steps = 4 + (pathEnds ? 1 : 0) + (sources ? 1 : 0);
    // Within the census step, the null model's samples take the second half when there is one.
    const census = (p: GraphProgress) => (!nullModel ? p.fraction : p.step === 'null model' ? 0.5 + p.fraction / 2 : p.fraction / 2);
    const step = (name: string, i: number, within = (p: GraphProgress) => p.fraction) => (p: GraphProgress) => report(name, (i + within(p)) / steps);
    const metrics = this.metricsOf(g, await this.run<Shape & { metrics: GraphMetrics }>(g, { kind: 'metrics', graph: g.spec, top: GRAPH_LIMITS.top.default }));
    report('metrics', 1 / steps);
    const motifs = await this.motifsOf(g, false, nullModel, step('motifs', 1, census));
    report('motifs', 2 / steps);
    const degrees = await this.degreesOf(g);
    report('degree distribution', 3 / steps);
    const curve = await this.curveOf(g, null, curveHops, step('reachability curve', 3));
    report('reachability curve', 4 / steps);
    let shortest = null;
    if (pathEnds) {
      const r = await this.run<Shape & { path: PathResult }>(g, { kind: 'path', graph: g.spec, source: pathEnds[0], target: pathEnds[1], weighted, maxHops: null });
      shortest = this.pathOf(g, r, pathEnds[0], pathEnds[1], weighted, null);
    }
    const reach = sources ? await this.reachabilityOf(g, sources, reachHops, GRAPH_LIMITS.reachedListed.default) : null;
    report('done', 1);
    return {
      ...this.echo(g, metrics, []),
      status: 'complete',
      metrics,
      motifs,
      degree_distribution: { ...degrees, svg: null },
      reachability_curve: { ...curve, svg: null },
      shortest_path: shortest,
      reachability: reach,
      job: null,
    };
  }

  async neighbourhood(ctx: Viewer, args: GraphArgs & { neuron: string; hops?: number | null; direction?: Direction | null; max_nodes?: number | null; format?: string | null }) {
    const hops = intParam('hops', args.hops, GRAPH_LIMITS.egoHops);
    const maxNodes = intParam('max_nodes', args.max_nodes, GRAPH_LIMITS.egoNodes);
    const direction = args.direction ?? 'both';
    const g = await this.open(ctx, args);
    const center = nodeOf(g.data, args.neuron, 'neuron', where(g));
    const r = await this.run<Shape & EgoOut>(g, { kind: 'ego', graph: g.spec, center, hops, direction, maxNodes });
    const d = g.data;
    const cytoscape = {
      format_version: '1.0',
      generated_by: 'neurodata-service',
      target_cytoscapejs_version: '~3',
      data: { name: `${g.ref.slug}@v${g.ref.version} ${d.ids[center]} (${hops} hop${hops > 1 ? 's' : ''}, ${direction})`, directed: r.directed },
      elements: {
        nodes: r.members.map((v, i) => ({
          data: { id: d.ids[v], name: d.names[v], cell_class: d.classes[v], cell_type: d.types[v], hop: r.hop[i], center: v === center },
          position: { x: r.positions[i][0], y: r.positions[i][1] },
        })),
        edges: r.links.map((e) => ({
          data: { id: `${d.ids[e.source]}->${d.ids[e.target]}`, source: d.ids[e.source], target: d.ids[e.target], weight: e.weight },
        })),
      },
      layout: { name: 'preset' },
    };
    const result = {
      ...this.echo(g, r, [
        `neighbourhood: cells within ${hops} hop${hops > 1 ? 's' : ''} following arcs ${direction === 'both' ? 'either way' : direction === 'out' ? 'forwards' : 'backwards'}, and every connection among them`,
      ]),
      center: neuron(d, center),
      hops,
      direction,
      network_nodes: r.members.length,
      network_edges: r.links.length,
      truncated: r.truncated,
      cytoscape,
    };
    return { ...result, svg: args.format === 'svg' ? neighbourhoodPlot(result, r, d) : null };
  }

  // ---- the pieces, shared by the routes and the full analysis ----

  private async open(ctx: Viewer, args: GraphArgs): Promise<Opened> {
    const spec = graphSpec(args.synapse_type, args.min_weight);
    const ref = await this.resolveVersion(ctx, args.dataset_id, args.version);
    const data = await this.loader.load(ref);
    return { ref, spec, data, key: GraphLoader.keyOf(ref), owner: taskOwner(ctx) };
  }

  private run<T>(g: Opened, request: GraphRequest, onProgress?: Progress): Promise<T> {
    return runTask<T>(GRAPH_TASK, 'analyse', { source: g.data.source, key: g.key, request }, { owner: g.owner, ...(onProgress ? { onProgress: (p: unknown) => onProgress(p as GraphProgress) } : {}) });
  }

  /** The census, then its null model in pieces of bounded worker time (the same numbers as in one piece). */
  private async censusWithNullModel(g: Opened, perNode: boolean | number[], nullModel: NullModelSpec | null, onProgress?: Progress) {
    type Census = Shape & { census: number[]; perNode: { nodes: number[]; counts: number[] } | null };
    const r = await this.run<Census>(g, { kind: 'census', graph: g.spec, perNode, nullModel: null }, onProgress);
    if (!nullModel) return { ...r, nullModel: null };
    const censuses: number[][] = [];
    let state: RngState = seedState(nullModel.seed);
    while (censuses.length < nullModel.samples) {
      const piece = await this.run<{ censuses: number[][]; state: RngState }>(
        g,
        {
          kind: 'nullSamples',
          graph: g.spec,
          state,
          samples: nullModel.samples - censuses.length,
          swapsPerEdge: nullModel.swapsPerEdge,
          budgetMs: NULL_MODEL_PIECE_MS,
          done: censuses.length,
          total: nullModel.samples,
        },
        onProgress,
      );
      censuses.push(...piece.censuses);
      state = piece.state;
    }
    return { ...r, nullModel: summariseNullModel(r.census, censuses, { seed: nullModel.seed, swapsPerEdge: nullModel.swapsPerEdge }) };
  }

  private echo(g: Opened, shape: Shape, conventions: string[]) {
    return {
      dataset_id: g.ref.datasetId,
      slug: g.ref.slug,
      version: g.ref.version,
      synapse_type: g.spec.type,
      min_weight: g.spec.minWeight,
      directed: shape.directed,
      nodes: shape.nodes,
      edges: shape.edges,
      conventions: [...graphConventions(g.spec), ...conventions],
    };
  }

  private metricsOf(g: Opened, r: Shape & { metrics: GraphMetrics }) {
    const m = r.metrics;
    const named = (list: Array<{ node: number; value: number }>) => list.map((x) => ({ ...neuron(g.data, x.node), value: x.value }));
    return {
      ...this.echo(g, r, METRIC_CONVENTIONS(r.directed)),
      ...m,
      top_in_strength: named(m.top_in_strength),
      top_out_strength: named(m.top_out_strength),
    };
  }

  private async motifsOf(g: Opened, perNode: boolean | string[], nullModel: NullModelSpec | null, onProgress?: Progress) {
    let nodes: boolean | number[] = false;
    if (perNode === true) {
      if (g.data.source.n > GRAPH_LIMITS.perNodeAllCells) {
        throw new BadInput(`per_node: ${where(g)} has ${g.data.source.n} cells; per_node: true is for at most ${GRAPH_LIMITS.perNodeAllCells}: name the cells instead`);
      }
      nodes = true;
    } else if (Array.isArray(perNode)) {
      nodes = [...new Set(perNode.map((s) => nodeOf(g.data, s, 'per_node', where(g))))];
    }
    const r: Shape & { census: number[]; perNode: { nodes: number[]; counts: number[] } | null; nullModel: EngineNullModel | null } = await this.censusWithNullModel(g, nodes, nullModel, onProgress);
    const n = r.nodes;
    return {
      ...this.echo(g, r, [...CENSUS_CONVENTIONS(r.directed), ...(nullModel ? [NULL_MODEL_CONVENTION] : [])]),
      triadic_census: triadObject(r.census),
      triads: n < 3 ? 0 : (n * (n - 1) * (n - 2)) / 6,
      per_node: r.perNode
        ? r.perNode.nodes.map((v, i) => ({ ...neuron(g.data, v), census: triadObject(r.perNode!.counts.slice(i * 16, i * 16 + 16)) }))
        : null,
      null_model: r.nullModel
        ? {
            samples: r.nullModel.samples,
            seed: r.nullModel.seed,
            swaps_per_edge: r.nullModel.swaps_per_edge,
            mean: triadObject(r.nullModel.mean),
            sd: triadObject(r.nullModel.sd),
            z: triadObject(r.nullModel.z),
          }
        : null,
    };
  }

  private pathOf(g: Opened, r: Shape & { path: PathResult }, source: number, target: number, weighted: Weighting, maxHops: number | null) {
    return {
      ...this.echo(g, r, [PATH_CONVENTION[weighted], 'path: the lexicographically smallest shortest path by neuron_id']),
      source: neuron(g.data, source),
      target: neuron(g.data, target),
      weighted,
      length_unit: LENGTH_UNIT[weighted],
      max_hops: maxHops,
      length: r.path.length,
      hops: r.path.hops,
      path: r.path.path.map((v) => neuron(g.data, v)),
      number_of_shortest_paths: r.path.count,
    };
  }

  private async reachabilityOf(g: Opened, sources: number[], maxHops: number, limit: number) {
    const r = await this.run<Shape & { perHop: Array<{ hop: number; new: number; cumulative: number }>; reached: Array<[number, number]> }>(g, {
      kind: 'reachability',
      graph: g.spec,
      sources,
      maxHops,
    });
    return {
      ...this.echo(g, r, [REACH_CONVENTION]),
      sources: [...new Set(sources)].map((v) => neuron(g.data, v)),
      max_hops: maxHops,
      per_hop: r.perHop,
      reached_total: r.reached.length,
      reached: r.reached.slice(0, limit).map(([v, hop]) => ({ ...neuron(g.data, v), hop })),
      truncated: r.reached.length > limit,
    };
  }

  private async curveOf(g: Opened, sources: number[] | null, maxHops: number, onProgress?: Progress) {
    const r = await this.run<Shape & { counts: number[] }>(g, { kind: 'curve', graph: g.spec, sources, maxHops }, onProgress);
    const others = sources ? r.nodes - sources.length : r.nodes - 1;
    return {
      ...this.echo(g, r, [REACH_CONVENTION, sources ? 'curve: for the given sources together' : 'curve: mean over every cell taken alone as the source']),
      sources: sources ? sources.map((v) => neuron(g.data, v)) : null,
      max_hops: maxHops,
      curve: r.counts.map((reachable, i) => ({ hops: i + 1, reachable, fraction: others > 0 ? reachable / others : 0 })),
    };
  }

  private async degreesOf(g: Opened) {
    const r = await this.run<Shape & { degrees: DegreesOut }>(g, { kind: 'degrees', graph: g.spec });
    const hist = (h: 'in' | 'out' | 'total') => ({ bins: r.degrees[h], ...r.degrees.stats[h] });
    return {
      ...this.echo(g, r, ['degrees count arcs, not weights', ...(r.directed ? ['total degree: in + out'] : ['degree: a self-loop counts twice (NetworkX)'])]),
      in: hist('in'),
      out: hist('out'),
      total: hist('total'),
    };
  }
}

/**
 * The full analysis's parameters, checked without reading the graph: a job checks them when it is submitted, so a
 * bad value is a 400 then rather than a failed job later.
 */
export function fullAnalysisParams(args: FullAnalysisArgs) {
  graphSpec(args.synapse_type, args.min_weight);
  const nullModel = nullModelSpec(args.null_model);
  const curveHops = intParam('curve_max_hops', args.curve_max_hops, GRAPH_LIMITS.curveHops);
  const reachHops = intParam('max_hops', args.max_hops, GRAPH_LIMITS.reachabilityHops);
  if ((args.source == null) !== (args.target == null)) throw new BadInput('source and target: give both for a shortest path, or neither');
  return { nullModel, curveHops, reachHops };
}

export interface FullAnalysisArgs extends GraphArgs {
  null_model?: Parameters<typeof nullModelSpec>[0];
  curve_max_hops?: number | null;
  source?: string | null;
  target?: string | null;
  weighted?: Weighting | null;
  sources?: string[] | null;
  max_hops?: number | null;
}

type Bins = Array<{ degree: number; count: number }>;
type Stats = { mean: number; median: number; max: number };
interface DegreesOut {
  in: Bins;
  out: Bins;
  total: Bins;
  stats: { in: Stats; out: Stats; total: Stats };
}

const neuron = (d: GraphData, v: number): Neuron => ({ neuron_id: d.ids[v], name: d.names[v] });
const where = (g: Opened) => `${g.ref.slug}@v${g.ref.version}`;

function sourceNames(list: string[] | null | undefined, one: string | null | undefined, required: boolean): string[] | null {
  const all = [...(list ?? []), ...(one ? [one] : [])];
  if (!all.length) {
    if (required) throw new BadInput('sources: give at least one cell (neuron_id or name), or source');
    return null;
  }
  if (all.length > GRAPH_LIMITS.sources) throw new BadInput(`sources: at most ${GRAPH_LIMITS.sources}`);
  return all;
}

/** Seconds the full analysis is expected to take on one worker thread (see the rates above). */
export function estimateSeconds(cost: GraphCost, nullModel: NullModelSpec | null, curveHops: number): number {
  const census = cost.censusSteps / CENSUS_STEPS_PER_SECOND;
  const rewiring = nullModel ? nullModel.samples * (census + (nullModel.swapsPerEdge * cost.edges) / SWAPS_PER_SECOND) : 0;
  const curve = (curveHops * (cost.edges + cost.nodes) * Math.ceil(cost.nodes / 64)) / CURVE_WORDS_PER_SECOND;
  return census + rewiring + curve + (cost.edges * 20) / ARC_VISITS_PER_SECOND;
}

function fullAnalysisBody(args: FullAnalysisArgs, g: Opened): Record<string, unknown> {
  return {
    dataset_id: g.ref.datasetId,
    version: String(g.ref.version),
    synapse_type: g.spec.type,
    ...(g.spec.minWeight !== null ? { min_weight: g.spec.minWeight } : {}),
    ...(args.null_model ? { null_model: args.null_model } : {}),
    ...(args.curve_max_hops != null ? { curve_max_hops: args.curve_max_hops } : {}),
    ...(args.source != null ? { source: args.source, target: args.target } : {}),
    ...(args.weighted ? { weighted: args.weighted } : {}),
    ...(args.sources?.length ? { sources: args.sources } : {}),
    ...(args.max_hops != null ? { max_hops: args.max_hops } : {}),
  };
}
