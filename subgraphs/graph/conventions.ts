import type { GraphSpec, Weighting } from './graph.model.js';

/** The sentences an answer carries in `conventions`, so that a number can be reproduced elsewhere (docs/graph.md). */
export function graphConventions(spec: GraphSpec): string[] {
  const out = [
    spec.type === 'chemical'
      ? 'graph: directed, one arc pre -> post per chemical connection row, weighted by the row weight'
      : spec.type === 'electrical'
        ? 'graph: undirected, one edge per gap-junction pair, weighted by the row weight'
        : 'graph: directed, chemical arcs plus both arcs of each gap junction, weights summed where both exist',
    'nodes: every cell of the version, non-neurons and isolated cells included; self-loops kept',
  ];
  if (spec.minWeight !== null) out.push(`min_weight: connection rows with weight below ${spec.minWeight} left out${spec.type === 'all' ? ', before combining' : ''}`);
  return out;
}

export const METRIC_CONVENTIONS = (directed: boolean): string[] =>
  directed
    ? [
        'density: m / (n (n - 1)), self-loops counted in m (NetworkX)',
        'reciprocity: arcs whose reverse exists / all arcs, self-loops counted as unreciprocated arcs (NetworkX nx.reciprocity); reciprocity_excluding_self_loops leaves them out (igraph)',
        'clustering and transitivity: on the undirected, unweighted graph, self-loops ignored (NetworkX on G.to_undirected())',
        'degrees count arcs (a self-loop once in and once out); strength sums weights',
      ]
    : [
        'density: 2m / (n (n - 1)), self-loops counted in m (NetworkX)',
        'reciprocity: undefined for an undirected graph (null)',
        'degree: a self-loop counts twice, in degree and in strength (NetworkX)',
      ];

export const CENSUS_CONVENTIONS = (directed: boolean): string[] => [
  'triad census: all unordered triples of distinct cells, exact counts (Batagelj-Mrvar); self-loops ignored',
  ...(directed ? [] : ['undirected graph: censused with both arcs of each edge, so only 003, 102, 201 and 300 occur']),
];

export const NULL_MODEL_CONVENTION =
  'null model: degree-preserving double-edge swaps from the observed graph (no self-loops or repeated arcs created), z = (observed - mean) / sample sd';

export const LENGTH_UNIT: Record<Weighting, string> = { none: 'arcs', distance: 'weight', inverse: '1/weight' };

export const PATH_CONVENTION: Record<Weighting, string> = {
  none: 'length: number of arcs (breadth-first search)',
  distance: 'length: sum of the weights along the path (weight used as distance, Dijkstra)',
  inverse: 'length: sum of 1/weight along the path (strong connections are short, Dijkstra)',
};

export const REACH_CONVENTION = 'reachability: cells at distance 1..k following arcs forwards, sources excluded';
