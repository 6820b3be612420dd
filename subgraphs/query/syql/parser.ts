import {
  EmbeddedActionsParser,
  EOF,
  tokenMatcher,
  type IParserErrorMessageProvider,
  type IRecognitionException,
  type IToken,
  type TokenType,
} from 'chevrotain';
import {
  MAX_PATH_HOPS,
  type Aggregate,
  type AggregateFn,
  type ComparisonOp,
  type DatasetRef,
  type Expr,
  type IntValue,
  type ListExpr,
  type Literal,
  type NodePattern,
  type OrderItem,
  type Param,
  type Pattern,
  type Pos,
  type Query,
  type RelPattern,
  type ReturnItem,
} from './ast.js';
import * as T from './lexer.js';
import { closestCandidate, makeSyqlError, SyqlError } from './syntax-error.js';

/** Longest query text accepted, in characters. */
export const MAX_QUERY_LENGTH = 100_000;
/** Deepest nesting of parentheses (groups and aggregate calls) in an expression. */
export const MAX_PAREN_DEPTH = 64;
/** Deepest expression tree (a chain of n ANDs is n deep), so that every walk over the tree stays shallow. */
export const MAX_EXPR_DEPTH = 256;
/** The only functions: aggregates. */
export const AGGREGATE_FUNCTIONS: readonly AggregateFn[] = ['count', 'sum', 'avg', 'min', 'max'];

const SYNTAX = 'SyQL syntax error';
const END = 'the end of the query';
// Content assist replays the grammar over the tokens before the error; past this many it falls back to the
// parser's own (narrower) list of what it expected.
const MAX_ASSIST_TOKENS = 1_000;

function posOf(token: IToken): Pos {
  return { line: token.startLine ?? 1, column: token.startColumn ?? 1, offset: token.startOffset };
}

function syntaxError(pos: Pick<Pos, 'line' | 'column'>, message: string, opts?: Parameters<typeof makeSyqlError>[3]): SyqlError {
  return makeSyqlError(SYNTAX, pos, message, opts);
}

/** The name a token spells: backquoted names lose their quotes (a doubled backquote is one backquote). */
function nameOf(token: IToken): string {
  if (!tokenMatcher(token, T.BackquotedName)) return token.image;
  const name = token.image.slice(1, -1).replaceAll('``', '`');
  if (name === '') throw syntaxError(posOf(token), 'a backquoted name cannot be empty');
  return name;
}

const ESCAPES: Readonly<Record<string, string>> = { "'": "'", '"': '"', '\\': '\\', n: '\n', t: '\t', r: '\r' };

function stringOf(token: IToken): string {
  const raw = token.image;
  const end = raw.length - 1;
  if (!raw.includes('\\')) return raw.slice(1, end);
  let out = '';
  let chunk = 1;
  for (let i = 1; i < end; i++) {
    if (raw.charCodeAt(i) !== 92) continue;
    const escaped = raw[i + 1];
    const replacement = ESCAPES[escaped];
    if (replacement === undefined) {
      // Strings hold no line breaks, so the escape is on the string's first line.
      throw syntaxError(
        { line: token.startLine ?? 1, column: (token.startColumn ?? 1) + i },
        `unknown escape '\\${escaped}' in a string; the escapes are \\' \\" \\\\ \\n \\t \\r`,
      );
    }
    out += raw.slice(chunk, i) + replacement;
    i++;
    chunk = i + 1;
  }
  return out + raw.slice(chunk, end);
}

function numberOf(token: IToken): Literal {
  const image = token.image;
  const integer = !image.includes('.') && !image.includes('e') && !image.includes('E');
  let value = Number(image);
  if (!Number.isFinite(value)) throw syntaxError(posOf(token), `the number ${image} is out of range`);
  if (integer && !Number.isSafeInteger(value)) {
    throw syntaxError(posOf(token), `the integer ${image} is out of range (at most ${Number.MAX_SAFE_INTEGER} in size)`);
  }
  if (Object.is(value, -0)) value = 0;
  return { kind: 'literal', pos: posOf(token), value, integer };
}

/** A whole number written as such (`3`, not `3.0` or `3e0`). */
function wholeNumberOf(token: IToken, what: string): number {
  const literal = numberOf(token);
  if (!literal.integer) throw syntaxError(posOf(token), `${what} must be a whole number, not ${token.image}`);
  return literal.value as number;
}

