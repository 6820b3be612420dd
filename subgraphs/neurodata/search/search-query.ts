/**
 * The search box's syntax, read the way PostgreSQL's websearch_to_tsquery reads it, so that the words and phrases
 * can be matched against the ontology before the text search runs:
 * - words are required (AND): `mouse hippocampus`;
 * - `"..."` is a phrase: `"pyramidal neurons"`;
 * - `or` between two words or phrases makes either do: `mouse or rat`;
 * - `-word` or `-"phrase"` excludes: `connectome -male`.
 * Nothing here fails: unbalanced quotes end at the end of the text, a lone `-` or `or` is a word, as in PostgreSQL.
 */

/** A word or a phrase as typed. */
export interface Atom {
  text: string;
  phrase: boolean;
}

/** One required part of the query: any of its atoms will do. */
export interface Clause {
  anyOf: Atom[];
}

export interface ParsedQuery {
  must: Clause[];
  mustNot: Atom[];
}

interface Token {
  atom: Atom;
  negated: boolean;
  /** the bare word `or` (case-insensitive), which joins its neighbours */
  or: boolean;
}

function tokenize(q: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = q.length;
  const isSpace = (c: string) => /\s/.test(c);
  while (i < n) {
    while (i < n && isSpace(q[i])) i++;
    if (i >= n) break;
    let negated = false;
    if (q[i] === '-' && i + 1 < n && !isSpace(q[i + 1])) {
      negated = true;
      i++;
    }
    if (q[i] === '"') {
      const end = q.indexOf('"', i + 1);
      const text = q.slice(i + 1, end < 0 ? n : end).trim();
      i = end < 0 ? n : end + 1;
      if (text) out.push({ atom: { text, phrase: true }, negated, or: false });
      continue;
    }
    let j = i;
    while (j < n && !isSpace(q[j]) && q[j] !== '"') j++;
    const text = q.slice(i, j);
    i = j;
    out.push({ atom: { text, phrase: false }, negated, or: !negated && text.toLowerCase() === 'or' });
  }
  return out;
}

export function parseSearchQuery(q: string): ParsedQuery {
  const tokens = tokenize(q);
  const must: Clause[] = [];
  const mustNot: Atom[] = [];
  let joinNext = false;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    // `or` joins only when there is something on both sides, as websearch_to_tsquery reads it.
    if (t.or && must.length > 0 && k + 1 < tokens.length && !tokens[k + 1].negated && !tokens[k + 1].or) {
      joinNext = true;
      continue;
    }
    if (t.negated) {
      mustNot.push(t.atom);
      joinNext = false;
      continue;
    }
    if (joinNext) must[must.length - 1].anyOf.push(t.atom);
    else must.push({ anyOf: [t.atom] });
    joinNext = false;
  }
  return { must, mustNot };
}

/** The clause written back in websearch syntax, for websearch_to_tsquery. */
export function clauseText(c: Clause): string {
  return c.anyOf.map(atomText).join(' or ');
}

export function atomText(a: Atom): string {
  return a.phrase ? `"${a.text.replace(/"/g, ' ')}"` : a.text;
}

/** The whole query written back, after corrections. */
export function queryText(p: ParsedQuery): string {
  return [...p.must.map(clauseText), ...p.mustNot.map((a) => `-${atomText(a)}`)].join(' ');
}

/**
 * Runs of consecutive single-word clauses: where a multi-word name ("Caenorhabditis elegans", "C. elegans",
 * "nerve ring") may be typed without quotes. Each run is a list of clause indexes.
 */
export function wordRuns(p: ParsedQuery): number[][] {
  const runs: number[][] = [];
  let cur: number[] = [];
  p.must.forEach((c, i) => {
    if (c.anyOf.length === 1 && !c.anyOf[0].phrase) cur.push(i);
    else {
      if (cur.length) runs.push(cur);
      cur = [];
    }
  });
  if (cur.length) runs.push(cur);
  return runs;
}
