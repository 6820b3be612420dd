import type { IntValue, Pos, Query, ReturnItem } from './ast.js';
import { chTypeOf } from './catalog.js';
import { article, boolTy, comparable, containsProp, propertiesOf, refreshNullability, typeName, walk, type Conjunct, type OutColumn, type Owner, type TExpr } from './analysis.js';
import type { CheckCtx, ExprChecker } from './expr-check.js';
import { exprText } from './expr-text.js';
import { constOf, describe, type ParameterReader } from './parameters.js';
import type { BoundPattern } from './pattern-binding.js';
import { syqlError } from './syntax-error.js';

/** Largest SKIP or LIMIT (ClickHouse 18.16 fails on offsets near 2^63; no dataset has this many rows). */
export const MAX_SKIP_LIMIT = 1_000_000_000_000_000;

/** The filters of the pattern's inline properties (`{name: "AVAL"}`) and of WHERE, split at AND. */
export function filterConjuncts(query: Query, pattern: BoundPattern, checker: ExprChecker, params: ParameterReader): Conjunct[] {
  const conjuncts: Conjunct[] = [];
  const add = (e: TExpr) => {
    if (e.k === 'and') {
      add(e.left);
      add(e.right);
      return;
    }
    const slots = new Set<string>();
    const owners = new Set<Owner>();
    walk(e, (x) => {
      if (x.k === 'prop') {
        slots.add(x.slot);
        owners.add(x.owner);
      }
    });
    conjuncts.push({ expr: e, slots, owners });
  };
  query.match.nodes.forEach((n, i) => {
    const v = pattern.occurrences[i];
    for (const p of n.properties) {
      const left = checker.prop(v, p.key, p.pos, n.variable ?? `(:${v.label})`);
      const right: TExpr = p.value.kind === 'literal' ? constOf(p.value.value, p.value.integer) : params.scalar(p.value);
      if (!comparable(left.t.type, right.t.type)) {
        throw syqlError(p.pos, `${n.variable ?? v.label}.${p.key} is ${article(typeName(left.t))} and cannot equal ${p.value.kind === 'param' ? `$${p.value.name}` : exprText(p.value)} (${typeName(right.t)})`);
      }
      add({ k: 'cmp', t: boolTy(left, right), op: '=', left, right });
    }
  });
  if (query.where) add(checker.condition(query.where, { clause: 'WHERE', inAggregate: false }));
  return conjuncts;
}

/** The result columns and, for ORDER BY, the SyQL text each was returned as. */
export interface ReturnedColumns {
  columns: OutColumn[];
  /** Per column: the expression as written (`a.name`), null for the `dataset` column. */
  texts: (string | null)[];
  aggregate: boolean;
}

/**
 * The RETURN clause: a `dataset` column first when the query reads several datasets, every property of a returned
 * variable, then each expression under its alias or its text. Names are unique and every column has a type.
 */
export function returnColumns(query: Query, checker: ExprChecker): ReturnedColumns {
  const columns: OutColumn[] = [];
  const texts: (string | null)[] = [];
  const names = new Map<string, Pos>();
  const addColumn = (name: string, pos: Pos, expr: TExpr | null, text: string | null, aggregate: boolean, constant: boolean) => {
    if (names.has(name)) {
      throw syqlError(pos, `duplicate column name '${name}': give one of them another name with AS`);
    }
    names.set(name, pos);
    const t = expr ? expr.t : { type: 'string' as const, nullable: false };
    if (t.type === 'null') throw syqlError(pos, `the column '${name}' is always null and has no type`);
    columns.push({ name, type: t.type, nullable: t.nullable, chType: chTypeOf(t.type, t.nullable), expr, aggregate, constant });
    texts.push(text);
  };
  const returnItem = (item: ReturnItem): void => {
    const e = item.expr;
    if (e.kind === 'variable') {
      const v = checker.variable(e.name, e.pos);
      const prefix = item.alias ?? e.name;
      const defs = propertiesOf(v);
      if (defs.length === 0) throw syqlError(e.pos, `'${e.name}' (HAS_MORPHOLOGY) has no properties to return`);
      for (const d of defs) {
        const p = checker.prop(v, d.name, e.pos, e.name);
        addColumn(`${prefix}.${d.name}`, item.pos, p, `${e.name}.${d.name}`, false, false);
      }
      return;
    }
    const ctx: CheckCtx = { clause: 'RETURN', inAggregate: false, sawAggregate: false, sawProperty: null };
    const t = checker.check(e, ctx);
    if (ctx.sawAggregate && ctx.sawProperty) {
      throw syqlError(ctx.sawProperty, `${exprText(e)} mixes an aggregate with a property outside it: return the property as a column of its own`);
    }
    const constant = !ctx.sawAggregate && !containsProp(t);
    addColumn(item.alias ?? exprText(e), item.pos, t, exprText(e), !!ctx.sawAggregate, constant);
  };

  if (query.datasets.length > 1) addColumn('dataset', query.pos, null, null, false, true);
  if (query.returns.length === 0) throw syqlError(query.pos, 'RETURN names at least one column');
  for (const item of query.returns) returnItem(item);

  const aggregate = columns.some((c) => c.aggregate);
  if (aggregate) {
    // avg, min and max of no rows are null: only a query without grouping keys can aggregate no rows.
    const grouped = columns.some((c) => !c.aggregate && !c.constant);
    for (const c of columns) {
      if (!c.expr || !c.aggregate) continue;
      refreshNullability(c.expr, grouped);
      c.nullable = c.expr.t.nullable;
      c.chType = chTypeOf(c.type, c.nullable);
    }
  }
  return { columns, texts, aggregate };
}

/** ORDER BY over the returned columns, and SKIP and LIMIT as non-negative integers up to MAX_SKIP_LIMIT. */
export function orderAndPage(
  query: Query,
  returned: ReturnedColumns,
  checker: ExprChecker,
  params: ParameterReader,
): { orderBy: { expr: TExpr; descending: boolean }[]; skip: number; limit: number | null } {
  const orderColumns = returned.columns.map((column, i) => ({ column, text: returned.texts[i] }));
  const orderBy = query.orderBy.map((o) => ({
    expr: checker.check(o.expr, { clause: 'ORDER BY', inAggregate: false, columns: orderColumns }),
    descending: o.descending,
  }));
  const intValue = (v: IntValue | null, what: string): number | null => {
    if (!v) return null;
    const value = v.kind === 'int' ? v.value : params.value(v);
    const text = v.kind === 'param' ? `$${v.name} (${describe(value)})` : String(value);
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw syqlError(v.pos, `${what} takes a non-negative integer, got ${text}`);
    if (value > MAX_SKIP_LIMIT) throw syqlError(v.pos, `${what} is at most ${MAX_SKIP_LIMIT}, got ${text}`);
    return value;
  };
  const skip = intValue(query.skip, 'SKIP') ?? 0;
  const limit = intValue(query.limit, 'LIMIT');
  return { orderBy, skip, limit };
}
