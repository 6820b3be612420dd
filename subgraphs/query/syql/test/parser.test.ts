import { describe, expect, it } from 'vitest';
import { BadInput } from '../../../../lib/errors.js';
import { MAX_PATH_HOPS, type Expr, type Literal, type Param, type Pos, type Query } from '../ast.js';
import { MAX_EXPR_DEPTH, MAX_PAREN_DEPTH, MAX_QUERY_LENGTH, parseSyql } from '../parser.js';
import { printQuery } from '../print.js';
import { closestCandidate, SyqlError, syqlError } from '../syntax-error.js';

/** The tree without positions, for comparing trees of differently written queries. */
function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== 'pos')
        .map(([k, v]) => [k, strip(v)]),
    );
  }
  return value;
}

/** A query around a WHERE expression. */
function where(expr: string): Expr {
  return parseSyql(`MATCH (a:Neuron)-[c]->(b) IN "d" WHERE ${expr} RETURN a`).where!;
}

/** A query around a RETURN expression. */
function returned(expr: string): Expr {
  return parseSyql(`MATCH (a:Neuron) IN "d" RETURN ${expr}`).returns[0].expr;
}

function errorOf(text: string): SyqlError {
  try {
    parseSyql(text);
  } catch (e) {
    if (e instanceof SyqlError) return e;
    throw new Error(`expected a SyqlError, got ${String(e)}`);
  }
  throw new Error(`expected a SyqlError for: ${text}`);
}

const prop = (variable: string, key: string) => ({ kind: 'property', variable, key });
const lit = (value: string | number | boolean | null, integer?: boolean) =>
  integer === undefined ? { kind: 'literal', value } : { kind: 'literal', value, integer };
const int = (value: number) => lit(value, true);
const param = (name: string) => ({ kind: 'param', name });
const cmp = (op: string, left: unknown, right: unknown) => ({ kind: 'comparison', op, left, right });
const and = (left: unknown, right: unknown) => ({ kind: 'logical', op: 'and', left, right });
const or = (left: unknown, right: unknown) => ({ kind: 'logical', op: 'or', left, right });
const not = (operand: unknown) => ({ kind: 'not', operand });

