import { ch, join, type ChQuery } from '../../../../lib/column/sql.js';
import { LABELS } from '../catalog.js';
import { slotColumn, slotId, walk, type Analysis, type Conjunct, type NodeVar, type RelVar, type TExpr } from '../analysis.js';
import { EMPTY, isTrue, raw, value, type Resolve } from './expressions.js';
import { nodeUnit, pathUnit, resolveBy, selectOf, synapseUnit, type Ctx, type Rel, type Unit } from './units.js';

/**
 * One dataset's FROM and WHERE: the units a pattern needs, each condition pushed into the units that can apply it
 * (or made a semijoin on a neuron), the sizes estimated from the row counts and each condition's share of rows, and
 * the units joined left-deep, greedily, the smaller side on the right. This estimate orders joins; the planner's
 * (estimate.ts) refuses queries that would match too much before anything runs.
 */

/**
 * The share of a table's rows an equality with a constant keeps, by the property compared: a neuron's name matches
 * about one cell, a class a few hundred of a connectome's cells; types, transmitters and regions have few values.
 */
function equalityShare(e: TExpr, constant: boolean, onKey: boolean, neurons: number): number {
  if (onKey) return 1 / neurons;
  if (!constant || e.k !== 'prop' || e.owner.owner !== 'node' || e.owner.label !== 'Neuron') return 0.05;
  if (e.def.name === 'name') return 1 / 1000;
  if (e.def.name === 'class') return 1 / 200;
  return 0.05;
}

function selectivity(c: Conjunct, keys: Set<string>, neurons: number): number {
  const e = c.expr;
  const onKey = [...c.slots].every((s) => keys.has(s));
  switch (e.k) {
    case 'cmp':
      if (e.op === '=') {
        const [p, other] = e.left.k === 'prop' ? [e.left, e.right] : [e.right, e.left];
        return equalityShare(p, other.k === 'const', onKey, neurons);
      }
      return e.op === '<>' ? 0.9 : 0.4;
    case 'in':
      if (e.negated) return 0.9;
      return Math.min(1, equalityShare(e.left, true, onKey, neurons) * Math.max(1, e.items.length));
    case 'match':
    case 'within':
      return 0.2;
    case 'or':
      return 0.7;
    default:
      return 0.5;
  }
}

/** The estimated share of a neuron's rows its filters keep, at most, for the filters to narrow its synapses' scan too. */
const SEMIJOIN_SELECTIVITY = 0.25;

interface Body {
  /** FROM ... (and its own WHERE) of the final SELECT. */
  from: ChQuery;
  where: ChQuery[];
  col(slot: string): ChQuery;
}

/** Which slots the result columns read. */
function outputSlots(an: Analysis): Set<string> {
  const slots = new Set<string>();
  for (const c of an.columns) {
    if (!c.expr) continue;
    walk(c.expr, (x) => {
      if (x.k === 'prop') slots.add(x.slot);
      if (x.k === 'agg' && x.distinct && x.argVar?.owner === 'node') for (const s of an.keySlots(x.argVar)) slots.add(s);
    });
  }
  return slots;
}

