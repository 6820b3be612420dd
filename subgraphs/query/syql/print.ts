import type { DatasetRef, Expr, IntValue, Literal, NodePattern, Param, Query, RelPattern } from './ast.js';
import { KEYWORDS } from './lexer.js';

/**
 * The canonical text of a query: keywords upper case, one clause per line, strings single-quoted, dataset references
 * as `"slug"@latest`, `"slug"@v2`, `"slug"@draft`, hop ranges in full (`*1..3`), `!=` as `<>`, and only the
 * parentheses the tree needs. Parsing the result gives the same tree (positions aside).
 */
export function printQuery(q: Query): string {
  const lines = [`MATCH ${printPattern(q)}`, `IN ${q.datasets.map(printDataset).join(', ')}`];
  if (q.where) lines.push(`WHERE ${printExpr(q.where)}`);
  const items = q.returns.map((r) => (r.alias === null ? printExpr(r.expr) : `${printExpr(r.expr)} AS ${printName(r.alias)}`));
  lines.push(`RETURN ${q.distinct ? 'DISTINCT ' : ''}${items.join(', ')}`);
  if (q.orderBy.length > 0) {
    lines.push(`ORDER BY ${q.orderBy.map((o) => `${printExpr(o.expr)}${o.descending ? ' DESC' : ''}`).join(', ')}`);
  }
  if (q.skip) lines.push(`SKIP ${printInt(q.skip)}`);
  if (q.limit) lines.push(`LIMIT ${printInt(q.limit)}`);
  return lines.join('\n');
}

function printPattern(q: Query): string {
  const { nodes, rels } = q.match;
  let text = printNode(nodes[0]);
  for (let i = 0; i < rels.length; i++) text += printRel(rels[i]) + printNode(nodes[i + 1]);
  return text;
}

function printNode(node: NodePattern): string {
  let text = node.variable === null ? '' : printName(node.variable);
  if (node.label !== null) text += `:${printKey(node.label)}`;
  if (node.properties.length > 0) {
    const entries = node.properties.map((p) => `${printKey(p.key)}: ${printScalar(p.value)}`);
    text += `${text ? ' ' : ''}{${entries.join(', ')}}`;
  }
  return `(${text})`;
}

function printRel(rel: RelPattern): string {
  let body = rel.variable === null ? '' : printName(rel.variable);
  if (rel.types.length > 0) body += `:${rel.types.map((t) => printKey(t.name)).join('|')}`;
  if (rel.hops) body += `*${rel.hops.min}..${rel.hops.max}`;
  const inner = body ? `-[${body}]-` : '--';
  return rel.direction === 'left' ? `<${inner}` : rel.direction === 'right' ? `${inner}>` : inner;
}

function printDataset(ref: DatasetRef): string {
  const selector = ref.selector.kind === 'number' ? `v${ref.selector.version}` : ref.selector.kind;
  return `${quote(ref.dataset, '"')}@${selector}`;
}

function printInt(value: IntValue): string {
  return value.kind === 'int' ? String(value.value) : `$${value.name}`;
}

const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function backquote(name: string): string {
  return `\`${name.replaceAll('`', '``')}\``;
}

/** A variable or alias: backquoted unless it is a plain identifier that is not a keyword. */
function printName(name: string): string {
  return PLAIN_NAME.test(name) && !KEYWORDS.has(name.toUpperCase()) ? name : backquote(name);
}

/** A property key, label or type: keywords may stand bare there. */
function printKey(name: string): string {
  return PLAIN_NAME.test(name) ? name : backquote(name);
}

const ESCAPED: Readonly<Record<string, string>> = { '\\': '\\\\', '\n': '\\n', '\t': '\\t', '\r': '\\r' };

function quote(text: string, mark: "'" | '"'): string {
  let out = mark;
  for (const char of text) out += char === mark ? `\\${mark}` : (ESCAPED[char] ?? char);
  return out + mark;
}

function printLiteral(literal: Literal): string {
  const { value } = literal;
  if (value === null) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return quote(value, "'");
  const text = String(value);
  // A number written with a fraction or exponent keeps one, so that it reads back as the same literal.
  if (literal.integer === false && !text.includes('.') && !text.includes('e')) return `${text}.0`;
  return text;
}

function printScalar(value: Literal | Param): string {
  return value.kind === 'param' ? `$${value.name}` : printLiteral(value);
}

/** Binding strength, loosest first: what a position requires decides whether its operand needs parentheses. */
const enum Level {
  Or = 1,
  And = 2,
  Not = 3,
  Comparison = 4,
  Primary = 5,
}

function levelOf(expr: Expr): Level {
  switch (expr.kind) {
    case 'logical':
      return expr.op === 'or' ? Level.Or : Level.And;
    case 'not':
      return Level.Not;
    case 'comparison':
    case 'string-match':
    case 'in':
    case 'within':
    case 'is-null':
      return Level.Comparison;
    default:
      return Level.Primary;
  }
}

/** Prints `expr` where an operand of at least `min` binding strength is required. */
function printAt(expr: Expr, min: Level): string {
  const text = printExpr(expr);
  return levelOf(expr) < min ? `(${text})` : text;
}

const STRING_OPS = { 'starts-with': 'STARTS WITH', 'ends-with': 'ENDS WITH', contains: 'CONTAINS' } as const;

function printExpr(expr: Expr): string {
  switch (expr.kind) {
    case 'literal':
      return printLiteral(expr);
    case 'param':
      return `$${expr.name}`;
    case 'variable':
      return printName(expr.name);
    case 'property':
      return `${printName(expr.variable)}.${printKey(expr.key)}`;
    case 'list':
      return `[${expr.items.map(printScalar).join(', ')}]`;
    case 'aggregate': {
      const argument = expr.argument === null ? '*' : printExpr(expr.argument);
      return `${expr.fn}(${expr.distinct ? 'DISTINCT ' : ''}${argument})`;
    }
    case 'comparison':
      return `${printAt(expr.left, Level.Primary)} ${expr.op} ${printAt(expr.right, Level.Primary)}`;
    case 'string-match':
      return `${printAt(expr.left, Level.Primary)} ${STRING_OPS[expr.op]} ${printAt(expr.right, Level.Primary)}`;
    case 'in':
      return `${printAt(expr.left, Level.Primary)} ${expr.negated ? 'NOT IN' : 'IN'} ${printExpr(expr.right)}`;
    case 'within':
      return `${printAt(expr.left, Level.Primary)} WITHIN ${printScalar(expr.region)}`;
    case 'is-null':
      return `${printAt(expr.operand, Level.Primary)} IS ${expr.negated ? 'NOT NULL' : 'NULL'}`;
    case 'not':
      return `NOT ${printAt(expr.operand, Level.Not)}`;
    case 'logical': {
      // Both are left-associative: a right operand of the same strength keeps its parentheses.
      const level = expr.op === 'or' ? Level.Or : Level.And;
      return `${printAt(expr.left, level)} ${expr.op.toUpperCase()} ${printAt(expr.right, level + 1)}`;
    }
  }
}