describe('parseSyql', () => {
  it('reads the documented example into the syntax tree of ast.ts', () => {
    const q = parseSyql(`MATCH (a:Neuron)-[c:Chemical]->(b:Neuron)
IN "celegans_cook_2019_male"@latest
WHERE a.name STARTS WITH 'AVA' AND c.weight >= 5
RETURN a.name AS pre, b.name AS post, c.weight
ORDER BY c.weight DESC
LIMIT 100`);
    expect(strip(q)).toEqual({
      kind: 'query',
      match: {
        nodes: [
          { variable: 'a', label: 'Neuron', properties: [] },
          { variable: 'b', label: 'Neuron', properties: [] },
        ],
        rels: [{ variable: 'c', types: [{ name: 'Chemical' }], direction: 'right', hops: null }],
      },
      datasets: [{ dataset: 'celegans_cook_2019_male', selector: { kind: 'latest' } }],
      where: and(
        { kind: 'string-match', op: 'starts-with', left: prop('a', 'name'), right: lit('AVA') },
        cmp('>=', prop('c', 'weight'), int(5)),
      ),
      distinct: false,
      returns: [
        { expr: prop('a', 'name'), alias: 'pre' },
        { expr: prop('b', 'name'), alias: 'post' },
        { expr: prop('c', 'weight'), alias: null },
      ],
      orderBy: [{ expr: prop('c', 'weight'), descending: true }],
      skip: null,
      limit: { kind: 'int', value: 100 },
    });
  });

  it('gives every node the line, column and offset of its first token', () => {
    const text = 'MATCH (a:Neuron {name: $n})-[c:Chemical|Electrical*1..2]->(b)\n  IN "x"@v2, \'y\'\nWHERE a.x > 1\nRETURN count(*) AS n\nORDER BY n\nSKIP 5 LIMIT $l';
    const q = parseSyql(text);
    const at = (pos: Pos, snippet: string, from = 0) => {
      const offset = text.indexOf(snippet, from);
      const before = text.slice(0, offset);
      const line = before.split('\n').length;
      const column = offset - (before.lastIndexOf('\n') + 1) + 1;
      expect(pos).toEqual({ line, column, offset });
    };
    at(q.pos, 'MATCH');
    at(q.match.pos, '(a:');
    at(q.match.nodes[0].pos, '(a:');
    at(q.match.nodes[0].properties[0].pos, 'name');
    at((q.match.nodes[0].properties[0].value as Param).pos, '$n');
    at(q.match.rels[0].pos, '-[c');
    at(q.match.rels[0].types[0].pos, 'Chemical');
    at(q.match.rels[0].types[1].pos, 'Electrical');
    at(q.match.rels[0].hops!.pos, '*1..2');
    at(q.match.nodes[1].pos, '(b)');
    at(q.datasets[0].pos, '"x"');
    at(q.datasets[1].pos, "'y'");
    at(q.where!.pos, 'a.x');
    const comparison = q.where as Extract<Expr, { kind: 'comparison' }>;
    at(comparison.right.pos, '1\n');
    at(q.returns[0].pos, 'count');
    at(q.returns[0].expr.pos, 'count');
    at(q.orderBy[0].pos, 'n\nSKIP');
    at(q.skip!.pos, '5');
    at(q.limit!.pos, '$l');
  });

  it('reads keywords, booleans, null and function names in any case, and names as written', () => {
    const lower = parseSyql('match (Ab:Neuron) in "x" where not Ab.x is null and Ab.y = TRUE or Ab.z = False return distinct COUNT(*), Sum(Ab.x) order by Ab.x asc skip 1 limit 2');
    const upper = parseSyql('MATCH (Ab:Neuron) IN "x" WHERE NOT Ab.x IS NULL AND Ab.y = true OR Ab.z = false RETURN DISTINCT count(*), sum(Ab.x) ORDER BY Ab.x ASC SKIP 1 LIMIT 2');
    expect(strip(lower)).toEqual(strip(upper));
    expect(lower.match.nodes[0].variable).toBe('Ab');
    expect(strip(lower.returns[1].expr)).toEqual({ kind: 'aggregate', fn: 'sum', distinct: false, argument: prop('Ab', 'x') });
  });

  it('reads node patterns: anonymous, label only, inline properties with literals and parameters', () => {
    const q = parseSyql("MATCH ()-->(:Neuron)--(n {name: 'AVAL', class: $c, n: -2.5, ok: true, gone: null})<--(m:Morphology {}) IN 'x' RETURN n");
    expect(strip(q.match.nodes)).toEqual([
      { variable: null, label: null, properties: [] },
      { variable: null, label: 'Neuron', properties: [] },
      {
        variable: 'n',
        label: null,
        properties: [
          { key: 'name', value: lit('AVAL') },
          { key: 'class', value: param('c') },
          { key: 'n', value: lit(-2.5, false) },
          { key: 'ok', value: lit(true) },
          { key: 'gone', value: lit(null) },
        ],
      },
      { variable: 'm', label: 'Morphology', properties: [] },
    ]);
  });

  it('reads relationships in every direction, long and short, with several types', () => {
    const q = parseSyql('MATCH (a)-[r]->(b)<-[:Chemical|Electrical]-(c)-[s:Synapse|:Chemical]-(d)-->(e)<--(f)--(g)-[]->(h)<-[]-(i)-[]-(j) IN "x" RETURN a');
    expect(strip(q.match.rels)).toEqual([
      { variable: 'r', types: [], direction: 'right', hops: null },
      { variable: null, types: [{ name: 'Chemical' }, { name: 'Electrical' }], direction: 'left', hops: null },
      { variable: 's', types: [{ name: 'Synapse' }, { name: 'Chemical' }], direction: 'both', hops: null },
      { variable: null, types: [], direction: 'right', hops: null },
      { variable: null, types: [], direction: 'left', hops: null },
      { variable: null, types: [], direction: 'both', hops: null },
      { variable: null, types: [], direction: 'right', hops: null },
      { variable: null, types: [], direction: 'left', hops: null },
      { variable: null, types: [], direction: 'both', hops: null },
    ]);
    expect(q.match.nodes).toHaveLength(10);
    expect(parseSyql('MATCH (n:Neuron)-[:HAS_MORPHOLOGY]->(m) IN "x" RETURN m.file').match.rels[0].types[0].name).toBe('HAS_MORPHOLOGY');
  });

  it.each([
    ['*', 1, MAX_PATH_HOPS],
    ['*2', 2, 2],
    ['*1..3', 1, 3],
    ['* 1 .. 2', 1, 2],
    ['*..2', 1, 2],
    ['*2..', 2, MAX_PATH_HOPS],
    ['*3..3', 3, 3],
  ])('reads the hop range %s as %i..%i', (hops, min, max) => {
    const rel = parseSyql(`MATCH (a)-[p:Chemical${hops}]->(b) IN "x" RETURN p.hops`).match.rels[0];
    expect(rel.hops).toMatchObject({ min, max });
    expect(rel.variable).toBe('p');
  });

  it.each([
    ['*0..2', 13, 'a path has at least 1 hop, not 0'],
    ['*-1', 13, 'a path has at least 1 hop, not -1'],
    ['*4', 13, `a path has at most ${MAX_PATH_HOPS} hops, not 4`],
    ['*1..4', 16, `a path has at most ${MAX_PATH_HOPS} hops, not 4`],
    ['*..9', 15, `a path has at most ${MAX_PATH_HOPS} hops, not 9`],
    ['*3..2', 12, 'the hop range *3..2 is empty: its minimum is above its maximum'],
    ['*1.5', 13, 'a number of hops must be a whole number, not 1.5'],
    ['*1e0', 13, 'a number of hops must be a whole number, not 1e0'],
  ])('refuses the hop range %s at column %i', (hops, column, message) => {
    const e = errorOf(`MATCH (a)-[${hops}]->(b) IN 'x' RETURN a`);
    expect(e.message).toBe(`SyQL syntax error at line 1, column ${column}: ${message}`);
    expect({ line: e.line, column: e.column }).toEqual({ line: 1, column });
  });

  it('reads dataset references in both quote styles with every version selector', () => {
    const q = parseSyql(`MATCH (a) IN "a", 'b'@latest, "c"@DRAFT, "d"@v2, "e"@V12, "f"@3, "g\\"h" RETURN a`);
    expect(strip(q.datasets)).toEqual([
      { dataset: 'a', selector: { kind: 'latest' } },
      { dataset: 'b', selector: { kind: 'latest' } },
      { dataset: 'c', selector: { kind: 'draft' } },
      { dataset: 'd', selector: { kind: 'number', version: 2 } },
      { dataset: 'e', selector: { kind: 'number', version: 12 } },
      { dataset: 'f', selector: { kind: 'number', version: 3 } },
      { dataset: 'g"h', selector: { kind: 'latest' } },
    ]);
  });

  it('reads a version written inside the quotes, as the rest of the API spells a reference', () => {
    const q = parseSyql(`MATCH (a) IN "a@draft", 'b@v2', "c@3", "d@latest" RETURN a`);
    expect(strip(q.datasets)).toEqual([
      { dataset: 'a', selector: { kind: 'draft' } },
      { dataset: 'b', selector: { kind: 'number', version: 2 } },
      { dataset: 'c', selector: { kind: 'number', version: 3 } },
      { dataset: 'd', selector: { kind: 'latest' } },
    ]);
    expect(printQuery(q)).toContain('IN "a"@draft, "b"@v2, "c"@v3, "d"@latest');
    expect(errorOf('MATCH (a) IN "x@drfat" RETURN a').message).toContain("unknown dataset version '@drfat'");
  });

  it.each([
    ['"x"@lastest', 18, "unknown dataset version '@lastest': write @latest, @draft, or @vN for version N; did you mean latest?", 'latest'],
    ['"x"@drfat', 18, "unknown dataset version '@drfat': write @latest, @draft, or @vN for version N; did you mean draft?", 'draft'],
    ['"x"@v0', 18, 'version numbers start at 1, not 0', null],
    ['"x"@0', 18, 'version numbers start at 1, not 0', null],
    ['"x"@-2', 18, 'version numbers start at 1, not -2', null],
    ['"x"@1.5', 18, 'a version number must be a whole number, not 1.5', null],
    ['""', 14, 'the dataset name is empty: write its slug or id in quotes', null],
  ])('refuses the dataset reference %s', (ref, column, message, suggestion) => {
    const e = errorOf(`MATCH (a) IN ${ref} RETURN a`);
    expect(e.message).toBe(`SyQL syntax error at line 1, column ${column}: ${message}`);
    expect(e.suggestion).toBe(suggestion);
  });

  it('reads every comparison, string match, IN, WITHIN and IS NULL', () => {
    const ops = ['=', '<>', '<', '<=', '>', '>='] as const;
    for (const op of ops) expect(strip(where(`a.x ${op} 1`))).toEqual(cmp(op, prop('a', 'x'), int(1)));
    expect(strip(where('a.x != 1'))).toEqual(cmp('<>', prop('a', 'x'), int(1)));
    expect(strip(where('a.x<-1'))).toEqual(cmp('<', prop('a', 'x'), int(-1)));
    expect(strip(where('a.x>-1'))).toEqual(cmp('>', prop('a', 'x'), int(-1)));
    expect(strip(where("a.name STARTS WITH 'AV'"))).toMatchObject({ kind: 'string-match', op: 'starts-with' });
    expect(strip(where("a.name ends with 'L'"))).toMatchObject({ kind: 'string-match', op: 'ends-with', right: lit('L') });
    expect(strip(where('a.name CONTAINS $s'))).toMatchObject({ kind: 'string-match', op: 'contains', right: param('s') });
    expect(strip(where("a.name IN ['AVAL', $x, 3]"))).toEqual({
      kind: 'in',
      negated: false,
      left: prop('a', 'name'),
      right: { kind: 'list', items: [lit('AVAL'), param('x'), int(3)] },
    });
    expect(strip(where('a.name NOT IN $names'))).toEqual({ kind: 'in', negated: true, left: prop('a', 'name'), right: param('names') });
    expect(strip(where('a.name IN []'))).toMatchObject({ right: { kind: 'list', items: [] } });
    expect(strip(where("a.region WITHIN 'MBA:1080'"))).toEqual({ kind: 'within', left: prop('a', 'region'), region: lit('MBA:1080') });
    expect(strip(where('a.region WITHIN $r'))).toEqual({ kind: 'within', left: prop('a', 'region'), region: param('r') });
    expect(strip(where('a.x IS NULL'))).toEqual({ kind: 'is-null', negated: false, operand: prop('a', 'x') });
    expect(strip(where('a.x IS NOT NULL'))).toEqual({ kind: 'is-null', negated: true, operand: prop('a', 'x') });
    expect(strip(where('c.weight = b.x'))).toEqual(cmp('=', prop('c', 'weight'), prop('b', 'x')));
    expect(strip(where('$p = a'))).toEqual(cmp('=', param('p'), { kind: 'variable', name: 'a' }));
  });

  it('refuses WITHIN anything but a string or a parameter', () => {
    const e = errorOf('MATCH (a) IN "x" WHERE a.region WITHIN 1080 RETURN a');
    expect(e.column).toBe(40);
    expect(e.expected).toEqual(['a $parameter', 'a string']);
  });

  it('binds OR loosest, then AND, then NOT, then comparisons, all left to right', () => {
    const x = cmp('=', prop('a', 'x'), int(1));
    const y = cmp('=', prop('a', 'y'), int(2));
    const z = cmp('=', prop('a', 'z'), int(3));
    expect(strip(where('a.x = 1 OR a.y = 2 AND a.z = 3'))).toEqual(or(x, and(y, z)));
    expect(strip(where('a.x = 1 AND a.y = 2 OR a.z = 3'))).toEqual(or(and(x, y), z));
    expect(strip(where('(a.x = 1 OR a.y = 2) AND a.z = 3'))).toEqual(and(or(x, y), z));
    expect(strip(where('a.x = 1 AND a.y = 2 AND a.z = 3'))).toEqual(and(and(x, y), z));
    expect(strip(where('a.x = 1 AND (a.y = 2 AND a.z = 3)'))).toEqual(and(x, and(y, z)));
    expect(strip(where('a.x = 1 OR a.y = 2 OR a.z = 3'))).toEqual(or(or(x, y), z));
    expect(strip(where('NOT a.x = 1 AND a.y = 2'))).toEqual(and(not(x), y));
    expect(strip(where('NOT (a.x = 1 AND a.y = 2)'))).toEqual(not(and(x, y)));
    expect(strip(where('NOT NOT a.x = 1'))).toEqual(not(not(x)));
    expect(strip(where('NOT a.x IS NULL'))).toEqual(not({ kind: 'is-null', negated: false, operand: prop('a', 'x') }));
    expect(strip(where('a.x NOT IN [1] OR NOT a.y IN [2]'))).toEqual(
      or(
        { kind: 'in', negated: true, left: prop('a', 'x'), right: { kind: 'list', items: [int(1)] } },
        not({ kind: 'in', negated: false, left: prop('a', 'y'), right: { kind: 'list', items: [int(2)] } }),
      ),
    );
    expect(strip(where('(((a.x = 1)))'))).toEqual(x);
  });

  it('does not chain comparisons', () => {
    const e = errorOf('MATCH (a) IN "x" WHERE a.x = 1 = 2 RETURN a');
    expect(e.column).toBe(32);
    expect(e.expected).toEqual(['AND', 'OR', 'RETURN']);
  });

  it('reads literals: both quote styles with escapes, integers, decimals, exponents, negatives, booleans, null', () => {
    const values = (text: string) => (where(`a.x IN [${text}]`) as { right: { items: Literal[] } }).right.items.map((i) => [i.value, i.integer]);
    expect(values(`'it\\'s', "say \\"hi\\"", 'a\\\\b', 'tab\\tnew\\nline\\r', "it's", 'say "hi"', ''`)).toEqual([
      ["it's", undefined],
      ['say "hi"', undefined],
      ['a\\b', undefined],
      ['tab\tnew\nline\r', undefined],
      ["it's", undefined],
      ['say "hi"', undefined],
      ['', undefined],
    ]);
    expect(values('0, 42, -7, 3.25, -0.5, 1e3, 2.5E-2, -0, -0.0, 9007199254740991')).toEqual([
      [0, true],
      [42, true],
      [-7, true],
      [3.25, false],
      [-0.5, false],
      [1000, false],
      [0.025, false],
      [0, true],
      [0, false],
      [9007199254740991, true],
    ]);
    expect(values('true, FALSE, Null')).toEqual([
      [true, undefined],
      [false, undefined],
      [null, undefined],
    ]);
    expect(Object.is((where('a.x = -0') as { right: Literal }).right.value, 0)).toBe(true);
  });

  it('keeps non-ASCII text in strings and backquoted names', () => {
    expect(strip(where("a.name = 'Müller ✓ 🧠'"))).toEqual(cmp('=', prop('a', 'name'), lit('Müller ✓ 🧠')));
    expect(parseSyql('MATCH (`Zelle ä`) IN "x" RETURN `Zelle ä`').match.nodes[0].variable).toBe('Zelle ä');
  });

  it.each([
    ["'bad \\x escape'", 1, 35, "unknown escape '\\x' in a string; the escapes are \\' \\\" \\\\ \\n \\t \\r"],
    ['99999999999999999999', 1, 30, `the integer 99999999999999999999 is out of range (at most ${Number.MAX_SAFE_INTEGER} in size)`],
    ['1e999', 1, 30, 'the number 1e999 is out of range'],
  ])('refuses the literal %s with its position', (literal, line, column, message) => {
    const e = errorOf(`MATCH (a) IN "x" WHERE a.x = ${literal} RETURN a`);
    expect(e.message).toBe(`SyQL syntax error at line ${line}, column ${column}: ${message}`);
  });

  it('reads backquoted names, with a doubled backquote for a backquote, and keywords as keys, labels and types', () => {
    const q = parseSyql('MATCH (`odd name`:`Odd Label` {in: 1, `x y`: 2})-[`r``s`:Match|`the type`]->(`match`) IN "x" WHERE `odd name`.`a key` = 1 AND `match`.order = 2 RETURN `odd name`.where AS `as`');
    expect(q.match.nodes[0]).toMatchObject({ variable: 'odd name', label: 'Odd Label' });
    expect(q.match.nodes[0].properties.map((p) => p.key)).toEqual(['in', 'x y']);
    expect(q.match.rels[0]).toMatchObject({ variable: 'r`s', types: [{ name: 'Match' }, { name: 'the type' }] });
    expect(q.match.nodes[1].variable).toBe('match');
    expect(strip(q.where)).toEqual(and(cmp('=', prop('odd name', 'a key'), int(1)), cmp('=', prop('match', 'order'), int(2))));
    expect(q.returns[0]).toMatchObject({ expr: { kind: 'property', variable: 'odd name', key: 'where' }, alias: 'as' });
  });

  it('refuses a keyword as a variable unless backquoted, and an empty backquoted name', () => {
    const e = errorOf('MATCH (match) IN "x" RETURN a');
    expect({ line: e.line, column: e.column }).toEqual({ line: 1, column: 8 });
    expect(errorOf('MATCH (``) IN "x" RETURN a').message).toBe('SyQL syntax error at line 1, column 8: a backquoted name cannot be empty');
  });

  it('reads RETURN DISTINCT, aliases, ORDER BY with directions, SKIP and LIMIT as numbers or parameters, and a final semicolon', () => {
    const q = parseSyql('MATCH (a) IN "x" RETURN DISTINCT a.name AS n, a.class ORDER BY n DESC, a.class ASC, a.x SKIP $s LIMIT 0;');
    expect(q.distinct).toBe(true);
    expect(strip(q.returns)).toEqual([
      { expr: prop('a', 'name'), alias: 'n' },
      { expr: prop('a', 'class'), alias: null },
    ]);
    expect(strip(q.orderBy)).toEqual([
      { expr: { kind: 'variable', name: 'n' }, descending: true },
      { expr: prop('a', 'class'), descending: false },
      { expr: prop('a', 'x'), descending: false },
    ]);
    expect(strip(q.skip)).toEqual(param('s'));
    expect(strip(q.limit)).toEqual({ kind: 'int', value: 0 });
    expect(parseSyql('MATCH (a) IN "x" RETURN a SKIP 10').limit).toBeNull();
  });

  it.each([
    ['LIMIT -1', 35, 'LIMIT takes a whole number of rows (0 or more) or a $parameter, not -1'],
    ['LIMIT 2.5', 35, 'LIMIT takes a whole number of rows (0 or more) or a $parameter, not 2.5'],
    ['SKIP 1e2', 34, 'SKIP takes a whole number of rows (0 or more) or a $parameter, not 1e2'],
  ])('refuses %s', (clause, column, message) => {
    expect(errorOf(`MATCH (a) IN "x" RETURN a.x ${clause}`).message).toBe(`SyQL syntax error at line 1, column ${column}: ${message}`);
  });

  it('reads the five aggregates, count(*) and DISTINCT arguments, whatever the case of the name', () => {
    expect(strip(returned('count(*)'))).toEqual({ kind: 'aggregate', fn: 'count', distinct: false, argument: null });
    expect(strip(returned('COUNT(DISTINCT a.name)'))).toEqual({ kind: 'aggregate', fn: 'count', distinct: true, argument: prop('a', 'name') });
    for (const fn of ['sum', 'avg', 'min', 'max']) {
      expect(strip(returned(`${fn.toUpperCase()}(a.x)`))).toEqual({ kind: 'aggregate', fn, distinct: false, argument: prop('a', 'x') });
    }
    expect(strip(returned('count'))).toEqual({ kind: 'variable', name: 'count' });
    expect(strip(where('count(*) > 2'))).toEqual(cmp('>', { kind: 'aggregate', fn: 'count', distinct: false, argument: null }, int(2)));
  });

  it('refuses * in any aggregate but count', () => {
    expect(errorOf('MATCH (a) IN "x" RETURN sum(*)').message).toBe('SyQL syntax error at line 1, column 29: only count takes *; write sum(expression)');
  });

  it.each([
    ["file('/etc/passwd')", null],
    ['url(...)', null],
    ['exists(a.x)', null],
    ['cuont(*)', 'count'],
    ['AVG_(a.x)', 'avg'],
    ['summ(a.x)', 'sum'],
  ])('refuses the function call %s, naming the allowed functions', (call, suggestion) => {
    const e = errorOf(`MATCH (a:Neuron) IN "x"\nRETURN a.name, ${call}`);
    const name = call.slice(0, call.indexOf('('));
    expect(e.message).toBe(
      `SyQL syntax error at line 2, column 16: unknown function '${name}': the only functions are the aggregates count, sum, avg, min, max${suggestion ? `; did you mean ${suggestion}?` : ''}`,
    );
    expect(e.expected).toEqual(['count', 'sum', 'avg', 'min', 'max']);
    expect(e.suggestion).toBe(suggestion);
  });

  it('skips line and block comments, keeping positions right', () => {
    const q = parseSyql('// first line\nMATCH /* a\ncomment */ (a) // end\nIN "x" RETURN a /* trailing */');
    expect(q.pos).toEqual({ line: 2, column: 1, offset: 14 });
    expect(q.match.pos).toMatchObject({ line: 3, column: 12 });
  });

  it('counts \\r\\n and \\r as line breaks', () => {
    expect(errorOf('MATCH (a)\r\nIN "x"\r\nRETRUN a')).toMatchObject({ line: 3, column: 1 });
    expect(errorOf('MATCH (a)\rIN "x"\rRETRUN a')).toMatchObject({ line: 3, column: 1 });
  });

  it('accepts nesting of parentheses up to the limit and refuses one more', () => {
    const nested = (n: number) => `MATCH (a) IN "x" WHERE ${'('.repeat(n)}a.x = 1${')'.repeat(n)} RETURN a`;
    expect(strip(parseSyql(nested(MAX_PAREN_DEPTH)).where)).toEqual(cmp('=', prop('a', 'x'), int(1)));
    const e = errorOf(nested(MAX_PAREN_DEPTH + 1));
    expect(e.message).toBe(`SyQL syntax error at line 1, column ${24 + MAX_PAREN_DEPTH}: parentheses are nested more than ${MAX_PAREN_DEPTH} deep`);
    const calls = (n: number) => `MATCH (a) IN "x" RETURN ${'count('.repeat(n)}a${')'.repeat(n)}`;
    expect(() => parseSyql(calls(MAX_PAREN_DEPTH))).not.toThrow();
    expect(errorOf(calls(MAX_PAREN_DEPTH + 1)).message).toMatch(/parentheses are nested more than 64 deep/);
  });

  it('refuses expression trees deeper than the limit, however they are written', () => {
    const chain = (n: number) => `MATCH (a) IN "x" WHERE ${Array.from({ length: n }, (_, i) => `a.x = ${i}`).join(' AND ')} RETURN a`;
    expect(() => parseSyql(chain(MAX_EXPR_DEPTH - 1))).not.toThrow();
    expect(errorOf(chain(MAX_EXPR_DEPTH + 1)).message).toMatch(/the expression is nested more than 256 levels deep/);
    const nots = errorOf(`MATCH (a) IN "x" WHERE ${'NOT '.repeat(20_000)}a.x RETURN a`);
    expect(nots.message).toMatch(/nested more than 256 levels deep/);
    expect(nots.column).toBe(24 + 4 * MAX_EXPR_DEPTH);
  });

  it(`refuses a query over ${MAX_QUERY_LENGTH} characters`, () => {
    const text = `MATCH (a) IN "x" RETURN a ${' '.repeat(MAX_QUERY_LENGTH)}`;
    expect(errorOf(text).message).toBe(`SyQL syntax error at line 1, column 1: the query is ${text.length} characters long; at most 100,000 are accepted`);
    const longest = `MATCH (a) IN "x" WHERE a.name IN [${Array.from({ length: 12_000 }, (_, i) => `'${i}'`).join(',')}] RETURN a`;
    expect(longest.length).toBeLessThanOrEqual(MAX_QUERY_LENGTH);
    expect((parseSyql(longest).where as { right: { items: unknown[] } }).right.items).toHaveLength(12_000);
  });
});