export function compileBody(ctx: Ctx): Body {
  const { an } = ctx;
  const neurons = Math.max(1, ctx.ds.rowCounts.neurons);
  const outSlots = outputSlots(an);

  // Which nodes need a subquery of their own.
  const adjacent = new Set<NodeVar>();
  for (const rel of an.rels) {
    if (rel.kind === 'morphology') {
      adjacent.add(rel.left.label === 'Neuron' ? rel.left : rel.right);
    } else {
      adjacent.add(rel.left);
      adjacent.add(rel.right);
    }
  }
  const needsLeaf = (v: NodeVar): boolean => {
    if (v.label === 'Morphology' || !adjacent.has(v)) return true;
    const keys = new Set(an.keySlots(v));
    const own = LABELS[v.label].properties.map((d) => an.slotClass(slotId(v, d.name))).filter((s) => !keys.has(s));
    if (own.some((s) => outSlots.has(s))) return true;
    return an.conjuncts.some((c) => c.owners.size > 1 && c.owners.has(v) && own.some((s) => c.slots.has(s)));
  };
  const units: Unit[] = [];
  const leaves = new Map<NodeVar, Unit>();
  for (const v of an.nodes) {
    if (!needsLeaf(v)) continue;
    const u = nodeUnit(ctx, v);
    leaves.set(v, u);
    units.push(u);
  }
  const single = (v: NodeVar) => an.conjuncts.filter((c) => c.owners.size === 1 && c.owners.has(v));
  const synapses = new Map<Unit, RelVar>();
  for (const rel of an.rels) {
    if (rel.kind === 'synapse') {
      const u = synapseUnit(ctx, rel);
      synapses.set(u, rel);
      units.push(u);
    }
    if (rel.kind === 'path') units.push(pathUnit(ctx, rel, { left: single(rel.left), right: single(rel.right) }));
  }

  // Conditions: into every unit that has all they read; on a neuron without a unit, a semijoin; else after the joins.
  const residual: Conjunct[] = [];
  for (const c of an.conjuncts) {
    if (c.owners.size === 0) {
      residual.push(c);
      continue;
    }
    const into = units.filter((u) => [...c.slots].every((s) => u.slots.has(s)));
    if (into.length) {
      for (const u of into) u.conds.push(c);
      continue;
    }
    const [v] = [...c.owners];
    if (c.owners.size === 1 && v.owner === 'node' && v.label === 'Neuron' && !leaves.has(v)) {
      const key = an.keySlots(v)[0];
      const hosts = units.filter((u) => u.slots.has(key));
      if (hosts.length) {
        for (const u of hosts) u.semis.set(v, [...(u.semis.get(v) ?? []), c]);
        continue;
      }
    }
    residual.push(c);
  }
  const keys = new Set(an.nodes.flatMap((v) => an.keySlots(v)));
  // A selective filter on a neuron that is joined for its properties also narrows the scan of its synapses, before
  // the join: `pre IN (SELECT neuron_id ...)` reads only the matching ranges of the table's key.
  const selectivityOf = (conds: Conjunct[]) => conds.reduce((p, c) => p * selectivity(c, keys, neurons), 1);
  for (const [u, rel] of synapses) {
    for (const v of new Set([rel.left, rel.right])) {
      if (!leaves.has(v)) continue;
      const conds = single(v).filter((c) => !u.conds.includes(c));
      if (conds.length && selectivityOf(conds) <= SEMIJOIN_SELECTIVITY) u.semis.set(v, conds);
    }
  }
  for (const u of units) {
    for (const c of u.conds) u.est *= selectivity(c, keys, neurons);
    for (const conds of u.semis.values()) for (const c of conds) u.est *= selectivity(c, keys, neurons);
    u.est = Math.max(1, u.est);
  }

  const top = new Set(outSlots);
  for (const c of residual) for (const s of c.slots) top.add(s);
  const residualWhere = (col: (slot: string) => ChQuery) => residual.map((c) => isTrue(c.expr, resolveBy(col)));

  const sharedElsewhere = (u: Unit, among: Unit[]) => new Set(among.filter((o) => o !== u).flatMap((o) => [...o.slots].filter((s) => u.slots.has(s))));
  // A subquery gives at least one column, even when only its rows count (count(*)): a key.
  const outOf = (u: Unit): string[] => {
    const shared = sharedElsewhere(u, units);
    const out = [...u.slots].filter((s) => top.has(s) || shared.has(s));
    return out.length ? out : [[...u.slots].find((s) => keys.has(s)) ?? [...u.slots][0]];
  };

  if (units.length === 1) {
    const rel = units[0].build(outOf(units[0]));
    if (rel.kind === 'select') {
      const col = (s: string) => rel.cols.get(s) ?? raw(slotColumn(s));
      return { from: rel.from, where: [...rel.where, ...residualWhere(col)], col };
    }
    const col = (s: string) => raw(slotColumn(s));
    return { from: ch`(${rel.sql})`, where: residualWhere(col), col };
  }

  // Neurons looked up only for their properties, 1:1 (every pre and post is a cell of the version, and a cell's id is
  // unique in it): with ORDER BY and LIMIT, the rest is joined, sorted and cut first, and the lookups joined to the
  // rows kept (a lookup keeps every row, and adds nothing the order reads), then sorted and cut again outside.
  const lookups = topLookups(ctx, units, leaves, residual);
  const rest = units.filter((u) => !lookups.units.includes(u));
  const lookupSlots = new Set(lookups.units.flatMap((u) => [...u.slots]));

  // Left-deep joins, greedily: start from the smallest unit, add the connected unit that keeps the estimate lowest,
  // the smaller side on the right (ClickHouse builds the right side of a join in memory).
  const remaining = [...rest];
  const first = remaining.reduce((a, b) => (b.est < a.est ? b : a));
  remaining.splice(remaining.indexOf(first), 1);
  let acc = { rel: first.build(outOf(first)), slots: new Set(outOf(first)), est: first.est };
  while (remaining.length) {
    const options = remaining
      .map((u) => {
        const shared = [...u.slots].filter((s) => acc.slots.has(s));
        const sharedKeys = shared.filter((s) => keys.has(s)).length;
        return { u, shared, est: (acc.est * u.est) / Math.pow(neurons, Math.max(1, sharedKeys)) };
      })
      .filter((o) => o.shared.length > 0);
    if (options.length === 0) throw new Error('SyQL compiler: the pattern is not connected');
    const next = options.reduce((a, b) => (b.est < a.est || (b.est === a.est && b.u.est < a.u.est) ? b : a));
    remaining.splice(remaining.indexOf(next.u), 1);
    const unitOut = outOf(next.u);
    const later = new Set([...remaining.flatMap((u) => [...u.slots]), ...lookupSlots]);
    const keep = (s: string) => top.has(s) || later.has(s);
    const accOut = [...acc.slots];
    const usingKeys = unitOut.filter((s) => acc.slots.has(s));
    const unitSql = selectOf(next.u.build(unitOut), unitOut);
    const accSql = selectOf(acc.rel, accOut);
    const [l, r] = next.u.est <= acc.est ? [accSql, unitSql] : [unitSql, accSql];
    const outSlotsNow = [...new Set([...accOut, ...unitOut])].filter(keep);
    const from = ch`(${l}) AS ${raw(ctx.alias())} ALL INNER JOIN (${r}) AS ${raw(ctx.alias())} USING (${raw(usingKeys.map(slotColumn).join(', '))})`;
    // Something must come out of a join even when nothing is read from it (count(*)): a key.
    const kept = outSlotsNow.length ? outSlotsNow : [usingKeys[0]];
    acc = {
      rel: { kind: 'select', from, cols: new Map(kept.map((s) => [s, raw(slotColumn(s))])), where: [] },
      slots: new Set(kept),
      est: Math.max(1, next.est),
    };
  }
  if (lookups.units.length) {
    // The top rows (at most topRows of them) on the right, each lookup's whole table on the left.
    const accOut = [...acc.slots];
    // One SELECT takes ORDER BY as it is; a UNION ALL (of a synapse scan's orientations) is wrapped first.
    const accSql = selectOf(acc.rel, accOut);
    const sorted = acc.rel.kind === 'select' ? accSql : ch`SELECT ${raw(accOut.map(slotColumn).join(', '))} FROM (${accSql})`;
    const cut = ch`${sorted} ORDER BY ${lookups.order} LIMIT ${raw(String(ctx.topRows))}`;
    let accRel: Rel = { kind: 'query', sql: cut, cols: new Set(accOut) };
    let accSlots = new Set(accOut);
    lookups.units.forEach((u, i) => {
      const unitOut = outOf(u);
      const later = new Set(lookups.units.slice(i + 1).flatMap((o) => [...o.slots]));
      const usingKeys = unitOut.filter((s) => accSlots.has(s));
      const kept = [...new Set([...accSlots, ...unitOut])].filter((s) => top.has(s) || later.has(s));
      const keptOut = kept.length ? kept : [usingKeys[0]];
      const from = ch`(${selectOf(u.build(unitOut), unitOut)}) AS ${raw(ctx.alias())} ALL INNER JOIN (${selectOf(accRel, [...accSlots])}) AS ${raw(ctx.alias())} USING (${raw(usingKeys.map(slotColumn).join(', '))})`;
      accRel = { kind: 'select', from, cols: new Map(keptOut.map((s) => [s, raw(slotColumn(s))])), where: [] };
      accSlots = new Set(keptOut);
    });
    acc = { rel: accRel, slots: accSlots, est: acc.est };
  }
  const rel = acc.rel as Extract<Rel, { kind: 'select' }>;
  const col = (s: string) => raw(slotColumn(s));
  return { from: rel.from, where: residualWhere(col), col };
}

