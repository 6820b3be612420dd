import type { Expr } from './ast.js';

// The SyQL text of an expression: the default name of a result column and the wording of messages.

function quoteText(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function literalText(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return quoteText(v);
  return String(v);
}

export const STRING_OPS = { 'starts-with': 'STARTS WITH', 'ends-with': 'ENDS WITH', contains: 'CONTAINS' } as const;

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
