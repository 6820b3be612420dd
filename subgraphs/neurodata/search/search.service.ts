import { BadInput } from '../../../lib/errors.js';
import { decideAccess } from '../dataset-access.rules.js';
import { checkLicense } from '../dataset-metadata.rules.js';
import type { RowCounts, TermValue, Visibility } from '../dataset.model.js';
import type { Actor } from '../dataset.service.js';
import type { DatasetSearchStore } from '../store/search.store.js';
import { atomText, clauseText, parseSearchQuery, queryText, wordRuns, type Atom, type Clause, type ParsedQuery } from './search-query.js';
import type { DatasetSearchEngine, Facets, PlanClause, RecognizedTerm, SearchPlan, SearchRow, TermFilter, TermMatch } from './search.model.js';

/** The ontology lookups search needs (the ontology subgraph's exported functions). */
export interface SearchOntology {
  findTermsByName(phrases: readonly string[], vocabularies: readonly string[]): Promise<NameMatchLike[]>;
  narrowerTerms(ids: readonly string[]): Promise<string[]>;
  suggestTermsForWord(word: string, vocabularies: readonly string[], minScore: number): Promise<SuggestionLike[]>;
}

export interface NameMatchLike {
  input: string;
  kind: 'code' | 'label' | 'synonym';
  name: string;
  synonymType: string | null;
  term: { id: string; vocabulary: string; code: string; label: string };
  status: 'active' | 'deprecated';
  replacedBy: { id: string; vocabulary: string; code: string; label: string } | null;
}

export interface SuggestionLike {
  id: string;
  vocabulary: string;
  code: string;
  label: string;
  score: number;
  matched: string;
}

/** What the caller asked, as the resolver received it. */
export interface SearchInput {
  q?: string | null;
  species?: readonly string[] | null;
  brain_region?: readonly string[] | null;
  microscopy?: readonly string[] | null;
  neurotransmitter?: readonly string[] | null;
  license?: readonly string[] | null;
  year?: string | null;
  visibility?: string | null;
  limit?: number | null;
  offset?: number | null;
  facets?: boolean | null;
}

export interface SearchHit {
  row: SearchRow;
  /** Title and snippet as HTML: the text escaped, matches in <mark>. */
  titleHtml: string;
  snippetHtml: string;
  /** Row counts; null when the caller may not read the dataset's data. */
  counts: RowCounts | null;
  matchedTerms: TermMatch[];
}

export interface SearchOutcome {
  hits: SearchHit[];
  total: number;
  limit: number;
  offset: number;
  facets: Facets | null;
  query: string;
  /** The query after misspelled words were corrected; null when it ran as typed. */
  correctedQuery: string | null;
  /** The terms the query's words and the filters were read as. */
  interpreted: RecognizedTerm[];
  engine: DatasetSearchEngine['name'];
}

export const SEARCH_LIMITS = { q: 500, words: 32, values: 20, value: 200, limit: 100, defaultLimit: 20, offset: 10_000 } as const;

const VOCABULARIES = { species: 'species', brain_region: 'brain_region', microscopy: 'microscopy_technique', neurotransmitter: 'neurotransmitter' } as const;
const QUERY_VOCABULARIES = Object.values(VOCABULARIES);
/** The longest run of words read as one term name ("Primary somatosensory area barrel field" has 5). */
const MAX_NAME_WORDS = 6;
/** Synonym types that are short codes: they name a term only when typed in their own case ("CA1", "MB", "LA"). */
const CASE_SENSITIVE_SYNONYMS = new Set(['acronym', 'abbreviation', 'name_in_flywire', 'name_in_hemibrain']);
const MIN_WORD_SIMILARITY = 0.45;
const MIN_TERM_SIMILARITY = 0.5;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML, then turns the engine's \u0001...\u0002 marks into <mark>...</mark>. */
export function markedToHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]).replace(/\u0001/g, '<mark>').replace(/\u0002/g, '</mark>');
}

function checkText(field: string, value: string, max: number): string {
  if (/\u0000/.test(value)) throw new BadInput(`${field}: contains a NUL byte`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(value)) throw new BadInput(`${field}: contains control characters`);
  if (value.length > max) throw new BadInput(`${field}: at most ${max} characters (got ${value.length})`);
  return value;
}

function parseYears(value: string | null | undefined): { from: number; to: number } | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  checkText('year', value, 20);
  const m = /^\s*(\d{4})\s*(?:(?:-|\.\.|–)\s*(\d{4})\s*)?$/.exec(value);
  if (!m) throw new BadInput(`year: a year (2019) or a range (2015-2020); got ${JSON.stringify(value)}`);
  const from = Number(m[1]);
  const to = m[2] ? Number(m[2]) : from;
  if (from > to) throw new BadInput(`year: the range ${from}-${to} runs backwards`);
  return { from, to };
}