function aggregateOf(token: IToken): AggregateFn {
  const name = nameOf(token);
  const fn = AGGREGATE_FUNCTIONS.find((f) => f === name.toLowerCase());
  if (fn) return fn;
  throw syntaxError(
    posOf(token),
    `unknown function '${name}': the only functions are the aggregates ${AGGREGATE_FUNCTIONS.join(', ')}`,
    { candidates: [...AGGREGATE_FUNCTIONS], found: name },
  );
}

function selectorOf(token: IToken): DatasetRef['selector'] {
  const word = token.image;
  const lower = word.toLowerCase();
  if (lower === 'latest') return { kind: 'latest' };
  if (lower === 'draft') return { kind: 'draft' };
  let digits = '';
  if (tokenMatcher(token, T.NumberLit)) digits = word;
  else if (lower.length > 1 && lower[0] === 'v' && [...lower.slice(1)].every((c) => c >= '0' && c <= '9')) digits = word.slice(1);
  if (digits) {
    const version = wholeNumberOf({ ...token, image: digits }, 'a version number');
    if (version < 1) throw syntaxError(posOf(token), `version numbers start at 1, not ${version}`);
    return { kind: 'number', version };
  }
  throw syntaxError(posOf(token), `unknown dataset version '@${word}': write @latest, @draft, or @vN for version N`, {
    expected: ['latest', 'draft', 'vN', 'N'],
    candidates: ['latest', 'draft'],
    found: word,
  });
}

function hopBound(token: IToken): number {
  const hops = wholeNumberOf(token, 'a number of hops');
  if (hops < 1) throw syntaxError(posOf(token), `a path has at least 1 hop, not ${hops}`);
  if (hops > MAX_PATH_HOPS) throw syntaxError(posOf(token), `a path has at most ${MAX_PATH_HOPS} hops, not ${hops}`);
  return hops;
}

const COMPARISON_OPS: Readonly<Record<string, ComparisonOp>> = {
  '=': '=',
  '<>': '<>',
  '!=': '<>',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};

// The parser's own descriptions of what it expected, as token names separated by spaces: the fallback when the
// fuller content-assist list is too costly to compute (see expectedAt).
const errorMessageProvider: IParserErrorMessageProvider = {
  buildMismatchTokenMessage: ({ expected }) => expected.name,
  buildNotAllInputParsedMessage: () => '',
  buildNoViableAltMessage: ({ expectedPathsPerAlt }) =>
    expectedPathsPerAlt
      .flat()
      .map((path) => path[0]?.name)
      .filter(Boolean)
      .join(' '),
  buildEarlyExitMessage: ({ expectedIterationPaths }) =>
    expectedIterationPaths
      .map((path) => path[0]?.name)
      .filter(Boolean)
      .join(' '),
};

/**
 * SyQL's grammar, building the syntax tree directly. Chevrotain records the grammar by running every rule once at
 * construction with placeholder tokens, so everything that reads a token or throws sits inside ACTION.
 */
class SyqlParser extends EmbeddedActionsParser {
  private parenDepth = 0;

  constructor() {
    super(T.allTokens, { maxLookahead: 2, recoveryEnabled: false, errorMessageProvider });
    this.performSelfAnalysis();
  }

  /** Starts a parse of `tokens`: clears the state a previous parse (perhaps failed) left. */
  begin(tokens: IToken[]): void {
    this.parenDepth = 0;
    this.input = tokens;
  }

  /** Lets go of the last query's tokens. */
  end(): void {
    this.input = [];
  }

  private enter(open: IToken): void {
    this.parenDepth++;
    if (this.parenDepth > MAX_PAREN_DEPTH) {
      throw syntaxError(posOf(open), `parentheses are nested more than ${MAX_PAREN_DEPTH} deep`);
    }
  }

