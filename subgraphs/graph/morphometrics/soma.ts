import type { SwcTree } from '../../../domain/morphology/swc.js';
import { distance, frustumArea } from './geometry.js';

/**
 * NeuroM's soma radius, by how the soma is drawn:
 * - one sample: its radius (SomaSinglePoint);
 * - NeuroMorpho's three-point soma (three soma samples, one the parent of the other two): the radius of that
 *   centre sample (SomaNeuromorphoThreePointCylinders, whose area 2πr·2r is that of a sphere of radius r);
 * - any other set of samples: the radius of the sphere whose area is the lateral area of the truncated cones
 *   joining soma samples to their soma parents, sqrt(A / 4π) (SomaCylinders). Soma samples not linked to one
 *   another give no cone; when there is none at all, the mean radius of the soma samples.
 * Null without soma samples.
 */
export function somaRadius(tree: SwcTree, isSoma: Uint8Array): number | null {
  const soma: number[] = [];
  for (let i = 0; i < tree.count; i++) if (isSoma[i]) soma.push(i);
  if (soma.length === 0) return null;
  if (soma.length === 1) return tree.radius[soma[0]];
  if (soma.length === 3) {
    const centre = soma.find((c) => soma.every((s) => s === c || tree.parent[s] === c));
    if (centre !== undefined) return tree.radius[centre];
  }
  let area = 0;
  let cones = 0;
  for (const i of soma) {
    const p = tree.parent[i];
    if (p < 0 || !isSoma[p]) continue;
    cones++;
    area += frustumArea(tree.radius[i], tree.radius[p], distance(tree, i, p));
  }
  if (cones === 0) return soma.reduce((sum, i) => sum + tree.radius[i], 0) / soma.length;
  return Math.sqrt(area / (4 * Math.PI));
}