/**
 * Dataset search: reads the query (words, phrases, `or`, `-exclusions`), recognises the ontology terms it names,
 * resolves the filters, runs the engine, corrects misspelled words when nothing matched, and decides per hit what
 * the caller may see (counts only with access to the data). Every published dataset's public metadata is
 * searchable by anyone; drafts never appear.
 */
export class DatasetSearchService {
  constructor(
    private readonly store: DatasetSearchStore,
    private readonly engine: DatasetSearchEngine,
    private readonly ontology: SearchOntology,
    private readonly requestStatuses: (datasetIds: string[], requesterId: string) => Promise<Map<string, string>>,
  ) {}

  async search(viewer: Actor | null, input: SearchInput): Promise<SearchOutcome> {
    const q = checkText('q', String(input.q ?? ''), SEARCH_LIMITS.q).trim();
    const limit = input.limit ?? SEARCH_LIMITS.defaultLimit;
    const offset = input.offset ?? 0;
    if (!Number.isInteger(limit) || limit < 1 || limit > SEARCH_LIMITS.limit) throw new BadInput(`limit: 1..${SEARCH_LIMITS.limit} (got ${limit})`);
    if (!Number.isInteger(offset) || offset < 0 || offset > SEARCH_LIMITS.offset) throw new BadInput(`offset: 0..${SEARCH_LIMITS.offset} (got ${offset})`);
    const visibility = input.visibility === null || input.visibility === undefined || input.visibility === '' ? null : String(input.visibility);
    if (visibility !== null && visibility !== 'public' && visibility !== 'restricted') throw new BadInput(`visibility: public or restricted (got ${JSON.stringify(visibility.slice(0, 50))})`);
    const licenses = this.values('license', input.license).map((l) => checkLicense(l)!);
    const years = parseYears(input.year);
    const termFilters = await this.resolveFilters(input);

    const parsed = parseSearchQuery(q);
    if (parsed.must.length + parsed.mustNot.length > SEARCH_LIMITS.words) throw new BadInput(`q: at most ${SEARCH_LIMITS.words} words and phrases`);
    const base = { termFilters, licenses, years, visibility: visibility as Visibility | null, limit, offset, facets: input.facets ?? true };

    let plan = await this.plan(parsed, base);
    let result = await this.engine.search(plan);
    let corrected: string | null = null;
    if (result.total === 0 && parsed.must.length) {
      const fixed = await this.correct(parsed, plan);
      if (fixed) {
        corrected = queryText(fixed);
        plan = await this.plan(fixed, base);
        result = await this.engine.search(plan);
      }
    }
    return {
      hits: await this.present(viewer, plan, result.rows),
      total: result.total,
      limit,
      offset,
      facets: result.facets,
      query: q,
      correctedQuery: corrected,
      interpreted: [...plan.must.flatMap((c) => c.terms), ...termFilters.flatMap((f) => f.values)],
      engine: this.engine.name,
    };
  }

  private values(field: string, list: readonly string[] | null | undefined): string[] {
    const values = (list ?? []).map((v) => checkText(field, String(v), SEARCH_LIMITS.value).trim()).filter(Boolean);
    if (values.length > SEARCH_LIMITS.values) throw new BadInput(`${field}: at most ${SEARCH_LIMITS.values} values`);
    return values;
  }

  /** Each filter value must name a term of its vocabulary (code, label or synonym); it matches that term and every narrower one. */
  private async resolveFilters(input: SearchInput): Promise<TermFilter[]> {
    const out: TermFilter[] = [];
    const problems: string[] = [];
    for (const field of Object.keys(VOCABULARIES) as Array<keyof typeof VOCABULARIES>) {
      const values = this.values(field, input[field]);
      if (!values.length) continue;
      const vocabulary = VOCABULARIES[field];
      const matches = await this.ontology.findTermsByName(values, [vocabulary]);
      const resolved: RecognizedTerm[] = [];
      for (const value of values) {
        const terms = preferred(matches.filter((m) => m.input === value));
        if (!terms.length) {
          const close = await this.ontology.suggestTermsForWord(value, [vocabulary], 0.3);
          const named = close.slice(0, 5).map((s) => `${JSON.stringify(s.label)} (${s.code})`).join(', ');
          problems.push(`${field}: ${JSON.stringify(value)} is not a term of vocabulary ${vocabulary}; ${named ? `closest terms: ${named}` : `no close terms; search GET /v1/ontology/terms?vocabulary=${vocabulary}&q=...`}`);
          continue;
        }
        for (const term of terms) resolved.push({ text: value, term, matchIds: await this.ontology.narrowerTerms([term.id]) });
      }
      out.push({ field, values: resolved });
    }
    if (problems.length) throw new BadInput(problems.join('; '));
    return out;
  }

