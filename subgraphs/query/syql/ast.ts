/**
 * The syntax tree of a SyQL query, as the parser produces it and the planner checks it. Every node carries the
 * position of its first token, so that a later check (an unknown property, a type that does not fit) can name the
 * line and column just as a syntax error does.
 */

export interface Pos {
  /** 1-based. */
  line: number;
  /** 1-based, in characters. */
  column: number;
  /** 0-based character offset into the query text. */
  offset: number;
}

/** `MATCH ... IN ... [WHERE ...] RETURN ... [ORDER BY ...] [SKIP n] [LIMIT n]` */
export interface Query {
  kind: 'query';
  pos: Pos;
  match: Pattern;
  datasets: DatasetRef[];
  where: Expr | null;
  distinct: boolean;
  returns: ReturnItem[];
  orderBy: OrderItem[];
  /** A literal integer or a `$parameter`. */
  skip: IntValue | null;
  limit: IntValue | null;
}

/** `(a:Neuron)-[c:Chemical]->(b:Neuron)<-[:Electrical]-(d)`: nodes[i] and nodes[i+1] are joined by rels[i]. */
export interface Pattern {
  pos: Pos;
  nodes: NodePattern[];
  rels: RelPattern[];
}

/** Node labels: a cell of the `neurons` table, or a row of the `morphologies` table. */
export type NodeLabel = 'Neuron' | 'Morphology';

export interface NodePattern {
  pos: Pos;
  /** Null for an anonymous node `()` or `(:Neuron)`. */
  variable: string | null;
  /** Null when omitted: the planner infers it (Neuron unless joined by HAS_MORPHOLOGY). Written as in the text; the planner checks it. */
  label: string | null;
  /** Inline equality filters `{name: 'AVAL', class: $c}`, in order. */
  properties: { key: string; pos: Pos; value: Literal | Param }[];
}

/** Relationship types: chemical synapses, gap junctions, either (`Synapse`), or a neuron's morphology. */
export type RelType = 'Chemical' | 'Electrical' | 'Synapse' | 'HAS_MORPHOLOGY';

export interface RelPattern {
  pos: Pos;
  variable: string | null;
  /** Types as written (`[:Chemical|Electrical]` gives two); empty means any synapse. The planner checks them. */
  types: { name: string; pos: Pos }[];
  /** `->` right, `<-` left, `-` (no arrow) either way. */
  direction: 'right' | 'left' | 'both';
  /** `*min..max` (`*2` is 2..2, `*..3` is 1..3, `*` alone is 1..max bound); null for a single hop. */
  hops: { min: number; max: number; pos: Pos } | null;
}

/** `"slug-or-id"@latest`, `"slug"@v3`, `"slug"@draft`, or `"slug"` (latest). */
export interface DatasetRef {
  pos: Pos;
  /** The dataset's slug or id, as written between the quotes. */
  dataset: string;
  selector: { kind: 'latest' } | { kind: 'draft' } | { kind: 'number'; version: number };
}

export interface ReturnItem {
  pos: Pos;
  expr: Expr;
  /** `AS alias`; null when not given (the planner names the column after the expression, e.g. `a.name`). */
  alias: string | null;
}

export interface OrderItem {
  pos: Pos;
  /** A return alias or column name is a `Variable` here; the planner resolves it. */
  expr: Expr;
  descending: boolean;
}

export type IntValue = { kind: 'int'; pos: Pos; value: number } | Param;

export type Expr =
  | Literal
  | Param
  | Variable
  | Property
  | ListExpr
  | Comparison
  | StringMatch
  | InList
  | Within
  | IsNull
  | Logical
  | Not
  | Aggregate;

export type LiteralValue = string | number | boolean | null;

/** `'text'` or `"text"` (in expressions both quote styles are strings), `12`, `-3.5`, `1e3`, `true`, `false`, `null`. */
export interface Literal {
  kind: 'literal';
  pos: Pos;
  value: LiteralValue;
  /** Whether a number was written without a fraction or exponent. */
  integer?: boolean;
}

/** `$name`: its value is sent separately in `parameters`. */
export interface Param {
  kind: 'param';
  pos: Pos;
  name: string;
}

/** A bare name: a pattern variable (`RETURN a`) or, in ORDER BY, a return alias. */
export interface Variable {
  kind: 'variable';
  pos: Pos;
  name: string;
}

/** `a.name` */
export interface Property {
  kind: 'property';
  pos: Pos;
  variable: string;
  key: string;
}

/** `['AVAL', 'AVAR']` (the right side of IN). */
export interface ListExpr {
  kind: 'list';
  pos: Pos;
  items: (Literal | Param)[];
}

export type ComparisonOp = '=' | '<>' | '<' | '<=' | '>' | '>=';

/** `!=` parses as `<>`. */
export interface Comparison {
  kind: 'comparison';
  pos: Pos;
  op: ComparisonOp;
  left: Expr;
  right: Expr;
}

/** `a.name STARTS WITH 'AVA'`, `ENDS WITH`, `CONTAINS` (case-sensitive, as in Cypher). */
export interface StringMatch {
  kind: 'string-match';
  pos: Pos;
  op: 'starts-with' | 'ends-with' | 'contains';
  left: Expr;
  right: Expr;
}

/** `a.name IN ['AVAL', 'AVAR']`, `a.name IN $names`, and `NOT IN`. */
export interface InList {
  kind: 'in';
  pos: Pos;
  negated: boolean;
  left: Expr;
  right: ListExpr | Param;
}

/** `a.region WITHIN 'MBA:1080'`: the region or any region below it in the ontology's brain_region hierarchy. */
export interface Within {
  kind: 'within';
  pos: Pos;
  left: Expr;
  /** A region code (or a `$parameter` holding one). */
  region: Literal | Param;
}

/** `x IS NULL`, `x IS NOT NULL` */
export interface IsNull {
  kind: 'is-null';
  pos: Pos;
  negated: boolean;
  operand: Expr;
}

export interface Logical {
  kind: 'logical';
  pos: Pos;
  op: 'and' | 'or';
  left: Expr;
  right: Expr;
}

export interface Not {
  kind: 'not';
  pos: Pos;
  operand: Expr;
}

export type AggregateFn = 'count' | 'sum' | 'avg' | 'min' | 'max';

/** `count(*)` (argument null), `count(DISTINCT a.name)`, `sum(c.weight)`, ... Function names are case-insensitive. */
export interface Aggregate {
  kind: 'aggregate';
  pos: Pos;
  fn: AggregateFn;
  distinct: boolean;
  argument: Expr | null;
}

/** The most hops a variable-length relationship may span (`*1..3`). */
export const MAX_PATH_HOPS = 3;
