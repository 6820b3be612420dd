import type { Graph } from './graph.js';

export interface EgoNetwork {
  /** Breadth-first order: the center, then by hop, then by index. */
  nodes: Int32Array;
  /** Hops from the center, parallel to nodes. */
  hop: Int32Array;
  /** Every arc among the kept nodes (undirected: each edge once, source <= target), by source then target. */
  edges: Array<{ source: number; target: number; weight: number }>;
  /** Whether nodes within `hops` were left out to keep at most `maxNodes`. */
  truncated: boolean;
}

/** The nodes within `hops` of `center` following arcs out, in, or either way, and the arcs among them. */
export function egoNetwork(
  g: Graph,
  center: number,
  hops: number,
  direction: 'out' | 'in' | 'both',
  maxNodes: number,
): EgoNetwork {
  const { n } = g;
  if (!(Number.isInteger(center) && center >= 0 && center < n)) throw new RangeError(`node ${center} is not in the graph`);
  const hopOf = new Int32Array(n).fill(-1);
  const order = new Int32Array(n);
  let kept = 0;
  let truncated = false;
  const limit = Math.max(1, maxNodes);
  hopOf[center] = 0;
  order[kept++] = center;
  let levelStart = 0;
  const rows: Array<[Int32Array, Int32Array]> = [];
  if (direction !== 'in') rows.push([g.outStart, g.outNbr]);
  if (direction !== 'out' && g.directed) rows.push([g.inStart, g.inNbr]);
  for (let k = 1; k <= hops && levelStart < kept && !truncated; k++) {
    const levelEnd = kept;
    let found = kept;
    for (let i = levelStart; i < levelEnd; i++) {
      const v = order[i];
      for (const [start, nbr] of rows) {
        for (let e = start[v]; e < start[v + 1]; e++) {
          const w = nbr[e];
          if (hopOf[w] < 0) {
            hopOf[w] = k;
            order[found++] = w;
          }
        }
      }
    }
    order.subarray(levelEnd, found).sort();
    if (found > limit) {
      for (let i = limit; i < found; i++) hopOf[order[i]] = -1;
      found = limit;
      truncated = true;
    }
    levelStart = levelEnd;
    kept = found;
  }
  const nodes = order.slice(0, kept);
  const hop = Int32Array.from(nodes, (v) => hopOf[v]);
  return { nodes, hop, edges: edgesAmong(g, nodes, hopOf), truncated };
}

function edgesAmong(g: Graph, nodes: Int32Array, hopOf: Int32Array): EgoNetwork['edges'] {
  const sorted = nodes.slice().sort();
  const edges: EgoNetwork['edges'] = [];
  for (const u of sorted) {
    for (let e = g.outStart[u]; e < g.outStart[u + 1]; e++) {
      const v = g.outNbr[e];
      if (hopOf[v] < 0 || (!g.directed && v < u)) continue;
      edges.push({ source: u, target: v, weight: g.outW[e] });
    }
  }
  return edges;
}