  /** The engine-neutral plan: each clause's tsquery and the terms it names. */
  private async plan(parsed: ParsedQuery, base: Omit<SearchPlan, 'must' | 'mustNot' | 'rankQuery'>): Promise<SearchPlan> {
    const clauses = await this.recognize(parsed);
    const positive = parsed.must.flatMap((c) => c.anyOf.map(atomText));
    const [rankQuery, ...tsqueries] = await this.store.tsqueries([positive.join(' or '), ...clauses.must.map((c) => c.text), ...clauses.mustNot.map((c) => c.text)]);
    const must: PlanClause[] = clauses.must.map((c, i) => ({ ...c, tsquery: tsqueries[i] }));
    const mustNot: PlanClause[] = clauses.mustNot.map((c, i) => ({ ...c, tsquery: tsqueries[clauses.must.length + i] }));
    return {
      ...base,
      // A clause of stop words only ("the") constrains nothing and is dropped, as PostgreSQL drops it.
      must: must.filter((c) => c.tsquery || c.terms.length),
      mustNot,
      rankQuery: positive.length ? rankQuery : null,
    };
  }

  /**
   * Finds the ontology terms the query names: each phrase and `or` alternative whole, and in runs of plain words the
   * longest sequence that is a term's code, label or synonym ("C. elegans", "nerve ring", "hippocampus"). The words
   * of a recognised name become one clause, matched by the text or by an annotation with the term or a narrower one.
   */
  private async recognize(parsed: ParsedQuery): Promise<{ must: Array<Omit<PlanClause, 'tsquery'>>; mustNot: Array<Omit<PlanClause, 'tsquery'>> }> {
    const candidates = new Set<string>();
    for (const c of parsed.must) for (const a of c.anyOf) candidates.add(a.text);
    for (const a of parsed.mustNot) candidates.add(a.text);
    const runs = wordRuns(parsed);
    for (const run of runs) {
      for (let i = 0; i < run.length; i++) {
        for (let n = 2; n <= MAX_NAME_WORDS && i + n <= run.length; n++) candidates.add(run.slice(i, i + n).map((k) => parsed.must[k].anyOf[0].text).join(' '));
      }
    }
    const matches = await this.ontology.findTermsByName([...candidates].filter((c) => c.length >= 2), QUERY_VOCABULARIES);
    const termsOf = async (text: string): Promise<RecognizedTerm[]> => {
      const terms = preferred(matches.filter((m) => m.input === text && nameCounts(m)));
      return Promise.all(terms.map(async (term) => ({ text, term, matchIds: await this.ontology.narrowerTerms([term.id]) })));
    };
    const clauseOf = async (c: Clause): Promise<Omit<PlanClause, 'tsquery'>> => ({
      text: clauseText(c),
      terms: (await Promise.all(c.anyOf.map((a) => termsOf(a.text)))).flat(),
    });

    // Merge runs of words that together name a term, longest first, left to right.
    const merged: Clause[] = [];
    const mergedTerms = new Map<Clause, RecognizedTerm[]>();
    const inRun = new Map<number, number[]>();
    for (const run of runs) for (const k of run) inRun.set(k, run);
    for (let k = 0; k < parsed.must.length; ) {
      const run = inRun.get(k);
      let taken = 1;
      if (run) {
        const pos = run.indexOf(k);
        for (let n = Math.min(MAX_NAME_WORDS, run.length - pos); n >= 2; n--) {
          const text = run.slice(pos, pos + n).map((j) => parsed.must[j].anyOf[0].text).join(' ');
          const terms = await termsOf(text);
          if (terms.length) {
            const clause: Clause = { anyOf: [{ text, phrase: false }] };
            merged.push(clause);
            mergedTerms.set(clause, terms);
            taken = n;
            break;
          }
        }
      }
      if (taken === 1) merged.push(parsed.must[k]);
      k += taken;
    }
    const must = await Promise.all(merged.map(async (c) => (mergedTerms.has(c) ? { text: clauseText(c), terms: mergedTerms.get(c)! } : clauseOf(c))));
    const mustNot = await Promise.all(parsed.mustNot.map((a) => clauseOf({ anyOf: [a] })));
    return { must, mustNot };
  }

