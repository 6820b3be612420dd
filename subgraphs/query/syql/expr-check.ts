import type { Expr, Pos } from './ast.js';
import type { ValueType } from './plan.js';
import { article, boolTy, comparable, numeric, propertiesOf, slotId, typeName, type OutColumn, type Owner, type TConst, type TExpr, type Ty } from './analysis.js';
import { STRING_OPS, exprText } from './expr-text.js';
import { MAX_LIST_VALUES, constOf, describe, isScalar, type ParameterReader } from './parameters.js';
import type { BoundPattern } from './pattern-binding.js';
import { syqlError } from './syntax-error.js';

/** Where an expression stands, which decides what it may contain. */
export interface CheckCtx {
  clause: 'WHERE' | 'RETURN' | 'ORDER BY';
  /** Inside an aggregate's argument. */
  inAggregate: boolean;
  /** RETURN: whether the item had an aggregate, and a property outside of one. */
  sawAggregate?: boolean;
  sawProperty?: Pos | null;
  /** ORDER BY: the result columns an expression may name. */
  columns?: { column: OutColumn; text: string | null }[];
}

/**
 * Checks expressions against the bound pattern: every name resolved, every type known and compatible, every parameter
 * replaced by its value and every WITHIN region by its codes.
 */
export class ExprChecker {
  constructor(
    private readonly pattern: BoundPattern,
    private readonly params: ParameterReader,
    /** The codes under each region a WITHIN names (null: no such region). */
    private readonly regions: Record<string, string[] | null>,
  ) {}

  /** The property `key` of a variable, as written `written.key`. */
  prop(owner: Owner, key: string, pos: Pos, written: string): TExpr & { k: 'prop' } {
    const defs = propertiesOf(owner);
    const def = defs.find((d) => d.name === key);
    if (!def) {
      const what = owner.owner === 'node' ? owner.label : owner.kind === 'path' ? 'a variable-length relationship' : owner.kind === 'morphology' ? 'HAS_MORPHOLOGY' : 'a synapse';
      const known = defs.length ? `: ${what} has ${defs.map((d) => d.name).join(', ')}` : `: ${what} has no properties`;
      throw syqlError(pos, `unknown property '${key}' of ${written}${known}`, { found: key, candidates: defs.map((d) => d.name) });
    }
    return { k: 'prop', t: { type: def.type, nullable: def.nullable }, owner, def, slot: this.pattern.slotClass(slotId(owner, key)) };
  }

  variable(name: string, pos: Pos): Owner {
    const v = this.pattern.scope.get(name);
    if (!v) throw syqlError(pos, `unknown variable '${name}'`, { candidates: [...this.pattern.scope.keys()] });
    return v;
  }

