import { ch, join, typed, type ChQuery } from '../../../lib/column/sql.js';
import { LABELS, NEURON_KEY_COLUMN, TABLES, type PropertyDef } from './catalog.js';
import type { ResolvedDataset, SyqlPlan } from './plan.js';
import { analysePlan } from './planner.js';
import {
  propertiesOf,
  slotColumn,
  slotId,
  walk,
  type Analysis,
  type Conjunct,
  type NodeVar,
  type OutColumn,
  type RelVar,
  type TConst,
  type TExpr,
} from './analysis.js';

/**
 * Compiles a SyQL plan to one ClickHouse SELECT that runs alike on chDB (current ClickHouse) and on ClickHouse 18.16:
 *
 * - the pattern becomes "units": a subquery per neuron or morphology whose properties are needed, and one per
 *   relationship (a scan of `connections`; a UNION ALL of both orientations for gap junctions and undirected
 *   patterns; nested joins for variable-length paths). Every unit reads one (dataset_id, version) partition.
 * - units are joined one JOIN per SELECT (`ALL INNER JOIN (...) AS tN USING (...)`, the smaller side on the right),
 *   each column named after the variable and property it holds (`v0_name`, `e1_weight`) so that the units agree on
 *   join keys by name. Always ALL: current ClickHouse's ANY INNER JOIN keeps one row per key of the left side too.
 * - WHERE conjuncts that read one unit are applied inside it; a conjunct on a neuron that is neither returned nor
 *   compared with another variable becomes `pre IN (SELECT neuron_id FROM neurons WHERE ...)` instead of a join.
 * - with ORDER BY and LIMIT, a neuron looked up only for returned properties (no condition on it, joined to synapses
 *   only: a 1:1 join that keeps every row) is joined after the rest is sorted and cut to SKIP + LIMIT rows.
 * - sizes are estimated from the row counts and each condition's share of rows (an equality on a neuron's name or
 *   class keeps few cells), to put the smaller side of each join on the right.
 * - the result columns are `c0`, `c1`, ... in the order of `plan.columns`, each of its declared ClickHouse type.
 * - several datasets: the query runs per dataset and the branches are joined with UNION ALL, the `dataset` label
 *   column first.
 *
 * Values enter the text only as bound parameters; identifiers only from the catalogue and this file.
 */

const raw = (sql: string): ChQuery => ({ sql, params: {} });
const EMPTY = raw('');

/** The name of result column i in the compiled SQL (`plan.columns[i]` names it for the caller). */
export function resultColumnKey(index: number): string {
  return `c${index}`;
}

/** A LIMIT that never binds (ClickHouse 18.16 cannot skip rows without a LIMIT, and fails on one near 2^63). */
const NO_LIMIT = 1_000_000_000_000_000;

// ---------------------------------------------------------------------------------------------------------------
// Expressions: values, and the two-valued "is true" / "is false" of every condition (SQL's three-valued logic made
// explicit, since ClickHouse 18.16's AND and OR give NULL whenever an operand is NULL).

type PropExpr = Extract<TExpr, { k: 'prop' }>;
type AggExpr = Extract<TExpr, { k: 'agg' }>;

interface Resolve {
  prop(p: PropExpr): ChQuery;
  agg?(a: AggExpr): ChQuery;
}

const CH_TYPE = { string: 'String', integer: 'Int64', float: 'Float64', boolean: 'UInt8' } as const;

function constSql(c: TConst): ChQuery {
  if (typeof c.value === 'boolean') return ch`${typed(c.value ? 1 : 0, 'UInt8')}`;
  return ch`${typed(c.value, CH_TYPE[c.t.type as keyof typeof CH_TYPE])}`;
}

const NEGATED = { '=': '!=', '<>': '=', '<': '>=', '<=': '>', '>': '<=', '>=': '<' } as const;
const SQL_OP = { '=': '=', '<>': '!=', '<': '<', '<=': '<=', '>': '>', '>=': '>=' } as const;

function isBoolExpr(e: TExpr): boolean {
  return ['cmp', 'match', 'in', 'within', 'isnull', 'and', 'or', 'not'].includes(e.k);
}