  query = this.RULE('query', (): Query => {
    const match = this.CONSUME(T.Match);
    const pattern = this.SUBRULE(this.pattern);
    this.CONSUME(T.In);
    const datasets: DatasetRef[] = [this.SUBRULE(this.datasetRef)];
    this.MANY(() => {
      this.CONSUME(T.Comma);
      datasets.push(this.SUBRULE2(this.datasetRef));
    });
    let where: Expr | null = null;
    this.OPTION(() => {
      this.CONSUME(T.Where);
      where = this.SUBRULE(this.orExpr);
    });
    this.CONSUME(T.Return);
    let distinct = false;
    this.OPTION2(() => {
      this.CONSUME(T.Distinct);
      distinct = true;
    });
    const returns: ReturnItem[] = [this.SUBRULE(this.returnItem)];
    this.MANY2(() => {
      this.CONSUME2(T.Comma);
      returns.push(this.SUBRULE2(this.returnItem));
    });
    const orderBy: OrderItem[] = [];
    this.OPTION3(() => {
      this.CONSUME(T.Order);
      this.CONSUME(T.By);
      orderBy.push(this.SUBRULE(this.orderItem));
      this.MANY3(() => {
        this.CONSUME3(T.Comma);
        orderBy.push(this.SUBRULE2(this.orderItem));
      });
    });
    let skip: IntValue | null = null;
    let limit: IntValue | null = null;
    this.OPTION4(() => {
      this.CONSUME(T.Skip);
      skip = this.SUBRULE(this.intValue, { ARGS: ['SKIP'] });
    });
    this.OPTION5(() => {
      this.CONSUME(T.Limit);
      limit = this.SUBRULE2(this.intValue, { ARGS: ['LIMIT'] });
    });
    this.OPTION6(() => this.CONSUME(T.Semicolon));
    return this.ACTION(() => ({
      kind: 'query' as const,
      pos: posOf(match),
      match: pattern,
      datasets,
      where,
      distinct,
      returns,
      orderBy,
      skip,
      limit,
    }));
  });

  private pattern = this.RULE('pattern', (): Pattern => {
    const first = this.SUBRULE(this.nodePattern);
    const nodes: NodePattern[] = [first];
    const rels: RelPattern[] = [];
    this.MANY(() => {
      rels.push(this.SUBRULE(this.relPattern));
      nodes.push(this.SUBRULE2(this.nodePattern));
    });
    return this.ACTION(() => ({ pos: first.pos, nodes, rels }));
  });

  private nodePattern = this.RULE('nodePattern', (): NodePattern => {
    const open = this.CONSUME(T.LParen);
    let variable: IToken | undefined;
    let label: IToken | undefined;
    let properties: NodePattern['properties'] = [];
    this.OPTION(() => {
      variable = this.CONSUME(T.VarName);
    });
    this.OPTION2(() => {
      this.CONSUME(T.Colon);
      label = this.CONSUME(T.Name);
    });
    this.OPTION3(() => {
      properties = this.SUBRULE(this.propertyMap);
    });
    this.CONSUME(T.RParen);
    return this.ACTION(() => ({
      pos: posOf(open),
      variable: variable ? nameOf(variable) : null,
      label: label ? nameOf(label) : null,
      properties,
    }));
  });

  private propertyMap = this.RULE('propertyMap', (): NodePattern['properties'] => {
    const properties: NodePattern['properties'] = [];
    this.CONSUME(T.LCurly);
    this.OPTION(() => {
      properties.push(this.SUBRULE(this.propertyEntry));
      this.MANY(() => {
        this.CONSUME(T.Comma);
        properties.push(this.SUBRULE2(this.propertyEntry));
      });
    });
    this.CONSUME(T.RCurly);
    return properties;
  });

  private propertyEntry = this.RULE('propertyEntry', (): NodePattern['properties'][number] => {
    const key = this.CONSUME(T.Name);
    this.CONSUME(T.Colon);
    const value = this.SUBRULE(this.scalar);
    return this.ACTION(() => ({ key: nameOf(key), pos: posOf(key), value }));
  });

  private relPattern = this.RULE('relPattern', (): RelPattern => {
    let start: IToken | undefined;
    let body: RelBody | undefined;
    let direction: RelPattern['direction'] = 'both';
    this.OR([
      {
        ALT: () => {
          start = this.CONSUME(T.LAngle);
          this.CONSUME(T.Minus);
          this.OPTION(() => {
            body = this.SUBRULE(this.relBody);
          });
          this.CONSUME2(T.Minus);
          direction = 'left';
        },
      },
      {
        ALT: () => {
          start = this.CONSUME3(T.Minus);
          this.OPTION2(() => {
            body = this.SUBRULE2(this.relBody);
          });
          this.CONSUME4(T.Minus);
          this.OPTION3(() => {
            this.CONSUME(T.RAngle);
            direction = 'right';
          });
        },
      },
    ]);
    return this.ACTION(() => ({
      pos: posOf(start!),
      variable: body?.variable ?? null,
      types: body?.types ?? [],
      direction,
      hops: body?.hops ?? null,
    }));
  });

