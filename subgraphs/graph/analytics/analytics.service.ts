import type { RequestContext } from '../../../lib/context.js';
import { BadInput } from '../../../lib/errors.js';
import type { CatalogueEntry, DatasetVersionRef, TermValue } from '../../neurodata/index.js';
import type { ResolveVersion } from '../graph.service.js';
import { intParam, splitList } from '../graph-params.js';
import type { AnalyticsStore, ValueCount, Version } from '../store/analytics.store.js';
import { DATASET_METRICS, datasetMetrics, metricNames } from './dataset-metrics.js';

type Viewer = Pick<RequestContext, 'viewer' | 'authError' | 'reloadViewer' | 'log'>;
export type Catalogue = (ctx: Viewer) => Promise<CatalogueEntry[]>;
export type RegionLineages = (codes: readonly string[]) => Promise<Map<string, Array<{ code: string; label: string }>>>;

export const ANALYTICS_LIMITS = {
  /** Values listed per breakdown (the rest are counted as other cells). */
  values: { min: 1, default: 50, max: 1000 },
  compared: { min: 2, max: 20 },
  reference: { min: 2, max: 50 },
} as const;

/** |z| above which a zscore comparison flags a metric. */
export const Z_THRESHOLD = 2;

export interface DatasetLabel {
  dataset_id: string;
  slug: string;
  title: string;
  version: number;
}

/** How every analytics answer names a dataset version. */
export const datasetLabel = (r: DatasetVersionRef): DatasetLabel => ({ dataset_id: r.datasetId, slug: r.slug, title: r.title, version: r.version });
const label = datasetLabel;
const versionOf = (r: DatasetVersionRef): Version => ({ datasetId: r.datasetId, version: r.version });
const at = (r: DatasetVersionRef) => `${r.slug}@v${r.version}`;

/** Dataset and catalogue summaries, and metrics of several datasets compared (spec 4.3 Analytics). */
export class AnalyticsService {
  constructor(
    private readonly resolveVersion: ResolveVersion,
    private readonly store: AnalyticsStore,
    private readonly catalogue: Catalogue,
    private readonly lineages: RegionLineages,
  ) {}

  async summary(ctx: Viewer, args: { dataset_id?: string | null; version?: string | null; limit?: number | null }) {
    const limit = intParam('limit', args.limit, ANALYTICS_LIMITS.values);
    if (!args.dataset_id) {
      if (args.version) throw new BadInput('version: give it with dataset_id');
      return { scope: 'catalogue', catalogue: await this.catalogueSummary(ctx, limit), dataset: null };
    }
    const ref = await this.resolveVersion(ctx, args.dataset_id, args.version);
    return { scope: 'dataset', catalogue: null, dataset: await this.datasetSummary(ref, limit) };
  }

  private async catalogueSummary(ctx: Viewer, limit: number) {
    const entries = await this.catalogue(ctx);
    const readable = entries.filter((e) => e.rowCounts !== null);
    const sum = (pick: (e: CatalogueEntry) => number) => readable.reduce((s, e) => s + pick(e), 0);
    const groups = (terms: (e: CatalogueEntry) => TermValue[]) => {
      const by = new Map<string, { code: string; label: string; datasets: number; neurons: number; connections: number; morphologies: number }>();
      for (const e of entries) {
        const seen = new Set<string>();
        for (const t of terms(e)) {
          if (seen.has(t.code)) continue;
          seen.add(t.code);
          let g = by.get(t.code);
          if (!g) by.set(t.code, (g = { code: t.code, label: t.label, datasets: 0, neurons: 0, connections: 0, morphologies: 0 }));
          g.datasets++;
          if (e.rowCounts) {
            g.neurons += e.rowCounts.neurons;
            g.connections += e.rowCounts.connections;
            g.morphologies += e.rowCounts.morphologies;
          }
        }
      }
      return [...by.values()].sort((a, b) => b.datasets - a.datasets || b.neurons - a.neurons || a.code.localeCompare(b.code)).slice(0, limit);
    };
    return {
      datasets: entries.length,
      public_datasets: entries.filter((e) => e.visibility === 'public').length,
      restricted_datasets: entries.filter((e) => e.visibility === 'restricted').length,
      datasets_without_data_access: entries.length - readable.length,
      neurons: sum((e) => e.rowCounts!.neurons),
      connections: sum((e) => e.rowCounts!.connections),
      chemical_connections: sum((e) => e.rowCounts!.chemicalConnections),
      electrical_connections: sum((e) => e.rowCounts!.electricalConnections),
      morphologies: sum((e) => e.rowCounts!.morphologies),
      by_species: groups((e) => e.metadata.species),
      by_brain_region: groups((e) => e.metadata.brainRegions),
      by_technique: groups((e) => e.metadata.microscopy),
    };
  }