/** The expression's value (possibly NULL). */
function value(e: TExpr, r: Resolve): ChQuery {
  switch (e.k) {
    case 'const':
      return constSql(e);
    case 'null':
      return raw('NULL');
    case 'prop':
      return r.prop(e);
    case 'col':
      return raw(resultColumnKey(e.index));
    case 'agg':
      if (!r.agg) throw new Error('aggregate outside RETURN');
      return r.agg(e);
    default:
      if (!e.t.nullable) return isTrue(e, r);
      return ch`if(${isTrue(e, r)}, 1, if(${isFalse(e, r)}, 0, NULL))`;
  }
}

const alwaysNull = (e: TExpr) => e.t.type === 'null';

/** A non-null UInt8: 1 where the condition is true. */
function isTrue(e: TExpr, r: Resolve): ChQuery {
  switch (e.k) {
    case 'const':
      return raw(e.value ? '1' : '0');
    case 'null':
      return raw('0');
    case 'prop':
    case 'col':
    case 'agg': {
      const v = value(e, r);
      return e.t.nullable ? ch`ifNull(${v}, 0)` : v;
    }
    case 'cmp': {
      if (alwaysNull(e.left) || alwaysNull(e.right)) return raw('0');
      const s = ch`(${value(e.left, r)} ${raw(SQL_OP[e.op])} ${value(e.right, r)})`;
      return e.t.nullable ? ch`ifNull(${s}, 0)` : s;
    }
    case 'match': {
      if (alwaysNull(e.left) || alwaysNull(e.right)) return raw('0');
      const s = stringMatch(e.op, value(e.left, r), value(e.right, r));
      return e.t.nullable ? ch`ifNull(${s}, 0)` : s;
    }
    case 'in':
      return e.negated ? notInList(e, r) : inList(e, r);
    case 'within': {
      if (alwaysNull(e.left)) return raw('0');
      if (e.codes.length === 0) return raw('0');
      const s = ch`(${value(e.left, r)} IN (${join(e.codes.map((c) => ch`${c}`))}))`;
      return e.left.t.nullable ? ch`(isNotNull(${value(e.left, r)}) AND ifNull(${s}, 0))` : s;
    }
    case 'isnull': {
      const n = nullTest(e.operand, r);
      return e.negated ? ch`(NOT ${n})` : n;
    }
    case 'and':
      return ch`(${isTrue(e.left, r)} AND ${isTrue(e.right, r)})`;
    case 'or':
      return ch`(${isTrue(e.left, r)} OR ${isTrue(e.right, r)})`;
    case 'not':
      return isFalse(e.operand, r);
  }
}

/** A non-null UInt8: 1 where the condition is false (0 where it is true or unknown). */
function isFalse(e: TExpr, r: Resolve): ChQuery {
  if (!e.t.nullable && e.t.type !== 'null') return ch`(NOT ${isTrue(e, r)})`;
  switch (e.k) {
    case 'null':
      return raw('0');
    case 'prop':
    case 'col':
    case 'agg':
      return ch`ifNull(NOT ${value(e, r)}, 0)`;
    case 'cmp': {
      if (alwaysNull(e.left) || alwaysNull(e.right)) return raw('0');
      return ch`ifNull(${value(e.left, r)} ${raw(SQL_OP[NEGATED[e.op] as keyof typeof SQL_OP])} ${value(e.right, r)}, 0)`;
    }
    case 'match': {
      if (alwaysNull(e.left) || alwaysNull(e.right)) return raw('0');
      return ch`ifNull(NOT ${stringMatch(e.op, value(e.left, r), value(e.right, r))}, 0)`;
    }
    case 'in':
      return e.negated ? inList(e, r) : notInList(e, r);
    case 'within': {
      if (alwaysNull(e.left)) return raw('0');
      const v = value(e.left, r);
      if (e.codes.length === 0) return ch`isNotNull(${v})`;
      return ch`(isNotNull(${v}) AND ifNull(${v} NOT IN (${join(e.codes.map((c) => ch`${c}`))}), 0))`;
    }
    case 'and':
      return ch`(${isFalse(e.left, r)} OR ${isFalse(e.right, r)})`;
    case 'or':
      return ch`(${isFalse(e.left, r)} AND ${isFalse(e.right, r)})`;
    case 'not':
      return isTrue(e.operand, r);
    default:
      return ch`(NOT ${isTrue(e, r)})`;
  }
}

