import { chunks } from '../../lib/chunks.js';
import { BadInput } from '../../lib/errors.js';
import type { NotifiedCache } from '../../lib/notified-cache.js';
import { throwIfRequestAborted } from '../../lib/request-scope.js';
import { SUGGEST_NEAREST_NAMES, type ExactMatch, type Suggestion, type TermRef, type TermStore } from './store/term.store.js';
import { VALIDATE_MAX_TERMS, VALIDATE_VALUE_MAX, vocabularyName } from './term.rules.js';
import { VocabularyNames } from './vocabulary-names.js';
import { asciiNormalForm } from './name-index.js';

export type ValidationStatus = 'valid' | 'deprecated' | 'unrecognized';

export interface TermSuggestion extends TermRef {
  score: number;
  matched: string;
}

export interface ValidationResult {
  input: string;
  status: ValidationStatus;
  /** How a valid or deprecated input matched: by the term's code or its label. */
  matchedBy: 'code' | 'label' | null;
  term: TermRef | null;
  replacedBy: TermRef | null;
  /** Up to five active terms; empty for valid inputs. */
  suggestions: TermSuggestion[];
}

export interface ValidationReport {
  valid: string[];
  deprecated: string[];
  unrecognized: string[];
  results: ValidationResult[];
  /** Distinct values past SUGGESTED_INPUTS_MAX that needed suggestions and got none. */
  suggestionsOmitted: number;
}

export const SUGGESTIONS_MAX = 5;
/** Below this trigram score a candidate is noise rather than a suggestion ("hipocampus" scores 0.54 on Hippocampal region). */
export const SUGGESTION_MIN_SCORE = 0.3;
/**
 * Suggestions cost a trigram index walk per value (about 2 ms on PGlite, 0.3 ms on PostgreSQL), so one request
 * computes them for at most this many distinct values; the rest are still classified, with empty suggestions.
 */
export const SUGGESTED_INPUTS_MAX = 1000;
/** Values per statement: each statement stays short, so other requests' queries (and /health) get their turn. */
export const EXACT_MATCH_CHUNK = 1000;
export const SUGGEST_CHUNK_FIRST = 5;
export const SUGGEST_CHUNK_MAX = 200;
export const SUGGEST_STATEMENT_MS = 100;
/**
 * From this many values needing suggestions on, they are ranked on the worker pool (suggestion-ranking.ts): reading
 * every name once and counting trigrams there costs about as much as a handful of index walks.
 */
export const RANK_ON_WORKERS_FROM = 16;
/**
 * From this many distinct values on, a validation matches them against a snapshot of the vocabulary's names
 * (VocabularyNames) rather than statement by statement, reading the snapshot if none is kept; fewer values use a
 * snapshot only when one is kept.
 */
export const SNAPSHOT_FROM = 16;
/** Snapshots kept per process: one per vocabulary validated against, and one for all of them. */
export const KEPT_SNAPSHOTS_MAX = 8;

/**
 * Checks values against the vocabularies. The rule: after trimming, a value is valid when it equals the code or
 * the label of an active term, compared case- and accent-insensitively (lower(unaccent(...))). A value that names
 * a deprecated term that way is reported deprecated, with its replacement. Anything else, synonyms included, is
 * unrecognized: a synonym such as "CA1" or "mouse" is ambiguous across species ("MB" is Midbrain and the mushroom
 * body), so it is offered as the first suggestion instead of being accepted.
 */
export class TermValidationService {
  constructor(
    private readonly store: TermStore,
    /** Snapshots of names by vocabulary ('' for all), until the term tables announce a change. */
    private readonly kept?: NotifiedCache<string, VocabularyNames>,
  ) {}