  private async datasetSummary(ref: DatasetVersionRef, limit: number) {
    const v = versionOf(ref);
    // One after the other: the embedded column store runs one query at a time.
    const cells = await this.store.neuronCounts(v);
    const byClass = await this.store.neuronsBy(v, 'cell_class');
    const byType = await this.store.neuronsBy(v, 'cell_type');
    const byTransmitter = await this.store.neuronsByTransmitter(v);
    const byRegion = await this.store.neuronsBy(v, 'region_code');
    const connections = await this.store.connectionTotals(v);
    const bins = await this.store.weightBins(v);
    const morphologies = await this.store.morphologyTotals(v);
    const lineages = await this.lineages(byRegion.map((r) => r.value).filter(Boolean));
    const regionLabel = (code: string) => lineages.get(code)?.at(-1)?.label ?? null;
    return {
      ...label(ref),
      is_draft: ref.isDraft,
      cells: cells.cells,
      neurons: cells.neurons,
      cells_with_region: cells.with_region,
      cells_with_position: cells.with_position,
      by_class: breakdown(byClass, limit),
      by_type: breakdown(byType, limit),
      by_neurotransmitter: breakdown(byTransmitter, limit),
      by_region: withRegionLabels(breakdown(byRegion, limit), regionLabel),
      connections: connections.map((c) => ({ ...c, mean_weight: c.rows > 0 ? c.weight / c.rows : null })),
      weight_histogram: bins.map((b) => ({ synapse_type: b.synapse_type, lower: 2 ** b.exponent, upper: 2 ** (b.exponent + 1), n: b.n })),
      morphologies,
    };
  }

  async comparison(ctx: Viewer, args: { datasets: string[]; metrics?: string[] | null }) {
    const refs = splitList(args.datasets);
    const { min, max } = ANALYTICS_LIMITS.compared;
    if (refs.length < min || refs.length > max) throw new BadInput(`datasets: give ${min} to ${max} datasets (id or slug, optionally @vN), comma-separated or repeated`);
    const names = metricNames(args.metrics);
    const resolved: DatasetVersionRef[] = [];
    for (const r of refs) resolved.push(await this.resolveVersion(ctx, r));
    const values: Array<Array<number | null>> = [];
    for (const r of resolved) values.push(await datasetMetrics(this.store, versionOf(r), names));
    return {
      reference: at(resolved[0]),
      datasets: resolved.map(label),
      rows: names.map((metric, m) => {
        const row = values.map((vs) => vs[m]);
        const base = row[0];
        return {
          metric,
          description: DATASET_METRICS[metric].description,
          values: row,
          differences: row.map((x) => (x === null || base === null ? null : x - base)),
          relative_differences: row.map((x) => (x === null || base === null || base === 0 ? null : (x - base) / Math.abs(base))),
        };
      }),
    };
  }

  async zscoreComparison(ctx: Viewer, args: { dataset_id: string; version?: string | null; reference: string[]; metrics?: string[] | null }) {
    const refs = splitList(args.reference);
    const { min, max } = ANALYTICS_LIMITS.reference;
    if (refs.length < min || refs.length > max) throw new BadInput(`reference: give ${min} to ${max} datasets (a sample standard deviation needs two), comma-separated or repeated`);
    const names = metricNames(args.metrics);
    const target = await this.resolveVersion(ctx, args.dataset_id, args.version);
    const reference: DatasetVersionRef[] = [];
    for (const r of refs) reference.push(await this.resolveVersion(ctx, r));
    const own = await datasetMetrics(this.store, versionOf(target), names);
    const others: Array<Array<number | null>> = [];
    for (const r of reference) others.push(await datasetMetrics(this.store, versionOf(r), names));
    return {
      dataset: label(target),
      reference: reference.map(label),
      threshold: Z_THRESHOLD,
      rows: names.map((metric, m) => {
        const sample = others.map((vs) => vs[m]).filter((x): x is number => x !== null);
        const value = own[m];
        const n = sample.length;
        const mean = n ? sample.reduce((s, x) => s + x, 0) / n : null;
        const sd = n >= 2 && mean !== null ? Math.sqrt(sample.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1)) : null;
        const z = value === null || mean === null || !sd ? null : (value - mean) / sd;
        return {
          metric,
          description: DATASET_METRICS[metric].description,
          value,
          reference_n: n,
          reference_mean: mean,
          reference_sd: sd,
          z,
          flagged: z !== null && Math.abs(z) > Z_THRESHOLD,
          note: zNote(value, n, sd),
        };
      }),
    };
  }
}

function zNote(value: number | null, n: number, sd: number | null): string | null {
  if (value === null) return 'the dataset has no value for this metric';
  if (n < 2) return `${n} reference dataset${n === 1 ? ' has' : 's have'} a value: a standard deviation needs two`;
  if (!sd) return 'the reference datasets all have the same value: the standard deviation is 0';
  return null;
}

function withRegionLabels(b: ReturnType<typeof breakdown>, label: (code: string) => string | null) {
  return { ...b, values: b.values.map((r) => ({ ...r, label: label(r.value) })) };
}

/** The largest `limit` values with their counts, and what they leave out. '' (no value) is reported apart. */
function breakdown(values: ValueCount[], limit: number) {
  const known = values.filter((v) => v.value !== '');
  const shown = known.slice(0, limit);
  return {
    distinct: known.length,
    without_value: values.find((v) => v.value === '')?.n ?? 0,
    values: shown,
    other_cells: known.slice(limit).reduce((s, v) => s + v.n, 0),
  };
}
