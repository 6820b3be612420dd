import { createToken, Lexer, type TokenType } from 'chevrotain';

/**
 * The tokens of SyQL. Keywords are case-insensitive and reserved (write `` `match` `` to use one as a variable);
 * after `.`, `:` and inside `{...}` any word is a property key, label or type, keywords included.
 */

/** Any identifier, plain or backquoted: a pattern variable or a return alias. */
export const VarName = createToken({ name: 'VarName', pattern: Lexer.NA });
/** A property key, label or relationship type: an identifier or a keyword. */
export const Name = createToken({ name: 'Name', pattern: Lexer.NA });
/** A string in either quote style. */
export const StringLit = createToken({ name: 'StringLit', pattern: Lexer.NA });
/** The comparison operators written with symbols. */
export const CompOp = createToken({ name: 'CompOp', pattern: Lexer.NA });

export const Identifier = createToken({
  name: 'Identifier',
  pattern: /[A-Za-z_][A-Za-z0-9_]*/,
  categories: [VarName, Name],
});
// Backquotes inside a backquoted name are doubled, as in Cypher.
export const BackquotedName = createToken({
  name: 'BackquotedName',
  pattern: /`(?:[^`\n\r]|``)*`/,
  categories: [VarName, Name],
});

const keywordList: TokenType[] = [];
function keyword(word: string): TokenType {
  const token = createToken({
    name: word,
    pattern: new RegExp(word, 'i'),
    longer_alt: Identifier,
    categories: [Name],
  });
  keywordList.push(token);
  return token;
}

export const Match = keyword('MATCH');
export const In = keyword('IN');
export const Where = keyword('WHERE');
export const Return = keyword('RETURN');
export const Distinct = keyword('DISTINCT');
export const Order = keyword('ORDER');
export const By = keyword('BY');
export const Asc = keyword('ASC');
export const Desc = keyword('DESC');
export const Skip = keyword('SKIP');
export const Limit = keyword('LIMIT');
export const As = keyword('AS');
export const And = keyword('AND');
export const Or = keyword('OR');
export const Not = keyword('NOT');
export const Starts = keyword('STARTS');
export const Ends = keyword('ENDS');
export const With = keyword('WITH');
export const Contains = keyword('CONTAINS');
export const Within = keyword('WITHIN');
export const Is = keyword('IS');
export const Null = keyword('NULL');
export const True = keyword('TRUE');
export const False = keyword('FALSE');

/** Every keyword, upper case: the printer quotes a variable spelled like one. */
export const KEYWORDS: ReadonlySet<string> = new Set(keywordList.map((t) => t.name));

const WhiteSpace = createToken({ name: 'WhiteSpace', pattern: /[ \t\n\r\f\v\uFEFF]+/, group: Lexer.SKIPPED, line_breaks: true });
const LineComment = createToken({ name: 'LineComment', pattern: /\/\/[^\n\r]*/, group: Lexer.SKIPPED });
const BlockComment = createToken({ name: 'BlockComment', pattern: /\/\*[\s\S]*?\*\//, group: Lexer.SKIPPED, line_breaks: true });

/** Tokens that only exist to report where an unterminated string, name or comment starts (the `problems` group). */
export const UnterminatedComment = createToken({ name: 'UnterminatedComment', pattern: /\/\*[\s\S]*/, group: 'problems', line_breaks: true });
export const DoubleQuoted = createToken({
  name: 'DoubleQuoted',
  pattern: /"(?:[^"\\\n\r]|\\[^\n\r])*"/,
  categories: [StringLit],
});
export const SingleQuoted = createToken({
  name: 'SingleQuoted',
  pattern: /'(?:[^'\\\n\r]|\\[^\n\r])*'/,
  categories: [StringLit],
});
export const UnterminatedString = createToken({ name: 'UnterminatedString', pattern: /["'](?:[^\n\r])*/, group: 'problems' });
export const UnterminatedName = createToken({ name: 'UnterminatedName', pattern: /`[^\n\r]*/, group: 'problems' });

export const Param = createToken({ name: 'Param', pattern: /\$[A-Za-z_][A-Za-z0-9_]*/ });
// A leading minus belongs to the number: there is no arithmetic, so `-` is otherwise only part of an arrow.
export const NumberLit = createToken({ name: 'NumberLit', pattern: /-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/ });

