import { lineChart } from '../../domain/plot/line-chart.js';
import { histogramChart } from '../../domain/plot/histogram.js';
import { networkDiagram } from '../../domain/plot/network.js';
import type { EgoOut, GraphData } from './graph.model.js';

interface Titled {
  slug: string;
  version: number;
  synapse_type: string;
  min_weight: number | null;
}

const graphName = (r: Titled) => `${r.slug}@v${r.version}, ${r.synapse_type}${r.min_weight !== null ? `, weight ≥ ${r.min_weight}` : ''}`;

/** The reachability curve: cells reachable within k hops. */
export function curvePlot(r: Titled & { sources: Array<{ neuron_id: string }> | null; curve: Array<{ hops: number; reachable: number }>; nodes: number }): string {
  const who = r.sources
    ? r.sources.length <= 3
      ? `from ${r.sources.map((s) => s.neuron_id).join(', ')}`
      : `from ${r.sources.length} sources together`
    : `mean over all ${r.nodes} cells, each alone as the source`;
  return lineChart({
    title: 'Cells reachable within k hops',
    xLabel: 'hops (k)',
    yLabel: 'cells reachable within k hops',
    series: [{ name: who, points: r.curve.map((p) => [p.hops, p.reachable] as [number, number]) }],
    yMin: 0,
    yMax: Math.max(1, r.nodes - (r.sources?.length ?? 1)),
    xInteger: true,
    note: `${graphName(r)}; ${who}. The top of the axis is every other cell.`,
  });
}

type Hist = { bins: Array<{ degree: number; count: number }> };

/** In-, out- and total degree histograms side by side, counts on a log axis (connectome degrees are heavy-tailed). */
export function degreePlot(r: Titled & { directed: boolean; in: Hist; out: Hist; total: Hist }): string {
  const panel = (name: string, h: Hist) => ({ name, bins: h.bins.map((b) => ({ x: b.degree, count: b.count })) });
  return histogramChart({
    title: `Degree distribution: ${graphName(r)}`,
    xLabel: 'degree (connections)',
    yLabel: 'cells',
    panels: r.directed ? [panel('in-degree', r.in), panel('out-degree', r.out), panel('total degree', r.total)] : [panel('degree', r.total)],
    logY: true,
  });
}

/** The ego network as a drawing: the centre larger, cells coloured by type. */
export function neighbourhoodPlot(r: Titled & { directed: boolean; hops: number; center: { neuron_id: string } }, ego: EgoOut, d: GraphData): string {
  const centre = r.center.neuron_id;
  return networkDiagram({
    title: `${centre} within ${r.hops} hop${r.hops > 1 ? 's' : ''}: ${graphName(r)}`,
    directed: r.directed,
    nodes: ego.members.map((v, i) => ({
      id: d.ids[v],
      label: d.names[v],
      x: ego.positions[i][0],
      y: ego.positions[i][1],
      group: d.types[v] || 'unknown',
      emphasis: d.ids[v] === centre,
    })),
    edges: ego.links.map((e) => ({ source: d.ids[e.source], target: d.ids[e.target], weight: e.weight })),
    legendTitle: 'cell type',
  });
}
