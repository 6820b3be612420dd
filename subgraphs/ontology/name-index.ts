/**
 * A snapshot of the vocabularies' names as the worker pool holds it (vocabulary-names.task.ts): the rows
 * TermNameStore.vocabularyNames reads, grouped by normal form for exact matching, with their trigrams indexed for
 * suggestions once the first ranking needs them.
 *
 * Imports only trigram-candidates.ts: it runs on the worker pool.
 */
import { trigramIndex, type TrigramIndex } from './trigram-candidates.js';

/** One row of ontology.term_names with its term and the term's replacement, as TermNameStore.vocabularyNames reads it. */
export type NameRow = [
  norm: string,
  name: string,
  kind: 'code' | 'label' | 'synonym',
  id: string,
  vocabulary: string,
  code: string,
  label: string,
  /** PostgreSQL's lower(label): its case mapping, not JavaScript's, orders equal scores. */
  labelKey: string,
  active: boolean,
  uri: string | null,
  status: 'active' | 'deprecated',
  replacedById: string | null,
  replacedByVocabulary: string | null,
  replacedByCode: string | null,
  replacedByLabel: string | null,
];

/** A name equal to a value, with its term: NameRow from `kind` on, without the fields only ranking reads. */
export type MatchRow = [
  kind: NameRow[2],
  id: string,
  vocabulary: string,
  code: string,
  label: string,
  uri: string | null,
  status: NameRow[10],
  replacedById: string | null,
  replacedByVocabulary: string | null,
  replacedByCode: string | null,
  replacedByLabel: string | null,
];

export class NameIndex {
  /** The rows of each normalised name. */
  readonly rowsOf = new Map<string, number[]>();
  private trigramsBuilt: TrigramIndex | undefined;

  constructor(readonly names: readonly NameRow[]) {
    names.forEach((r, i) => {
      const list = this.rowsOf.get(r[0]);
      if (list) list.push(i);
      else this.rowsOf.set(r[0], [i]);
    });
  }

  /** The distinct names' trigrams, inverted (built on first use: exact matching needs none). */
  get trigrams(): TrigramIndex {
    return (this.trigramsBuilt ??= trigramIndex([...this.rowsOf.keys()]));
  }

  /**
   * The names equal to each value after lower(unaccent(btrim(...))), with their terms, as TermStore.matchExact finds
   * them; null for a value that is not ASCII, whose normal form only the engine computes.
   */
  matchExact(values: readonly string[]): (MatchRow[] | null)[] {
    return values.map((value) => {
      const norm = asciiNormalForm(value);
      if (norm === null) return null;
      return (this.rowsOf.get(norm) ?? []).map((i) => {
        const r = this.names[i]!;
        return [r[2], r[3], r[4], r[5], r[6], r[9], r[10], r[11], r[12], r[13], r[14]];
      });
    });
  }
}

const BEYOND_ASCII = /[^\x00-\x7f]/;

/**
 * lower(unaccent(btrim(value))) of an ASCII value, computed here: btrim takes spaces only, unaccent maps no ASCII
 * character, and lower maps A to Z only. Null for any other value.
 */
export function asciiNormalForm(value: string): string | null {
  if (BEYOND_ASCII.test(value)) return null;
  let start = 0;
  let end = value.length;
  while (start < end && value.charCodeAt(start) === 0x20) start++;
  while (end > start && value.charCodeAt(end - 1) === 0x20) end--;
  return value.slice(start, end).toLowerCase();
}