export const NotEq = createToken({ name: 'NotEq', pattern: '<>', categories: [CompOp] });
export const LtEq = createToken({ name: 'LtEq', pattern: '<=', categories: [CompOp] });
export const GtEq = createToken({ name: 'GtEq', pattern: '>=', categories: [CompOp] });
export const BangEq = createToken({ name: 'BangEq', pattern: '!=', categories: [CompOp] });
/** `<`: less than, and the head of a left arrow `<-`. */
export const LAngle = createToken({ name: 'LAngle', pattern: '<', categories: [CompOp] });
/** `>`: greater than, and the head of a right arrow `->`. */
export const RAngle = createToken({ name: 'RAngle', pattern: '>', categories: [CompOp] });
export const Equals = createToken({ name: 'Equals', pattern: '=', categories: [CompOp] });
export const Minus = createToken({ name: 'Minus', pattern: '-' });
export const DotDot = createToken({ name: 'DotDot', pattern: '..' });
export const Dot = createToken({ name: 'Dot', pattern: '.' });
export const Comma = createToken({ name: 'Comma', pattern: ',' });
export const Colon = createToken({ name: 'Colon', pattern: ':' });
export const Semicolon = createToken({ name: 'Semicolon', pattern: ';' });
export const Pipe = createToken({ name: 'Pipe', pattern: '|' });
export const Star = createToken({ name: 'Star', pattern: '*' });
export const At = createToken({ name: 'At', pattern: '@' });
export const LParen = createToken({ name: 'LParen', pattern: '(' });
export const RParen = createToken({ name: 'RParen', pattern: ')' });
export const LSquare = createToken({ name: 'LSquare', pattern: '[' });
export const RSquare = createToken({ name: 'RSquare', pattern: ']' });
export const LCurly = createToken({ name: 'LCurly', pattern: '{' });
export const RCurly = createToken({ name: 'RCurly', pattern: '}' });

/** The order matters: the lexer takes the first pattern that matches (keywords defer to longer identifiers). */
export const allTokens: TokenType[] = [
  WhiteSpace,
  LineComment,
  BlockComment,
  UnterminatedComment,
  DoubleQuoted,
  SingleQuoted,
  UnterminatedString,
  BackquotedName,
  UnterminatedName,
  Param,
  NumberLit,
  NotEq,
  LtEq,
  GtEq,
  BangEq,
  LAngle,
  RAngle,
  Equals,
  Minus,
  DotDot,
  Dot,
  Comma,
  Colon,
  Semicolon,
  Pipe,
  Star,
  At,
  LParen,
  RParen,
  LSquare,
  RSquare,
  LCurly,
  RCurly,
  // Longest first: WITHIN before WITH, ORDER before OR, ASC before AS.
  ...[...keywordList].sort((a, b) => b.name.length - a.name.length),
  Identifier,
  VarName,
  Name,
  StringLit,
  CompOp,
];

/** Built once: Chevrotain analyses the patterns when the lexer is constructed. */
export const syqlLexer = new Lexer(allTokens, {
  positionTracking: 'full',
  ensureOptimizations: true,
});

/** How each token is named in error messages. */
export const TOKEN_LABELS: Readonly<Record<string, string>> = {
  VarName: 'a name',
  Name: 'a name',
  Identifier: 'a name',
  BackquotedName: 'a name',
  StringLit: 'a string',
  DoubleQuoted: 'a string',
  SingleQuoted: 'a string',
  Param: 'a $parameter',
  NumberLit: 'a number',
  CompOp: 'a comparison operator',
  NotEq: "'<>'",
  LtEq: "'<='",
  GtEq: "'>='",
  BangEq: "'!='",
  LAngle: "'<'",
  RAngle: "'>'",
  Equals: "'='",
  Minus: "'-'",
  DotDot: "'..'",
  Dot: "'.'",
  Comma: "','",
  Colon: "':'",
  Semicolon: "';'",
  Pipe: "'|'",
  Star: "'*'",
  At: "'@'",
  LParen: "'('",
  RParen: "')'",
  LSquare: "'['",
  RSquare: "']'",
  LCurly: "'{'",
  RCurly: "'}'",
};