  private relBody = this.RULE('relBody', (): RelBody => {
    this.CONSUME(T.LSquare);
    let variable: IToken | undefined;
    const types: IToken[] = [];
    let hops: RelPattern['hops'] = null;
    this.OPTION(() => {
      variable = this.CONSUME(T.VarName);
    });
    this.OPTION2(() => {
      this.CONSUME(T.Colon);
      types.push(this.CONSUME(T.Name));
      this.MANY(() => {
        this.CONSUME(T.Pipe);
        this.OPTION3(() => this.CONSUME2(T.Colon));
        types.push(this.CONSUME2(T.Name));
      });
    });
    this.OPTION4(() => {
      hops = this.SUBRULE(this.hops);
    });
    this.CONSUME(T.RSquare);
    return this.ACTION(() => ({
      variable: variable ? nameOf(variable) : null,
      types: types.map((t) => ({ name: nameOf(t), pos: posOf(t) })),
      hops,
    }));
  });

  private hops = this.RULE('hops', (): NonNullable<RelPattern['hops']> => {
    const star = this.CONSUME(T.Star);
    let min: IToken | undefined;
    let max: IToken | undefined;
    let range = false;
    this.OPTION(() => {
      this.OR([
        {
          ALT: () => {
            min = this.CONSUME(T.NumberLit);
            this.OPTION2(() => {
              this.CONSUME(T.DotDot);
              range = true;
              this.OPTION3(() => {
                max = this.CONSUME2(T.NumberLit);
              });
            });
          },
        },
        {
          ALT: () => {
            this.CONSUME2(T.DotDot);
            range = true;
            max = this.CONSUME3(T.NumberLit);
          },
        },
      ]);
    });
    return this.ACTION(() => {
      const low = min ? hopBound(min) : 1;
      const high = max ? hopBound(max) : range || !min ? MAX_PATH_HOPS : low;
      if (low > high) {
        throw syntaxError(posOf(star), `the hop range *${low}..${high} is empty: its minimum is above its maximum`);
      }
      return { min: low, max: high, pos: posOf(star) };
    });
  });

  private datasetRef = this.RULE('datasetRef', (): DatasetRef => {
    const name = this.CONSUME(T.StringLit);
    let selector: IToken | undefined;
    this.OPTION(() => {
      this.CONSUME(T.At);
      selector = this.OR([{ ALT: () => this.CONSUME(T.Identifier) }, { ALT: () => this.CONSUME(T.NumberLit) }]);
    });
    return this.ACTION(() => {
      const dataset = stringOf(name);
      if (dataset === '') throw syntaxError(posOf(name), 'the dataset name is empty: write its slug or id in quotes');
      if (selector) return { pos: posOf(name), dataset, selector: selectorOf(selector) };
      // "slug@draft" is how the rest of the API spells a reference; slugs and ids never hold an @.
      const at = dataset.lastIndexOf('@');
      if (at <= 0) return { pos: posOf(name), dataset, selector: { kind: 'latest' as const } };
      const word = dataset.slice(at + 1);
      return { pos: posOf(name), dataset: dataset.slice(0, at), selector: selectorOf({ ...name, image: /^\d+$/.test(word) ? `v${word}` : word }) };
    });
  });

  private returnItem = this.RULE('returnItem', (): ReturnItem => {
    const expr = this.SUBRULE(this.orExpr);
    let alias: IToken | undefined;
    this.OPTION(() => {
      this.CONSUME(T.As);
      alias = this.CONSUME(T.VarName);
    });
    return this.ACTION(() => ({ pos: expr.pos, expr, alias: alias ? nameOf(alias) : null }));
  });

  private orderItem = this.RULE('orderItem', (): OrderItem => {
    const expr = this.SUBRULE(this.orExpr);
    let descending = false;
    this.OPTION(() => {
      this.OR([
        { ALT: () => this.CONSUME(T.Asc) },
        {
          ALT: () => {
            this.CONSUME(T.Desc);
            descending = true;
          },
        },
      ]);
    });
    return this.ACTION(() => ({ pos: expr.pos, expr, descending }));
  });