  async validate(terms: readonly string[], vocabulary?: string | null): Promise<ValidationReport> {
    if (!Array.isArray(terms)) throw new BadInput('terms: expected an array of strings');
    if (terms.length > VALIDATE_MAX_TERMS) throw new BadInput(`terms: at most ${VALIDATE_MAX_TERMS} values per request (got ${terms.length})`);
    const long = terms.findIndex((t) => t.length > VALIDATE_VALUE_MAX);
    if (long >= 0) {
      throw new BadInput(`terms[${long}]: at most ${VALIDATE_VALUE_MAX} characters per value (got ${terms[long]!.length}); no term's code or label is longer`);
    }
    const voc = vocabulary?.trim() ? vocabularyName(vocabulary) : undefined;
    if (voc && !(await this.store.vocabularyExists(voc))) {
      const known = (await this.store.listVocabularies()).map((v) => v.name);
      throw new BadInput(`vocabulary: unknown vocabulary ${JSON.stringify(voc)}; known vocabularies: ${known.join(', ') || '(none)'}`);
    }

    const best = new Map<string, ExactMatch>();
    const spellings = sameNormalForm(terms);
    const consider = (found: readonly ExactMatch[]) => {
      for (const match of found) {
        if (match.kind === 'synonym') continue;
        for (const input of spellings.get(match.input)!) {
          const m = input === match.input ? match : { ...match, input };
          const prev = best.get(input);
          if (!prev || isPreferred(m, prev)) best.set(input, m);
        }
      }
    };
    let names = spellings.size >= SNAPSHOT_FROM ? await this.snapshot(voc) : this.kept?.peek(voc ?? '');
    const keys = [...spellings.keys()];
    const onSnapshot = names ? await names.matchExact(keys) : [];
    const onEngine: string[] = [];
    keys.forEach((input, i) => {
      const found = onSnapshot[i];
      if (found) consider(found);
      else onEngine.push(input);
    });
    for (const chunk of chunks(onEngine, EXACT_MATCH_CHUNK)) {
      throwIfRequestAborted();
      consider(await this.store.matchExact(chunk, voc));
    }
    const needSuggestions = [...new Set(terms.filter((t) => t.trim() && best.get(t)?.term.status !== 'active'))];
    const pending = needSuggestions.slice(0, SUGGESTED_INPUTS_MAX);
    if (pending.length >= RANK_ON_WORKERS_FROM) names ??= await this.snapshot(voc);
    const suggestions = await this.suggestions(pending, voc, names);

    const suggestionsOmitted = Math.max(0, needSuggestions.length - SUGGESTED_INPUTS_MAX);
    const report: ValidationReport = { valid: [], deprecated: [], unrecognized: [], results: [], suggestionsOmitted };
    for (const input of terms) {
      const match = best.get(input);
      const status: ValidationStatus = !match ? 'unrecognized' : match.term.status === 'active' ? 'valid' : 'deprecated';
      let list: TermSuggestion[] = [];
      if (status !== 'valid') {
        list = (suggestions.get(input) ?? []).map(({ id, vocabulary: v, code, label, score, matched }) => ({ id, vocabulary: v, code, label, score, matched }));
        const replacement = match?.term.replacedBy;
        // The curated replacement of a deprecated term beats any string similarity.
        if (replacement) list = [{ ...replacement, score: 1, matched: replacement.label }, ...list.filter((s) => s.id !== replacement.id)].slice(0, SUGGESTIONS_MAX);
      }
      report[status].push(input);
      report.results.push({
        input,
        status,
        matchedBy: match ? (match.kind as 'code' | 'label') : null,
        term: match ? { id: match.term.id, vocabulary: match.term.vocabulary, code: match.term.code, label: match.term.label, uri: match.term.uri ?? null } : null,
        replacedBy: match?.term.replacedBy ?? null,
        suggestions: list,
      });
    }
    return report;
  }

  /** The names of the vocabulary (all of them without one): the kept snapshot, or one read now and kept. */
  private async snapshot(vocabulary: string | undefined): Promise<VocabularyNames> {
    const read = () => VocabularyNames.load(this.store, vocabulary);
    return ((await this.kept?.get(vocabulary ?? '', read)) ?? (await read()));
  }

  /**
   * Suggestions for each of `pending` (distinct values), keyed by value: ranked on the worker pool against the
   * snapshot of names when there are at least RANK_ON_WORKERS_FROM values (the caller then gives one), by the
   * engine's index walk otherwise and for the values the ranking leaves to it.
   */
  private async suggestions(pending: string[], vocabulary: string | undefined, names: VocabularyNames | undefined): Promise<Map<string, Suggestion[]>> {
    const suggestions = new Map<string, Suggestion[]>();
    const collect = (found: readonly Suggestion[]) => {
      for (const s of found) {
        const list = suggestions.get(s.input);
        if (list) list.push(s);
        else suggestions.set(s.input, [s]);
      }
    };
    const opts = { vocabulary, limit: SUGGESTIONS_MAX, minScore: SUGGESTION_MIN_SCORE };
    let walk = pending;
    if (names && pending.length >= RANK_ON_WORKERS_FROM) {
      const foreign = pending.filter((p) => asciiNormalForm(p) === null);
      const norms = foreign.length ? await this.store.normalize(foreign) : new Map<string, string>();
      const values = pending.map((p) => asciiNormalForm(p) ?? norms.get(p) ?? p);
      const measured = names.foreign ? await this.store.measureForeignNames(values, vocabulary) : '[]';
      throwIfRequestAborted();
      const ranked = await names.rankSuggestions({
        measured,
        values,
        count: SUGGEST_NEAREST_NAMES,
        limit: opts.limit,
        minScore: opts.minScore,
      });
      pending.forEach((input, i) => {
        const found = ranked[i];
        if (found) suggestions.set(input, found.map((s) => ({ ...s, input, score: Math.round(s.score * 1000) / 1000 })));
      });
      walk = pending.filter((_, i) => !ranked[i]);
    }
    await inTimedStatements(walk, SUGGEST_CHUNK_FIRST, async (chunk) => collect(await this.store.suggest(chunk, opts)));
    return suggestions;
  }
}

