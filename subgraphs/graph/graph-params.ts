import { BadInput } from '../../lib/errors.js';
import type { SynapseType } from './engine/graph.js';
import type { GraphData, GraphSpec, NullModelSpec } from './graph.model.js';

/** The bounds of every parameter of the graph routes, in one place (docs/graph.md quotes them). */
export const GRAPH_LIMITS = {
  top: { min: 1, max: 100, default: 10 },
  reachabilityHops: { min: 1, max: 50, default: 3 },
  curveHops: { min: 1, max: 50, default: 10 },
  pathHops: { min: 1, max: 10_000 },
  reachedListed: { min: 0, max: 10_000, default: 1000 },
  sources: 10_000,
  perNodeAllCells: 20_000,
  perNodeNamed: 1000,
  samples: { min: 1, max: 1000, default: 20 },
  swapsPerEdge: { min: 1, max: 100, default: 10 },
  egoHops: { min: 1, max: 3, default: 1 },
  egoNodes: { min: 1, max: 2000, default: 200 },
  compared: { min: 2, max: 20 },
} as const;

export function graphSpec(synapseType: string | null | undefined, minWeight: number | null | undefined): GraphSpec {
  const type = (synapseType ?? 'chemical') as SynapseType;
  if (!['chemical', 'electrical', 'all'].includes(type)) throw new BadInput('synapse_type: must be chemical, electrical or all');
  if (minWeight !== null && minWeight !== undefined && !(Number.isFinite(minWeight) && minWeight > 0)) {
    throw new BadInput('min_weight: must be a number greater than 0');
  }
  return { type, minWeight: minWeight ?? null };
}

/** An integer parameter within its bounds (the default when absent). */
export function intParam(name: string, value: number | null | undefined, bounds: { min: number; max: number; default?: number }): number {
  if (value === null || value === undefined) {
    if (bounds.default === undefined) throw new BadInput(`${name}: required`);
    return bounds.default;
  }
  if (!Number.isInteger(value) || value < bounds.min || value > bounds.max) throw new BadInput(`${name}: must be an integer from ${bounds.min} to ${bounds.max}`);
  return value;
}

export function nullModelSpec(input: { samples?: number | null; seed?: number | null; swaps_per_edge?: number | null } | null | undefined): NullModelSpec | null {
  if (!input) return null;
  const seed = input.seed ?? 1;
  if (!Number.isSafeInteger(seed) || seed < 0 || seed > 0xffffffff) throw new BadInput('null_model.seed: must be an integer from 0 to 4294967295');
  return {
    samples: intParam('null_model.samples', input.samples, GRAPH_LIMITS.samples),
    seed,
    swapsPerEdge: intParam('null_model.swaps_per_edge', input.swaps_per_edge, GRAPH_LIMITS.swapsPerEdge),
  };
}

const lookups = new WeakMap<GraphData, { byId: Map<string, number>; byName: Map<string, number[]> }>();

/**
 * The node of a cell given by neuron_id or by name. A name shared by several cells is refused with their ids;
 * an unknown one is a BadInput naming the parameter and the closest names.
 */
export function nodeOf(g: GraphData, value: string, param: string, where: string): number {
  let l = lookups.get(g);
  if (!l) {
    const byId = new Map<string, number>();
    const byName = new Map<string, number[]>();
    g.ids.forEach((id, i) => {
      byId.set(id, i);
      const list = byName.get(g.names[i]);
      if (list) list.push(i);
      else byName.set(g.names[i], [i]);
    });
    lookups.set(g, (l = { byId, byName }));
  }
  const byId = l.byId.get(value);
  if (byId !== undefined) return byId;
  const named = l.byName.get(value);
  if (named?.length === 1) return named[0];
  if (named && named.length > 1) {
    throw new BadInput(`${param}: the name ${JSON.stringify(value)} is shared by ${named.length} cells of ${where}; give a neuron_id: ${named.slice(0, 10).map((i) => g.ids[i]).join(', ')}`);
  }
  const close = closestIds(g, value);
  throw new BadInput(`${param}: no cell ${JSON.stringify(value)} in ${where}${close.length ? ` (did you mean ${close.join(', ')}?)` : ''}`);
}

/** Up to three neuron ids sharing the longest case-insensitive prefix with `value`. */
function closestIds(g: GraphData, value: string): string[] {
  const v = value.toLowerCase();
  let best = 0;
  let found: string[] = [];
  for (const id of g.ids) {
    const s = id.toLowerCase();
    let k = 0;
    while (k < s.length && k < v.length && s[k] === v[k]) k++;
    if (k > best) {
      best = k;
      found = [id];
    } else if (k === best && k > 0 && found.length < 3) found.push(id);
  }
  return best >= Math.min(2, v.length) ? found : [];
}

/** A list parameter given as a list, or as comma-separated text in one or more items (`datasets=a,b`). */
export function splitList(values: readonly string[] | null | undefined): string[] {
  return (values ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
}
