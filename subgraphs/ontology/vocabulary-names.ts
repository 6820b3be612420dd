import { runTask } from '../../lib/workers/pool.js';
import type { ExactMatch, TermStore } from './store/term.store.js';
import type { MatchRow } from './name-index.js';
import type { RankedSuggestion, RankingInput } from './suggestion-ranking.js';
import type { SnapshotMissing, SnapshotRef } from './vocabulary-names.task.js';

const TASKS = new URL('./vocabulary-names.task.ts', import.meta.url);
let snapshots = 0;

/**
 * Every name (code, label, synonym) of a vocabulary, or of all, with its term: one statement's snapshot, kept per
 * process until the term tables announce a change (NotifiedCache, wired in services.ts). A validation of thousands
 * of values matches them against it by a map lookup each, instead of a join per thousand values on the engine, and
 * ranks suggestions against its indexed trigrams. Both run on the worker pool, which parses and indexes a snapshot
 * once; the request thread holds only its text, whatever the vocabularies' size.
 */
export class VocabularyNames {
  /** Tells this snapshot from any other of this process, on the worker pool. */
  readonly id = ++snapshots;

  private constructor(
    /** The JSON text of the NameRow array (name-index.ts), as PostgreSQL wrote it. */
    private readonly rows: string,
    /** Whether any name is beyond ASCII: then pg_trgm measures those names against the values (measureForeignNames). */
    readonly foreign: boolean,
  ) {}

  static async load(store: TermStore, vocabulary: string | undefined): Promise<VocabularyNames> {
    const { rows, foreign } = await store.vocabularyNames(vocabulary);
    return new VocabularyNames(rows, foreign);
  }

  /**
   * The names equal to each value after lower(unaccent(btrim(...))), with their terms, as TermStore.matchExact finds
   * them; undefined for a value that is not ASCII, whose normal form only the engine computes.
   */
  async matchExact(values: readonly string[]): Promise<(ExactMatch[] | undefined)[]> {
    const found = JSON.parse(await this.run<string>('matchExactTask', { values })) as (MatchRow[] | null)[];
    return found.map((rows, v) => {
      if (!rows) return undefined;
      const input = values[v]!;
      return rows.map(([kind, id, vocabulary, code, label, uri, status, rId, rVocabulary, rCode, rLabel]) => {
        const replacedBy = rId ? { id: rId, vocabulary: rVocabulary!, code: rCode!, label: rLabel! } : null;
        return { input, kind, term: { id, vocabulary, code, label, uri, status, replacedBy } };
      });
    });
  }

  /** Each value's suggestions (suggestion-ranking.ts); null for one the engine's index walk must rank. */
  rankSuggestions(input: Omit<RankingInput, 'measured'> & { measured: string }): Promise<(RankedSuggestion[] | null)[]> {
    return this.run('rankSuggestionsTask', input);
  }

  /** A task on this snapshot: named by id, and sent whole only to a thread that does not hold it yet. */
  private async run<T>(task: string, input: object): Promise<T> {
    const named = (names: SnapshotRef) => runTask<T | SnapshotMissing>(TASKS, task, { ...input, names });
    const first = await named({ id: this.id });
    if (!isMissing(first)) return first;
    const second = await named({ id: this.id, rows: this.rows });
    if (isMissing(second)) throw new Error('the worker pool lost a snapshot of names it was sent');
    return second;
  }
}

const isMissing = (x: unknown): x is SnapshotMissing => typeof x === 'object' && x !== null && !Array.isArray(x) && (x as SnapshotMissing).missing === true;
