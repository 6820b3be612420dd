import type { RequestContext } from '../../../lib/context.js';
import type { DatasetVersionRef } from '../../neurodata/index.js';
import type { ResolveVersion } from '../graph.service.js';
import type { AnalyticsStore, RegionPair, Version } from '../store/analytics.store.js';
import { intParam } from '../graph-params.js';
import { datasetLabel, type RegionLineages } from './analytics.service.js';

type Viewer = Pick<RequestContext, 'viewer' | 'authError' | 'reloadViewer' | 'log'>;

/** Depth of the brain-region hierarchy regions are mapped to; 0 is the root (MBA's "brain"). */
export const ATLAS_LEVEL = { min: 0, default: 3, max: 12 } as const;

export const ATLAS_CONVENTIONS = [
  'level: a cell counts for the ancestor of its region at that depth of the brain_region hierarchy (0 = the root); a region annotated above that depth counts as itself',
  'connections: chemical connection rows; outgoing = rows whose presynaptic cell maps to the region, internal = rows whose two cells map to it',
  'fractions: of the cells (or chemical connection rows) of the dataset that map to a region',
  'standardized difference of two proportions: (p_dataset - p_reference) / sqrt((p_dataset (1 - p_dataset) + p_reference (1 - p_reference)) / 2); null when both are 0 or both 1',
  'unassigned: cells without a region, or with a code the brain_region vocabulary does not have (listed)',
];

interface Side {
  ref: DatasetVersionRef;
  neurons: Map<string, number>;
  outgoing: Map<string, number>;
  internal: Map<string, number>;
  mappedNeurons: number;
  mappedConnections: number;
  unassignedNeurons: number;
  unknownCodes: string[];
  connections: number;
}

/**
 * Two datasets compared region by region through the brain-region hierarchy (GET /v1/meta-analysis/atlas/compare):
 * each cell's region mapped to a chosen level, cells and chemical connections counted per mapped region on each
 * side, the regions only one side has, and standardized differences of the proportions.
 */
export class AtlasService {
  constructor(
    private readonly resolveVersion: ResolveVersion,
    private readonly store: AnalyticsStore,
    private readonly lineages: RegionLineages,
  ) {}

