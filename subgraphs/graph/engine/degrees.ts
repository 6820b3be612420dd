import type { Graph } from './graph.js';
import { hasLoop } from './metrics.js';

export interface DegreeStats {
  mean: number;
  median: number;
  max: number;
}

export interface DegreeDistribution {
  in: Array<{ degree: number; count: number }>;
  out: Array<{ degree: number; count: number }>;
  total: Array<{ degree: number; count: number }>;
  stats: { in: DegreeStats; out: DegreeStats; total: DegreeStats };
}

/**
 * Histograms of arcs per node (not weights): in, out and total = in + out, a self-loop once in each. In an
 * undirected graph all three are the degree, a self-loop counting twice (NetworkX's Graph.degree).
 */
export function degreeDistribution(g: Graph): DegreeDistribution {
  const n = g.n;
  const inDeg = new Int32Array(n);
  const outDeg = new Int32Array(n);
  const total = new Int32Array(n);
  for (let v = 0; v < n; v++) {
    if (g.directed) {
      inDeg[v] = g.inStart[v + 1] - g.inStart[v];
      outDeg[v] = g.outStart[v + 1] - g.outStart[v];
      total[v] = inDeg[v] + outDeg[v];
    } else {
      const d = g.outStart[v + 1] - g.outStart[v] + (hasLoop(g, v) ? 1 : 0);
      inDeg[v] = outDeg[v] = total[v] = d;
    }
  }
  const inH = histogram(inDeg);
  const outH = histogram(outDeg);
  const totalH = histogram(total);
  return {
    in: inH,
    out: outH,
    total: totalH,
    stats: { in: statsOf(inH, n), out: statsOf(outH, n), total: statsOf(totalH, n) },
  };
}

function histogram(degrees: Int32Array): Array<{ degree: number; count: number }> {
  let max = 0;
  for (const d of degrees) if (d > max) max = d;
  const counts = new Float64Array(max + 1);
  for (const d of degrees) counts[d]++;
  const out: Array<{ degree: number; count: number }> = [];
  for (let d = 0; d <= max; d++) if (counts[d] > 0 && degrees.length > 0) out.push({ degree: d, count: counts[d] });
  return out;
}

/** Mean, median (the mean of the two middle values for an even count, as Python's statistics.median) and max. */
function statsOf(h: Array<{ degree: number; count: number }>, n: number): DegreeStats {
  if (n === 0) return { mean: 0, median: 0, max: 0 };
  let sum = 0;
  for (const { degree, count } of h) sum += degree * count;
  const at = (rank: number) => {
    let seen = 0;
    for (const { degree, count } of h) {
      seen += count;
      if (rank < seen) return degree;
    }
    return h[h.length - 1].degree;
  };
  const median = n % 2 === 1 ? at((n - 1) / 2) : (at(n / 2 - 1) + at(n / 2)) / 2;
  return { mean: sum / n, median, max: h[h.length - 1].degree };
}
