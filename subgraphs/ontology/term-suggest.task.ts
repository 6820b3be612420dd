import { nameIndex, rankSuggestions, type NameIndex, type NameRow, type RankedSuggestion, type RankingInput } from './suggestion-ranking.js';

/** The index of the names last ranked against, by the id of their snapshot (VocabularyNames.id). */
let kept: { id: number; index: NameIndex } | undefined;

/**
 * Worker-thread entry point (lib/workers/pool.ts): measuring every name of the vocabularies against hundreds of
 * values, and ranking what comes closest, is CPU work that must not hold up the request thread. The names arrive as
 * the JSON text PostgreSQL wrote, so the request thread does not decode them for this; a worker parses and indexes
 * a snapshot once, and ranks against the same index until the names change (a snapshot with another id arrives).
 */
export async function rankSuggestionsTask(
  input: Omit<RankingInput, 'measured'> & { names: { id: number; rows: string }; measured: string },
): Promise<(RankedSuggestion[] | null)[]> {
  if (kept?.id !== input.names.id) kept = { id: input.names.id, index: nameIndex(JSON.parse(input.names.rows) as NameRow[]) };
  const { names: _names, measured, ...rest } = input;
  return rankSuggestions(kept.index, { ...rest, measured: JSON.parse(measured) as RankingInput['measured'] });
}