describe('SyQL syntax errors', () => {
  it('are SyqlError, a BadInput with the position, the expected tokens and a suggestion in extensions.syql', () => {
    const e = errorOf('MATCH (a:Neuron)\nIN "celegans_cook_2019_male"@latest\nRETRUN a.name');
    expect(e).toBeInstanceOf(BadInput);
    expect(e.name).toBe('SyqlError');
    expect(e.message).toBe("SyQL syntax error at line 3, column 1: expected one of RETURN, WHERE, ',', but found 'RETRUN'; did you mean RETURN?");
    expect(e.extensions).toEqual({
      code: 'BAD_USER_INPUT',
      syql: { line: 3, column: 1, expected: ['RETURN', 'WHERE', "','"], suggestion: 'RETURN' },
    });
    expect(e.status).toBe(400);
  });

  it.each([
    ['MACTH (a) IN "x" RETURN a', 1, 1, 'MATCH'],
    ['MATCH (a) IN "x"\nWHER a.x = 1 RETURN a', 2, 1, 'WHERE'],
    ['MATCH (a) IN "x" WHERE a.x = 1\n  RETRUN a', 2, 3, 'RETURN'],
    ['MATCH (a) IN "x" RETURN a\nODER BY a.x', 2, 1, 'ORDER'],
    ['MATCH (a) IN "x" RETURN a ORDER BY a.x LIMT 5', 1, 40, 'LIMIT'],
    ['MATCH (a) IN "x" RETURN a SKPI 5', 1, 27, 'SKIP'],
    ['MATCH (a) IN "x" WHERE a.x = 1 ANND a.y = 2 RETURN a', 1, 32, 'AND'],
    // The misspelled word reads as a variable: the error is at the next one.
    ['MATCH (a) IN "x" RETURN DISTNCT a', 1, 33, null],
    ['MATCH (a) IN "x" RETURN a.name ASS n', 1, 32, 'AS'],
    ['MATCH (a) IN "x" RETURN a ORDER BY a.x DSEC', 1, 40, 'DESC'],
    ['MATCH (a) IN "x" WHERE a.name START WITH "A" RETURN a', 1, 31, 'STARTS'],
    ['MATCH (a) IN "x" WHERE a.name CONTIANS "A" RETURN a', 1, 31, 'CONTAINS'],
    ['MATCH (a) IN "x" WHERE a.region WITHN "A" RETURN a', 1, 33, 'WITHIN'],
  ])('%j is refused at line %i, column %i with the suggestion %s', (text, line, column, suggestion) => {
    const e = errorOf(text);
    expect({ line: e.line, column: e.column, suggestion: e.suggestion }).toEqual({ line, column, suggestion });
    if (suggestion) expect(e.message.endsWith(`; did you mean ${suggestion}?`)).toBe(true);
  });

  it('names what could come next, and the end of the query when it could end there', () => {
    const e = errorOf('MATCH (a) IN "x" RETURN a LIMT 10');
    expect(e.expected).toEqual(expect.arrayContaining(['AND', 'AS', 'LIMIT', 'ORDER', 'SKIP', "','", "';'", 'a comparison operator', 'the end of the query']));
    expect(e.expected.at(-1)).toBe('the end of the query');
    expect(errorOf('MATCH (a) IN "x" RETURN a;;').expected).toEqual(['the end of the query']);
    expect(errorOf('MATCH (a) IN "x" WHERE').message).toBe(
      'SyQL syntax error at line 1, column 23: expected one of FALSE, NOT, NULL, TRUE, \'(\', \'[\', a $parameter, a name, a number, a string, but found the end of the query',
    );
    expect(errorOf('').message).toBe('SyQL syntax error at line 1, column 1: expected MATCH, but found the end of the query');
    expect(errorOf('   \n  // nothing').message).toBe('SyQL syntax error at line 1, column 1: expected MATCH, but found the end of the query');
    expect(errorOf('MATCH (a)-[r:]->(b) IN "x" RETURN a')).toMatchObject({ column: 14, expected: ['a name'] });
    expect(errorOf('MATCH (a)-[r]-(b) RETURN a')).toMatchObject({ column: 19, expected: ['IN', "'-'", "'<'"] });
    expect(errorOf('MATCH (a)<-[r]->(b) IN "x" RETURN a')).toMatchObject({ column: 16, expected: ["'('"] });
    expect(errorOf('MATCH (a) IN "x" RETURN a.').message).toBe('SyQL syntax error at line 1, column 27: expected a name, but found the end of the query');
  });

  it('report the end of the query just after its last token', () => {
    expect(errorOf('MATCH (a:Neuron)\nIN "x"  \n  ')).toMatchObject({ line: 2, column: 7 });
  });

  it.each([
    // A quote doubled in SQL style ends the string: what follows is read as another string.
    [`MATCH (a:Neuron) IN "x" WHERE a.name = 'x'' OR 1=1 --' RETURN a`, 1, 43, "but found the string ' OR 1=1 --' (to put a quote inside a string, escape it: \\' or \\\")"],
    [`MATCH (a:Neuron) IN "x" RETURN file('/etc/passwd')`, 1, 32, "unknown function 'file'"],
    [`MATCH (a:Neuron) IN "x"; DROP TABLE neurons`, 1, 24, "expected one of RETURN, WHERE, ',', '@', but found ';'"],
    [`MATCH (a:Neuron) IN "x" RETURN a; DROP TABLE neurons`, 1, 35, "expected the end of the query, but found 'DROP'"],
    [`MATCH (a:Neuron) IN system.tables RETURN a`, 1, 21, `expected a dataset in quotes ("slug"@latest), but found 'system'`],
    [`MATCH (a:Neuron) IN "x", system.tables RETURN a`, 1, 26, `expected a dataset in quotes ("slug"@latest), but found 'system'`],
    [`MATCH (a:Neuron) IN "x" RETURN a -- comment`, 1, 34, "but found '-' (comments start with // or /*, not --)"],
    [`MATCH (a:Neuron) IN "x" WHERE a.name = "x" UNION SELECT * FROM system.users RETURN a`, 1, 44, "but found 'UNION'"],
    [`MATCH (a:Neuron) IN "x" RETURN a UNION MATCH (b) IN "y" RETURN b`, 1, 34, "but found 'UNION'"],
    [`MATCH (a:Neuron) IN "x" WITH a RETURN a`, 1, 25, "but found 'WITH'"],
    [`MATCH (a:Neuron) IN "x" LIMIT 5 RETURN a`, 1, 25, "but found 'LIMIT' (the clauses come in this order: MATCH, IN, WHERE, RETURN, ORDER BY, SKIP, LIMIT; each at most once)"],
    [`MATCH (a:Neuron) IN "x" RETURN a MATCH (b) IN "y" RETURN b`, 1, 34, "but found 'MATCH' (the clauses come in this order"],
    [`MATCH (a:Neuron) IN "x" CREATE (b:Neuron) RETURN a`, 1, 25, "but found 'CREATE'"],
    [`MATCH (a:Neuron) IN "x" DETACH DELETE a`, 1, 25, "but found 'DETACH'"],
    [`MATCH (a:Neuron) IN "x" SET a.name = 'y' RETURN a`, 1, 25, "but found 'SET'"],
    [`MATCH (a:Neuron) IN "x" RETURN a.name + '1'`, 1, 39, "unexpected character '+'"],
    [`MATCH (a:Neuron) IN "x" RETURN a.name\u0000`, 1, 38, 'unexpected character U+0000'],
    [`MATCH (a:Neuron) IN "x" RETURN $`, 1, 32, "a parameter is '$' followed by a name, e.g. $names"],
    [`MATCH (a:Neuron) IN "x" RETURN a.\`name`, 1, 34, 'unterminated name: ` has no closing ` on its line'],
    [`MATCH (a:Neuron) IN "x" RETURN a /* never closed`, 1, 34, 'unterminated comment: /* has no closing */'],
    [`MATCH (a:Neuron)\nIN "x"\nWHERE a.name = 'AVAL\nRETURN a`, 3, 16, "unterminated string: ' has no closing ' on its line"],
    [`MATCH (a:Neuron) IN "x\\" RETURN a`, 1, 21, 'unterminated string: " has no closing " on its line'],
  ])('%j is refused at line %i, column %i', (text, line, column, fragment) => {
    const e = errorOf(text);
    expect({ line: e.line, column: e.column }).toEqual({ line, column });
    expect(e.message).toContain(`SyQL syntax error at line ${line}, column ${column}: `);
    expect(e.message).toContain(fragment);
  });

  it('treat a comment between tokens as a space: an OR 1=1 is just a condition on literals', () => {
    expect(strip(where("a.name = 'x'/**/OR/**/1=1"))).toEqual(or(cmp('=', prop('a', 'name'), lit('x')), cmp('=', int(1), int(1))));
  });

  it('report the earliest of several lexical problems', () => {
    expect(errorOf('MATCH (a) IN "x" RETURN # \'open').column).toBe(25);
    expect(errorOf('MATCH (a) IN "x" RETURN \'open # ').column).toBe(25);
  });

  it('never let anything but a SyqlError escape, whatever the text', () => {
    const seeds = [
      `MATCH (a:Neuron {name: 'AVAL'})-[c:Chemical|Electrical*1..2]->(b) IN "x"@v2, 'y'@draft WHERE a.x >= -1.5e3 AND NOT b.region WITHIN $r OR c.hops IN [1, 2] RETURN DISTINCT a.name AS n, count(DISTINCT b.id) ORDER BY n DESC SKIP 1 LIMIT $l;`,
      '// c\nMATCH (`a b`)<--(c)--(d)-->(e) IN "\\"q\\"" WHERE (a.x IS NOT NULL) RETURN sum(a.x) /* end */',
    ];
    const alphabet = ['(', ')', '[', ']', '{', '}', '-', '>', '<', '*', '.', ',', ':', '"', "'", '`', '\\', '$', '@', '/', ' ', '\n', '1', 'a', 'NOT ', 'IN ', 'RETURN ', '|', ';', '='];
    let seed = 12345;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    let errors = 0;
    for (let i = 0; i < 3000; i++) {
      let text = seeds[i % seeds.length];
      for (let edits = 1 + random(4); edits > 0; edits--) {
        const at = random(text.length + 1);
        const op = random(3);
        if (op === 0) text = text.slice(0, at) + text.slice(at + 1 + random(3));
        else if (op === 1) text = text.slice(0, at) + alphabet[random(alphabet.length)] + text.slice(at);
        else text = text.slice(0, at) + alphabet[random(alphabet.length)] + text.slice(at + 1);
      }
      try {
        const q = parseSyql(text);
        expect(strip(parseSyql(printQuery(q)))).toEqual(strip(q));
      } catch (e) {
        if (!(e instanceof SyqlError)) throw new Error(`${String(e)} escaped for: ${text}`);
        expect(e.line).toBeGreaterThanOrEqual(1);
        expect(e.column).toBeGreaterThanOrEqual(1);
        expect(e.message).toMatch(/^SyQL syntax error at line \d+, column \d+: /);
        errors++;
      }
    }
    expect(errors).toBeGreaterThan(1000);
  });

  it('refuse a value that is not a string', () => {
    expect(() => parseSyql(42 as unknown as string)).toThrow(SyqlError);
  });
});