  check(e: Expr, ctx: CheckCtx): TExpr {
    if (ctx.columns) {
      const column = this.orderColumn(e, ctx.columns);
      if (column) return column;
    }
    switch (e.kind) {
      case 'literal':
        return constOf(e.value, e.integer);
      case 'param':
        return this.params.scalar(e);
      case 'variable': {
        const v = this.variable(e.name, e.pos);
        throw syqlError(e.pos, `'${e.name}' is a ${v.owner === 'node' ? 'node' : 'relationship'}: name one of its properties (${e.name}.${propertiesOf(v)[0]?.name ?? 'id'})${ctx.clause === 'RETURN' ? ' or return it alone' : ''}`);
      }
      case 'property': {
        if (!ctx.inAggregate && ctx.clause === 'RETURN' && ctx.sawProperty === null) ctx.sawProperty = e.pos;
        const v = this.variable(e.variable, e.pos);
        return this.prop(v, e.key, e.pos, e.variable);
      }
      case 'list':
        throw syqlError(e.pos, 'a list is only the right side of IN');
      case 'comparison': {
        const left = this.check(e.left, ctx);
        const right = this.check(e.right, ctx);
        if (!comparable(left.t.type, right.t.type)) {
          throw syqlError(e.pos, `cannot compare ${exprText(e.left)} (${typeName(left.t)}) with ${exprText(e.right)} (${typeName(right.t)})`);
        }
        return { k: 'cmp', t: boolTy(left, right), op: e.op, left, right };
      }
      case 'string-match': {
        const left = this.check(e.left, ctx);
        const right = this.check(e.right, ctx);
        for (const [side, t] of [
          [e.left, left],
          [e.right, right],
        ] as const) {
          if (t.t.type !== 'string' && t.t.type !== 'null') {
            throw syqlError(side.pos, `${STRING_OPS[e.op]} compares strings, and ${exprText(side)} is ${article(typeName(t.t))}`);
          }
        }
        return { k: 'match', t: boolTy(left, right), op: e.op, left, right };
      }
      case 'in':
        return this.inList(e, ctx);
      case 'within': {
        const left = this.check(e.left, ctx);
        if (left.t.type !== 'string' && left.t.type !== 'null') {
          throw syqlError(e.left.pos, `WITHIN takes a region code, and ${exprText(e.left)} is ${article(typeName(left.t))}`);
        }
        return { k: 'within', t: { type: 'boolean', nullable: left.t.nullable || left.t.type === 'null' }, left, codes: this.regionCodes(e.region) };
      }
      case 'is-null': {
        const operand = this.check(e.operand, ctx);
        return { k: 'isnull', t: { type: 'boolean', nullable: false }, negated: e.negated, operand };
      }
      case 'logical': {
        const left = this.condition(e.left, ctx);
        const right = this.condition(e.right, ctx);
        return { k: e.op, t: { type: 'boolean', nullable: left.t.nullable || right.t.nullable }, left, right };
      }
      case 'not': {
        const operand = this.condition(e.operand, ctx);
        return { k: 'not', t: { type: 'boolean', nullable: operand.t.nullable }, operand };
      }
      case 'aggregate':
        return this.aggregate(e, ctx);
    }
  }

  /** An expression that must be true or false (or null). */
  condition(e: Expr, ctx: CheckCtx): TExpr {
    const t = this.check(e, ctx);
    if (t.t.type !== 'boolean' && t.t.type !== 'null') {
      throw syqlError(e.pos, `${exprText(e)} is ${article(typeName(t.t))}, not a condition (true or false)`);
    }
    return t;
  }

  /**
   * In ORDER BY, the result column an expression names: a bare name is a column's name; an expression is a returned
   * expression, else a column's name (`x.name` after `RETURN a AS x`). Null for other expressions (literals,
   * conditions); a property, aggregate or variable that is not returned is refused.
   */
  private orderColumn(e: Expr, columns: NonNullable<CheckCtx['columns']>): TExpr | null {
    const text = exprText(e);
    let hit = e.kind === 'variable' ? columns.findIndex((c) => c.column.name === e.name) : columns.findIndex((c) => c.text === text);
    if (hit < 0) hit = columns.findIndex((c) => c.column.name === text);
    if (hit >= 0) return { k: 'col', t: { type: columns[hit].column.type, nullable: columns[hit].column.nullable }, index: hit };
    if (e.kind === 'property' || e.kind === 'aggregate' || e.kind === 'variable') {
      if (e.kind === 'variable' && !this.pattern.scope.has(e.name)) {
        throw syqlError(e.pos, `unknown column '${e.name}' in ORDER BY`, { candidates: columns.map((c) => c.column.name) });
      }
      throw syqlError(e.pos, `ORDER BY ${exprText(e)}: only returned columns can order the result; return it (RETURN ..., ${exprText(e)}) or order by a column's name`, {
        found: e.kind === 'variable' ? e.name : exprText(e),
        candidates: columns.map((c) => c.column.name),
      });
    }
    return null;
  }

