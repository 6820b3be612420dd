import { NameIndex, type NameRow } from './name-index.js';
import { rankSuggestions, type RankedSuggestion, type RankingInput } from './suggestion-ranking.js';

/** The snapshot of names last worked with, by its id (VocabularyNames.id), parsed and indexed once. */
let kept: { id: number; index: NameIndex } | undefined;

/** Which snapshot a task works on; its text only when the caller was told this thread does not hold it. */
export interface SnapshotRef {
  id: number;
  rows?: string;
}

/** Answered instead of a result when the task named a snapshot this thread does not hold and sent no text. */
export interface SnapshotMissing {
  missing: true;
}

function indexOf(ref: SnapshotRef): NameIndex | undefined {
  if (kept?.id === ref.id) return kept.index;
  if (ref.rows === undefined) return undefined;
  kept = { id: ref.id, index: new NameIndex(JSON.parse(ref.rows) as NameRow[]) };
  return kept.index;
}

/**
 * Worker-thread entry points (lib/workers/pool.ts) over a snapshot of the vocabularies' names: matching thousands
 * of values to names, and measuring every name against hundreds of misspelled values to rank what comes closest,
 * are CPU work that must not hold up the request thread. The names arrive as the JSON text PostgreSQL wrote, so the
 * request thread never decodes them; a thread parses and indexes a snapshot once and keeps it until another arrives.
 */
export async function matchExactTask(input: { names: SnapshotRef; values: string[] }): Promise<string | SnapshotMissing> {
  const index = indexOf(input.names);
  // As JSON text: the request thread parses one string faster than it takes in thousands of cloned arrays.
  return index ? JSON.stringify(index.matchExact(input.values)) : { missing: true };
}

export async function rankSuggestionsTask(
  input: Omit<RankingInput, 'measured'> & { names: SnapshotRef; measured: string },
): Promise<(RankedSuggestion[] | null)[] | SnapshotMissing> {
  const index = indexOf(input.names);
  if (!index) return { missing: true };
  const { names: _names, measured, ...rest } = input;
  return rankSuggestions(index, { ...rest, measured: JSON.parse(measured) as RankingInput['measured'] });
}
