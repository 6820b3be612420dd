import { ch, join, typed, type ChQuery } from '../../../../lib/column/sql.js';
import type { TConst, TExpr } from '../analysis.js';

/**
 * SyQL expressions as ClickHouse SQL: values, and the two-valued "is true" / "is false" of every condition (SQL's
 * three-valued logic made explicit, since ClickHouse 18.16's AND and OR give NULL whenever an operand is NULL).
 * Values enter the text only as bound parameters.
 */

/** The name of result column i in the compiled SQL (`plan.columns[i]` names it for the caller). */
export function resultColumnKey(index: number): string {
  return `c${index}`;
}

export const raw = (sql: string): ChQuery => ({ sql, params: {} });
export const EMPTY = raw('');

export type PropExpr = Extract<TExpr, { k: 'prop' }>;
export type AggExpr = Extract<TExpr, { k: 'agg' }>;

export interface Resolve {
  prop(p: PropExpr): ChQuery;
  agg?(a: AggExpr): ChQuery;
}

export const CH_TYPE = { string: 'String', integer: 'Int64', float: 'Float64', boolean: 'UInt8' } as const;

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
export function value(e: TExpr, r: Resolve): ChQuery {
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
export function isTrue(e: TExpr, r: Resolve): ChQuery {
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

export const and = (parts: ChQuery[]): ChQuery => (parts.length ? join(parts, ' AND ') : raw('1'));
