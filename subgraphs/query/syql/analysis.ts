import type { AggregateFn, ComparisonOp, NodeLabel, Pos } from './ast.js';
import { HAS_MORPHOLOGY_PROPERTIES, LABELS, PATH_PROPERTIES, SYNAPSE_PROPERTIES, type PropertyDef } from './catalog.js';
import type { ResultColumn, ValueType } from './plan.js';

// What the planner resolves a query into and the compiler reads: variables, checked expressions, result columns.

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
// Types of checked expressions

export const numeric = (t: Ty['type']) => t === 'integer' || t === 'float';
export const comparable = (a: Ty['type'], b: Ty['type']) => a === 'null' || b === 'null' || a === b || (numeric(a) && numeric(b));

export function typeName(t: Ty): string {
  return t.type === 'null' ? 'null' : t.type;
}

export function article(type: string): string {
  return type === 'null' ? 'null' : `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}

export function boolTy(a: TExpr, b: TExpr): Ty {
  return { type: 'boolean', nullable: a.t.nullable || b.t.nullable || a.t.type === 'null' || b.t.type === 'null' };
}

/** Visits an expression and every expression inside it, outermost first. */
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

export function containsProp(e: TExpr): boolean {
  let found = false;
  walk(e, (x) => {
    if (x.k === 'prop' || x.k === 'agg') found = true;
  });
  return found;
}

/** Re-derives nullability bottom-up once it is known whether the query groups (avg, min, max of no rows are null). */
export function refreshNullability(e: TExpr, grouped: boolean): boolean {
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