  private intValue = this.RULE('intValue', (clause?: string): IntValue => {
    return this.OR([
      {
        ALT: () => {
          const token = this.CONSUME(T.NumberLit);
          return this.ACTION(() => {
            const literal = numberOf(token);
            if (!literal.integer || (literal.value as number) < 0) {
              throw syntaxError(posOf(token), `${clause} takes a whole number of rows (0 or more) or a $parameter, not ${token.image}`);
            }
            return { kind: 'int' as const, pos: literal.pos, value: literal.value as number };
          });
        },
      },
      { ALT: () => this.SUBRULE(this.param) },
    ]);
  });

  private orExpr: () => Expr = this.RULE('orExpr', (): Expr => {
    let left = this.SUBRULE(this.andExpr);
    this.MANY(() => {
      this.CONSUME(T.Or);
      const right = this.SUBRULE2(this.andExpr);
      left = this.ACTION(() => ({ kind: 'logical' as const, pos: left.pos, op: 'or' as const, left, right }));
    });
    return left;
  });

  private andExpr = this.RULE('andExpr', (): Expr => {
    let left = this.SUBRULE(this.notExpr);
    this.MANY(() => {
      this.CONSUME(T.And);
      const right = this.SUBRULE2(this.notExpr);
      left = this.ACTION(() => ({ kind: 'logical' as const, pos: left.pos, op: 'and' as const, left, right }));
    });
    return left;
  });

  // NOT NOT ... is read in a loop, not by recursion, so a long chain cannot exhaust the stack.
  private notExpr = this.RULE('notExpr', (): Expr => {
    const nots: IToken[] = [];
    this.MANY(() => {
      nots.push(this.CONSUME(T.Not));
    });
    const operand = this.SUBRULE(this.comparison);
    return this.ACTION(() => {
      let expr = operand;
      for (let i = nots.length - 1; i >= 0; i--) expr = { kind: 'not', pos: posOf(nots[i]), operand: expr };
      return expr;
    });
  });

  private comparison = this.RULE('comparison', (): Expr => {
    const left = this.SUBRULE(this.primary);
    let result: Expr = left;
    this.OPTION(() => {
      result = this.OR([
        {
          ALT: () => {
            const op = this.CONSUME(T.CompOp);
            const right = this.SUBRULE2(this.primary);
            return this.ACTION(() => ({ kind: 'comparison' as const, pos: left.pos, op: COMPARISON_OPS[op.image], left, right }));
          },
        },
        {
          ALT: () => {
            this.CONSUME(T.Starts);
            this.CONSUME(T.With);
            const right = this.SUBRULE3(this.primary);
            return this.ACTION(() => ({ kind: 'string-match' as const, pos: left.pos, op: 'starts-with' as const, left, right }));
          },
        },
        {
          ALT: () => {
            this.CONSUME(T.Ends);
            this.CONSUME2(T.With);
            const right = this.SUBRULE4(this.primary);
            return this.ACTION(() => ({ kind: 'string-match' as const, pos: left.pos, op: 'ends-with' as const, left, right }));
          },
        },
        {
          ALT: () => {
            this.CONSUME(T.Contains);
            const right = this.SUBRULE5(this.primary);
            return this.ACTION(() => ({ kind: 'string-match' as const, pos: left.pos, op: 'contains' as const, left, right }));
          },
        },
        {
          ALT: () => {
            this.CONSUME(T.Not);
            this.CONSUME(T.In);
            const right = this.SUBRULE(this.inRight);
            return this.ACTION(() => ({ kind: 'in' as const, pos: left.pos, negated: true, left, right }));
          },
        },
        {
          ALT: () => {
            this.CONSUME2(T.In);
            const right = this.SUBRULE2(this.inRight);
            return this.ACTION(() => ({ kind: 'in' as const, pos: left.pos, negated: false, left, right }));
          },
        },
        {
          ALT: () => {
            this.CONSUME(T.Within);
            const region = this.OR2([
              {
                ALT: () => {
                  const token = this.CONSUME(T.StringLit);
                  return this.ACTION((): Literal => ({ kind: 'literal', pos: posOf(token), value: stringOf(token) }));
                },
              },
              { ALT: () => this.SUBRULE(this.param) },
            ]);
            return this.ACTION(() => ({ kind: 'within' as const, pos: left.pos, left, region }));
          },
        },
        {
          ALT: () => {
            this.CONSUME(T.Is);
            let negated = false;
            this.OPTION2(() => {
              this.CONSUME2(T.Not);
              negated = true;
            });
            this.CONSUME(T.Null);
            return this.ACTION(() => ({ kind: 'is-null' as const, pos: left.pos, negated, operand: left }));
          },
        },
      ]);
    });
    return result;
  });