  /**
   * When nothing matched: each plain word that no catalogue text holds and that names no term is replaced by the
   * closest catalogue word or term name (trigram similarity), whichever is closer. Null when nothing changed.
   */
  private async correct(parsed: ParsedQuery, plan: SearchPlan): Promise<ParsedQuery | null> {
    const recognized = new Set(plan.must.flatMap((c) => c.terms.map((t) => t.text.toLowerCase())));
    const plain = (a: Atom) => !a.phrase && a.text.length >= 3 && /^[\p{L}\p{N}'-]+$/u.test(a.text) && !recognized.has(a.text.toLowerCase());
    const words = [...new Set(parsed.must.flatMap((c) => c.anyOf.filter(plain).map((a) => a.text.toLowerCase())))];
    if (!words.length) return null;
    const known = await this.store.knownWords(words);
    const unknown = words.filter((w) => !known.has(w));
    if (!unknown.length) return null;
    const nearest = await this.store.nearestWords(unknown, MIN_WORD_SIMILARITY);
    const replacement = new Map<string, string>();
    for (const w of unknown) {
      const [term] = await this.ontology.suggestTermsForWord(w, QUERY_VOCABULARIES, MIN_TERM_SIMILARITY);
      const word = nearest.get(w);
      if (term && (!word || term.score > word.score)) replacement.set(w, term.matched);
      else if (word) replacement.set(w, word.word);
    }
    if (!replacement.size) return null;
    const fix = (a: Atom): Atom => (plain(a) && replacement.has(a.text.toLowerCase()) ? { text: replacement.get(a.text.toLowerCase())!, phrase: false } : a);
    return { must: parsed.must.map((c) => ({ anyOf: c.anyOf.map(fix) })), mustNot: parsed.mustNot };
  }

  /** Hits as the caller may see them: counts only with access to the data; which annotations matched which term. */
  private async present(viewer: Actor | null, plan: SearchPlan, rows: SearchRow[]): Promise<SearchHit[]> {
    const actor = viewer ?? { id: '', superuser: false };
    const restricted = rows.filter((r) => r.visibility === 'restricted' && r.ownerId !== actor.id).map((r) => r.datasetId);
    const statuses = viewer && restricted.length ? await this.requestStatuses(restricted, viewer.id) : new Map<string, string>();
    const recognized = [...plan.must.flatMap((c) => c.terms), ...plan.termFilters.flatMap((f) => f.values)];
    return rows.map((row) => {
      const access = decideAccess(actor, { ownerId: row.ownerId, maintainerIds: row.maintainerIds, visibility: row.visibility, status: 'published' }, statuses.get(row.datasetId) ?? null);
      const annotations: TermValue[] = [...row.metadata.species, ...row.metadata.brainRegions, ...row.metadata.microscopy, ...row.metadata.neurotransmitters];
      const matchedTerms: TermMatch[] = [];
      for (const r of recognized) {
        const ids = new Set(r.matchIds);
        for (const a of annotations) if (ids.has(a.termId)) matchedTerms.push({ matched: r.text, term: r.term, annotation: a });
      }
      const description = row.metadata.description;
      return {
        row,
        titleHtml: markedToHtml(row.titleMarked || row.metadata.title),
        // Line breaks and runs of spaces say nothing in a one-line snippet.
        snippetHtml: markedToHtml((row.snippetMarked || (description.length > 240 ? `${description.slice(0, 240).replace(/\s+\S*$/, '')} …` : description)).replace(/\s+/g, ' ').trim()),
        counts: access.canReadData ? row.rowCounts : null,
        matchedTerms,
      };
    });
  }
}

/** A match counts as naming a term unless it is a short code (acronym, abbreviation) typed in another case. */
function nameCounts(m: NameMatchLike): boolean {
  if (m.kind !== 'synonym' || !m.synonymType || !CASE_SENSITIVE_SYNONYMS.has(m.synonymType)) return true;
  return m.input.trim() === m.name && /[A-Z]/.test(m.name);
}

/** The distinct terms matched, a deprecated one replaced by its successor. */
function preferred(matches: NameMatchLike[]): RecognizedTerm['term'][] {
  const out = new Map<string, RecognizedTerm['term']>();
  for (const m of matches) {
    const t = m.status === 'deprecated' && m.replacedBy ? m.replacedBy : m.term;
    out.set(t.id, { id: t.id, vocabulary: t.vocabulary, code: t.code, label: t.label });
  }
  return [...out.values()];
}