  /** `x IN [...]` or `x IN $list`: every value a scalar of one type that `x` compares with. */
  private inList(e: Expr & { kind: 'in' }, ctx: CheckCtx): TExpr {
    const left = this.check(e.left, ctx);
    let values: { value: unknown; pos: Pos; text: string }[];
    if (e.right.kind === 'param') {
      const v = this.params.value(e.right);
      if (!Array.isArray(v)) throw syqlError(e.right.pos, `IN $${e.right.name} needs a list, and $${e.right.name} is ${describe(v)}`);
      const p = e.right;
      values = v.map((value, i) => ({ value, pos: p.pos, text: `$${p.name}[${i}]` }));
    } else {
      if (e.right.items.length > MAX_LIST_VALUES) throw syqlError(e.right.pos, `a list may hold at most ${MAX_LIST_VALUES} values, this one holds ${e.right.items.length}`);
      values = e.right.items.map((item) => ({
        value: item.kind === 'literal' ? item.value : this.params.value(item),
        pos: item.pos,
        text: exprText(item),
      }));
    }
    const items: TConst[] = [];
    let hasNull = false;
    for (const { value, pos, text } of values) {
      if (!isScalar(value)) throw syqlError(pos, `${text} is ${describe(value)}: a list holds strings, numbers or booleans`);
      if (value === null) {
        hasNull = true;
        continue;
      }
      const c = constOf(value) as TConst;
      if (!comparable(left.t.type, c.t.type)) {
        throw syqlError(pos, `${exprText(e.left)} (${typeName(left.t)}) cannot be IN a list holding ${text} (${typeName(c.t)})`);
      }
      items.push(c);
    }
    const kinds = new Set(items.map((i) => (numeric(i.t.type) ? 'number' : i.t.type)));
    if (kinds.size > 1) throw syqlError(e.right.pos, 'the list mixes types: all its values must be of one type');
    return { k: 'in', t: { type: 'boolean', nullable: left.t.nullable || left.t.type === 'null' || hasNull }, negated: e.negated, left, items, hasNull };
  }

  private regionCodes(region: Expr & { kind: 'literal' | 'param' }): string[] {
    const value = region.kind === 'literal' ? region.value : this.params.value(region);
    if (typeof value !== 'string') {
      throw syqlError(region.pos, `WITHIN takes a region code (a string), got ${region.kind === 'param' ? `$${region.name} = ` : ''}${describe(value === null ? 'null' : value)}`);
    }
    const codes = this.regions[value];
    if (!codes) throw syqlError(region.pos, `unknown region '${value}': no brain region has that code`);
    return codes;
  }

  private aggregate(e: Expr & { kind: 'aggregate' }, ctx: CheckCtx): TExpr {
    if (ctx.clause === 'WHERE') throw syqlError(e.pos, `aggregates such as ${e.fn}() are not allowed in WHERE: WHERE filters rows before they are aggregated`);
    if (ctx.inAggregate) throw syqlError(e.pos, `aggregates cannot be nested: ${exprText(e)} is inside another aggregate`);
    ctx.sawAggregate = true;
    const inner: CheckCtx = { ...ctx, inAggregate: true };
    let arg: TExpr | null = null;
    let argVar: Owner | null = null;
    if (e.argument === null) {
      if (e.fn !== 'count') throw syqlError(e.pos, `${e.fn}(*) is not defined: ${e.fn} takes a value`);
    } else if (e.argument.kind === 'variable') {
      argVar = this.variable(e.argument.name, e.argument.pos);
      if (e.fn !== 'count') throw syqlError(e.argument.pos, `${e.fn} takes a value, and '${e.argument.name}' is a ${argVar.owner === 'node' ? 'node' : 'relationship'}`);
      if (e.distinct && argVar.owner === 'rel') {
        throw syqlError(e.argument.pos, `count(DISTINCT ${e.argument.name}) is not supported for relationships: count(${e.argument.name}) counts them`);
      }
    } else {
      arg = this.check(e.argument, inner);
      const type = arg.t.type;
      if ((e.fn === 'sum' || e.fn === 'avg') && !numeric(type)) {
        throw syqlError(e.argument.pos, `${e.fn} takes a number, and ${exprText(e.argument)} is ${article(typeName(arg.t))}`);
      }
      if ((e.fn === 'min' || e.fn === 'max') && type === 'null') throw syqlError(e.argument.pos, `${e.fn}(null) has no type`);
    }
    let t: Ty;
    if (e.fn === 'count') t = { type: 'integer', nullable: false };
    else if (e.fn === 'sum') t = { type: arg!.t.type === 'integer' ? 'integer' : 'float', nullable: false };
    else if (e.fn === 'avg') t = { type: 'float', nullable: arg!.t.nullable };
    else t = { type: arg!.t.type as ValueType, nullable: arg!.t.nullable };
    return { k: 'agg', t, fn: e.fn, distinct: e.distinct, arg, argVar };
  }
}
