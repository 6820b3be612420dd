import type { GraphSource, SynapseType } from './engine/graph.js';
import type { RngState } from './engine/rng.js';

/** A dataset version's graph as the engine holds it: the edges as typed arrays, and the cells they number. */
export interface GraphData {
  source: GraphSource;
  /** neuron_id of each node, in code point order: node i is ids[i]. */
  ids: string[];
  /** The cell's name as its dataset writes it, or its neuron_id when it has none. */
  names: string[];
  /** The cell's class ('' when unknown). */
  classes: string[];
  /** The cell's type (sensory, interneuron, motor, muscle, ...; '' when unknown): colours an ego network. */
  types: string[];
}

/** Which graph of a version a computation runs on (docs/graph.md, "The graph of a dataset version"). */
export interface GraphSpec {
  type: SynapseType;
  /** Rows lighter than this are left out; null keeps every row. */
  minWeight: number | null;
}

export type Weighting = 'none' | 'distance' | 'inverse';
export type Direction = 'out' | 'in' | 'both';

export interface NullModelSpec {
  samples: number;
  seed: number;
  swapsPerEdge: number;
}

/** One computation the worker runs on a graph; nodes are numbers (the service maps names to them and back). */
export type GraphRequest =
  | { kind: 'metrics'; graph: GraphSpec; top: number }
  | { kind: 'census'; graph: GraphSpec; perNode: boolean | number[]; nullModel: NullModelSpec | null }
  /**
   * The next samples of a null model from the generator's state: as many as fit in `budgetMs` (at least one), so a
   * long null model is a series of short tasks and other users' tasks run between them.
   */
  | { kind: 'nullSamples'; graph: GraphSpec; state: RngState; samples: number; swapsPerEdge: number; budgetMs: number; done: number; total: number }
  | { kind: 'path'; graph: GraphSpec; source: number; target: number; weighted: Weighting; maxHops: number | null }
  | { kind: 'reachability'; graph: GraphSpec; sources: number[]; maxHops: number }
  | { kind: 'curve'; graph: GraphSpec; sources: number[] | null; maxHops: number }
  | { kind: 'degrees'; graph: GraphSpec }
  | { kind: 'ego'; graph: GraphSpec; center: number; hops: number; direction: Direction; maxNodes: number }
  | { kind: 'estimate'; graph: GraphSpec };

/** What the heavy computations on a graph cost, in elementary steps (see GraphService's time estimate). */
export interface GraphCost {
  nodes: number;
  edges: number;
  /** Sum over cells of the squared number of neighbours: the triad census's work. */
  censusSteps: number;
}

/** What a worker reports while it computes. */
export interface GraphProgress {
  step: string;
  /** 0..1 of the step. */
  fraction: number;
}

export const byteLengthOf = (g: GraphData): number => {
  const s = g.source;
  const arrays = [s.chemPre, s.chemPost, s.chemWeight, s.elecA, s.elecB, s.elecWeight];
  // Strings: about two bytes per character plus an object header each.
  const text = g.ids.reduce((n, id, i) => n + 2 * (id.length + g.names[i].length + g.classes[i].length + g.types[i].length) + 128, 0);
  return arrays.reduce((n, a) => n + a.byteLength, 0) + text;
};

/** An ego network as the worker returns it: member cells (centre first), their hops, arcs among them, positions. */
export interface EgoOut {
  members: number[];
  hop: number[];
  links: Array<{ source: number; target: number; weight: number }>;
  truncated: boolean;
  positions: Array<[number, number]>;
}
