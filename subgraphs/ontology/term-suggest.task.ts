import { rankSuggestions, type NameRow, type RankedSuggestion, type RankingInput } from './suggestion-ranking.js';

/**
 * Worker-thread entry point (lib/workers/pool.ts): measuring every name of the vocabularies against hundreds of
 * values, and ranking what comes closest, is CPU work that must not hold up the request thread. The names arrive as
 * the JSON text PostgreSQL wrote, so the request thread does not decode them either.
 */
export async function rankSuggestionsTask(input: Omit<RankingInput, 'names' | 'measured'> & { names: string; measured: string }): Promise<(RankedSuggestion[] | null)[]> {
  return rankSuggestions({ ...input, names: JSON.parse(input.names) as NameRow[], measured: JSON.parse(input.measured) as RankingInput['measured'] });
}
