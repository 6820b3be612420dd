import { BadInput } from '../../../lib/errors.js';
import type { AnalyticsStore, ConnectionTotals, MorphologyTotals, ValueCount, Version } from '../store/analytics.store.js';

/**
 * The summary metrics a dataset version is compared by (GET /v1/analytics/comparison and zscore-comparison): each
 * one figure per version, computed by ClickHouse from the neurodata column tables. docs/analytics.md lists them.
 */

/** What the metrics are computed from; each part is read once, and only when a requested metric needs it. */
class Facts {
  private cache = new Map<string, Promise<unknown>>();

  constructor(
    private readonly store: AnalyticsStore,
    private readonly v: Version,
  ) {}

  private once<T>(key: string, read: () => Promise<T>): Promise<T> {
    let p = this.cache.get(key) as Promise<T> | undefined;
    if (!p) this.cache.set(key, (p = read()));
    return p;
  }

  neurons = () => this.once('neurons', () => this.store.neuronCounts(this.v));
  classes = () => this.once('classes', () => this.store.neuronsBy(this.v, 'cell_class'));
  types = () => this.once('types', () => this.store.neuronsBy(this.v, 'cell_type'));
  connections = () => this.once('connections', () => this.store.connectionTotals(this.v));
  dyads = () => this.once('dyads', () => this.store.chemicalDyads(this.v));
  morphologies = () => this.once('morphologies', () => this.store.morphologyTotals(this.v));

  async ofType(type: 'chemical' | 'electrical'): Promise<ConnectionTotals | null> {
    return (await this.connections()).find((c) => c.synapse_type === type) ?? null;
  }
}

interface MetricDef {
  description: string;
  value: (f: Facts) => Promise<number | null>;
}

const distinct = (values: ValueCount[]) => values.filter((v) => v.value !== '').length;
const morph = (pick: (m: MorphologyTotals) => number | null) => async (f: Facts) => pick(await f.morphologies());

export const DATASET_METRICS: Record<string, MetricDef> = {
  cells: { description: 'cells (neurons and the other cells connections name)', value: async (f) => (await f.neurons()).cells },
  neurons: { description: 'cells that are neurons', value: async (f) => (await f.neurons()).neurons },
  cell_classes: { description: 'distinct cell classes', value: async (f) => distinct(await f.classes()) },
  cell_types: { description: 'distinct cell types', value: async (f) => distinct(await f.types()) },
  chemical_connections: { description: 'chemical connection rows (ordered pairs)', value: async (f) => (await f.ofType('chemical'))?.rows ?? 0 },
  electrical_connections: { description: 'electrical connection rows (unordered pairs)', value: async (f) => (await f.ofType('electrical'))?.rows ?? 0 },
  chemical_synapses: { description: 'total chemical weight (synapses, in the dataset\'s weight unit)', value: async (f) => (await f.ofType('chemical'))?.weight ?? 0 },
  electrical_synapses: { description: 'total electrical weight', value: async (f) => (await f.ofType('electrical'))?.weight ?? 0 },
  mean_chemical_weight: {
    description: 'mean weight of a chemical connection; null without any',
    value: async (f) => {
      const c = await f.ofType('chemical');
      return c && c.rows > 0 ? c.weight / c.rows : null;
    },
  },
  median_chemical_weight: { description: 'median weight of a chemical connection; null without any', value: async (f) => (await f.ofType('chemical'))?.median ?? null },
  chemical_density: {
    description: 'chemical arcs between distinct cells / (cells x (cells - 1)); null under two cells',
    value: async (f) => {
      const [n, c] = [(await f.neurons()).cells, await f.ofType('chemical')];
      if (n < 2) return null;
      return ((c?.rows ?? 0) - (c?.self_loops ?? 0)) / (n * (n - 1));
    },
  },
  reciprocity: {
    description: 'share of chemical arcs between distinct cells whose reverse arc exists, 2M / (2M + A); null without arcs',
    value: async (f) => {
      const d = await f.dyads();
      return reciprocityOf(d.mutual, d.asymmetric);
    },
  },
  mean_chemical_out_degree: {
    description: 'chemical arcs between distinct cells per cell (equal to the mean in-degree); null without cells',
    value: async (f) => {
      const [n, c] = [(await f.neurons()).cells, await f.ofType('chemical')];
      return n > 0 ? ((c?.rows ?? 0) - (c?.self_loops ?? 0)) / n : null;
    },
  },
  morphologies: { description: 'morphology files', value: morph((m) => m.files) },
  mean_total_length: { description: 'mean total neurite length of a morphology, in the files\' unit; null without any', value: morph((m) => m.mean_total_length) },
  mean_tips: { description: 'mean number of tips of a morphology; null without any', value: morph((m) => m.mean_tips) },
  mean_bifurcations: { description: 'mean number of bifurcations of a morphology; null without any', value: morph((m) => m.mean_bifurcations) },
};

export const METRIC_NAMES = Object.keys(DATASET_METRICS);

/** Reciprocity from the dyad census: the share of arcs that are reciprocated. */
export function reciprocityOf(mutual: number, asymmetric: number): number | null {
  const arcs = 2 * mutual + asymmetric;
  return arcs > 0 ? (2 * mutual) / arcs : null;
}

/** The metrics asked for (all when none), checked by name. */
export function metricNames(asked: string[] | null | undefined): string[] {
  const names = (asked ?? []).flatMap((m) => m.split(',')).map((m) => m.trim()).filter(Boolean);
  if (!names.length) return METRIC_NAMES;
  const unknown = names.filter((m) => !(m in DATASET_METRICS));
  if (unknown.length) throw new BadInput(`metrics: unknown ${unknown.map((m) => JSON.stringify(m)).join(', ')}; known: ${METRIC_NAMES.join(', ')}`);
  return [...new Set(names)];
}

/** The named metrics of one version, in order. */
export async function datasetMetrics(store: AnalyticsStore, v: Version, names: string[]): Promise<Array<number | null>> {
  const facts = new Facts(store, v);
  const out: Array<number | null> = [];
  // One after the other: on the embedded engine the column store runs one query at a time anyway.
  for (const name of names) out.push(await DATASET_METRICS[name].value(facts));
  return out;
}
