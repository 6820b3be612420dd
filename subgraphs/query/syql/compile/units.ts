import { ch, join, typed, type ChQuery } from '../../../../lib/column/sql.js';
import { LABELS, NEURON_KEY_COLUMN, TABLES, type PropertyDef } from '../catalog.js';
import type { ResolvedDataset } from '../plan.js';
import { propertiesOf, slotColumn, slotId, type Analysis, type Conjunct, type NodeVar, type RelVar } from '../analysis.js';
import { EMPTY, and, isTrue, raw, type Resolve } from './expressions.js';

/**
 * The units a pattern is made of (compile.ts says how they fit together): a subquery per neuron or morphology whose
 * properties are needed, one per relationship (a scan of `connections`, a UNION ALL of both orientations for gap
 * junctions and undirected patterns), nested joins for variable-length paths. Every unit reads one
 * (dataset_id, version) partition.
 */

/** A relation the next step reads: a table (or join) with column expressions, or a finished subquery. */
export type Rel =
  | { kind: 'select'; from: ChQuery; cols: Map<string, ChQuery>; where: ChQuery[] }
  | { kind: 'query'; sql: ChQuery; cols: Set<string> };

export interface Unit {
  name: string;
  /** Slot classes it can give. */
  slots: Set<string>;
  est: number;
  conds: Conjunct[];
  /**
   * Filters on neurons written as `col IN (SELECT neuron_id FROM neurons WHERE ...)`: for a neuron without a unit of
   * its own, and (when selective) for one that has one, to narrow the synapse scan before the join.
   */
  semis: Map<NodeVar, Conjunct[]>;
  /** The subquery, giving these slots as columns named by slotColumn(). */
  build(out: string[]): Rel;
}

export interface Ctx {
  an: Analysis;
  ds: ResolvedDataset;
  alias(): string;
  /** The rows the result needs in the order of ORDER BY (SKIP + LIMIT), for the top rows to be taken before lookups. */
  topRows: number | null;
}

function dsFilter(ds: ResolvedDataset): ChQuery {
  return ch`dataset_id = ${ds.datasetId} AND version = ${typed(ds.version, 'UInt32')}`;
}

/** The physical columns of a node's table, by slot class. */
function nodeColumns(an: Analysis, v: NodeVar): Map<string, string> {
  return new Map(LABELS[v.label].properties.map((d) => [an.slotClass(slotId(v, d.name)), d.column]));
}

export const resolveBy = (cols: Map<string, string> | ((slot: string) => ChQuery)): Resolve => ({
  prop: (p) => {
    if (typeof cols === 'function') return cols(p.slot);
    const c = cols.get(p.slot);
    if (c === undefined) throw new Error(`SyQL compiler: no column for ${p.slot}`);
    return raw(c);
  },
});

/** `col IN (SELECT neuron_id FROM neurons WHERE ...)`, or the conditions on the neuron's id written on `col` itself. */
function neuronFilter(ctx: Ctx, v: NodeVar, col: string, conds: Conjunct[]): ChQuery[] {
  if (conds.length === 0) return [];
  const key = ctx.an.keySlots(v)[0];
  const direct = conds.filter((c) => [...c.slots].every((s) => s === key));
  const rest = conds.filter((c) => !direct.includes(c));
  const out = direct.map((c) => isTrue(c.expr, resolveBy(new Map([[key, col]]))));
  if (rest.length) {
    const r = resolveBy(nodeColumns(ctx.an, v));
    out.push(
      ch`${raw(col)} IN (SELECT ${raw(NEURON_KEY_COLUMN)} FROM ${raw(TABLES.neurons)} WHERE ${and([dsFilter(ctx.ds), ...rest.map((c) => isTrue(c.expr, r))])})`,
    );
  }
  return out;
}

export function selectOf(rel: Rel, out: string[]): ChQuery {
  if (rel.kind === 'query') return rel.sql;
  const cols = out.map((s) => {
    const expr = rel.cols.get(s);
    if (!expr) throw new Error(`SyQL compiler: relation lacks ${s}`);
    return expr.sql === slotColumn(s) ? expr : ch`${expr} AS ${raw(slotColumn(s))}`;
  });
  return ch`SELECT ${join(cols)} FROM ${rel.from}${rel.where.length ? ch` WHERE ${and(rel.where)}` : EMPTY}`;
}

export function nodeUnit(ctx: Ctx, v: NodeVar): Unit {
  const cols = nodeColumns(ctx.an, v);
  const counts = ctx.ds.rowCounts;
  const unit: Unit = {
    name: v.name ?? `(:${v.label})`,
    slots: new Set(cols.keys()),
    est: v.label === 'Neuron' ? counts.neurons : counts.morphologies,
    conds: [],
    semis: new Map(),
    build(out) {
      const r = resolveBy(cols);
      return {
        kind: 'select',
        from: raw(LABELS[v.label].table),
        cols: new Map(out.map((s) => [s, raw(cols.get(s)!)])),
        where: [
          dsFilter(ctx.ds),
          ...unit.conds.map((c) => isTrue(c.expr, r)),
          // A morphology's neuron, filtered without a join when nothing else of the neuron is read.
          ...[...unit.semis].flatMap(([n, conds]) => neuronFilter(ctx, n, cols.get(ctx.an.keySlots(n)[0])!, conds)),
        ],
      };
    },
  };
  return unit;
}