  private inRight = this.RULE('inRight', (): ListExpr | Param =>
    this.OR([{ ALT: () => this.SUBRULE(this.list) }, { ALT: () => this.SUBRULE(this.param) }]),
  );

  private primary = this.RULE('primary', (): Expr =>
    this.OR([
      { ALT: () => this.SUBRULE(this.literal) },
      { ALT: () => this.SUBRULE(this.param) },
      { ALT: () => this.SUBRULE(this.list) },
      {
        ALT: () => {
          const open = this.CONSUME(T.LParen);
          this.ACTION(() => this.enter(open));
          const inner = this.SUBRULE(this.orExpr);
          this.CONSUME(T.RParen);
          this.ACTION(() => this.parenDepth--);
          return inner;
        },
      },
      { ALT: () => this.SUBRULE(this.nameExpr) },
    ]),
  );

  /** `a`, `a.key`, or an aggregate call `count(...)`. */
  private nameExpr = this.RULE('nameExpr', (): Expr => {
    const name = this.CONSUME(T.VarName);
    let result: Expr | undefined;
    this.OPTION(() => {
      this.OR([
        {
          ALT: () => {
            this.CONSUME(T.Dot);
            const key = this.CONSUME(T.Name);
            result = this.ACTION(() => ({ kind: 'property' as const, pos: posOf(name), variable: nameOf(name), key: nameOf(key) }));
          },
        },
        {
          ALT: () => {
            result = this.SUBRULE(this.callArgs, { ARGS: [name] });
          },
        },
      ]);
    });
    return this.ACTION(() => result ?? { kind: 'variable', pos: posOf(name), name: nameOf(name) });
  });

  private callArgs = this.RULE('callArgs', (fnToken?: IToken): Aggregate => {
    const open = this.CONSUME(T.LParen);
    // Checked before the arguments, so that `file('/etc/passwd')` is refused for its name.
    const fn = this.ACTION(() => aggregateOf(fnToken!));
    this.ACTION(() => this.enter(open));
    let star: IToken | undefined;
    let distinct = false;
    let argument: Expr | null = null;
    this.OR([
      {
        ALT: () => {
          star = this.CONSUME(T.Star);
        },
      },
      {
        ALT: () => {
          this.OPTION(() => {
            this.CONSUME(T.Distinct);
            distinct = true;
          });
          argument = this.SUBRULE(this.orExpr);
        },
      },
    ]);
    this.CONSUME(T.RParen);
    return this.ACTION(() => {
      this.parenDepth--;
      if (star && fn !== 'count') throw syntaxError(posOf(star), `only count takes *; write ${fn}(expression)`);
      return { kind: 'aggregate' as const, pos: posOf(fnToken!), fn, distinct, argument };
    });
  });

  private literal = this.RULE('literal', (): Literal =>
    this.OR([
      {
        ALT: () => {
          const token = this.CONSUME(T.StringLit);
          return this.ACTION((): Literal => ({ kind: 'literal', pos: posOf(token), value: stringOf(token) }));
        },
      },
      {
        ALT: () => {
          const token = this.CONSUME(T.NumberLit);
          return this.ACTION(() => numberOf(token));
        },
      },
      {
        ALT: () => {
          const token = this.CONSUME(T.True);
          return this.ACTION((): Literal => ({ kind: 'literal', pos: posOf(token), value: true }));
        },
      },
      {
        ALT: () => {
          const token = this.CONSUME(T.False);
          return this.ACTION((): Literal => ({ kind: 'literal', pos: posOf(token), value: false }));
        },
      },
      {
        ALT: () => {
          const token = this.CONSUME(T.Null);
          return this.ACTION((): Literal => ({ kind: 'literal', pos: posOf(token), value: null }));
        },
      },
    ]),
  );

  private scalar = this.RULE('scalar', (): Literal | Param =>
    this.OR([{ ALT: () => this.SUBRULE(this.literal) }, { ALT: () => this.SUBRULE(this.param) }]),
  );

  private param = this.RULE('param', (): Param => {
    const token = this.CONSUME(T.Param);
    return this.ACTION(() => ({ kind: 'param' as const, pos: posOf(token), name: token.image.slice(1) }));
  });