/** An ORDER BY expression with every result column it names replaced by the column's expression; null for none. */
function orderExprOf(an: Analysis, e: TExpr): TExpr | null {
  switch (e.k) {
    case 'col':
      return an.columns[e.index].expr;
    case 'cmp':
    case 'match':
    case 'and':
    case 'or': {
      const left = orderExprOf(an, e.left);
      const right = orderExprOf(an, e.right);
      return left && right ? { ...e, left, right } : null;
    }
    case 'in':
    case 'within': {
      const left = orderExprOf(an, e.left);
      return left ? { ...e, left } : null;
    }
    case 'isnull':
    case 'not': {
      const operand = orderExprOf(an, e.operand);
      return operand ? { ...e, operand } : null;
    }
    case 'agg':
      return null;
    default:
      return e;
  }
}

/**
 * The neurons whose join can follow ORDER BY and LIMIT (ctx.topRows rows), with the ORDER BY to cut with before
 * them: a neuron that only gives returned properties (no condition reads it), joined only to synapses (whose ends
 * are always cells of the version, each once), in a query that neither aggregates nor removes duplicates, nor
 * filters after the joins, and orders by nothing it gives but its id.
 */
function topLookups(ctx: Ctx, units: Unit[], leaves: Map<NodeVar, Unit>, residual: Conjunct[]): { units: Unit[]; order: ChQuery } {
  const { an } = ctx;
  const none = { units: [], order: EMPTY };
  if (ctx.topRows === null || an.aggregate || an.distinct || residual.length || an.orderBy.length === 0) return none;
  const items: { expr: TExpr; descending: boolean }[] = [];
  for (const o of an.orderBy) {
    // The dataset column is the same in every row of one dataset's branch.
    if (o.expr.k === 'col' && an.columns[o.expr.index].expr === null) continue;
    const expr = orderExprOf(an, o.expr);
    if (!expr) return none;
    items.push({ expr, descending: o.descending });
  }
  if (items.length === 0) return none;
  const orderSlots = new Set<string>();
  for (const o of items) walk(o.expr, (x) => x.k === 'prop' && orderSlots.add(x.slot));
  const chosen: Unit[] = [];
  for (const [v, u] of leaves) {
    if (v.label !== 'Neuron' || u.conds.length || u.semis.size) continue;
    if (an.conjuncts.some((c) => c.owners.has(v))) continue;
    const rels = an.rels.filter((r) => r.left === v || r.right === v);
    if (rels.length === 0 || rels.some((r) => r.kind !== 'synapse')) continue;
    const key = an.keySlots(v);
    if ([...u.slots].some((s) => orderSlots.has(s) && !key.includes(s))) continue;
    chosen.push(u);
  }
  if (chosen.length === 0 || chosen.length === units.length) return none;
  const r: Resolve = { prop: (p) => raw(slotColumn(p.slot)) };
  const order = join(
    items.map((o) => {
      const v = value(o.expr, r);
      return o.descending ? (o.expr.t.nullable ? ch`${v} DESC NULLS FIRST` : ch`${v} DESC`) : o.expr.t.nullable ? ch`${v} ASC NULLS LAST` : ch`${v} ASC`;
    }),
  );
  return { units: chosen, order };
}
