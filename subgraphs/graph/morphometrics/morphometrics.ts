import type { SwcTree } from '../../../domain/morphology/swc.js';
import { summariseSwc, type MorphologySummary } from '../../../domain/morphology/summary.js';
import { distance, frustumArea, frustumVolume, type Point } from './geometry.js';
import { orient } from './orientation.js';
import { shollCrossings, shollRadii } from './sholl.js';
import { somaRadius } from './soma.js';

export { distribution, type Distribution } from './distribution.js';
export type { Point } from './geometry.js';

/**
 * Morphometrics of one neuron from its SWC samples: pure functions, no I/O, linear time apart from Sholl's
 * log factor. Keys are snake_case because they are the REST wire names. Definitions, units and how they compare
 * with NeuroM and L-Measure: docs/morphometrics.md. fixtures/morphometrics_reference.py computes every measure
 * independently for the shipped files.
 */

export interface MorphometricsOptions {
  /** Sholl sphere radii, in file units; when given, shollStep is ignored. */
  shollRadii?: number[];
  /** Spacing of the default Sholl spheres (step, 2·step, … up to the farthest neurite sample); default 10. */
  shollStep?: number;
}

export interface TypeLength {
  /** SWC type number: 0 undefined, 2 axon, 3 basal dendrite, 4 apical dendrite, 5 and above custom. */
  type: number;
  name: string;
  length: number;
}

/** One neurite: the samples reached from one stem, away from the soma. */
export interface StemMorphometrics {
  /** Id and type of the stem's first sample. */
  first_id: number;
  type: number;
  type_name: string;
  n_points: number;
  n_bifurcations: number;
  n_tips: number;
  n_sections: number;
  length: number;
  surface_area: number;
  volume: number;
  max_path_distance: number;
  max_branch_order: number;
  strahler_order: number;
}

/** One connected tree of the file (a root with parent -1 and everything below it). */
export interface TreeMorphometrics {
  root_id: number;
  n_points: number;
  n_soma_points: number;
  n_stems: number;
  total_length: number;
}

export interface BoundingBox {
  min_x: number;
  min_y: number;
  min_z: number;
  max_x: number;
  max_y: number;
  max_z: number;
  extent_x: number;
  extent_y: number;
  extent_z: number;
}

export interface ShollProfile {
  /** Centre of the spheres: the soma centre, or the first root without a soma. */
  center: Point;
  radii: number[];
  crossings: number[];
}

export interface NeuronMorphometrics {
  n_points: number;
  n_soma_points: number;
  n_trees: number;
  n_stems: number;
  n_bifurcations: number;
  n_multifurcations: number;
  n_tips: number;
  n_sections: number;
  total_length: number;
  length_by_type: TypeLength[];
  max_path_distance: number;
  max_branch_order: number;
  max_euclidean_distance: number;
  strahler_order: number;
  surface_area: number;
  volume: number;
  surface_area_cylinder: number;
  volume_cylinder: number;
  soma_center: Point | null;
  soma_radius: number | null;
  soma_surface_area: number | null;
  bounding_box: BoundingBox;
  sholl: ShollProfile;
  stems: StemMorphometrics[];
  trees: TreeMorphometrics[];
}

export const DEFAULT_SHOLL_STEP = 10;

const TYPE_NAMES: Record<number, string> = { 0: 'undefined', 1: 'soma', 2: 'axon', 3: 'basal_dendrite', 4: 'apical_dendrite' };

/** NeuroM's names for the SWC types; 5 and above are custom labels (the hemibrain uses 5 and 6 for forks and ends). */
export function typeName(type: number): string {
  return TYPE_NAMES[type] ?? `custom_${type}`;
}

/**
 * The sample counts, soma centre and bounding box are the file's summary (domain/morphology/summary.ts), the one the
 * ingest stores. Stems, forks, tips and lengths are counted here on the tree directed away from the soma, per neurite;
 * they equal the summary's except where a neurite runs between two soma samples (the summary counts a stem at each
 * end), and the total length is summed per neurite, in walk order.
 */
