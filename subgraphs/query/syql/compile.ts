import { ch, join, type ChQuery } from '../../../lib/column/sql.js';
import type { ResolvedDataset, SyqlPlan } from './plan.js';
import { analysePlan } from './planner.js';
import { type Analysis, type NodeVar, type OutColumn, type TExpr } from './analysis.js';
import { CH_TYPE, EMPTY, and, raw, resultColumnKey, value, type AggExpr, type PropExpr, type Resolve } from './compile/expressions.js';
import { compileBody } from './compile/join-order.js';

export { resultColumnKey };

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
 * Values enter the text only as bound parameters; identifiers only from the catalogue and these files. The parts:
 * expressions (compile/expressions.ts), pattern units (compile/units.ts), join order and its estimates
 * (compile/join-order.ts), and here the result columns, ORDER BY, SKIP and LIMIT, and the branches of several datasets.
 */

/** A LIMIT that never binds (ClickHouse 18.16 cannot skip rows without a LIMIT, and fails on one near 2^63). */
const NO_LIMIT = 1_000_000_000_000_000;

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