describe('syqlError', () => {
  it('formats the position, picks the closest candidate as the suggestion and lists the candidates as expected', () => {
    const pos: Pos = { line: 2, column: 7, offset: 30 };
    const e = syqlError(pos, "unknown property 'nmae' of Neuron", { candidates: ['id', 'name', 'class', 'type'] });
    expect(e).toBeInstanceOf(SyqlError);
    expect(e.message).toBe("SyQL error at line 2, column 7: unknown property 'nmae' of Neuron; did you mean name?");
    expect(e.extensions.syql).toEqual({ line: 2, column: 7, expected: ['id', 'name', 'class', 'type'], suggestion: 'name' });
  });

  it('suggests nothing when every candidate is far from the word, or without candidates', () => {
    expect(syqlError({ line: 1, column: 1, offset: 0 }, "unknown label 'Synapse'", { candidates: ['Neuron', 'Morphology'] }).suggestion).toBeNull();
    const plain = syqlError({ line: 1, column: 3, offset: 2 }, 'a message', { expected: ['x'] });
    expect(plain.message).toBe('SyQL error at line 1, column 3: a message');
    expect(plain.extensions.syql).toEqual({ line: 1, column: 3, expected: ['x'], suggestion: null });
  });

  it('compares with the word given as found, case-insensitively, and keeps the candidate as spelled', () => {
    const e = syqlError({ line: 1, column: 1, offset: 0 }, 'unknown label', { candidates: ['Neuron', 'Morphology'], found: 'NEURNO' });
    expect(e.suggestion).toBe('Neuron');
  });

  it('allows 1 edit in short words, 2 in words up to 8 characters, 3 beyond', () => {
    expect(closestCandidate('nam', ['name'])).toBe('name');
    expect(closestCandidate('xx', ['x'])).toBeNull();
    expect(closestCandidate('nmea', ['name'])).toBeNull();
    expect(closestCandidate('nmae', ['name'])).toBe('name');
    expect(closestCandidate('SKPI', ['SKIP', 'LIMIT'])).toBe('SKIP');
    expect(closestCandidate('weihgt', ['weight'])).toBe('weight');
    expect(closestCandidate('n_bifrcatins', ['n_bifurcations'])).toBe('n_bifurcations');
    expect(closestCandidate('name', ['name'])).toBeNull();
  });
});

