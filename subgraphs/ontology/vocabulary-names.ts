import type { ExactMatch, TermStore } from './store/term.store.js';
import type { NameRow } from './suggestion-ranking.js';

let snapshots = 0;

/**
 * Every name (code, label, synonym) of a vocabulary, or of all, with its term: one statement's snapshot, kept per
 * process until the term tables announce a change (NotifiedCache, wired in services.ts). A validation of thousands
 * of values matches them here by a map lookup each, instead of a join per thousand values on the engine, and the
 * worker pool ranks suggestions against the same snapshot, which it indexes once (term-suggest.task.ts).
 */
export class VocabularyNames {
  /** Tells the worker pool's kept index of these names from that of any other snapshot of this process. */
  readonly id = ++snapshots;
  private readonly rowsByNorm = new Map<string, number[]>();
  private readonly parsed: readonly NameRow[];

  private constructor(
    /** The JSON text of the NameRow array, as PostgreSQL wrote it: what the worker pool parses. */
    readonly rows: string,
    /** Whether any name is beyond ASCII: then pg_trgm measures those names against the values (measureForeignNames). */
    readonly foreign: boolean,
  ) {
    this.parsed = JSON.parse(rows) as NameRow[];
    this.parsed.forEach((row, i) => {
      const list = this.rowsByNorm.get(row[0]);
      if (list) list.push(i);
      else this.rowsByNorm.set(row[0], [i]);
    });
  }

  static async load(store: TermStore, vocabulary: string | undefined): Promise<VocabularyNames> {
    const { rows, foreign } = await store.vocabularyNames(vocabulary);
    return new VocabularyNames(rows, foreign);
  }

  /**
   * The names equal to `input` after lower(unaccent(btrim(...))), with their terms, as TermStore.matchExact finds
   * them; undefined when the input is not ASCII, whose normal form only the engine computes.
   */
  matchExact(input: string): ExactMatch[] | undefined {
    const norm = asciiNormalForm(input);
    if (norm === null) return undefined;
    const rows = this.rowsByNorm.get(norm);
    if (!rows) return [];
    return rows.map((i) => {
      const [, , kind, id, vocabulary, code, label, , , uri, status, rId, rVocabulary, rCode, rLabel] = this.parsed[i]!;
      const replacedBy = rId ? { id: rId, vocabulary: rVocabulary!, code: rCode!, label: rLabel! } : null;
      return { input, kind, term: { id, vocabulary, code, label, uri, status, replacedBy } };
    });
  }
}

/**
 * lower(unaccent(btrim(value))) of an ASCII value, computed here: btrim takes spaces only, unaccent maps no ASCII
 * character, and lower maps A to Z only. Null for any other value.
 */
export function asciiNormalForm(value: string): string | null {
  let start = 0;
  let end = value.length;
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) > 0x7f) return null;
  while (start < end && value.charCodeAt(start) === 0x20) start++;
  while (end > start && value.charCodeAt(end - 1) === 0x20) end--;
  return value.slice(start, end).toLowerCase();
}