interface Orientation {
  /** The columns of connections that hold the relationship's left and right node. */
  leftCol: 'pre' | 'post';
  rightCol: 'pre' | 'post';
  cond: string;
}

/**
 * The scans of `connections` a single hop reads, as (left node, right node) orientations: chemical rows in the
 * arrow's direction (both for an undirected pattern), gap junctions both ways (stored once, pre <= post); rows read
 * swapped exclude self-connections so that each is matched once. `self`: both ends are one node.
 */
export function orientations(rel: RelVar, self: boolean): Orientation[] {
  const chem = rel.kinds.includes('chemical');
  const elec = rel.kinds.includes('electrical');
  type Part = { kind: 'chemical' | 'electrical'; noself: boolean };
  const stored: Part[] = [];
  const swapped: Part[] = [];
  if (chem && rel.direction !== 'left') stored.push({ kind: 'chemical', noself: false });
  if (elec) stored.push({ kind: 'electrical', noself: false });
  if (chem && rel.direction === 'left') swapped.push({ kind: 'chemical', noself: false });
  if (chem && rel.direction === 'both') swapped.push({ kind: 'chemical', noself: true });
  if (elec) swapped.push({ kind: 'electrical', noself: true });
  const cond = (given: Part[]): string | null => {
    const parts = self ? given.filter((p) => !p.noself) : given;
    if (parts.length === 0) return null;
    let c: string;
    if (parts.length === 2) {
      if (parts.every((p) => !p.noself)) c = '';
      else if (parts.every((p) => p.noself)) c = 'pre != post';
      else c = `(synapse_type = '${parts.find((p) => !p.noself)!.kind}' OR pre != post)`;
    } else {
      c = `synapse_type = '${parts[0].kind}'${parts[0].noself ? ' AND pre != post' : ''}`;
    }
    if (self) c = c ? `${c} AND pre = post` : 'pre = post';
    return c;
  };
  const out: Orientation[] = [];
  const a = cond(stored);
  if (a !== null) out.push({ leftCol: 'pre', rightCol: 'post', cond: a });
  const b = cond(swapped);
  if (b !== null) out.push({ leftCol: 'post', rightCol: 'pre', cond: b });
  return out;
}

function relSlots(an: Analysis, rel: RelVar): { left: string; right: string; props: Map<string, PropertyDef> } {
  return {
    left: an.slotClass(slotId(rel.left, 'id')),
    right: an.slotClass(slotId(rel.right, 'id')),
    props: new Map(propertiesOf(rel).map((d) => [an.slotClass(slotId(rel, d.name)), d])),
  };
}

export function synapseUnit(ctx: Ctx, rel: RelVar): Unit {
  const { left, right, props } = relSlots(ctx.an, rel);
  const self = left === right;
  const branches = orientations(rel, self);
  const unit: Unit = {
    name: rel.name ?? `[:${rel.kinds.join('|')}]`,
    slots: new Set([left, right, ...props.keys()]),
    est: ctx.ds.rowCounts.connections * (branches.length > 1 && rel.kinds.includes('chemical') && rel.direction === 'both' ? 2 : 1),
    conds: [],
    semis: new Map(),
    build(out) {
      const selects = branches.map((b) => {
        const cols = new Map<string, string>([
          [left, b.leftCol],
          [right, b.rightCol],
        ]);
        for (const [slot, d] of props) cols.set(slot, d.column);
        const r = resolveBy(cols);
        const where = [dsFilter(ctx.ds)];
        if (b.cond) where.push(raw(b.cond));
        for (const c of unit.conds) where.push(isTrue(c.expr, r));
        for (const [v, conds] of unit.semis) {
          const key = ctx.an.keySlots(v)[0];
          where.push(...neuronFilter(ctx, v, cols.get(key)!, conds));
        }
        return { kind: 'select' as const, from: raw(TABLES.connections), cols: new Map(out.map((s) => [s, raw(cols.get(s)!)])), where };
      });
      if (selects.length === 1) return selects[0];
      return { kind: 'query', sql: join(selects.map((s) => selectOf(s, out)), ' UNION ALL '), cols: new Set(out) };
    },
  };
  return unit;
}

/**
 * A variable-length relationship: the (start, end) pairs joined by a walk of min..max hops, each once, with the
 * fewest hops. Walks grow from the end that has conditions (the frontier of each length is kept distinct), joined
 * to the scan of connections one hop at a time; the lengths asked for are united and grouped by pair.
 */
