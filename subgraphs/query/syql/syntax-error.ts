import { closest, distance } from 'fastest-levenshtein';
import { BadInput } from '../../../lib/errors.js';
import type { Pos } from './ast.js';

/** Where a SyQL error is and what would have been accepted there; GraphQL clients read it in `extensions.syql`. */
export interface SyqlErrorDetails {
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  /** What the query could have had at that place (`RETURN`, `','`, `a name`, or the names the planner knows). */
  expected: string[];
  /** The closest of the expected words to what was written, when one is close enough. */
  suggestion: string | null;
}

/**
 * A query the service cannot run as written: a syntax error, or (from the planner) a name or type that does not fit.
 * A 400 (`BAD_USER_INPUT`) whose message names the line and column, so it reads alone in a REST `{"error"}` body.
 */
export class SyqlError extends BadInput {
  readonly line: number;
  readonly column: number;
  readonly expected: string[];
  readonly suggestion: string | null;

  constructor(message: string, details: { line: number; column: number; expected?: string[]; suggestion?: string | null }) {
    const syql: SyqlErrorDetails = {
      line: details.line,
      column: details.column,
      expected: details.expected ?? [],
      suggestion: details.suggestion ?? null,
    };
    super(message, { syql });
    this.line = syql.line;
    this.column = syql.column;
    this.expected = syql.expected;
    this.suggestion = syql.suggestion;
  }
}

/** Whether `a` becomes `b` by swapping two adjacent characters (one typo, though Levenshtein counts two edits). */
function isSwap(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i + 1 < a.length && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}

/**
 * The candidate closest to `word` (compared case-insensitively), or null when even the closest is too far to be a
 * plausible misspelling: at most 1 edit for words of up to 4 characters, 2 up to 8, 3 beyond, none under 3 (a swap
 * of two adjacent characters counts as one edit).
 */
export function closestCandidate(word: string, candidates: readonly string[]): string | null {
  if (!word || candidates.length === 0) return null;
  const lower = word.toLowerCase();
  const lowered = candidates.map((c) => c.toLowerCase());
  const best = lowered.find((c) => isSwap(lower, c)) ?? closest(lower, lowered);
  const edits = isSwap(lower, best) ? 1 : distance(lower, best);
  const allowed = lower.length < 3 ? 0 : lower.length <= 4 ? 1 : lower.length <= 8 ? 2 : 3;
  if (edits === 0 || edits > allowed) return null;
  return candidates[lowered.indexOf(best)];
}

function firstQuoted(message: string): string | undefined {
  const start = message.indexOf("'");
  if (start < 0) return undefined;
  const end = message.indexOf("'", start + 1);
  return end > start + 1 ? message.slice(start + 1, end) : undefined;
}

/** Builds the error, in the one message format: `<prefix> at line L, column C: <message>[; did you mean X?]`. */
export function makeSyqlError(
  prefix: string,
  pos: Pick<Pos, 'line' | 'column'>,
  message: string,
  opts: { expected?: string[]; candidates?: string[]; found?: string; suggestion?: string | null } = {},
): SyqlError {
  const found = opts.found ?? firstQuoted(message);
  const suggestion =
    opts.suggestion !== undefined
      ? opts.suggestion
      : opts.candidates && found !== undefined
        ? closestCandidate(found, opts.candidates)
        : null;
  const text = `${prefix} at line ${pos.line}, column ${pos.column}: ${message}${suggestion ? `; did you mean ${suggestion}?` : ''}`;
  return new SyqlError(text, {
    line: pos.line,
    column: pos.column,
    expected: opts.expected ?? opts.candidates ?? [],
    suggestion,
  });
}

/**
 * A SyQL error at `pos` (returned, not thrown: write `throw syqlError(...)`). The message reads
 * `SyQL error at line L, column C: <message>`, plus `; did you mean X?` when `candidates` are given and one is close
 * to `found` (the word as written; by default the first `'quoted'` word of `message`). `expected` defaults to the
 * candidates.
 *
 * @example throw syqlError(prop.pos, `unknown property '${prop.key}' of Neuron`, { candidates: NEURON_KEYS })
 */
export function syqlError(
  pos: Pos,
  message: string,
  opts?: { expected?: string[]; candidates?: string[]; found?: string },
): SyqlError {
  return makeSyqlError('SyQL error', pos, message, opts);
}
