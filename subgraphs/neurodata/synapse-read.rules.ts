import { BadInput } from '../../lib/errors.js';
import type { Coordinates } from './dataset-metadata.rules.js';
import { decodeKeyset, encodeKeyset, MAX_FILTER_VALUE_CHARS, valueList } from './data-read.rules.js';
import type { CoordinateUnit } from './dataset.model.js';
import type { RoiCount, RoiRow, SynapseCursor, SynapseFilter } from './store/synapse-read.store.js';

/** Rows of one JSON page of synapses; every row at once is the Arrow answer. */
export const SYNAPSE_PAGE_MAX = 1000;
export const SYNAPSE_PAGE_DEFAULT = 100;
/** The `roi` value naming the bucket of synapses outside every ROI. */
export const OUTSIDE_ROIS = 'none';
/** Known ROI names an unknown one's message lists. */
const ROI_HINTS = 12;

/** The units a box may be given in. */
const BBOX_UNITS: readonly string[] = ['voxel', 'nm', 'um'];
/** Nanometres per unit; a voxel's edge comes from the dataset's voxel_size. */
const NM_PER: Record<Exclude<CoordinateUnit, 'voxel'>, number> = { nm: 1, um: 1000 };

export interface SynapseFilterInput {
  neuron?: readonly string[] | null;
  pre?: readonly string[] | null;
  post?: readonly string[] | null;
  roi?: string | null;
  bbox?: string | null;
  unit?: string | null;
  min_confidence?: number | null;
  min_cleft_score?: number | null;
  min_connection_score?: number | null;
  transmitter?: readonly string[] | null;
}

function minScore(field: string, v: number | null | undefined): number | undefined {
  if (v === null || v === undefined) return undefined;
  if (!Number.isFinite(v)) throw new BadInput(`${field}: a number (got ${v})`);
  return v;
}

/** A page of synapses: limit 1..1000 (default 100) and the cursor of the previous page's `next`. */
export function synapsePage(limit: number | null | undefined, after: string | null | undefined): { limit: number; after?: SynapseCursor } {
  const l = limit ?? SYNAPSE_PAGE_DEFAULT;
  if (!Number.isInteger(l) || l < 1 || l > SYNAPSE_PAGE_MAX) throw new BadInput(`limit: 1..${SYNAPSE_PAGE_MAX} (got ${l}); every row at once comes as Apache Arrow (format=arrow or the .arrow route)`);
  return after === null || after === undefined ? { limit: l } : { limit: l, after: decodeCursor(after) };
}

/** The opaque `next` of a page: the keyset of its last row. */
export function encodeCursor(c: SynapseCursor): string {
  return encodeKeyset([c.pre, c.post, c.synapseId]);
}

export function decodeCursor(text: string): SynapseCursor {
  const [pre, post, synapseId] = decodeKeyset(text, 3);
  return { pre, post, synapseId };
}

/**
 * The primary ROIs a filter on `name` means: `none` the bucket outside every ROI (''), a primary ROI itself and the
 * primary ones among its descendants; an unknown name is a BadInput listing some known ones.
 */
export function expandRoi(name: string, rois: readonly RoiRow[]): string[] {
  const n = name.trim();
  if (n === OUTSIDE_ROIS) return [''];
  const byName = new Map(rois.map((r) => [r.roi, r]));
  if (!byName.has(n)) {
    if (!rois.length) throw new BadInput(`roi: this version has no ROIs; only roi=${OUTSIDE_ROIS} (outside every ROI) applies`);
    const lower = n.toLowerCase();
    const close = rois.filter((r) => r.roi.toLowerCase().startsWith(lower.slice(0, 2))).map((r) => r.roi);
    const hints = (close.length ? close : rois.map((r) => r.roi)).slice(0, ROI_HINTS);
    throw new BadInput(`roi: ${JSON.stringify(n)} is not an ROI of this version; known ROIs include ${hints.join(', ')} (GET .../rois lists them; ${OUTSIDE_ROIS} means outside every ROI)`);
  }
  const primaries = [...primariesUnder(n, childrenOf(rois), byName)].sort();
  if (!primaries.length) {
    // Synapses carry only primary ROIs: one inside a primary ROI (a glomerulus of AL(R)) cannot be told apart.
    let up = byName.get(n)?.parent ?? null;
    const seen = new Set<string>();
    while (up !== null && !byName.get(up)?.primary && !seen.has(up)) {
      seen.add(up);
      up = byName.get(up)?.parent ?? null;
    }
    const inside = up !== null && byName.get(up)?.primary ? ` it lies inside the primary ROI ${up}, and` : '';
    throw new BadInput(`roi: ${JSON.stringify(n)} has no primary ROI among itself and its descendants:${inside} synapses carry only primary ROIs; filter on a primary ROI or a bbox`);
  }
  return primaries;
}

function childrenOf(rois: readonly RoiRow[]): Map<string, string[]> {
  const children = new Map<string, string[]>();
  for (const r of rois) {
    if (r.parent === null) continue;
    const list = children.get(r.parent) ?? [];
    list.push(r.roi);
    children.set(r.parent, list);
  }
  return children;
}

function primariesUnder(root: string, children: Map<string, string[]>, byName: Map<string, RoiRow>): Set<string> {
  const out = new Set<string>();
  const seen = new Set<string>();
  const stack = [root];
  // A walk with a seen set: an ROI file with a cycle must not hang a read.
  while (stack.length) {
    const at = stack.pop()!;
    if (seen.has(at)) continue;
    seen.add(at);
    if (byName.get(at)?.primary) out.add(at);
    stack.push(...(children.get(at) ?? []));
  }
  return out;
}