export function pathUnit(ctx: Ctx, rel: RelVar, hints: { left: Conjunct[]; right: Conjunct[] }): Unit {
  const { left, right, props } = relSlots(ctx.an, rel);
  const hopsSlot = [...props.keys()][0];
  const self = left === right;
  const fromLeft = hints.left.length > 0 || hints.right.length === 0;
  const [originVar, endVar] = fromLeft ? [rel.left, rel.right] : [rel.right, rel.left];
  const [originHints, endHints] = fromLeft ? [hints.left, hints.right] : [hints.right, hints.left];
  const [originSlot, endSlot] = fromLeft ? [left, right] : [right, left];
  const branches = orientations(rel, false).map((b) => (fromLeft ? { from: b.leftCol, to: b.rightCol, cond: b.cond } : { from: b.rightCol, to: b.leftCol, cond: b.cond }));
  const { min, max } = rel.hops!;
  const unit: Unit = {
    name: rel.name ?? `[*${min}..${max}]`,
    slots: new Set([left, right, hopsSlot]),
    est: ctx.ds.rowCounts.connections * (originHints.length ? 0.01 : 1) * (max > 1 ? 30 : 1),
    conds: [],
    semis: new Map(),
    build(out) {
      const edges = (fromName: string, toName: string, fromConds: Conjunct[], toConds: Conjunct[], fromSet: ChQuery | null = null) => {
        const selects = branches.map((b) => {
          const where = [dsFilter(ctx.ds)];
          if (b.cond) where.push(raw(b.cond));
          where.push(...neuronFilter(ctx, originVar, b.from, fromConds), ...neuronFilter(ctx, endVar, b.to, toConds));
          if (fromSet) where.push(ch`${raw(b.from)} IN (${fromSet})`);
          return ch`SELECT ${raw(b.from)} AS ${raw(fromName)}, ${raw(b.to)} AS ${raw(toName)} FROM ${raw(TABLES.connections)} WHERE ${and(where)}`;
        });
        return { sql: join(selects, ' UNION ALL '), single: selects.length === 1 };
      };
      const withHops = out.includes(hopsSlot) || unit.conds.some((c) => c.slots.has(hopsSlot));
      // The (start, node) pairs joined by walks of exactly k hops, distinct but for the last hop (the pairs are grouped
      // afterwards); `last`: the node is the end.
      const frontier = (k: number, endName: string, last: boolean): ChQuery => {
        const hops = last && withHops ? raw(`, toUInt8(${k}) AS h`) : EMPTY;
        const distinct = raw(last ? '' : 'DISTINCT ');
        const toConds = last ? endHints : [];
        if (k === 1) {
          const e = edges('k_s', endName, originHints, toConds);
          if (e.single && last && !withHops) return e.sql;
          return ch`SELECT ${distinct}k_s, ${raw(endName)}${hops} FROM (${e.sql})`;
        }
        const prevName = `k_x${k - 1}`;
        const prev = frontier(k - 1, prevName, false);
        // From a filtered start the frontier is small: reading only its nodes' synapses uses the table's key (pre).
        const e = edges(prevName, endName, [], toConds, originHints.length ? ch`SELECT ${raw(prevName)} FROM (${prev})` : null);
        return ch`SELECT ${distinct}k_s, ${raw(endName)}${hops} FROM (${e.sql}) AS ${raw(ctx.alias())} ALL INNER JOIN (${prev}) AS ${raw(ctx.alias())} USING (${raw(prevName)})`;
      };
      const lengths: ChQuery[] = [];
      for (let k = min; k <= max; k++) lengths.push(frontier(k, 'k_e', true));
      const body = join(lengths, ' UNION ALL ');
      const applied = new Set([...originHints, ...endHints]);
      const keyCols = new Map<string, ChQuery>([
        [originSlot, raw('k_s')],
        [endSlot, raw('k_e')],
      ]);
      if (self) keyCols.set(originSlot, raw('k_s'));
      const where: ChQuery[] = self ? [raw('k_s = k_e')] : [];
      const having: ChQuery[] = [];
      const r = resolveBy((slot) => (slot === hopsSlot ? raw('min(h)') : keyCols.get(slot)!));
      for (const c of unit.conds) {
        if (applied.has(c)) continue;
        (c.slots.has(hopsSlot) ? having : where).push(isTrue(c.expr, r));
      }
      for (const conds of unit.semis.values()) for (const c of conds) if (!applied.has(c)) where.push(isTrue(c.expr, r));
      const cols: ChQuery[] = [];
      const outSlots = out.length ? out : [originSlot];
      for (const s of outSlots) {
        if (s === hopsSlot) cols.push(ch`min(h) AS ${raw(slotColumn(s))}`);
        else cols.push(ch`${keyCols.get(s)!} AS ${raw(slotColumn(s))}`);
      }
      const sql = ch`SELECT ${join(cols)} FROM (${body})${where.length ? ch` WHERE ${and(where)}` : EMPTY} GROUP BY k_s, k_e${having.length ? ch` HAVING ${and(having)}` : EMPTY}`;
      return { kind: 'query', sql, cols: new Set(outSlots) };
    },
  };
  return unit;
}