export function morphometrics(tree: SwcTree, options: MorphometricsOptions = {}): NeuronMorphometrics {
  const n = tree.count;
  const summary = summariseSwc(tree);
  const { isSoma, up, order, treeOf } = orient(tree);
  const isNeurite = (i: number) => !isSoma[i];
  const isStemStart = (i: number) => isNeurite(i) && (up[i] < 0 || isSoma[up[i]]);

  /** Neurite samples one step further from the soma: a fork has two or more, a tip none. */
  const branches = new Int32Array(n);
  for (let i = 0; i < n; i++) if (isNeurite(i) && up[i] >= 0 && isNeurite(up[i])) branches[up[i]]++;

  const stemOf = new Int32Array(n).fill(-1);
  const stems: StemMorphometrics[] = [];
  for (let i = 0; i < n; i++) {
    if (!isStemStart(i)) continue;
    stemOf[i] = stems.length;
    const type = tree.types[i];
    stems.push({
      first_id: tree.ids[i], type, type_name: typeName(type), n_points: 0, n_bifurcations: 0, n_tips: 0, n_sections: 1,
      length: 0, surface_area: 0, volume: 0, max_path_distance: 0, max_branch_order: 0, strahler_order: 0,
    });
  }
  const trees: TreeMorphometrics[] = tree.roots.map((r) => ({ root_id: tree.ids[r], n_points: 0, n_soma_points: 0, n_stems: 0, total_length: 0 }));
  const lengthByType = new Map<number, number>();

  const pathDistance = new Float64Array(n);
  const branchOrder = new Int32Array(n);
  let nBifurcations = 0;
  let nMultifurcations = 0;
  let nTips = 0;
  let nSections = 0;
  let totalLength = 0;
  let surfaceArea = 0;
  let volume = 0;
  let maxPath = 0;
  let maxOrder = 0;
  const segmentFrom: number[] = [];
  const segmentTo: number[] = [];

  for (const i of order) {
    const t = trees[treeOf[i]];
    t.n_points++;
    if (isSoma[i]) {
      t.n_soma_points++;
      continue;
    }
    const type = tree.types[i];
    if (!lengthByType.has(type)) lengthByType.set(type, 0);
    const b = branches[i];
    if (isStemStart(i)) {
      t.n_stems++;
      nSections++;
    } else {
      const p = up[i];
      stemOf[i] = stemOf[p];
      const h = distance(tree, i, p);
      const area = frustumArea(tree.radius[i], tree.radius[p], h);
      const vol = frustumVolume(tree.radius[i], tree.radius[p], h);
      pathDistance[i] = pathDistance[p] + h;
      branchOrder[i] = branchOrder[p] + (branches[p] >= 2 ? 1 : 0);
      totalLength += h;
      surfaceArea += area;
      volume += vol;
      t.total_length += h;
      lengthByType.set(type, lengthByType.get(type)! + h);
      const s = stems[stemOf[i]];
      s.length += h;
      s.surface_area += area;
      s.volume += vol;
      if (pathDistance[i] > s.max_path_distance) s.max_path_distance = pathDistance[i];
      if (branchOrder[i] > s.max_branch_order) s.max_branch_order = branchOrder[i];
      segmentFrom.push(p);
      segmentTo.push(i);
    }
    const s = stems[stemOf[i]];
    s.n_points++;
    if (b === 0) {
      nTips++;
      s.n_tips++;
    } else if (b >= 2) {
      nBifurcations++;
      if (b >= 3) nMultifurcations++;
      nSections += b;
      s.n_bifurcations++;
      s.n_sections += b;
    }
    if (pathDistance[i] > maxPath) maxPath = pathDistance[i];
    if (branchOrder[i] > maxOrder) maxOrder = branchOrder[i];
  }

  const strahler = strahlerOrders(order, up, isSoma, branches);
  let maxStrahler = 0;
  for (let i = 0; i < n; i++) {
    if (!isStemStart(i)) continue;
    stems[stemOf[i]].strahler_order = strahler[i];
    if (strahler[i] > maxStrahler) maxStrahler = strahler[i];
  }

  // L-Measure's compartments follow the file's parent links, whichever way they point, and take the radius of the
  // sample whose parent field names the other end; compartments of soma samples are left out.
  let surfaceCylinder = 0;
  let volumeCylinder = 0;
  for (let i = 0; i < n; i++) {
    const p = tree.parent[i];
    if (p < 0 || isSoma[i]) continue;
    const h = distance(tree, i, p);
    const r = tree.radius[i];
    surfaceCylinder += 2 * Math.PI * r * h;
    volumeCylinder += Math.PI * r * r * h;
  }

  const soma = summary.somaX === null ? null : { x: summary.somaX, y: summary.somaY!, z: summary.somaZ! };
  const r0 = tree.roots[0];
  const center = soma ?? { x: tree.x[r0], y: tree.y[r0], z: tree.z[r0] };
  let maxEuclidean = 0;
  for (let i = 0; i < n; i++) {
    if (isSoma[i]) continue;
    const dx = tree.x[i] - center.x;
    const dy = tree.y[i] - center.y;
    const dz = tree.z[i] - center.z;
    const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
    if (d > maxEuclidean) maxEuclidean = d;
  }
  const radii = options.shollRadii ?? shollRadii(checkStep(options.shollStep ?? DEFAULT_SHOLL_STEP), maxEuclidean);
  checkRadii(radii);
  const radius = somaRadius(tree, isSoma);

  return {
    n_points: summary.nPoints,
    n_soma_points: summary.nSomaPoints,
    n_trees: tree.roots.length,
    n_stems: stems.length,
    n_bifurcations: nBifurcations,
    n_multifurcations: nMultifurcations,
    n_tips: nTips,
    n_sections: nSections,
    total_length: totalLength,
    length_by_type: [...lengthByType].sort(([a], [b]) => a - b).map(([type, length]) => ({ type, name: typeName(type), length })),
    max_path_distance: maxPath,
    max_branch_order: maxOrder,
    max_euclidean_distance: maxEuclidean,
    strahler_order: maxStrahler,
    surface_area: surfaceArea,
    volume,
    surface_area_cylinder: surfaceCylinder,
    volume_cylinder: volumeCylinder,
    soma_center: soma,
    soma_radius: radius,
    soma_surface_area: radius === null ? null : 4 * Math.PI * radius * radius,
    bounding_box: boundingBox(summary),
    sholl: { center, radii: [...radii], crossings: shollCrossings(tree, Int32Array.from(segmentFrom), Int32Array.from(segmentTo), center, radii) },
    stems,
    trees,
  };
}