  async compare(ctx: Viewer, args: { dataset_id: string; version?: string | null; reference_id: string; reference_version?: string | null; level?: number | null }) {
    const level = intParam('level', args.level, ATLAS_LEVEL);
    const a = await this.resolveVersion(ctx, args.dataset_id, args.version);
    const b = await this.resolveVersion(ctx, args.reference_id, args.reference_version);
    const [ra, rb] = [await this.regionCounts(a), await this.regionCounts(b)];
    const lineages = await this.lineages([...new Set([...ra.neurons.keys(), ...rb.neurons.keys(), ...ra.pairs.flatMap(codes), ...rb.pairs.flatMap(codes)])].filter(Boolean));
    const mapTo = (code: string): { code: string; label: string; depth: number } | null => {
      const chain = lineages.get(code);
      if (!chain) return null;
      const d = Math.min(level, chain.length - 1);
      return { ...chain[d], depth: d };
    };
    const labels = new Map<string, { label: string; depth: number }>();
    const side = (ref: DatasetVersionRef, counts: { neurons: Map<string, number>; pairs: RegionPair[] }): Side => {
      const s: Side = { ref, neurons: new Map(), outgoing: new Map(), internal: new Map(), mappedNeurons: 0, mappedConnections: 0, unassignedNeurons: 0, unknownCodes: [], connections: 0 };
      for (const [code, n] of counts.neurons) {
        const m = code ? mapTo(code) : null;
        if (!m) {
          s.unassignedNeurons += n;
          if (code) s.unknownCodes.push(code);
          continue;
        }
        labels.set(m.code, { label: m.label, depth: m.depth });
        add(s.neurons, m.code, n);
        s.mappedNeurons += n;
      }
      for (const p of counts.pairs) {
        s.connections += p.n;
        const pre = p.pre_region ? mapTo(p.pre_region) : null;
        const post = p.post_region ? mapTo(p.post_region) : null;
        if (!pre) continue;
        s.mappedConnections += p.n;
        labels.set(pre.code, { label: pre.label, depth: pre.depth });
        add(s.outgoing, pre.code, p.n);
        if (post && post.code === pre.code) add(s.internal, pre.code, p.n);
      }
      s.unknownCodes.sort();
      return s;
    };
    const [sa, sb] = [side(a, ra), side(b, rb)];
    const regions = [...labels.keys()].sort((x, y) => (sa.neurons.get(y) ?? 0) + (sb.neurons.get(y) ?? 0) - (sa.neurons.get(x) ?? 0) - (sb.neurons.get(x) ?? 0) || x.localeCompare(y));
    const present = (s: Side, code: string) => (s.neurons.get(code) ?? 0) > 0 || (s.outgoing.get(code) ?? 0) > 0;
    const proportion = (n: number, total: number) => (total > 0 ? n / total : null);
    return {
      dataset: datasetLabel(a),
      reference: datasetLabel(b),
      level,
      conventions: ATLAS_CONVENTIONS,
      regions: regions.map((code) => {
        const [na, nb] = [sa.neurons.get(code) ?? 0, sb.neurons.get(code) ?? 0];
        const [ca, cb] = [sa.outgoing.get(code) ?? 0, sb.outgoing.get(code) ?? 0];
        const [pa, pb] = [proportion(na, sa.mappedNeurons), proportion(nb, sb.mappedNeurons)];
        const [qa, qb] = [proportion(ca, sa.mappedConnections), proportion(cb, sb.mappedConnections)];
        return {
          code,
          label: labels.get(code)!.label,
          depth: labels.get(code)!.depth,
          in_dataset: present(sa, code),
          in_reference: present(sb, code),
          dataset_neurons: na,
          reference_neurons: nb,
          dataset_neuron_fraction: pa,
          reference_neuron_fraction: pb,
          neuron_std_difference: standardizedDifference(pa, pb),
          dataset_outgoing_connections: ca,
          reference_outgoing_connections: cb,
          dataset_internal_connections: sa.internal.get(code) ?? 0,
          reference_internal_connections: sb.internal.get(code) ?? 0,
          dataset_connection_fraction: qa,
          reference_connection_fraction: qb,
          connection_std_difference: standardizedDifference(qa, qb),
        };
      }),
      only_in_dataset: regions.filter((c) => present(sa, c) && !present(sb, c)),
      only_in_reference: regions.filter((c) => !present(sa, c) && present(sb, c)),
      dataset_totals: totals(sa),
      reference_totals: totals(sb),
    };
  }

  private async regionCounts(ref: DatasetVersionRef): Promise<{ neurons: Map<string, number>; pairs: RegionPair[] }> {
    const v: Version = { datasetId: ref.datasetId, version: ref.version };
    const byRegion = await this.store.neuronsBy(v, 'region_code');
    const pairs = await this.store.regionPairs(v);
    return { neurons: new Map(byRegion.map((r) => [r.value, r.n])), pairs };
  }
}

const codes = (p: RegionPair) => [p.pre_region, p.post_region];

function add(m: Map<string, number>, key: string, n: number): void {
  m.set(key, (m.get(key) ?? 0) + n);
}

function totals(s: Side) {
  return {
    neurons_mapped: s.mappedNeurons,
    neurons_unassigned: s.unassignedNeurons,
    unknown_region_codes: s.unknownCodes,
    chemical_connections: s.connections,
    chemical_connections_mapped: s.mappedConnections,
  };
}

/** The standardized difference of two proportions (Austin 2009, for binary variables). */
export function standardizedDifference(p1: number | null, p2: number | null): number | null {
  if (p1 === null || p2 === null) return null;
  const pooled = (p1 * (1 - p1) + p2 * (1 - p2)) / 2;
  return pooled > 0 ? (p1 - p2) / Math.sqrt(pooled) : null;
}