export interface RoiWithCounts extends RoiRow {
  /** null for an ROI with no primary ROI among itself and its descendants (its synapses are counted in a primary one). */
  pre: number | null;
  post: number | null;
}

/**
 * Each ROI with its synapse counts: a primary ROI its own, another the sum over the primary ROIs among its
 * descendants (each counted once); and the bucket outside every ROI.
 */
export function roiTreeCounts(rois: readonly RoiRow[], counts: Map<string, RoiCount>): { items: RoiWithCounts[]; outside: RoiCount } {
  const children = childrenOf(rois);
  const byName = new Map(rois.map((r) => [r.roi, r]));
  const items = rois.map((r) => {
    const primaries = primariesUnder(r.roi, children, byName);
    if (!primaries.size) return { ...r, pre: null, post: null };
    let pre = 0;
    let post = 0;
    for (const p of primaries) {
      pre += counts.get(p)?.pre ?? 0;
      post += counts.get(p)?.post ?? 0;
    }
    return { ...r, pre, post };
  });
  return { items, outside: counts.get('') ?? { pre: 0, post: 0 } };
}

/** `x0,y0,z0,x1,y1,z1` as a box (corners in either order), in the unit given. */
export function parseBbox(text: string): { min: [number, number, number]; max: [number, number, number] } {
  const parts = text.split(',').map((s) => s.trim());
  const values = parts.map((s) => (s === '' ? Number.NaN : Number(s)));
  if (values.length !== 6 || values.some((v) => !Number.isFinite(v))) throw new BadInput(`bbox: six numbers x0,y0,z0,x1,y1,z1 (got ${JSON.stringify(text.slice(0, 100))})`);
  const min = [0, 1, 2].map((i) => Math.min(values[i], values[i + 3])) as [number, number, number];
  const max = [0, 1, 2].map((i) => Math.max(values[i], values[i + 3])) as [number, number, number];
  return { min, max };
}

/**
 * A box given in `unit` in the dataset's stored unit. Converting to or from voxels needs the dataset's voxel_size;
 * a dataset that declares no coordinate_unit cannot be searched by box.
 */
export function bboxInStoredUnit(
  box: { min: [number, number, number]; max: [number, number, number] },
  unit: string,
  stored: Coordinates,
): { min: [number, number, number]; max: [number, number, number] } {
  if (!BBOX_UNITS.includes(unit)) throw new BadInput(`unit: ${JSON.stringify(unit)} is not one of ${BBOX_UNITS.join(', ')}`);
  const to = stored.coordinateUnit;
  if (!to) throw new BadInput('bbox: this dataset declares no coordinate_unit, so a box cannot be placed in its coordinates (its maintainers set coordinate_unit in the metadata)');
  if (unit === to) return box;
  const voxel = stored.voxelSize;
  if ((unit === 'voxel' || to === 'voxel') && !voxel) {
    throw new BadInput(`unit: voxel needs the dataset's voxel_size, which it does not declare; give the box in ${to}`);
  }
  const nm = (v: number, i: number) => (unit === 'voxel' ? v * voxel![i] : v * NM_PER[unit as 'nm' | 'um']);
  const back = (v: number, i: number) => (to === 'voxel' ? v / voxel![i] : v / NM_PER[to]);
  const convert = (p: [number, number, number]) => p.map((v, i) => back(nm(v, i), i)) as [number, number, number];
  return { min: convert(box.min), max: convert(box.max) };
}

/** The store's filter of a synapse read, but for the ROI and the box, which need the version (see the service). */
export function synapseFilterBase(input: SynapseFilterInput): SynapseFilter {
  const f: SynapseFilter = {};
  const neurons = valueList('neuron', input.neuron);
  if (neurons) f.neurons = neurons;
  const pre = valueList('pre', input.pre);
  if (pre) f.pre = pre;
  const post = valueList('post', input.post);
  if (post) f.post = post;
  const transmitters = valueList('transmitter', input.transmitter);
  if (transmitters) f.transmitters = transmitters;
  const c = minScore('min_confidence', input.min_confidence);
  if (c !== undefined) f.minConfidence = c;
  const cleft = minScore('min_cleft_score', input.min_cleft_score);
  if (cleft !== undefined) f.minCleftScore = cleft;
  const conn = minScore('min_connection_score', input.min_connection_score);
  if (conn !== undefined) f.minConnectionScore = conn;
  const hasBox = input.bbox !== null && input.bbox !== undefined;
  const hasUnit = input.unit !== null && input.unit !== undefined;
  if (hasBox && !hasUnit) throw new BadInput('unit: required with bbox (voxel, nm or um: the unit the box is given in)');
  if (hasUnit && !hasBox) throw new BadInput('unit: only with bbox');
  if (hasUnit && !BBOX_UNITS.includes(String(input.unit))) throw new BadInput(`unit: ${JSON.stringify(input.unit)} is not one of ${BBOX_UNITS.join(', ')}`);
  if (hasBox) parseBbox(input.bbox!);
  if (input.roi !== null && input.roi !== undefined && (!input.roi.trim() || input.roi.length > MAX_FILTER_VALUE_CHARS)) throw new BadInput(`roi: an ROI name of 1..${MAX_FILTER_VALUE_CHARS} characters, or ${OUTSIDE_ROIS}`);
  return f;
}
