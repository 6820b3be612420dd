import { SOMA_TYPE, type SwcTree } from './swc.js';

/**
 * The summary of one SWC file: what the ingest stores per file in the column store, and the counts, soma centre
 * and bounding box the morphometrics report with it.
 *
 * Conventions of the summary (those of NeuroM, https://github.com/BlueBrain/NeuroM, where it has one):
 * - **Soma**: the samples of type 1, however many (NeuroMorpho's 3-point soma, a single point, a chain of points as
 *   in l22 and dCH-cobalt, or a point inside a neurite as in the hemibrain skeleton). Every other type, 0
 *   (undefined) and custom labels included, is neurite. Coordinates are used as written: no unit conversion.
 * - **total_length**: the sum of the segments whose two ends are both neurite samples. The segment from the soma
 *   to a neurite's first sample is not neurite length, as in NeuroM, whose neurites start at their first sample.
 * - **n_stems**: the segments joining a soma sample to a neurite sample, in either direction (a soma inside a
 *   neurite has a stem on each side), plus one per tree that has no soma sample (a neurite given alone).
 * - **Branches** of a neurite sample: its neighbours (parent and children) other than the one towards the soma; in
 *   a tree without a soma, a sample's children (its root has no neighbour towards a soma). **n_tips**: neurite
 *   samples with no branch; **n_bifurcations**: neurite samples with two or more (a trifurcation counts once, as
 *   NeuroM's number_of_forking_points does).
 * - **Soma centre**: the mean of the soma samples, null without any. **Bounding box**: all samples, soma included.
 * - More than one root (parent -1) is allowed and reported as a warning: each tree is summarised.
 *
 * subgraphs/neurodata/ingest/fixtures/swc_reference.py computes the same summary independently, and checks NeuroM's
 * published values for its test neuron (seed/morphology/synthetic/NeuroM_Neuron.swc).
 */

export interface MorphologySummary {
  nPoints: number;
  nSomaPoints: number;
  nStems: number;
  nBifurcations: number;
  nTips: number;
  /** Total cable length, in the file's unit (SWC: micrometres). */
  totalLength: number;
  somaX: number | null;
  somaY: number | null;
  somaZ: number | null;
  minX: number;
  minY: number;
  minZ: number;
  maxX: number;
  maxY: number;
  maxZ: number;
}

export function summariseSwc(tree: SwcTree): MorphologySummary {
  const { count, types, x: xs, y: ys, z: zs, parent } = tree;
  const isSoma = (i: number) => types[i] === SOMA_TYPE;
  const degree = new Uint32Array(count);
  /** The root of each sample's tree, found walking up with the answers of earlier walks. */
  const root = new Int32Array(count).fill(-1);
  for (let i = 0; i < count; i++) {
    if (parent[i] >= 0) {
      degree[i]++;
      degree[parent[i]]++;
    }
    const walk: number[] = [];
    let cur = i;
    while (root[cur] < 0 && parent[cur] >= 0) {
      walk.push(cur);
      cur = parent[cur];
    }
    const r = root[cur] >= 0 ? root[cur] : cur;
    root[cur] = r;
    for (const k of walk) root[k] = r;
  }
  const treeHasSoma = new Uint8Array(count);
  for (let i = 0; i < count; i++) if (isSoma(i)) treeHasSoma[root[i]] = 1;

  let nSoma = 0;
  let nStems = 0;
  let nTips = 0;
  let nBifurcations = 0;
  let totalLength = 0;
  let sx = 0;
  let sy = 0;
  let sz = 0;
  let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
  for (let i = 0; i < count; i++) {
    const x = xs[i], y = ys[i], z = zs[i];
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (z < minZ) minZ = z;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
    if (z > maxZ) maxZ = z;
    const p = parent[i];
    if (p < 0 && !treeHasSoma[i]) nStems++;
    if (isSoma(i)) {
      nSoma++;
      sx += x;
      sy += y;
      sz += z;
      if (p >= 0 && !isSoma(p)) nStems++;
      continue;
    }
    if (p >= 0) {
      if (isSoma(p)) nStems++;
      else totalLength += Math.sqrt((x - xs[p]) ** 2 + (y - ys[p]) ** 2 + (z - zs[p]) ** 2);
    }
    const branches = p < 0 && !treeHasSoma[root[i]] ? degree[i] : degree[i] - 1;
    if (branches === 0) nTips++;
    else if (branches >= 2) nBifurcations++;
  }
  return {
    nPoints: count,
    nSomaPoints: nSoma,
    nStems,
    nBifurcations,
    nTips,
    totalLength,
    somaX: nSoma ? sx / nSoma : null,
    somaY: nSoma ? sy / nSoma : null,
    somaZ: nSoma ? sz / nSoma : null,
    minX,
    minY,
    minZ,
    maxX,
    maxY,
    maxZ,
  };
}
