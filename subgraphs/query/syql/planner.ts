import { BadInput } from '../../../lib/errors.js';
import {
  MAX_PATH_HOPS,
  type AggregateFn,
  type ComparisonOp,
  type DatasetRef,
  type Expr,
  type IntValue,
  type NodeLabel,
  type Pos,
  type Query,
  type ReturnItem,
} from './ast.js';
import {
  HAS_MORPHOLOGY_PROPERTIES,
  LABEL_NAMES,
  LABELS,
  PATH_PROPERTIES,
  REL_TYPES,
  SYNAPSE_KINDS,
  SYNAPSE_PROPERTIES,
  chTypeOf,
  type PropertyDef,
} from './catalog.js';
import { estimateMatches } from './estimate.js';
import type { Parameters, PlannerEnv, ResolvedDataset, ResultColumn, SyqlPlan, ValueType } from './plan.js';
import { printQuery } from './print.js';
import { syqlError } from './syntax-error.js';

/**
 * The SyQL planner: checks a syntax tree against the catalogue (labels, properties, relationship types), the
 * parameters and the caller's datasets, and resolves it into an analysis the compiler turns into ClickHouse SQL
 * (`compile.ts`). Every refusal is a 400 naming the line and column, with a suggestion for a misspelt name.
 *
 * `analyse()` is pure and synchronous: `planQuery()` runs it once to check the query and to name and type the result
 * columns, and the compiler runs it again on the plan (the plan carries only the query, the datasets, the parameter
 * values and the WITHIN regions).
 */

/** Largest SKIP or LIMIT (ClickHouse 18.16 fails on offsets near 2^63; no dataset has this many rows). */
export const MAX_SKIP_LIMIT = 1_000_000_000_000_000;

// ---------------------------------------------------------------------------------------------------------------
// The analysis

export type Kind = 'chemical' | 'electrical';

export interface NodeVar {
  owner: 'node';
  index: number;
  /** Null for an anonymous node. */
  name: string | null;
  label: NodeLabel;
  pos: Pos;
}

export interface RelVar {
  owner: 'rel';
  index: number;
  name: string | null;
  pos: Pos;
  /** `synapse`: one row of connections; `path`: a variable-length relationship; `morphology`: HAS_MORPHOLOGY. */
  kind: 'synapse' | 'path' | 'morphology';
  kinds: Kind[];
  direction: 'right' | 'left' | 'both';
  hops: { min: number; max: number } | null;
  /** The node written before the relationship, and the one after it. */
  left: NodeVar;
  right: NodeVar;
}

export type Owner = NodeVar | RelVar;

export interface Ty {
  type: ValueType | 'null';
  nullable: boolean;
}

export type TConst = { k: 'const'; t: Ty; value: string | number | boolean };

/** A checked expression: every name resolved, every type known, every parameter replaced by its value. */
export type TExpr =
  | TConst
  | { k: 'null'; t: Ty }
  | { k: 'prop'; t: Ty; owner: Owner; def: PropertyDef; slot: string }
  | { k: 'cmp'; t: Ty; op: ComparisonOp; left: TExpr; right: TExpr }
  | { k: 'match'; t: Ty; op: 'starts-with' | 'ends-with' | 'contains'; left: TExpr; right: TExpr }
  | { k: 'in'; t: Ty; negated: boolean; left: TExpr; items: TConst[]; hasNull: boolean }
  | { k: 'within'; t: Ty; left: TExpr; codes: string[] }
  | { k: 'isnull'; t: Ty; negated: boolean; operand: TExpr }
  | { k: 'and' | 'or'; t: Ty; left: TExpr; right: TExpr }
  | { k: 'not'; t: Ty; operand: TExpr }
  | { k: 'agg'; t: Ty; fn: AggregateFn; distinct: boolean; arg: TExpr | null; argVar: Owner | null }
  | { k: 'col'; t: Ty; index: number };

/** A conjunct of WHERE (or an inline property filter), with what it reads. */
export interface Conjunct {
  expr: TExpr;
  /** Slot classes of the properties it reads. */
  slots: Set<string>;
  owners: Set<Owner>;
}

export interface OutColumn extends ResultColumn {
  /** Null for the `dataset` column of a query over several datasets. */
  expr: TExpr | null;
  aggregate: boolean;
  /** A literal or parameter: the same in every row, never a grouping key. */
  constant: boolean;
}

export interface Analysis {
  nodes: NodeVar[];
  rels: RelVar[];
  /** The node variable of each node of the pattern, in order. */
  occurrences: NodeVar[];
  conjuncts: Conjunct[];
  /** The result columns, the `dataset` column first when the query reads several datasets. */
  columns: OutColumn[];
  multi: boolean;
  aggregate: boolean;
  distinct: boolean;
  orderBy: { expr: TExpr; descending: boolean }[];
  skip: number;
  limit: number | null;
  /** The class (a representative slot id, `v0.id`) of a slot: HAS_MORPHOLOGY makes a morphology's neuron the neuron's id. */
  slotClass(slot: string): string;
  /** The properties of every owner, keyed by slot class, that the pattern's key columns are. */
  keySlots(v: NodeVar): string[];
}