  private list = this.RULE('list', (): ListExpr => {
    const open = this.CONSUME(T.LSquare);
    const items: (Literal | Param)[] = [];
    this.OPTION(() => {
      items.push(this.SUBRULE(this.scalar));
      this.MANY(() => {
        this.CONSUME(T.Comma);
        items.push(this.SUBRULE2(this.scalar));
      });
    });
    this.CONSUME(T.RSquare);
    return this.ACTION(() => ({ kind: 'list' as const, pos: posOf(open), items }));
  });
}

interface RelBody {
  variable: string | null;
  types: RelPattern['types'];
  hops: RelPattern['hops'];
}

// Built once: the grammar analysis takes milliseconds, a parse microseconds.
const parser = new SyqlParser();

const TOKEN_BY_NAME = new Map<string, TokenType>([...T.allTokens, EOF].map((t) => [t.name, t]));

function labelOf(type: TokenType): string {
  if (type === EOF) return END;
  if (T.KEYWORDS.has(type.name)) return type.name;
  return T.TOKEN_LABELS[type.name] ?? type.name;
}

function labelRank(label: string): number {
  if (label === END) return 3;
  if (label.startsWith("'")) return 1;
  if (label.startsWith('a ')) return 2;
  return 0;
}

/** What the grammar accepts after `tokens[0..index)`, as labels for the message. */
function expectedAt(tokens: IToken[], index: number, error: IRecognitionException): string[] {
  let types: TokenType[] | undefined;
  if (index <= MAX_ASSIST_TOKENS) {
    try {
      types = parser.computeContentAssist('query', tokens.slice(0, index)).map((path) => path.nextTokenType);
    } catch {
      types = undefined;
    }
  }
  if (!types || types.length === 0) {
    types = error.message
      .split(' ')
      .map((name) => TOKEN_BY_NAME.get(name))
      .filter((t): t is TokenType => t !== undefined);
  }
  const labels = new Set(types.map(labelOf));
  // The query rule returned before this token: the query could have ended there.
  if (error.name === 'NotAllInputParsedException') labels.add(END);
  const previous = tokens[index - 1];
  if (labels.size === 1 && labels.has('a string') && previous && (tokenMatcher(previous, T.In) || tokenMatcher(previous, T.Comma))) {
    return ['a dataset in quotes ("slug"@latest)'];
  }
  return [...labels].sort((a, b) => labelRank(a) - labelRank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

function describeFound(token: IToken): string {
  if (tokenMatcher(token, T.StringLit)) return `the string ${truncate(token.image)}`;
  return `'${truncate(token.image)}'`;
}

function truncate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

const CLAUSES = [T.Match, T.In, T.Where, T.Return, T.Order, T.Skip, T.Limit];

function recognitionError(error: IRecognitionException, tokens: IToken[]): SyqlError {
  const token = error.token;
  const atEnd = token.tokenType === EOF || Number.isNaN(token.startOffset);
  let index = atEnd ? tokens.length : tokens.indexOf(token);
  if (index < 0) index = tokens.length;
  const expected = expectedAt(tokens, index, error);
  const last = tokens[tokens.length - 1];
  const pos = !atEnd
    ? posOf(token)
    : last
      ? { line: last.endLine ?? 1, column: (last.endColumn ?? 0) + 1 }
      : { line: 1, column: 1 };
  let message = `expected ${expected.length === 1 ? expected[0] : `one of ${expected.join(', ')}`}, but found ${atEnd ? END : describeFound(token)}`;
  let suggestion: string | null = null;
  if (!atEnd) {
    const previous = tokens[index - 1];
    const next = tokens[index + 1];
    if (tokenMatcher(token, T.StringLit) && previous && tokenMatcher(previous, T.StringLit) && previous.endOffset! + 1 === token.startOffset) {
      message += ` (to put a quote inside a string, escape it: \\' or \\")`;
    } else if (tokenMatcher(token, T.Minus) && next && tokenMatcher(next, T.Minus)) {
      message += ' (comments start with // or /*, not --)';
    } else if (CLAUSES.some((clause) => tokenMatcher(token, clause))) {
      message += ' (the clauses come in this order: MATCH, IN, WHERE, RETURN, ORDER BY, SKIP, LIMIT; each at most once)';
    }
    if (tokenMatcher(token, T.Name)) {
      const word = tokenMatcher(token, T.BackquotedName) ? token.image.slice(1, -1) : token.image;
      suggestion = closestCandidate(
        word,
        expected.filter((label) => T.KEYWORDS.has(label)),
      );
    }
  }
  return syntaxError(pos, message, { expected, suggestion });
}

function lexProblem(text: string, offset: number, token?: IToken): SyqlError {
  const pos = token ? posOf(token) : positionAt(text, offset);
  const char = text[offset];
  if (token && tokenMatcher(token, T.UnterminatedComment)) return syntaxError(pos, 'unterminated comment: /* has no closing */');
  if (token && tokenMatcher(token, T.UnterminatedName)) return syntaxError(pos, 'unterminated name: ` has no closing ` on its line');
  if (token) return syntaxError(pos, `unterminated string: ${char} has no closing ${char} on its line`);
  if (char === '$') return syntaxError(pos, "a parameter is '$' followed by a name, e.g. $names");
  const code = char.codePointAt(0)!;
  const shown = code < 0x20 || code === 0x7f || (code >= 0x80 && code <= 0xa0) ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}` : `'${String.fromCodePoint(code)}'`;
  return syntaxError(pos, `unexpected character ${shown}`);
}

/** Line and column of an offset, counting line breaks as the lexer does (\n, \r\n, \r). */
function positionAt(text: string, offset: number): Pos {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1, offset };
}

function tokenize(text: string): IToken[] {
  const result = T.syqlLexer.tokenize(text);
  const problem = result.groups.problems?.[0];
  const error = result.errors[0];
  if (problem && (!error || problem.startOffset < error.offset)) throw lexProblem(text, problem.startOffset, problem);
  if (error) throw lexProblem(text, error.offset);
  return result.tokens;
}

function childrenOf(expr: Expr): Expr[] {
  switch (expr.kind) {
    case 'comparison':
    case 'string-match':
    case 'logical':
      return [expr.left, expr.right];
    case 'in':
      return [expr.left, expr.right];
    case 'within':
      return [expr.left, expr.region];
    case 'is-null':
    case 'not':
      return [expr.operand];
    case 'aggregate':
      return expr.argument ? [expr.argument] : [];
    case 'list':
      return expr.items;
    default:
      return [];
  }
}

function checkDepth(query: Query): void {
  const stack: [Expr, number][] = [];
  if (query.where) stack.push([query.where, 1]);
  for (const item of query.returns) stack.push([item.expr, 1]);
  for (const item of query.orderBy) stack.push([item.expr, 1]);
  while (stack.length > 0) {
    const [expr, depth] = stack.pop()!;
    if (depth > MAX_EXPR_DEPTH) {
      throw syntaxError(
        expr.pos,
        `the expression is nested more than ${MAX_EXPR_DEPTH} levels deep (each AND, OR and NOT adds one); for many alternatives write x IN [...]`,
      );
    }
    for (const child of childrenOf(expr)) stack.push([child, depth + 1]);
  }
}

/**
 * Parses a SyQL query into its syntax tree (ast.ts). Names are not checked here (labels, types, properties,
 * variables, parameters): the planner does that. Throws SyqlError, and only SyqlError, for any text it refuses:
 * over MAX_QUERY_LENGTH characters, a lexical or syntax error, a hop range outside 1..MAX_PATH_HOPS, a function other
 * than the aggregates, parentheses deeper than MAX_PAREN_DEPTH.
 */
export function parseSyql(text: string): Query {
  if (typeof text !== 'string') throw syntaxError({ line: 1, column: 1 }, 'the query must be a string');
  if (text.length > MAX_QUERY_LENGTH) {
    throw syntaxError(
      { line: 1, column: 1 },
      `the query is ${text.length} characters long; at most ${MAX_QUERY_LENGTH.toLocaleString('en')} are accepted`,
    );
  }
  try {
    const tokens = tokenize(text);
    parser.begin(tokens);
    const query = parser.query();
    if (parser.errors.length > 0) throw recognitionError(parser.errors[0], tokens);
    checkDepth(query);
    return query;
  } catch (err) {
    if (err instanceof SyqlError) throw err;
    const refused = syntaxError(
      { line: 1, column: 1 },
      err instanceof RangeError ? 'the query is nested too deeply to read' : 'the query could not be read',
    );
    Object.defineProperty(refused, 'cause', { value: err, enumerable: false });
    throw refused;
  } finally {
    parser.end();
  }
}
