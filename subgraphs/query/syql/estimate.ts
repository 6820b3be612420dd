import type { Expr, NodePattern, Query, RelPattern } from './ast.js';
import type { Parameters, ResolvedDataset } from './plan.js';

/**
 * How many matches a query's pattern may have, estimated before it runs from the row counts of the dataset versions
 * it reads (docs/syql.md, "Limits"). A join estimate: each node ranges over its table, each relationship keeps the
 * share of node pairs it joins (connections / (neurons x neurons), twice that without an arrow; for `*min..max` the
 * pairs reachable in so many steps, at most every pair), and conditions keep a share of their node: an equality on
 * a name or id one row, an IN list its length, anything else a tenth. The estimate errs high for sparse graphs; it
 * is meant to refuse the patterns that would run for minutes, not to predict counts.
 */
export function estimateMatches(query: Query, parameters: Parameters, datasets: readonly Pick<ResolvedDataset, 'rowCounts'>[]): number {
  let total = 0;
  for (const d of datasets) total += estimateIn(query, parameters, d.rowCounts);
  return total;
}

const UNIQUE_KEYS = new Set(['id', 'name', 'neuron_id']);
const OTHER_CONDITION = 0.1;

function estimateIn(query: Query, parameters: Parameters, rc: ResolvedDataset['rowCounts']): number {
  const { nodes, rels } = query.match;
  const neurons = Math.max(1, rc.neurons);
  const size = nodes.map((n) => (n.label === 'Morphology' ? Math.max(1, rc.morphologies) : neurons));
  const conditions = conjuncts(query.where);
  // A variable named twice is one node: only its first place ranges over the table.
  const seen = new Set<string>();
  let estimate = 1;
  nodes.forEach((n, i) => {
    if (n.variable && seen.has(n.variable)) {
      estimate /= size[i];
      return;
    }
    if (n.variable) seen.add(n.variable);
    estimate *= size[i] * nodeShare(n, conditions, parameters, size[i]);
  });
  rels.forEach((r, i) => {
    estimate *= relShare(r, rc, size[i], size[i + 1]) * (r.variable && conditions.some((c) => mentions(c, r.variable!)) ? 0.5 : 1);
  });
  return estimate;
}

/** The share of a node's table its inline properties and WHERE conditions keep. */
function nodeShare(n: NodePattern, conditions: Expr[], parameters: Parameters, size: number): number {
  let share = 1;
  for (const p of n.properties) share *= UNIQUE_KEYS.has(p.key) ? 1 / size : OTHER_CONDITION;
  if (!n.variable) return share;
  for (const c of conditions) {
    if (!mentions(c, n.variable)) continue;
    if (c.kind === 'comparison' && c.op === '=' && [c.left, c.right].some((s) => s.kind === 'property' && s.variable === n.variable && UNIQUE_KEYS.has(s.key))) {
      share *= 1 / size;
    } else if (c.kind === 'in' && !c.negated && c.left.kind === 'property' && UNIQUE_KEYS.has(c.left.key)) {
      const values = c.right.kind === 'list' ? c.right.items.length : Array.isArray(parameters[c.right.name]) ? (parameters[c.right.name] as unknown[]).length : size;
      share *= Math.min(1, values / size);
    } else {
      share *= OTHER_CONDITION;
    }
  }
  return Math.max(share, 1 / size);
}

/** The share of (left, right) pairs a relationship joins. */
function relShare(r: RelPattern, rc: ResolvedDataset['rowCounts'], left: number, right: number): number {
  if (r.types.some((t) => t.name === 'HAS_MORPHOLOGY')) return Math.min(1, Math.max(1, rc.morphologies) / (left * right));
  const n = Math.max(1, rc.neurons);
  const edges = Math.max(1, rc.connections) * (r.direction === 'both' ? 2 : 1);
  if (!r.hops) return Math.min(1, edges / (left * right));
  const degree = edges / n;
  let reach = 0;
  for (let k = r.hops.min; k <= r.hops.max; k++) reach += degree ** k;
  return Math.min(1, reach / n);
}

/** The top-level AND terms of a WHERE. */
function conjuncts(e: Expr | null): Expr[] {
  if (!e) return [];
  if (e.kind === 'logical' && e.op === 'and') return [...conjuncts(e.left), ...conjuncts(e.right)];
  return [e];
}

function mentions(e: Expr, variable: string): boolean {
  switch (e.kind) {
    case 'property':
    case 'variable':
      return (e.kind === 'property' ? e.variable : e.name) === variable;
    case 'comparison':
    case 'string-match':
    case 'logical':
      return mentions(e.left, variable) || mentions(e.right, variable);
    case 'in':
      return mentions(e.left, variable);
    case 'within':
      return mentions(e.left, variable);
    case 'is-null':
    case 'not':
      return mentions(e.operand, variable);
    default:
      return false;
  }
}