function stringMatch(op: 'starts-with' | 'ends-with' | 'contains', left: ChQuery, right: ChQuery): ChQuery {
  if (op === 'starts-with') return ch`startsWith(${left}, ${right})`;
  if (op === 'ends-with') return ch`endsWith(${left}, ${right})`;
  return ch`(position(${left}, ${right}) > 0)`;
}

/** `x IS NULL` of a value, or of a condition (unknown). */
function nullTest(e: TExpr, r: Resolve): ChQuery {
  if (e.t.type === 'null') return raw('1');
  if (isBoolExpr(e)) return e.t.nullable ? ch`(NOT (${isTrue(e, r)} OR ${isFalse(e, r)}))` : raw('0');
  return e.t.nullable ? ch`isNull(${value(e, r)})` : raw('0');
}

type InExpr = Extract<TExpr, { k: 'in' }>;

function listSql(e: InExpr, r: Resolve): { left: ChQuery; items: ChQuery } {
  const numericList = e.left.t.type === 'integer' || e.left.t.type === 'float';
  // Numbers compare as Float64 on both sides: a set of one type, whatever the column's integer width.
  const left = numericList ? ch`toFloat64(${value(e.left, r)})` : value(e.left, r);
  const items = join(e.items.map((c) => (numericList ? ch`${typed(Number(c.value), 'Float64')}` : constSql(c))));
  return { left, items };
}

/** x IN (...) is true. */
function inList(e: InExpr, r: Resolve): ChQuery {
  if (alwaysNull(e.left) || e.items.length === 0) return raw('0');
  const { left, items } = listSql(e, r);
  const s = ch`(${left} IN (${items}))`;
  return e.left.t.nullable ? ch`(isNotNull(${value(e.left, r)}) AND ifNull(${s}, 0))` : s;
}

/** x IN (...) is false: x is known, not in the list, and the list holds no null. */
function notInList(e: InExpr, r: Resolve): ChQuery {
  if (alwaysNull(e.left) || e.hasNull) return raw('0');
  if (e.items.length === 0) return e.left.t.nullable ? ch`isNotNull(${value(e.left, r)})` : raw('1');
  const { left, items } = listSql(e, r);
  const s = ch`(${left} NOT IN (${items}))`;
  return e.left.t.nullable ? ch`(isNotNull(${value(e.left, r)}) AND ifNull(${s}, 0))` : s;
}

const and = (parts: ChQuery[]): ChQuery => (parts.length ? join(parts, ' AND ') : raw('1'));

// ---------------------------------------------------------------------------------------------------------------
// Units: the subqueries a pattern is made of

/** A relation the next step reads: a table (or join) with column expressions, or a finished subquery. */
type Rel =
  | { kind: 'select'; from: ChQuery; cols: Map<string, ChQuery>; where: ChQuery[] }
  | { kind: 'query'; sql: ChQuery; cols: Set<string> };

