import type { SwcTree } from '../../../domain/morphology/swc.js';
import type { Point } from './geometry.js';

/**
 * Sholl crossings as NeuroM's sholl_crossings counts them: a segment counts once for a sphere of radius r when r²
 * lies between the squared distances of its two ends from the centre, both ends included. A segment that dips
 * inside a sphere and comes out again between its ends therefore does not count, and a sample lying exactly on a
 * sphere counts for each of its segments.
 *
 * `from[k]`–`to[k]` are the segments. Each segment adds one to a run of consecutive radii once they are sorted, so
 * the cost is (segments + radii) · log(radii) rather than their product.
 */
export function shollCrossings(tree: SwcTree, from: Int32Array, to: Int32Array, center: Point, radii: readonly number[]): number[] {
  const byRadius = radii.map((r, k) => ({ r2: r * r, k })).sort((a, b) => a.r2 - b.r2);
  const sorted = Float64Array.from(byRadius, (e) => e.r2);
  const runs = new Int32Array(sorted.length + 1);
  const dist2 = (i: number) => {
    const dx = tree.x[i] - center.x;
    const dy = tree.y[i] - center.y;
    const dz = tree.z[i] - center.z;
    return dx * dx + dy * dy + dz * dz;
  };
  for (let s = 0; s < from.length; s++) {
    const a = dist2(from[s]);
    const b = dist2(to[s]);
    const first = firstAtLeast(sorted, Math.min(a, b));
    const end = firstAbove(sorted, Math.max(a, b));
    if (first < end) {
      runs[first]++;
      runs[end]--;
    }
  }
  const crossings = new Array<number>(radii.length);
  let running = 0;
  for (let j = 0; j < sorted.length; j++) {
    running += runs[j];
    crossings[byRadius[j].k] = running;
  }
  return crossings;
}

/** At most this many default spheres: a file in nanometres would otherwise ask for millions. */
export const MAX_DEFAULT_SHOLL_RADII = 10_000;

/**
 * The default Sholl spheres: radii step, 2·step, … up to `extent` (the farthest neurite sample). When that would be
 * more than MAX_DEFAULT_SHOLL_RADII spheres, the spacing becomes the smallest multiple of step that keeps within it.
 */
export function shollRadii(step: number, extent: number): number[] {
  const wanted = Math.floor(extent / step);
  const spacing = step * Math.max(1, Math.ceil(wanted / MAX_DEFAULT_SHOLL_RADII));
  const count = Math.floor(extent / spacing);
  return Array.from({ length: count }, (_, k) => (k + 1) * spacing);
}

function firstAtLeast(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function firstAbove(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