describe('printQuery', () => {
  it('prints the canonical form: upper-case keywords, one clause per line, single-quoted strings', () => {
    const q = parseSyql(`match (a:Neuron {name:"AVAL"})-[c:Chemical*]->(b:Neuron)<--(m)   in "celegans_cook_2019_male", 'other'@V2, "d"@draft
where a.name starts with "AVA" and c.hops >= 1 or not (b.x is null) and b.name != 'it\\'s'
return distinct a.name as pre, COUNT(distinct b.name), Sum(b.x) order by pre desc, 2 skip 3 limit $n;`);
    expect(printQuery(q)).toBe(`MATCH (a:Neuron {name: 'AVAL'})-[c:Chemical*1..3]->(b:Neuron)<--(m)
IN "celegans_cook_2019_male"@latest, "other"@v2, "d"@draft
WHERE a.name STARTS WITH 'AVA' AND c.hops >= 1 OR NOT b.x IS NULL AND b.name <> 'it\\'s'
RETURN DISTINCT a.name AS pre, count(DISTINCT b.name), sum(b.x)
ORDER BY pre DESC, 2
SKIP 3
LIMIT $n`);
  });

  it('keeps only the parentheses the tree needs', () => {
    const printed = (expr: string) => printQuery(parseSyql(`MATCH (a) IN "x" WHERE ${expr} RETURN a`)).split('\n')[2].slice('WHERE '.length);
    expect(printed('(a.x = 1 OR a.y = 2) AND a.z = 3')).toBe('(a.x = 1 OR a.y = 2) AND a.z = 3');
    expect(printed('((a.x = 1 AND a.y = 2)) AND (a.z = 3)')).toBe('a.x = 1 AND a.y = 2 AND a.z = 3');
    expect(printed('a.x = 1 AND (a.y = 2 AND a.z = 3)')).toBe('a.x = 1 AND (a.y = 2 AND a.z = 3)');
    expect(printed('a.x = 1 OR (a.y = 2 AND a.z = 3)')).toBe('a.x = 1 OR a.y = 2 AND a.z = 3');
    expect(printed('NOT (a.x = 1)')).toBe('NOT a.x = 1');
    expect(printed('NOT (a.x = 1 OR a.y = 2)')).toBe('NOT (a.x = 1 OR a.y = 2)');
    expect(printed('(NOT a.x) = true')).toBe('(NOT a.x) = true');
    expect(printed('(a.x = 1) = (a.y IS NULL)')).toBe('(a.x = 1) = (a.y IS NULL)');
    expect(printed('(a.x IN [1]) IS NOT NULL')).toBe('(a.x IN [1]) IS NOT NULL');
    expect(printed('count((a.x OR a.y)) > 1')).toBe('count(a.x OR a.y) > 1');
  });

  it('escapes strings and backquotes names that need it', () => {
    const q = parseSyql("MATCH (`odd name`:`Odd Label` {`k k`: 'a\\tb\\nc\\\\d\\'e\"f'})-[`match`]->(b) IN \"we\\\"ird\" RETURN `odd name`.`x``y` AS `order`, b.in");
    expect(printQuery(q)).toBe(
      "MATCH (`odd name`:`Odd Label` {`k k`: 'a\\tb\\nc\\\\d\\'e\"f'})-[`match`]->(b)\nIN \"we\\\"ird\"@latest\nRETURN `odd name`.`x``y` AS `order`, b.in",
    );
  });

  it('prints decimals so that they read back as decimals', () => {
    const q = parseSyql('MATCH (a) IN "x" WHERE a.x IN [1.0, 2.50, 1e3, 1.5e-7, -0.0, 1e21, 7] RETURN a');
    expect(printQuery(q).split('\n')[2]).toBe('WHERE a.x IN [1.0, 2.5, 1000.0, 1.5e-7, 0.0, 1e+21, 7]');
  });

  const corpus = [
    `MATCH (a:Neuron)-[c:Chemical]->(b:Neuron) IN "celegans_cook_2019_male"@latest WHERE a.name STARTS WITH 'AVA' AND c.weight >= 5 RETURN a.name AS pre, b.name AS post, c.weight ORDER BY c.weight DESC LIMIT 100`,
    'MATCH (a) IN "x" RETURN a',
    'MATCH () IN "x" RETURN count(*)',
    'MATCH (:Neuron)-->(b) IN "x"@3 RETURN b.name',
    'MATCH (a)<-[:Electrical]-(b) IN "x" WHERE a.name < b.name RETURN a.name, b.name',
    'MATCH (a)-[p:Chemical*..2]->(b) IN "x" WHERE a.name = $from RETURN b.name, p.hops ORDER BY p.hops, b.name',
    'MATCH (a)-[p*2..]-(b) IN "x" RETURN DISTINCT b.class',
    'MATCH (n:Neuron)-[:HAS_MORPHOLOGY]->(m:Morphology) IN "x", "y"@v1 WHERE m.total_length > 1.5e3 RETURN n.name, m.file, m.n_tips',
    "MATCH (n {class: 'AVA', is_neuron: true, x: null}) IN 'x' WHERE n.region WITHIN 'MBA:1080' OR n.region WITHIN $r RETURN n",
    "MATCH (n) IN 'x' WHERE NOT n.name IN ['a', \"b\", $c] AND n.type NOT IN $types RETURN n.type, count(n) AS k ORDER BY k DESC SKIP $s LIMIT 10",
    'MATCH (n) IN "x" WHERE NOT NOT (n.x IS NULL OR n.y IS NOT NULL) AND (n.z > -1 OR n.z < -2.5) RETURN avg(n.x), min(n.y), max(DISTINCT n.z), sum(n.x)',
    'MATCH (n) IN "x" WHERE n.name ENDS WITH "L" AND n.name CONTAINS \'V\' RETURN n.name AS `the name` ORDER BY `the name`',
    'MATCH (a)-[r:Chemical|Electrical|Synapse]-(b)<-[s]-(c)-[t*3]->(d) IN "x" WHERE r.weight <> s.weight AND s.weight != 0 RETURN a, b, c, d',
    "MATCH (a) IN 'it\\'s' WHERE a.name = 'tab\\there\\nnewline\\\\' RETURN a",
    'MATCH (a) IN "x" WHERE ((a.x = 1 OR a.x = 2) AND (a.y = 3 OR a.y = 4)) OR NOT (a.z = 5 AND a.w = 6) RETURN a',
    'MATCH (a) IN "x" WHERE count(*) > 1 AND $p RETURN a.class, count(*) ORDER BY count(*) DESC',
    'MATCH (`odd name`:`odd label`)-[`r r`:`t t`]->(`match`) IN "x" RETURN `odd name`.`some key`, `match`.where AS `as`',
    'MATCH (a) IN "x" WHERE [1, 2] = [$a, -3] OR a.x = true RETURN a',
    'MATCH (a) IN "x" RETURN count(*) SKIP 0 LIMIT 0;',
  ];

  it.each(corpus)('reads back what it prints: %s', (text) => {
    const q = parseSyql(text);
    const printed = printQuery(q);
    expect(strip(parseSyql(printed))).toEqual(strip(q));
    expect(printQuery(parseSyql(printed))).toBe(printed);
  });

  it('reads back what it prints for random trees', () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const pick = <T>(items: readonly T[]): T => items[random(items.length)];
    const pos: Pos = { line: 1, column: 1, offset: 0 };
    const names = ['a', 'b_2', 'Neuron', 'match', 'odd name', 'tick`name', 'count', 'ÿ', '_'];
    const strings = ['', 'AVAL', "it's", 'say "hi"', 'back\\slash', 'tab\there', 'new\nline', 'cr\rhere', '🧠 ü', '--', '/* x */', "' OR 1=1 --"];
    const numbers: [number, boolean][] = [
      [0, true],
      [5, true],
      [-12, true],
      [9007199254740991, true],
      [1.5, false],
      [-0.25, false],
      [1000, false],
      [1e-7, false],
      [1e21, false],
      [3, false],
    ];
    const literal = (): Literal => {
      const k = random(4);
      if (k === 0) return { kind: 'literal', pos, value: pick(strings) };
      if (k === 1) {
        const [value, integer] = pick(numbers);
        return { kind: 'literal', pos, value, integer };
      }
      return { kind: 'literal', pos, value: pick([true, false, null]) };
    };
    const scalar = (): Literal | Param => (random(4) === 0 ? { kind: 'param', pos, name: pick(['p', 'names', 'x_1']) } : literal());
    const expr = (depth: number): Expr => {
      const k = depth > 4 ? random(5) : random(14);
      switch (k) {
        case 0:
          return literal();
        case 1:
          return { kind: 'param', pos, name: 'p' };
        case 2:
          return { kind: 'variable', pos, name: pick(names) };
        case 3:
          return { kind: 'property', pos, variable: pick(names), key: pick([...names, 'in', 'where']) };
        case 4:
          return { kind: 'list', pos, items: Array.from({ length: random(3) }, scalar) };
        case 5:
          return { kind: 'comparison', pos, op: pick(['=', '<>', '<', '<=', '>', '>='] as const), left: expr(depth + 1), right: expr(depth + 1) };
        case 6:
          return { kind: 'string-match', pos, op: pick(['starts-with', 'ends-with', 'contains'] as const), left: expr(depth + 1), right: expr(depth + 1) };
        case 7:
          return {
            kind: 'in',
            pos,
            negated: random(2) === 0,
            left: expr(depth + 1),
            right: random(2) ? { kind: 'list', pos, items: [scalar()] } : { kind: 'param', pos, name: 'xs' },
          };
        case 8:
          return { kind: 'within', pos, left: expr(depth + 1), region: random(2) ? { kind: 'literal', pos, value: pick(strings) } : { kind: 'param', pos, name: 'r' } };
        case 9:
          return { kind: 'is-null', pos, negated: random(2) === 0, operand: expr(depth + 1) };
        case 10:
        case 11:
          return { kind: 'logical', pos, op: pick(['and', 'or'] as const), left: expr(depth + 1), right: expr(depth + 1) };
        case 12:
          return { kind: 'not', pos, operand: expr(depth + 1) };
        default: {
          const fn = pick(['count', 'sum', 'avg', 'min', 'max'] as const);
          const star = fn === 'count' && random(2) === 0;
          return { kind: 'aggregate', pos, fn, distinct: !star && random(2) === 0, argument: star ? null : expr(depth + 1) };
        }
      }
    };
    for (let i = 0; i < 400; i++) {
      const nodeCount = 1 + random(4);
      const q: Query = {
        kind: 'query',
        pos,
        match: {
          pos,
          nodes: Array.from({ length: nodeCount }, () => ({
            pos,
            variable: random(3) ? pick(names) : null,
            label: random(2) ? pick(['Neuron', 'Morphology', 'odd label', 'Match']) : null,
            properties: Array.from({ length: random(3) }, () => ({ key: pick([...names, 'in']), pos, value: scalar() })),
          })),
          rels: Array.from({ length: nodeCount - 1 }, () => {
            const min = 1 + random(MAX_PATH_HOPS);
            return {
              pos,
              variable: random(2) ? pick(names) : null,
              types: Array.from({ length: random(3) }, () => ({ name: pick(['Chemical', 'Electrical', 'Synapse', 'HAS_MORPHOLOGY', 'odd type']), pos })),
              direction: pick(['left', 'right', 'both'] as const),
              hops: random(2) ? { min, max: min + random(MAX_PATH_HOPS - min + 1), pos } : null,
            };
          }),
        },
        datasets: Array.from({ length: 1 + random(3) }, () => ({
          pos,
          dataset: pick(['celegans_cook_2019_male', 'we"ird', "it's", 'a\\b']),
          selector: pick([{ kind: 'latest' }, { kind: 'draft' }, { kind: 'number', version: 1 + random(20) }] as const),
        })),
        where: random(4) ? expr(0) : null,
        distinct: random(2) === 0,
        returns: Array.from({ length: 1 + random(3) }, () => ({ pos, expr: expr(0), alias: random(2) ? pick(names) : null })),
        orderBy: Array.from({ length: random(3) }, () => ({ pos, expr: expr(0), descending: random(2) === 0 })),
        skip: random(2) ? { kind: 'int', pos, value: random(1000) } : random(2) ? { kind: 'param', pos, name: 's' } : null,
        limit: random(2) ? { kind: 'int', pos, value: random(1000) } : null,
      };
      const printed = printQuery(q);
      let reparsed: Query;
      try {
        reparsed = parseSyql(printed);
      } catch (e) {
        throw new Error(`${(e as Error).message}\nwhile reading back:\n${printed}`);
      }
      expect(strip(reparsed), printed).toEqual(strip(q));
    }
  });
});