/** The slot id of an owner's property: `v0.name`, `e1.weight`. */
export const slotId = (owner: Owner, prop: string): string => `${owner.owner === 'node' ? 'v' : 'e'}${owner.index}.${prop}`;

/** The column name the compiled SQL gives a slot class (`v0.id` -> `v0_id`). */
export const slotColumn = (slotClass: string): string => slotClass.replace('.', '_');

export function propertiesOf(owner: Owner): readonly PropertyDef[] {
  if (owner.owner === 'node') return LABELS[owner.label].properties;
  return owner.kind === 'synapse' ? SYNAPSE_PROPERTIES : owner.kind === 'path' ? PATH_PROPERTIES : HAS_MORPHOLOGY_PROPERTIES;
}

// ---------------------------------------------------------------------------------------------------------------
// Text of expressions (default column names, messages)

function quoteText(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function literalText(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return quoteText(v);
  return String(v);
}

const STRING_OPS = { 'starts-with': 'STARTS WITH', 'ends-with': 'ENDS WITH', contains: 'CONTAINS' } as const;

/** The expression as SyQL text: the name of a column without an alias (`a.name`, `count(*)`). */
export function exprText(e: Expr): string {
  switch (e.kind) {
    case 'literal':
      return literalText(e.value);
    case 'param':
      return `$${e.name}`;
    case 'variable':
      return e.name;
    case 'property':
      return `${e.variable}.${e.key}`;
    case 'list':
      return `[${e.items.map(exprText).join(', ')}]`;
    case 'comparison':
      return `${operandText(e.left, e)} ${e.op} ${operandText(e.right, e)}`;
    case 'string-match':
      return `${operandText(e.left, e)} ${STRING_OPS[e.op]} ${operandText(e.right, e)}`;
    case 'in':
      return `${operandText(e.left, e)} ${e.negated ? 'NOT IN' : 'IN'} ${exprText(e.right)}`;
    case 'within':
      return `${operandText(e.left, e)} WITHIN ${exprText(e.region)}`;
    case 'is-null':
      return `${operandText(e.operand, e)} IS ${e.negated ? 'NOT NULL' : 'NULL'}`;
    case 'logical':
      return `${operandText(e.left, e)} ${e.op.toUpperCase()} ${operandText(e.right, e)}`;
    case 'not':
      return `NOT ${operandText(e.operand, e)}`;
    case 'aggregate':
      return `${e.fn}(${e.distinct ? 'DISTINCT ' : ''}${e.argument ? exprText(e.argument) : '*'})`;
  }
}

const PRECEDENCE: Partial<Record<Expr['kind'], number>> = { logical: 1, not: 2, comparison: 3, 'string-match': 3, in: 3, within: 3, 'is-null': 3 };

function precedence(e: Expr): number {
  if (e.kind === 'logical') return e.op === 'or' ? 0 : 1;
  return PRECEDENCE[e.kind] ?? 9;
}

function operandText(operand: Expr, parent: Expr): string {
  const text = exprText(operand);
  const p = precedence(operand);
  const q = precedence(parent);
  return p < q || (p === q && p === 3) ? `(${text})` : text;
}

function typeName(t: Ty): string {
  return t.type === 'null' ? 'null' : t.type;
}

// ---------------------------------------------------------------------------------------------------------------
// Parameters

type ParamValue = string | number | boolean | null;

function isScalar(v: unknown): v is ParamValue {
  return v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
}

/** Values one list may hold (an `IN $list` parameter or a literal list). */
export const MAX_LIST_VALUES = 10_000;
/** Characters of all parameter values together, as JSON. */
export const MAX_PARAMETER_CHARS = 1024 * 1024;

/**
 * Refuses parameter values SyQL has no use for (objects, non-finite numbers, nested lists), numbers beyond the
 * integers a double holds exactly (the engine would see another value), and more values than a query may carry.
 */
export function checkParameterValues(parameters: Parameters): void {
  let chars = 0;
  for (const [name, value] of Object.entries(parameters)) {
    const numbers = Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number') : typeof value === 'number' ? [value] : [];
    const huge = numbers.find((v) => Number.isFinite(v) && Math.abs(v) > Number.MAX_SAFE_INTEGER);
    if (huge !== undefined) throw new BadInput(`parameter $${name}: numbers must lie within ±${Number.MAX_SAFE_INTEGER} (2^53 - 1), got ${huge}`);
    if (Array.isArray(value) && value.length > MAX_LIST_VALUES) {
      throw new BadInput(`parameter $${name}: a list may hold at most ${MAX_LIST_VALUES} values, got ${value.length}; split the query, or filter by class, type or region instead`);
    }
    chars += value === undefined ? 0 : (JSON.stringify(value)?.length ?? 0);
    if (chars > MAX_PARAMETER_CHARS) throw new BadInput(`parameter $${name}: the parameters may hold at most ${MAX_PARAMETER_CHARS} characters together (as JSON)`);
    if (isScalar(value)) continue;
    if (Array.isArray(value)) {
      const bad = value.find((item) => !isScalar(item));
      if (bad === undefined && value.every(isScalar)) continue;
      throw new BadInput(`parameter $${name}: a list may hold only strings, finite numbers, booleans and nulls`);
    }
    throw new BadInput(`parameter $${name}: expected a string, a finite number, a boolean, null or a list of those, got ${describe(value)}`);
  }
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? 'an object' : typeof v;
}

function tyOfValue(v: string | number | boolean, integer?: boolean): Ty {
  if (typeof v === 'string') return { type: 'string', nullable: false };
  if (typeof v === 'boolean') return { type: 'boolean', nullable: false };
  return { type: (integer ?? Number.isInteger(v)) && Math.abs(v) <= Number.MAX_SAFE_INTEGER ? 'integer' : 'float', nullable: false };
}

function constOf(v: ParamValue, integer?: boolean): TConst | { k: 'null'; t: Ty } {
  if (v === null) return { k: 'null', t: { type: 'null', nullable: true } };
  return { k: 'const', t: tyOfValue(v, integer), value: v };
}

// ---------------------------------------------------------------------------------------------------------------
// The analysis itself

const numeric = (t: Ty['type']) => t === 'integer' || t === 'float';
const comparable = (a: Ty['type'], b: Ty['type']) => a === 'null' || b === 'null' || a === b || (numeric(a) && numeric(b));

interface Scope {
  byName: Map<string, Owner>;
}

interface CheckCtx {
  clause: 'WHERE' | 'RETURN' | 'ORDER BY';
  /** Inside an aggregate's argument. */
  inAggregate: boolean;
  /** RETURN: whether the item had an aggregate, and a property outside of one. */
  sawAggregate?: boolean;
  sawProperty?: Pos | null;
  /** ORDER BY: the result columns an expression may name. */
  columns?: { column: OutColumn; text: string | null }[];
}

export interface AnalyseInput {
  query: Query;
  parameters: Parameters;
  /** The codes under each region a WITHIN names (null: no such region). */
  regions: Record<string, string[] | null>;
}

export function analyse({ query, parameters, regions }: AnalyseInput): Analysis {
  const used = new Set<string>();
  const paramValue = (p: { name: string; pos: Pos }): unknown => {
    if (!Object.prototype.hasOwnProperty.call(parameters, p.name)) {
      throw syqlError(p.pos, `parameter '$${p.name}' is not given: send it in parameters`, {
        candidates: Object.keys(parameters).map((k) => `$${k}`),
      });
    }
    used.add(p.name);
    return parameters[p.name];
  };
  const scalarParam = (p: { name: string; pos: Pos }): TConst | { k: 'null'; t: Ty } => {
    const v = paramValue(p);
    if (!isScalar(v)) throw syqlError(p.pos, `parameter $${p.name} is ${describe(v)}: only IN takes a list`);
    return constOf(v);
  };

  // --- the pattern: variables, labels, relationship types
  if (query.datasets.length === 0) throw syqlError(query.pos, 'name the datasets to read: MATCH ... IN "dataset"@latest');
  const scope: Scope = { byName: new Map() };
  const nodes: NodeVar[] = [];
  const explicitLabel = new Map<NodeVar, { label: NodeLabel; pos: Pos; why: string }>();
  const occurrences: NodeVar[] = [];
  const setLabel = (v: NodeVar, label: NodeLabel, pos: Pos, why: string) => {
    const had = explicitLabel.get(v);
    if (had && had.label !== label) {
      throw syqlError(pos, `${v.name ?? 'this node'} is a ${had.label} (${had.why}) and cannot also be a ${label} (${why})`);
    }
    if (!had) explicitLabel.set(v, { label, pos, why });
  };
  for (const n of query.match.nodes) {
    let v: NodeVar | undefined;
    if (n.variable !== null) {
      const known = scope.byName.get(n.variable);
      if (known && known.owner === 'rel') throw syqlError(n.pos, `'${n.variable}' is already a relationship variable`);
      v = known as NodeVar | undefined;
    }
    if (!v) {
      v = { owner: 'node', index: nodes.length, name: n.variable, label: 'Neuron', pos: n.pos };
      nodes.push(v);
      if (n.variable !== null) scope.byName.set(n.variable, v);
    }
    if (n.label !== null) {
      if (!(LABEL_NAMES as string[]).includes(n.label)) {
        throw syqlError(n.pos, `unknown label '${n.label}': SyQL knows ${LABEL_NAMES.join(' and ')}`, { candidates: LABEL_NAMES });
      }
      setLabel(v, n.label as NodeLabel, n.pos, `:${n.label}`);
    }
    occurrences.push(v);
  }

  const rels: RelVar[] = [];
  query.match.rels.forEach((r, i) => {
    if (r.variable !== null && scope.byName.has(r.variable)) {
      const known = scope.byName.get(r.variable)!;
      throw syqlError(r.pos, `'${r.variable}' is already ${known.owner === 'node' ? 'a node' : 'a relationship'} variable: a relationship variable names one relationship`);
    }
    const names = r.types.map((t) => {
      if (!(REL_TYPES as string[]).includes(t.name)) {
        throw syqlError(t.pos, `unknown relationship type '${t.name}': SyQL knows ${REL_TYPES.join(', ')}`, { candidates: [...REL_TYPES] });
      }
      return t.name as (typeof REL_TYPES)[number];
    });
    const left = occurrences[i];
    const right = occurrences[i + 1];
    let rel: RelVar;
    if (names.includes('HAS_MORPHOLOGY')) {
      if (names.length > 1) throw syqlError(r.types[0].pos, 'HAS_MORPHOLOGY cannot be combined with other relationship types');
      if (r.hops) throw syqlError(r.hops.pos, 'HAS_MORPHOLOGY is a single hop: a neuron to one of its morphologies; remove the *');
      rel = { owner: 'rel', index: rels.length, name: r.variable, pos: r.pos, kind: 'morphology', kinds: [], direction: r.direction, hops: null, left, right };
    } else {
      const kinds = new Set<Kind>();
      for (const n of names.length ? names : (['Synapse'] as const)) for (const k of SYNAPSE_KINDS[n as keyof typeof SYNAPSE_KINDS]) kinds.add(k);
      let hops: RelVar['hops'] = null;
      if (r.hops) {
        const { min, max, pos } = r.hops;
        if (!Number.isInteger(min) || min < 1) throw syqlError(pos, `a variable-length relationship spans at least 1 hop (got ${min})`);
        if (!Number.isInteger(max) || max > MAX_PATH_HOPS) throw syqlError(pos, `a variable-length relationship spans at most ${MAX_PATH_HOPS} hops (got ${max})`);
        if (min > max) throw syqlError(pos, `the fewest hops (${min}) exceed the most (${max})`);
        hops = { min, max };
      }
      rel = {
        owner: 'rel',
        index: rels.length,
        name: r.variable,
        pos: r.pos,
        kind: hops ? 'path' : 'synapse',
        kinds: (['chemical', 'electrical'] as const).filter((k) => kinds.has(k)),
        direction: r.direction,
        hops,
        left,
        right,
      };
    }
    rels.push(rel);
    if (r.variable !== null) scope.byName.set(r.variable, rel);
  });

  // HAS_MORPHOLOGY fixes which end is the neuron and which the morphology.
  const morphologyEnds = new Map<RelVar, { neuron: NodeVar; morphology: NodeVar }>();
  for (const rel of rels) {
    if (rel.kind !== 'morphology') continue;
    let neuron: NodeVar;
    let morphology: NodeVar;
    if (rel.direction === 'right') [neuron, morphology] = [rel.left, rel.right];
    else if (rel.direction === 'left') [neuron, morphology] = [rel.right, rel.left];
    else {
      const l = explicitLabel.get(rel.left)?.label;
      const r = explicitLabel.get(rel.right)?.label;
      if (r === 'Morphology' || l === 'Neuron') [neuron, morphology] = [rel.left, rel.right];
      else if (l === 'Morphology' || r === 'Neuron') [neuron, morphology] = [rel.right, rel.left];
      else throw syqlError(rel.pos, 'HAS_MORPHOLOGY goes from a Neuron to a Morphology: write (n)-[:HAS_MORPHOLOGY]->(m)');
    }
    if (neuron === morphology) throw syqlError(rel.pos, 'HAS_MORPHOLOGY joins a Neuron to a Morphology, not a node to itself');
    setLabel(neuron, 'Neuron', rel.pos, 'the start of HAS_MORPHOLOGY');
    setLabel(morphology, 'Morphology', rel.pos, 'the end of HAS_MORPHOLOGY');
    morphologyEnds.set(rel, { neuron, morphology });
  }
  for (const v of nodes) v.label = explicitLabel.get(v)?.label ?? 'Neuron';
  for (const rel of rels) {
    if (rel.kind === 'morphology') continue;
    for (const end of [rel.left, rel.right]) {
      if (end.label !== 'Neuron') {
        throw syqlError(rel.pos, `synapses join neurons, and ${end.name ?? 'this node'} is a ${end.label}: a Morphology is reached with (n)-[:HAS_MORPHOLOGY]->(m)`);
      }
    }
  }

  // Slot classes: HAS_MORPHOLOGY makes the morphology's `neuron` the neuron's `id`.
  const parent = new Map<string, string>();
  const find = (s: string): string => {
    let r = s;
    while (parent.has(r)) r = parent.get(r)!;
    return r;
  };
  for (const { neuron, morphology } of morphologyEnds.values()) {
    const a = find(slotId(neuron, 'id'));
    const b = find(slotId(morphology, 'neuron'));
    if (a !== b) parent.set(b, a);
  }
  const slotClass = (s: string) => find(s);
  const keySlots = (v: NodeVar) => LABELS[v.label].key.map((k) => slotClass(slotId(v, k)));

  // --- expressions
  const prop = (owner: Owner, key: string, pos: Pos, written: string): TExpr => {
    const defs = propertiesOf(owner);
    const def = defs.find((d) => d.name === key);
    if (!def) {
      const what = owner.owner === 'node' ? owner.label : owner.kind === 'path' ? 'a variable-length relationship' : owner.kind === 'morphology' ? 'HAS_MORPHOLOGY' : 'a synapse';
      const known = defs.length ? `: ${what} has ${defs.map((d) => d.name).join(', ')}` : `: ${what} has no properties`;
      throw syqlError(pos, `unknown property '${key}' of ${written}${known}`, { found: key, candidates: defs.map((d) => d.name) });
    }
    return { k: 'prop', t: { type: def.type, nullable: def.nullable }, owner, def, slot: slotClass(slotId(owner, key)) };
  };
  const variable = (name: string, pos: Pos): Owner => {
    const v = scope.byName.get(name);
    if (!v) throw syqlError(pos, `unknown variable '${name}'`, { candidates: [...scope.byName.keys()] });
    return v;
  };

  const regionCodes = (region: Expr & { kind: 'literal' | 'param' }): string[] => {
    const value = region.kind === 'literal' ? region.value : paramValue(region);
    if (typeof value !== 'string') {
      throw syqlError(region.pos, `WITHIN takes a region code (a string), got ${region.kind === 'param' ? `$${region.name} = ` : ''}${describe(value === null ? 'null' : value)}`);
    }
    const codes = regions[value];
    if (!codes) throw syqlError(region.pos, `unknown region '${value}': no brain region has that code`);
    return codes;
  };

  const check = (e: Expr, ctx: CheckCtx): TExpr => {
    if (ctx.columns) {
      // A bare name is a column's name; an expression is a returned expression, else a column's name (`x.name` after
      // `RETURN a AS x`).
      const text = exprText(e);
      let hit = e.kind === 'variable' ? ctx.columns.findIndex((c) => c.column.name === e.name) : ctx.columns.findIndex((c) => c.text === text);
      if (hit < 0) hit = ctx.columns.findIndex((c) => c.column.name === text);
      if (hit >= 0) return { k: 'col', t: { type: ctx.columns[hit].column.type, nullable: ctx.columns[hit].column.nullable }, index: hit };
      if (e.kind === 'property' || e.kind === 'aggregate' || e.kind === 'variable') {
        if (e.kind === 'variable' && !scope.byName.has(e.name)) {
          throw syqlError(e.pos, `unknown column '${e.name}' in ORDER BY`, { candidates: ctx.columns.map((c) => c.column.name) });
        }
        throw syqlError(e.pos, `ORDER BY ${exprText(e)}: only returned columns can order the result; return it (RETURN ..., ${exprText(e)}) or order by a column's name`, {
          found: e.kind === 'variable' ? e.name : exprText(e),
          candidates: ctx.columns.map((c) => c.column.name),
        });
      }
    }
    switch (e.kind) {
      case 'literal':
        return constOf(e.value, e.integer);
      case 'param':
        return scalarParam(e);
      case 'variable': {
        const v = variable(e.name, e.pos);
        throw syqlError(e.pos, `'${e.name}' is a ${v.owner === 'node' ? 'node' : 'relationship'}: name one of its properties (${e.name}.${propertiesOf(v)[0]?.name ?? 'id'})${ctx.clause === 'RETURN' ? ' or return it alone' : ''}`);
      }
      case 'property': {
        if (!ctx.inAggregate && ctx.clause === 'RETURN' && ctx.sawProperty === null) ctx.sawProperty = e.pos;
        const v = variable(e.variable, e.pos);
        return prop(v, e.key, e.pos, e.variable);
      }
      case 'list':
        throw syqlError(e.pos, 'a list is only the right side of IN');
      case 'comparison': {
        const left = check(e.left, ctx);
        const right = check(e.right, ctx);
        if (!comparable(left.t.type, right.t.type)) {
          throw syqlError(e.pos, `cannot compare ${exprText(e.left)} (${typeName(left.t)}) with ${exprText(e.right)} (${typeName(right.t)})`);
        }
        return { k: 'cmp', t: boolTy(left, right), op: e.op, left, right };
      }
      case 'string-match': {
        const left = check(e.left, ctx);
        const right = check(e.right, ctx);
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
      case 'in': {
        const left = check(e.left, ctx);
        let values: { value: unknown; pos: Pos; text: string }[];
        if (e.right.kind === 'param') {
          const v = paramValue(e.right);
          if (!Array.isArray(v)) throw syqlError(e.right.pos, `IN $${e.right.name} needs a list, and $${e.right.name} is ${describe(v)}`);
          const p = e.right;
          values = v.map((value, i) => ({ value, pos: p.pos, text: `$${p.name}[${i}]` }));
        } else {
          if (e.right.items.length > MAX_LIST_VALUES) throw syqlError(e.right.pos, `a list may hold at most ${MAX_LIST_VALUES} values, this one holds ${e.right.items.length}`);
          values = e.right.items.map((item) => ({
            value: item.kind === 'literal' ? item.value : paramValue(item),
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
      case 'within': {
        const left = check(e.left, ctx);
        if (left.t.type !== 'string' && left.t.type !== 'null') {
          throw syqlError(e.left.pos, `WITHIN takes a region code, and ${exprText(e.left)} is ${article(typeName(left.t))}`);
        }
        return { k: 'within', t: { type: 'boolean', nullable: left.t.nullable || left.t.type === 'null' }, left, codes: regionCodes(e.region) };
      }
      case 'is-null': {
        const operand = check(e.operand, ctx);
        return { k: 'isnull', t: { type: 'boolean', nullable: false }, negated: e.negated, operand };
      }
      case 'logical': {
        const left = condition(e.left, ctx);
        const right = condition(e.right, ctx);
        return { k: e.op, t: { type: 'boolean', nullable: left.t.nullable || right.t.nullable }, left, right };
      }
      case 'not': {
        const operand = condition(e.operand, ctx);
        return { k: 'not', t: { type: 'boolean', nullable: operand.t.nullable }, operand };
      }
      case 'aggregate':
        return aggregate(e, ctx);
    }
  };

  const condition = (e: Expr, ctx: CheckCtx): TExpr => {
    const t = check(e, ctx);
    if (t.t.type !== 'boolean' && t.t.type !== 'null') {
      throw syqlError(e.pos, `${exprText(e)} is ${article(typeName(t.t))}, not a condition (true or false)`);
    }
    return t;
  };

  const aggregate = (e: Expr & { kind: 'aggregate' }, ctx: CheckCtx): TExpr => {
    if (ctx.clause === 'WHERE') throw syqlError(e.pos, `aggregates such as ${e.fn}() are not allowed in WHERE: WHERE filters rows before they are aggregated`);
    if (ctx.inAggregate) throw syqlError(e.pos, `aggregates cannot be nested: ${exprText(e)} is inside another aggregate`);
    ctx.sawAggregate = true;
    const inner: CheckCtx = { ...ctx, inAggregate: true };
    let arg: TExpr | null = null;
    let argVar: Owner | null = null;
    if (e.argument === null) {
      if (e.fn !== 'count') throw syqlError(e.pos, `${e.fn}(*) is not defined: ${e.fn} takes a value`);
    } else if (e.argument.kind === 'variable') {
      argVar = variable(e.argument.name, e.argument.pos);
      if (e.fn !== 'count') throw syqlError(e.argument.pos, `${e.fn} takes a value, and '${e.argument.name}' is a ${argVar.owner === 'node' ? 'node' : 'relationship'}`);
      if (e.distinct && argVar.owner === 'rel') {
        throw syqlError(e.argument.pos, `count(DISTINCT ${e.argument.name}) is not supported for relationships: count(${e.argument.name}) counts them`);
      }
    } else {
      arg = check(e.argument, inner);
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
  };

  // --- WHERE and inline properties
  const conjuncts: Conjunct[] = [];
  const addConjuncts = (e: TExpr) => {
    if (e.k === 'and') {
      addConjuncts(e.left);
      addConjuncts(e.right);
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
    const v = occurrences[i];
    for (const p of n.properties) {
      const left = prop(v, p.key, p.pos, n.variable ?? `(:${v.label})`);
      const right: TExpr = p.value.kind === 'literal' ? constOf(p.value.value, p.value.integer) : scalarParam(p.value);
      if (!comparable(left.t.type, right.t.type)) {
        throw syqlError(p.pos, `${n.variable ?? v.label}.${p.key} is ${article(typeName(left.t))} and cannot equal ${p.value.kind === 'param' ? `$${p.value.name}` : exprText(p.value)} (${typeName(right.t)})`);
      }
      addConjuncts({ k: 'cmp', t: boolTy(left, right), op: '=', left, right });
    }
  });
  if (query.where) addConjuncts(condition(query.where, { clause: 'WHERE', inAggregate: false }));

  // --- RETURN
  const multi = query.datasets.length > 1;
  const columns: OutColumn[] = [];
  const columnTexts: (string | null)[] = [];
  const names = new Map<string, Pos>();
  const addColumn = (name: string, pos: Pos, expr: TExpr | null, text: string | null, aggregate: boolean, constant: boolean) => {
    if (names.has(name)) {
      throw syqlError(pos, `duplicate column name '${name}': give one of them another name with AS`);
    }
    names.set(name, pos);
    const t = expr ? expr.t : { type: 'string' as const, nullable: false };
    if (t.type === 'null') throw syqlError(pos, `the column '${name}' is always null and has no type`);
    columns.push({ name, type: t.type, nullable: t.nullable, chType: chTypeOf(t.type, t.nullable), expr, aggregate, constant });
    columnTexts.push(text);
  };
  if (multi) addColumn('dataset', query.pos, null, null, false, true);
  if (query.returns.length === 0) throw syqlError(query.pos, 'RETURN names at least one column');
  for (const item of query.returns) returnItem(item);

  function returnItem(item: ReturnItem): void {
    const e = item.expr;
    if (e.kind === 'variable') {
      const v = variable(e.name, e.pos);
      const prefix = item.alias ?? e.name;
      const defs = propertiesOf(v);
      if (defs.length === 0) throw syqlError(e.pos, `'${e.name}' (HAS_MORPHOLOGY) has no properties to return`);
      for (const d of defs) {
        const p = prop(v, d.name, e.pos, e.name);
        addColumn(`${prefix}.${d.name}`, item.pos, p, `${e.name}.${d.name}`, false, false);
      }
      return;
    }
    const ctx: CheckCtx = { clause: 'RETURN', inAggregate: false, sawAggregate: false, sawProperty: null };
    const t = check(e, ctx);
    if (ctx.sawAggregate && ctx.sawProperty) {
      throw syqlError(ctx.sawProperty, `${exprText(e)} mixes an aggregate with a property outside it: return the property as a column of its own`);
    }
    const constant = !ctx.sawAggregate && !containsProp(t);
    addColumn(item.alias ?? exprText(e), item.pos, t, exprText(e), !!ctx.sawAggregate, constant);
  }

  const aggregate_ = columns.some((c) => c.aggregate);
  if (aggregate_) {
    // avg, min and max of no rows are null: only a query without grouping keys can aggregate no rows.
    const grouped = columns.some((c) => !c.aggregate && !c.constant);
    for (const c of columns) {
      if (!c.expr || !c.aggregate) continue;
      refreshNullability(c.expr, grouped);
      c.nullable = c.expr.t.nullable;
      c.chType = chTypeOf(c.type, c.nullable);
    }
  }

  // --- ORDER BY, SKIP, LIMIT
  const orderColumns = columns.map((column, i) => ({ column, text: columnTexts[i] }));
  const orderBy = query.orderBy.map((o) => ({
    expr: check(o.expr, { clause: 'ORDER BY', inAggregate: false, columns: orderColumns }),
    descending: o.descending,
  }));
  const intValue = (v: IntValue | null, what: string): number | null => {
    if (!v) return null;
    const value = v.kind === 'int' ? v.value : paramValue(v);
    const text = v.kind === 'param' ? `$${v.name} (${describe(value)})` : String(value);
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw syqlError(v.pos, `${what} takes a non-negative integer, got ${text}`);
    if (value > MAX_SKIP_LIMIT) throw syqlError(v.pos, `${what} is at most ${MAX_SKIP_LIMIT}, got ${text}`);
    return value;
  };
  const skip = intValue(query.skip, 'SKIP') ?? 0;
  const limit = intValue(query.limit, 'LIMIT');

  const unused = Object.keys(parameters).filter((p) => !used.has(p));
  if (unused.length) {
    throw new BadInput(`parameter${unused.length > 1 ? 's' : ''} ${unused.map((p) => `$${p}`).join(', ')} ${unused.length > 1 ? 'are' : 'is'} not used by the query`);
  }

  return {
    nodes,
    rels,
    occurrences,
    conjuncts,
    columns,
    multi,
    aggregate: aggregate_,
    distinct: query.distinct,
    orderBy,
    skip,
    limit,
    slotClass,
    keySlots,
  };
}

function article(type: string): string {
  return type === 'null' ? 'null' : `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}

function boolTy(a: TExpr, b: TExpr): Ty {
  return { type: 'boolean', nullable: a.t.nullable || b.t.nullable || a.t.type === 'null' || b.t.type === 'null' };
}

export function walk(e: TExpr, visit: (e: TExpr) => void): void {
  visit(e);
  switch (e.k) {
    case 'cmp':
    case 'match':
    case 'and':
    case 'or':
      walk(e.left, visit);
      walk(e.right, visit);
      break;
    case 'in':
    case 'within':
      walk(e.left, visit);
      break;
    case 'isnull':
    case 'not':
      walk(e.operand, visit);
      break;
    case 'agg':
      if (e.arg) walk(e.arg, visit);
      break;
    default:
      break;
  }
}

function containsProp(e: TExpr): boolean {
  let found = false;
  walk(e, (x) => {
    if (x.k === 'prop' || x.k === 'agg') found = true;
  });
  return found;
}

/** Re-derives nullability bottom-up once it is known whether the query groups (avg, min, max of no rows are null). */
function refreshNullability(e: TExpr, grouped: boolean): boolean {
  switch (e.k) {
    case 'agg':
      if (e.arg) refreshNullability(e.arg, grouped);
      if (e.fn === 'avg' || e.fn === 'min' || e.fn === 'max') e.t = { ...e.t, nullable: e.arg!.t.nullable || !grouped };
      return e.t.nullable;
    case 'cmp':
    case 'match': {
      const l = refreshNullability(e.left, grouped);
      const r = refreshNullability(e.right, grouped);
      e.t = { ...e.t, nullable: l || r || e.left.t.type === 'null' || e.right.t.type === 'null' };
      return e.t.nullable;
    }
    case 'and':
    case 'or': {
      const l = refreshNullability(e.left, grouped);
      const r = refreshNullability(e.right, grouped);
      e.t = { ...e.t, nullable: l || r };
      return e.t.nullable;
    }
    case 'in':
      e.t = { ...e.t, nullable: refreshNullability(e.left, grouped) || e.left.t.type === 'null' || e.hasNull };
      return e.t.nullable;
    case 'within':
      e.t = { ...e.t, nullable: refreshNullability(e.left, grouped) || e.left.t.type === 'null' };
      return e.t.nullable;
    case 'not':
      e.t = { ...e.t, nullable: refreshNullability(e.operand, grouped) };
      return e.t.nullable;
    case 'isnull':
      refreshNullability(e.operand, grouped);
      return false;
    default:
      return e.t.nullable;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Planning

/** The reference as text, the key of `pins`: `"celegans_cook_2019_male"@latest`, `"slug"@v3`, `"slug"@draft`. */
export function datasetRefText(ref: DatasetRef): string {
  const selector = ref.selector.kind === 'number' ? `v${ref.selector.version}` : ref.selector.kind;
  const escaped: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\t': '\\t', '\r': '\\r' };
  return `"${[...ref.dataset].map((c) => escaped[c] ?? c).join('')}"@${selector}`;
}

/** The WITHIN regions a query names, as written or from its parameters (values that are not strings are refused later). */
function withinCodes(query: Query, parameters: Parameters): string[] {
  const codes = new Set<string>();
  const visit = (e: Expr | null): void => {
    if (!e) return;
    switch (e.kind) {
      case 'within': {
        const v = e.region.kind === 'literal' ? e.region.value : parameters[e.region.name];
        if (typeof v === 'string') codes.add(v);
        visit(e.left);
        break;
      }
      case 'comparison':
      case 'string-match':
      case 'logical':
        visit(e.left);
        visit(e.right);
        break;
      case 'in':
        visit(e.left);
        break;
      case 'is-null':
      case 'not':
        visit(e.operand);
        break;
      default:
        break;
    }
  };
  visit(query.where);
  return [...codes];
}

/**
 * Checks a query and resolves its datasets and regions: the plan the compiler turns into SQL. Throws a SyqlError
 * (400) for anything the query names that does not exist or does not fit, and the environment's own errors as they
 * are (a dataset the caller may not read).
 */
export async function planQuery(
  query: Query,
  parameters: Parameters | undefined,
  env: PlannerEnv,
  opts: { pins?: Record<string, number>; maxEstimatedRows?: number } = {},
): Promise<SyqlPlan> {
  const params: Parameters = parameters ?? {};
  checkParameterValues(params);

  const lookups: Record<string, string[] | null> = {};
  for (const code of withinCodes(query, params)) lookups[code] = await env.regionCodesWithin(code);
  const analysis = analyse({ query, parameters: params, regions: lookups });

  const datasets: ResolvedDataset[] = [];
  const seen = new Map<string, DatasetRef>();
  for (const [i, ref] of query.datasets.entries()) {
    const text = datasetRefText(ref);
    const pinned = opts.pins?.[text] ?? opts.pins?.[String(i)];
    const resolved = await env.resolveDataset(ref, pinned);
    const key = `${resolved.datasetId}@${resolved.version}`;
    const before = seen.get(key);
    if (before) {
      throw syqlError(ref.pos, `${datasetRefText(ref)} is the same dataset version as ${datasetRefText(before)} (${resolved.label}): name each dataset version once`);
    }
    seen.set(key, ref);
    datasets.push(resolved);
  }

  const regions: Record<string, string[]> = {};
  for (const [code, codes] of Object.entries(lookups)) if (codes) regions[code] = codes;

  if (opts.maxEstimatedRows !== undefined) {
    const estimate = estimateMatches(query, params, datasets);
    if (estimate > opts.maxEstimatedRows) {
      throw new BadInput(
        `the pattern may match about ${estimate.toExponential(1)} rows in ${datasets.map((d) => d.label).join(', ')}, more than the ${opts.maxEstimatedRows.toExponential(0)} a query may (SYQL_MAX_ESTIMATED_ROWS), so it was not run. ` +
          'Narrow it: give a node a name or id (WHERE a.name = $n, or {name: "AVAL"}), filter nodes by class or type, restrict regions with WITHIN, ' +
          'use fewer relationships or shorter *min..max ranges, or read one dataset at a time. LIMIT does not help: count(*), DISTINCT and ORDER BY still go through every match',
      );
    }
  }

  return {
    query,
    normalised: printQuery(query),
    datasets,
    columns: analysis.columns.map(({ name, type, nullable, chType }) => ({ name, type, nullable, chType })),
    parameters: params,
    regions,
  };
}

/** Re-analyses a plan (as the compiler does): its parameters and regions were checked when it was made. */
export function analysePlan(plan: SyqlPlan): Analysis {
  return analyse({ query: plan.query, parameters: plan.parameters, regions: plan.regions });
}