/**
 * Strahler order of the section each neurite sample belongs to, as NeuroM's section_strahler_orders: a terminal
 * section is 1; a section whose children reach a highest order m is m + 1 when two or more children have m, else m.
 * Children come after their parent in `order`, so walking it backwards sees every child first.
 */
function strahlerOrders(order: Int32Array, up: Int32Array, isSoma: Uint8Array, branches: Int32Array): Int32Array {
  const n = order.length;
  const result = new Int32Array(n);
  const highest = new Int32Array(n);
  const reaching = new Int32Array(n);
  for (let k = n - 1; k >= 0; k--) {
    const i = order[k];
    if (isSoma[i]) continue;
    const so = branches[i] === 0 ? 1 : reaching[i] >= 2 ? highest[i] + 1 : highest[i];
    result[i] = so;
    const p = up[i];
    if (p < 0 || isSoma[p]) continue;
    if (so > highest[p]) {
      highest[p] = so;
      reaching[p] = 1;
    } else if (so === highest[p]) {
      reaching[p]++;
    }
  }
  return result;
}

function boundingBox({ minX, minY, minZ, maxX, maxY, maxZ }: MorphologySummary): BoundingBox {
  return {
    min_x: minX, min_y: minY, min_z: minZ, max_x: maxX, max_y: maxY, max_z: maxZ,
    extent_x: maxX - minX, extent_y: maxY - minY, extent_z: maxZ - minZ,
  };
}

function checkStep(step: number): number {
  if (!(Number.isFinite(step) && step > 0)) throw new RangeError(`shollStep must be a positive number, not ${step}`);
  return step;
}

function checkRadii(radii: readonly number[]): void {
  const bad = radii.find((r) => !(Number.isFinite(r) && r >= 0));
  if (bad !== undefined) throw new RangeError(`Sholl radii must be finite and not negative, not ${bad}`);
}