interface Unit {
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

interface Ctx {
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

const resolveBy = (cols: Map<string, string> | ((slot: string) => ChQuery)): Resolve => ({
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

function selectOf(rel: Rel, out: string[]): ChQuery {
  if (rel.kind === 'query') return rel.sql;
  const cols = out.map((s) => {
    const expr = rel.cols.get(s);
    if (!expr) throw new Error(`SyQL compiler: relation lacks ${s}`);
    return expr.sql === slotColumn(s) ? expr : ch`${expr} AS ${raw(slotColumn(s))}`;
  });
  return ch`SELECT ${join(cols)} FROM ${rel.from}${rel.where.length ? ch` WHERE ${and(rel.where)}` : EMPTY}`;
}

function nodeUnit(ctx: Ctx, v: NodeVar): Unit {
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
function orientations(rel: RelVar, self: boolean): Orientation[] {
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

function synapseUnit(ctx: Ctx, rel: RelVar): Unit {
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
function pathUnit(ctx: Ctx, rel: RelVar, hints: { left: Conjunct[]; right: Conjunct[] }): Unit {
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

// ---------------------------------------------------------------------------------------------------------------
// One dataset: units, pushed conditions, joins, the result columns

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

function compileBody(ctx: Ctx): Body {
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

// ---------------------------------------------------------------------------------------------------------------
// Result columns

function castTo(sql: ChQuery, from: string, to: string): ChQuery {
  return from === to ? sql : ch`CAST(${sql} AS ${raw(to)})`;
}

function aggregateSql(a: AggExpr, r: Resolve, an: Analysis): ChQuery {
  const arg = a.arg ? value(a.arg, r) : null;
  const argNullable = !!a.arg?.t.nullable;
  // The type ClickHouse gives the aggregate's argument as written (nullable or not), to spare casts that change nothing.
  const argType = a.arg ? sourceType(a.arg).replace(/^Nullable\((.*)\)$/, '$1') : '';
  switch (a.fn) {
    case 'count': {
      if (a.argVar) {
        if (!a.distinct) return raw('toInt64(count())');
        return ch`toInt64(uniqExact(${join(an.keySlots(a.argVar as NodeVar).map((s) => r.prop({ k: 'prop', slot: s } as PropExpr)))}))`;
      }
      if (!arg) return raw('toInt64(count())');
      if (a.distinct) return ch`toInt64(uniqExact(${arg}))`;
      return argNullable ? ch`toInt64(count(${arg}))` : raw('toInt64(count())');
    }
    case 'sum': {
      // The sum of nothing (or of nulls only) is 0; Int64 and Float64 sums keep their type, narrower ones widen.
      const to = a.t.type === 'integer' ? 'Int64' : 'Float64';
      const sum = a.distinct ? ch`arraySum(groupUniqArray(${arg!}))` : ch`sum(${argNullable ? ch`ifNull(${arg!}, 0)` : arg!})`;
      return argType === to ? sum : ch`CAST(${sum} AS ${raw(to)})`;
    }
    case 'avg': {
      const to = a.t.nullable ? 'Nullable(Float64)' : 'Float64';
      if (a.distinct) {
        const s = ch`arrayReduce('avg', groupUniqArray(${arg!}))`;
        return a.t.nullable ? ch`CAST(if(uniqExact(${arg!}) = 0, NULL, ${s}) AS ${raw(to)})` : ch`CAST(${s} AS ${raw(to)})`;
      }
      // avg is Float64, nullable when its argument is (null for no rows); an Int64 argument becomes Float64 alike.
      return ch`avg(${a.t.nullable && !argNullable ? ch`toNullable(${arg!})` : arg!})`;
    }
    case 'min':
    case 'max': {
      const base = a.t.type === 'string' ? 'String' : a.t.type === 'integer' ? 'Int64' : a.t.type === 'float' ? 'Float64' : 'UInt8';
      const to = a.t.nullable ? `Nullable(${base})` : base;
      const m = ch`${raw(a.fn)}(${a.t.nullable && !argNullable ? ch`toNullable(${arg!})` : arg!})`;
      return argType === base ? m : ch`CAST(${m} AS ${raw(to)})`;
    }
  }
}

/** The ClickHouse type `value()` gives an expression before the result column's cast. */
function sourceType(e: TExpr): string {
  switch (e.k) {
    case 'prop':
      return e.def.chType;
    case 'const':
      return CH_TYPE[e.t.type as keyof typeof CH_TYPE];
    case 'agg':
      return '';
    default:
      return e.t.nullable ? 'Nullable(UInt8)' : 'UInt8';
  }
}

function columnSql(c: OutColumn, r: Resolve, an: Analysis, dependent: boolean): ChQuery {
  const e = c.expr!;
  if (e.k === 'agg') return aggregateSql(e, r, an);
  const v = value(e, { ...r, agg: (a) => aggregateSql(a, r, an) });
  const sql = dependent ? ch`any(${v})` : v;
  return castTo(sql, sourceType(e), c.chType);
}

/** The SELECT of one dataset: result columns, WHERE, GROUP BY (without ORDER BY and LIMIT). */
function compileBranch(an: Analysis, ds: ResolvedDataset, alias: () => string, topRows: number | null): ChQuery {
  const body = compileBody({ an, ds, alias, topRows });
  const r: Resolve = { prop: (p) => body.col(p.slot) };
  const grouping = an.aggregate ? an.columns.filter((c) => c.expr && !c.aggregate && !c.constant) : [];
  // A node's other properties follow from its key: group by the key alone and take any() of the rest.
  const groupedProps = new Set(grouping.filter((c) => c.expr!.k === 'prop').map((c) => (c.expr as PropExpr).slot));
  const dependent = new Set<OutColumn>();
  for (const c of grouping) {
    const e = c.expr!;
    if (e.k !== 'prop' || e.owner.owner !== 'node') continue;
    const keySlots = an.keySlots(e.owner);
    if (!keySlots.includes(e.slot) && keySlots.every((s) => groupedProps.has(s))) dependent.add(c);
  }
  const cols = an.columns.map((c, i) => {
    const sql = c.expr ? columnSql(c, r, an, dependent.has(c)) : ch`${ds.label}`;
    return ch`${sql} AS ${raw(resultColumnKey(i))}`;
  });
  const groupBy = grouping.filter((c) => !dependent.has(c)).map((c) => resultColumnKey(an.columns.indexOf(c)));
  const where = body.where.length ? ch` WHERE ${and(body.where)}` : EMPTY;
  return ch`SELECT ${raw(an.distinct ? 'DISTINCT ' : '')}${join(cols)} FROM ${body.from}${where}${groupBy.length ? raw(` GROUP BY ${groupBy.join(', ')}`) : EMPTY}`;
}

function orderBySql(an: Analysis): ChQuery {
  if (an.orderBy.length === 0) return EMPTY;
  const r: Resolve = { prop: () => raw('NULL') };
  const items = an.orderBy.map((o) => {
    const v = value(o.expr, r);
    // Null sorts as the largest value: last ascending, first descending.
    return o.descending ? (o.expr.t.nullable ? ch`${v} DESC NULLS FIRST` : ch`${v} DESC`) : o.expr.t.nullable ? ch`${v} ASC NULLS LAST` : ch`${v} ASC`;
  });
  return ch` ORDER BY ${join(items)}`;
}

function limitSql(skip: number, limit: number | null): ChQuery {
  if (limit === null) return skip > 0 ? raw(` LIMIT ${skip}, ${NO_LIMIT}`) : EMPTY;
  return raw(skip > 0 ? ` LIMIT ${skip}, ${limit}` : ` LIMIT ${limit}`);
}

function checkedCount(n: number, what: string): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${what} must be a non-negative integer`);
  return n;
}

function branches(plan: SyqlPlan, an: Analysis, topRows: number | null): ChQuery[] {
  let n = 0;
  const alias = () => `t${n++}`;
  return plan.datasets.map((ds) => compileBranch(an, ds, alias, topRows));
}

/**
 * The query's SQL: its rows in the order of ORDER BY (none without it), after SKIP, at most min(LIMIT, maxRows) of
 * them. Columns `c0`, `c1`, ... in the order of `plan.columns`.
 */
export function compileQuery(plan: SyqlPlan, opts: { maxRows?: number } = {}): ChQuery {
  const an = analysePlan(plan);
  const maxRows = opts.maxRows === undefined ? null : checkedCount(opts.maxRows, 'maxRows');
  const limit = an.limit === null ? maxRows : maxRows === null ? an.limit : Math.min(an.limit, maxRows);
  const order = orderBySql(an);
  const parts = branches(plan, an, limit === null ? null : an.skip + limit);
  if (parts.length === 1) return ch`${parts[0]}${order}${limitSql(an.skip, limit)}`;
  // Each dataset's branch needs no more than the first skip + limit rows of its own, in the same order.
  const inner = limit === null ? EMPTY : ch`${order}${raw(` LIMIT ${an.skip + limit}`)}`;
  const union = join(
    parts.map((p) => ch`${p}${inner}`),
    ' UNION ALL ',
  );
  const names = an.columns.map((_, i) => resultColumnKey(i)).join(', ');
  return ch`SELECT ${raw(names)} FROM (${union})${order}${limitSql(an.skip, limit)}`;
}

/** The number of rows the query yields with its SKIP and LIMIT (and no maxRows), as one row with a `count` column. */
export function compileCount(plan: SyqlPlan): ChQuery {
  const an = analysePlan(plan);
  const parts = branches(plan, an, null);
  const union = join(parts, ' UNION ALL ');
  let n = 'toInt64(count())';
  if (an.skip > 0) n = `greatest(toInt64(0), ${n} - toInt64(${an.skip}))`;
  if (an.limit !== null) n = `least(toInt64(${an.limit}), ${n})`;
  return ch`SELECT ${raw(n)} AS count FROM (${union})`;
}
