/**
 * Suggestions ranked on the worker pool, exactly as TermNameStore.suggest ranks them in PostgreSQL, from every name
 * of the vocabularies read in one statement (TermNameStore.vocabularyNames). For many misspelled values at once this
 * replaces thousands of index probes (two per candidate name: its rows in term_names, then its term) with one read.
 *
 * The ranking, step by step as the SQL does it:
 * - the SUGGEST_NEAREST_NAMES name rows nearest to the value by trigram distance (a name written the same way by
 *   several terms is one row per term; which of equally distant rows make the cut is up to the engine there, and
 *   the order of the vocabulary's rows here);
 * - of those, the names of active terms, each with sim = 1 - distance (float8 arithmetic on pg_trgm's float4), score
 *   = the greater of sim and word similarity, rank 0 for an exact code or label, 1 for an exact synonym, else 2;
 * - grouped per term: the best rank, the best score, the best sim (closeness), and as `matched` the name first by
 *   rank, score, sim; kept when the rank is below 2 or the score reaches the minimum;
 * - ordered by rank, score and closeness (both descending), the label lower-cased by PostgreSQL and compared byte by
 *   byte (COLLATE "C"), then the term's id; the first `limit`.
 *
 * Imports only trigram-candidates.ts (and the types of name-index.ts): it runs on the worker pool
 * (vocabulary-names.task.ts).
 */
import { nearestIn, wordSimilarityIn } from './trigram-candidates.js';
import type { NameIndex } from './name-index.js';

/** pg_trgm's measures of a value against a name this module cannot measure (not ASCII), made by PostgreSQL. */
export type MeasuredName = [value: string, norm: string, distance: number, wordSimilarity: number];

export interface RankedSuggestion {
  id: string;
  vocabulary: string;
  code: string;
  label: string;
  rank: number;
  /** Unrounded, as PostgreSQL's float8. */
  score: number;
  matched: string;
}

export interface RankingInput {
  /** Normalised values (lower(unaccent(btrim(...)))), distinct or not. */
  values: readonly string[];
  /** For every value and every name that is not ASCII. */
  measured: readonly MeasuredName[];
  count: number;
  limit: number;
  minScore: number;
}

/** Room for float4 rounding between a word similarity and its bound (fractions of small counts lie much further apart). */
const WORD_BOUND_MARGIN = 1e-6;

interface Candidate {
  row: number;
  distance: number;
  /** Measured by PostgreSQL for a name beyond ASCII; else measured here, for the candidates that make the cut. */
  wordSimilarity: number | undefined;
  /** The name's place in the trigram index, and the trigrams it shares with the value (unset beyond ASCII). */
  at: number;
  shared: number;
}

interface Group {
  row: number;
  rank: number;
  score: number;
  closeness: number;
  /** The row of the name reported as matched, and its own rank, score and sim. */
  best: { row: number; rank: number; score: number; sim: number };
}

/**
 * Each value's suggestions, in order; null for a value this module cannot rank (not ASCII, no trigrams, or a
 * name it cannot measure without a measurement), which PostgreSQL's index walk then ranks.
 */
export function rankSuggestions(index: NameIndex, input: RankingInput): (RankedSuggestion[] | null)[] {
  const { names, rowsOf } = index;
  const { values, count, limit, minScore } = input;
  const { nearest, unmeasured } = nearestIn(index.trigrams, values, count);
  const measuredFor = new Map<string, MeasuredName[]>();
  for (const m of input.measured) {
    const list = measuredFor.get(m[0]);
    if (list) list.push(m);
    else measuredFor.set(m[0], [m]);
  }
  return values.map((value, v) => {
    const near = nearest[v];
    if (!near) return null;
    const extra = measuredFor.get(value) ?? [];
    if (extra.length < unmeasured.length) return null;
    const candidates: Candidate[] = [];
    const add = (norm: string, distance: number, wordSimilarity: number | undefined, at: number, shared: number) => {
      for (const row of rowsOf.get(norm) ?? []) candidates.push({ row, distance, wordSimilarity, at, shared });
    };
    for (const c of near.names) add(c.name, c.distance, undefined, c.at, c.shared);
    for (const m of extra) add(m[1], Math.fround(m[2]), Math.fround(m[3]), -1, 0);
    // Stable: equally distant rows keep the vocabulary's order.
    candidates.sort((a, b) => a.distance - b.distance || a.row - b.row);
    const groups = new Map<string, Group>();
    for (const c of candidates.slice(0, count)) {
      const row = names[c.row];
      if (!row[8]) continue;
      const sim = 1 - c.distance;
      // Word similarity is at most the shared trigrams over the value's (pg_trgm's count / (ulen1 + ulen2 - count),
      // ulen2 >= count). Below the minimum score it cannot lift this name's score to it, and a score below the
      // minimum neither keeps a group nor is its best (an exact name scores 1), so it is not measured.
      c.wordSimilarity ??= c.shared / near.trigrams.length < minScore - WORD_BOUND_MARGIN ? 0 : wordSimilarityIn(index.trigrams, near.trigrams, c.at);
      const score = Math.max(sim, c.wordSimilarity);
      const rank = row[0] === value ? (row[2] !== 'synonym' ? 0 : 1) : 2;
      const g = groups.get(row[3]);
      if (!g) {
        groups.set(row[3], { row: c.row, rank, score, closeness: sim, best: { row: c.row, rank, score, sim } });
        continue;
      }
      g.rank = Math.min(g.rank, rank);
      g.score = Math.max(g.score, score);
      g.closeness = Math.max(g.closeness, sim);
      const b = g.best;
      if (rank < b.rank || (rank === b.rank && (score > b.score || (score === b.score && sim > b.sim)))) g.best = { row: c.row, rank, score, sim };
    }
    const kept = [...groups.values()].filter((g) => g.rank < 2 || g.score >= minScore);
    kept.sort(
      (a, b) =>
        a.rank - b.rank ||
        b.score - a.score ||
        b.closeness - a.closeness ||
        compareBytes(names[a.row][7], names[b.row][7]) ||
        compareBytes(names[a.row][3], names[b.row][3]),
    );
    return kept.slice(0, limit).map((g) => {
      const [, , , id, vocabulary, code, label] = names[g.row];
      return { id, vocabulary, code, label, rank: g.rank, score: g.score, matched: names[g.best.row][1] };
    });
  });
}

/**
 * Strings in the order of their UTF-8 bytes (PostgreSQL's COLLATE "C"), which is code point order. JavaScript
 * compares UTF-16 code units, which differs only where a surrogate pair meets a character from U+E000 to U+FFFF.
 */
export function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointOrder(x) - codePointOrder(y);
  }
  return a.length - b.length;
}

/** Surrogates (U+D800 to U+DFFF, halves of code points above U+FFFF) moved above every other code unit. */
const codePointOrder = (unit: number): number => (unit >= 0xe000 ? unit - 0x800 : unit >= 0xd800 ? unit + 0x2000 : unit);
