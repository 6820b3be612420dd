import type { SwcTree } from '../../../domain/morphology/swc.js';

export interface Point {
  x: number;
  y: number;
  z: number;
}

export function distance(tree: SwcTree, a: number, b: number): number {
  const dx = tree.x[a] - tree.x[b];
  const dy = tree.y[a] - tree.y[b];
  const dz = tree.z[a] - tree.z[b];
  return Math.sqrt(dx * dx + dy * dy + dz * dz);
}

/** Lateral area of a truncated cone of end radii r0, r1 and height h (NeuroM's segment_area). */
export function frustumArea(r0: number, r1: number, h: number): number {
  return Math.PI * (r0 + r1) * Math.sqrt((r0 - r1) * (r0 - r1) + h * h);
}

/** Volume of a truncated cone of end radii r0, r1 and height h (NeuroM's segment_volume). */
export function frustumVolume(r0: number, r1: number, h: number): number {
  return (Math.PI * h * (r0 * r0 + r0 * r1 + r1 * r1)) / 3;
}