/**
 * Runs `step` over `items` in statements sized to take about SUGGEST_STATEMENT_MS each, the first `first` items
 * long: the cost of a lookup depends on how alike the stored names are (2 ms to 100 ms each for an index walk), so
 * each statement is sized from the previous one's pace.
 */
async function inTimedStatements<T>(items: readonly T[], first: number, step: (chunk: T[]) => Promise<void>): Promise<void> {
  let size = first;
  for (let at = 0; at < items.length; ) {
    throwIfRequestAborted();
    const chunk = items.slice(at, at + size);
    const started = performance.now();
    await step(chunk);
    // Past this chunk, whatever size the next one takes: each item is looked up exactly once.
    at += chunk.length;
    const perItem = (performance.now() - started) / chunk.length;
    size = Math.max(1, Math.min(SUGGEST_CHUNK_MAX, Math.floor(SUGGEST_STATEMENT_MS / Math.max(perItem, 0.1))));
  }
}

/**
 * The distinct non-blank values, grouped by a key that only values with the same normal form share, keyed by the
 * first of each group: one of them is looked up for all. An ASCII value's key is its normal form, computed here
 * (asciiNormalForm), so ASCII values differing only in case or surrounding spaces share a key; any other value is
 * its own group. A batch of codes and labels in mixed case is half as many lookups.
 */
function sameNormalForm(values: readonly string[]): Map<string, string[]> {
  const byKey = new Map<string, string[]>();
  for (const value of new Set(values)) {
    if (!value.trim()) continue;
    const key = asciiNormalForm(value) ?? value;
    const group = byKey.get(key);
    if (group) group.push(value);
    else byKey.set(key, [value]);
  }
  return new Map([...byKey.values()].map((group) => [group[0]!, group]));
}

/** Active before deprecated, exact case before case-folded, code before label. */
function preference(m: ExactMatch): number {
  return (m.term.status === 'active' ? 0 : 4) + (m.input.trim() === (m.kind === 'code' ? m.term.code : m.term.label) ? 0 : 2) + (m.kind === 'code' ? 0 : 1);
}

/** By preference, then by term id: the same match whichever order the names were found in. */
function isPreferred(m: ExactMatch, than: ExactMatch): boolean {
  const a = preference(m);
  const b = preference(than);
  return a < b || (a === b && m.term.id < than.term.id);
}

/** Dataset metadata fields checked against the ontology (GUIDE 4, spec 7), and the vocabulary each one uses. */
export const METADATA_VOCABULARIES = {
  brain_region: 'brain_region',
  species: 'species',
  microscopy: 'microscopy_technique',
  neurotransmitter: 'neurotransmitter',
} as const;

export type MetadataTermField = keyof typeof METADATA_VOCABULARIES;
export type MetadataTermValues = Partial<Record<MetadataTermField, string | readonly string[] | null | undefined>>;

/**
 * Checks dataset metadata values; returns the matched terms per field. Throws BadInput naming each rejected value
 * with its closest terms (spec 7). Deprecated terms are rejected with their replacement unless `allowDeprecated`.
 */
export async function checkMetadataTerms(
  service: TermValidationService,
  values: MetadataTermValues,
  opts: { allowDeprecated?: boolean } = {},
): Promise<Partial<Record<MetadataTermField, TermRef[]>>> {
  const out: Partial<Record<MetadataTermField, TermRef[]>> = {};
  const problems: string[] = [];
  for (const field of Object.keys(METADATA_VOCABULARIES) as MetadataTermField[]) {
    const raw = values[field];
    if (raw === null || raw === undefined) continue;
    const list = (typeof raw === 'string' ? [raw] : [...raw]).map(String);
    const vocabulary = METADATA_VOCABULARIES[field];
    const report = await service.validate(list, vocabulary);
    out[field] = [];
    for (const r of report.results) {
      if (r.status === 'valid' || (r.status === 'deprecated' && opts.allowDeprecated)) {
        out[field]!.push(r.term!);
        continue;
      }
      const closest = r.suggestions.map((s) => `${JSON.stringify(s.label)} (${s.code})`).join(', ');
      if (r.status === 'deprecated') {
        problems.push(
          `${field}: ${JSON.stringify(r.input)} is a deprecated term of vocabulary ${vocabulary}${r.replacedBy ? `; use ${JSON.stringify(r.replacedBy.label)} (${r.replacedBy.code}) instead` : closest ? `; closest active terms: ${closest}` : ''}`,
        );
      } else {
        problems.push(`${field}: ${JSON.stringify(r.input)} is not a term of vocabulary ${vocabulary}; ${closest ? `closest terms: ${closest}` : 'no close terms; search GET /v1/ontology/terms?vocabulary=' + vocabulary + '&q=...'}`);
      }
    }
  }
  if (problems.length) throw new BadInput(problems.join('; '));
  return out;
}
