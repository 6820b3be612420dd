import type { FastifyBaseLogger } from 'fastify';
import type { Client, CollectionCreateSchema, SearchParams } from 'typesense';
import { ServiceUnavailable } from '../../../lib/errors.js';
import type { TermValue } from '../dataset.model.js';
import type { DatasetSearchStore, SearchDocument } from '../store/search.store.js';
import { parseSearchQuery, type Atom } from './search-query.js';
import { reindexCatalogue, type ManagedSearchEngine } from './catalogue.js';
import type { DatasetSearchEngine, FacetValue, Facets, PlanClause, RecognizedTerm, SearchPlan, SearchResultPage } from './search.model.js';

const COLLECTION = 'neurodata_datasets';
/** Datasets per catalogue batch and per import request (the same size as the PostgreSQL re-index). */
const BATCH = 200;
/** Values shown per term facet (the largest counts), as the PostgreSQL engine shows. */
const TERM_FACET_VALUES = 50;
/**
 * Typesense has one max_facet_values for every facet of a request; this is enough for every licence, year and
 * visibility value, and the term facets are cut to TERM_FACET_VALUES afterwards.
 */
const ALL_FACET_VALUES = 1000;
/** Marks around matches in highlights, as the PostgreSQL engine sets them; control characters, which metadata text cannot hold. */
const START = '\u0001';
const STOP = '\u0002';
/** Words around each match in a description snippet (about what ts_headline shows). */
const SNIPPET_WORDS = 12;

const TERM_FACETS = ['species', 'brain_region', 'microscopy', 'neurotransmitter'] as const;
/**
 * The searched text, in the PostgreSQL weight order (A title, B keywords, C description, D term labels with creators,
 * citation and slug). Typesense ranks a record by its best field and breaks ties by the field's weight.
 */
const TEXT_FIELDS = ['title', 'keywords', 'description', 'term_labels', 'credits'] as const;
const TEXT_WEIGHTS = [15, 8, 4, 1, 1];
/**
 * Typesense packs the number of query words matched into the bits of text_match from 59 up, and typos, proximity and
 * field weight below; divided by this, a score reads as "words matched" plus a fraction for the quality of the match.
 */
const TEXT_MATCH_UNIT = 2 ** 59;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A catalogue row as the collection holds it. */
interface IndexedDataset {
  id: string;
  /** Stored, not indexed: for whoever reads the collection directly. */
  slug: string;
  title: string;
  description: string;
  keywords: string[];
  term_labels: string[];
  credits: string[];
  term_ids: string[];
  /** "code<TAB>label" of each annotation, so that a facet count names both. */
  species: string[];
  brain_region: string[];
  microscopy: string[];
  neurotransmitter: string[];
  license?: string;
  year: number;
  visibility: string;
  version: number;
  published_at: number;
  version_published_at: number;
}

interface TypesenseHit {
  document: { id: string };
  text_match?: number;
  text_match_info?: { score?: string };
  highlight?: Record<string, { snippet?: string; value?: string } | undefined>;
}

interface TypesenseResult {
  found?: number;
  hits?: TypesenseHit[];
  facet_counts?: Array<{ field_name: string; counts: Array<{ value: string; count: number }> }>;
  error?: string;
  code?: number;
}

function collectionSchema(): CollectionCreateSchema {
  return {
    name: COLLECTION,
    fields: [
      { name: 'title', type: 'string', sort: true },
      { name: 'description', type: 'string' },
      { name: 'keywords', type: 'string[]' },
      { name: 'term_labels', type: 'string[]' },
      { name: 'credits', type: 'string[]' },
      { name: 'term_ids', type: 'string[]' },
      ...TERM_FACETS.map((name) => ({ name, type: 'string[]' as const, facet: true, optional: true })),
      { name: 'license', type: 'string', facet: true, optional: true },
      { name: 'year', type: 'int32', facet: true },
      { name: 'visibility', type: 'string', facet: true },
      { name: 'version', type: 'int32' },
      { name: 'published_at', type: 'int64' },
      { name: 'version_published_at', type: 'int64' },
    ],
    default_sorting_field: 'version_published_at',
    // PostgreSQL's parser reads "FIB-SEM" as fib-sem, fib and sem; Typesense would otherwise index one word "fibsem".
    token_separators: ['-', '/'],
  };
}

/**
 * Term ids without their hyphens: one token whatever the collection's separators, so that an exact filter on them
 * never depends on how Typesense splits words.
 */
const termToken = (id: string): string => id.toLowerCase().replace(/-/g, '');

function toIndexed(doc: SearchDocument): IndexedDataset {
  const m = doc.metadata;
  const facet = (values: TermValue[] | undefined) => [...new Set((values ?? []).map((t) => `${t.code}\t${t.label}`))];
  const annotations = [...(m.species ?? []), ...(m.brainRegions ?? []), ...(m.microscopy ?? []), ...(m.neurotransmitters ?? [])];
  const credits = [...(m.creators ?? []).map((c) => c.name), m.relatedPublication?.citation ?? '', doc.slug].filter((s) => s && s.trim());
  return {
    id: doc.datasetId,
    slug: doc.slug,
    title: m.title ?? '',
    description: m.description ?? '',
    keywords: m.keywords ?? [],
    term_labels: [...new Set(annotations.flatMap((t) => [t.label, t.code]))],
    credits,
    term_ids: [...new Set(doc.termIds.map(termToken))],
    species: facet(m.species),
    brain_region: facet(m.brainRegions),
    microscopy: facet(m.microscopy),
    neurotransmitter: facet(m.neurotransmitters),
    ...(doc.license ? { license: doc.license } : {}),
    year: doc.year,
    visibility: doc.visibility,
    version: doc.version,
    published_at: doc.publishedAt.getTime(),
    version_published_at: doc.versionPublishedAt.getTime(),
  };
}

/**
 * A value inside filter_by: Typesense reads everything between backticks as one literal (commas, parentheses, && and
 * || included) and has no escape for a backtick itself, so backticks are dropped; a trailing `*` would ask for a
 * prefix match, and the index drops the symbol anyway.
 */
function literal(value: string): string {
  return `\`${value.replace(/[`*]/g, ' ').replace(/\s+/g, ' ').trim()}\``;
}

const list = (values: readonly string[]): string => `[${values.map(literal).join(', ')}]`;

const termTokens = (terms: readonly RecognizedTerm[]): string[] => [...new Set(terms.flatMap((t) => t.matchIds).map(termToken))];

/** A word or phrase as the `q` parameter reads it; null when nothing searchable is left. */
function queryAtom(a: Atom): string | null {
  // A leading `-` would make Typesense exclude the word, and quotes would open a phrase.
  const words = a.text
    .split(/\s+/)
    .map((w) => w.replace(/"/g, '').replace(/^-+/, ''))
    .filter((w) => /[\p{L}\p{N}]/u.test(w));
  if (!words.length) return null;
  return a.phrase ? `"${words.join(' ')}"` : words.join(' ');
}

/** The words and phrases a clause accepts (any one will do). */
function alternatives(c: PlanClause): Atom[] {
  // A run of plain words read as one term name ("nerve ring") is one alternative, not words to split again.
  if (c.terms.some((t) => t.text === c.text)) return [{ text: c.text, phrase: false }];
  return parseSearchQuery(c.text).must.flatMap((clause) => clause.anyOf);
}

/** The text of one alternative as a filter: any searched field holding all its words (no typos, in any order). */
function textFilter(a: Atom): string | null {
  const value = a.text.replace(/[`*"]/g, ' ').trim();
  if (!/[\p{L}\p{N}]/u.test(value)) return null;
  return `(${TEXT_FIELDS.map((f) => `${f}:${literal(value)}`).join(' || ')})`;
}

/**
 * How the plan's clauses map onto one Typesense request. Typesense's `q` is all-words-required (with
 * drop_tokens_threshold 0), with "phrases" and -exclusions, and it has no OR; so:
 * - a clause of one word or phrase that names no term goes into `q`: ranked, typo-tolerant, highlighted;
 * - a clause naming an ontology term is matched by annotation only: `term_ids` must hold the term or a narrower one.
 *   PostgreSQL also accepts the words in the text; here the recognised name is trusted to mean the term, and the
 *   datasets found are those annotated with it (or a subregion, subspecies...);
 * - an `or` clause becomes a filter: any of its alternatives, each either its terms' annotation or its words in one
 *   of the searched fields. Filters match whole words without typos and take no part in ranking or highlighting,
 *   so such alternatives rank and highlight only through the other words of the query;
 * - an excluded word or phrase becomes `-word` / `-"phrase"` in `q`, and the terms it names `term_ids:!=[...]`.
 * Returns null when a filter can match nothing (a filter value whose term has no ids).
 */
function translate(plan: SearchPlan): { q: string; filter: string } | null {
  const words: string[] = [];
  const conds: string[] = [];
  for (const c of plan.must) {
    const alts = alternatives(c);
    if (!c.terms.length && alts.length === 1) {
      const q = queryAtom(alts[0]);
      if (q) words.push(q);
      continue;
    }
    const parts: string[] = [];
    const ids = termTokens(c.terms);
    if (ids.length) parts.push(`term_ids:=${list(ids)}`);
    for (const a of alts) {
      if (c.terms.some((t) => t.text === a.text)) continue;
      const f = textFilter(a);
      if (f) parts.push(f);
    }
    if (parts.length) conds.push(`(${parts.join(' || ')})`);
  }
  for (const c of plan.mustNot) {
    // A stop word alone excludes nothing in PostgreSQL either.
    if (c.tsquery) {
      for (const a of alternatives(c)) {
        const q = queryAtom(a);
        if (q) words.push(`-${q}`);
      }
    }
    const ids = termTokens(c.terms);
    if (ids.length) conds.push(`term_ids:!=${list(ids)}`);
  }
  for (const f of plan.termFilters) {
    const ids = termTokens(f.values);
    if (!ids.length) return null;
    conds.push(`term_ids:=${list(ids)}`);
  }
  if (plan.licenses.length) conds.push(`license:=${list(plan.licenses)}`);
  if (plan.years) conds.push(`year:[${Math.trunc(plan.years.from)}..${Math.trunc(plan.years.to)}]`);
  if (plan.visibility) conds.push(`visibility:=${literal(plan.visibility)}`);
  // Exclusions alone are fine: Typesense reads a query of -words only as "everything but".
  return { q: words.length ? words.join(' ') : '*', filter: conds.join(' && ') };
}

const byCountThenLabel = (a: FacetValue, b: FacetValue) => b.count - a.count || a.label.localeCompare(b.label);

function toFacets(counts: TypesenseResult['facet_counts']): Facets {
  const of = (field: string) => counts?.find((f) => f.field_name === field)?.counts ?? [];
  const term = (field: string): FacetValue[] =>
    of(field)
      .map(({ value, count }) => {
        const tab = value.indexOf('\t');
        return tab < 0 ? { value, label: value, count } : { value: value.slice(0, tab), label: value.slice(tab + 1), count };
      })
      .sort(byCountThenLabel)
      .slice(0, TERM_FACET_VALUES);
  const plain = (field: string): FacetValue[] => of(field).map(({ value, count }) => ({ value: String(value), label: String(value), count }));
  return {
    species: term('species'),
    brain_region: term('brain_region'),
    microscopy: term('microscopy'),
    neurotransmitter: term('neurotransmitter'),
    license: plain('license').sort(byCountThenLabel),
    year: plain('year').sort((a, b) => Number(b.value) - Number(a.value)),
    visibility: plain('visibility').sort(byCountThenLabel),
  };
}

const NO_FACETS: Facets = { species: [], brain_region: [], microscopy: [], neurotransmitter: [], license: [], year: [], visibility: [] };

/** The description snippet, with " … " where Typesense cut the text (as ts_headline's fragments read). */
function snippetOf(marked: string | undefined, description: string): string {
  if (!marked || !marked.includes(START)) return '';
  const plain = marked.replace(/[\u0001\u0002]/g, '').trim();
  const text = description.trim();
  return `${text.startsWith(plain) ? '' : '… '}${marked.trim()}${text.endsWith(plain) ? '' : ' …'}`;
}

const statusOf = (err: unknown): number | undefined => (err as { httpStatus?: number } | null)?.httpStatus;
const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/**
 * Dataset search on Typesense. The PostgreSQL catalogue rows stay the source: each commit that changes what search
 * shows of a dataset copies its row here (or drops it), a re-index rebuilds the collection from them, and every hit is
 * completed from them, so a stale or missing copy can cost a hit its rank but never show data the rows do not hold.
 * It is a ManagedSearchEngine by shape: naming that interface would import search-engine.ts, which builds this class.
 */
export class TypesenseSearchEngine implements ManagedSearchEngine {
  readonly name = 'typesense' as const;
  /** The collection exists (created on first use); null until checked, or after Typesense lost it. */
  private ready: Promise<void> | null = null;
  /** Per dataset, the end of its queue of copies: each waits for the one before, so an older copy never lands last. */
  private readonly queues = new Map<string, Promise<void>>();

  constructor(
    private readonly client: Client,
    private readonly store: DatasetSearchStore,
    private readonly log: FastifyBaseLogger,
  ) {}

  async search(plan: SearchPlan): Promise<SearchResultPage> {
    const translated = translate(plan);
    if (!translated) return { rows: [], total: 0, facets: plan.facets ? NO_FACETS : null };
    const request: SearchParams<IndexedDataset> & { collection: string } = {
      collection: COLLECTION,
      q: translated.q,
      query_by: TEXT_FIELDS.join(','),
      query_by_weights: TEXT_WEIGHTS.join(','),
      ...(translated.filter ? { filter_by: translated.filter } : {}),
      sort_by: '_text_match:desc,version_published_at:desc,title:asc',
      // Every word is required, as in PostgreSQL; typos are forgiven, and the last word may be a prefix (which
      // stands in for the stemming PostgreSQL does: "neuron" finds "neurons").
      drop_tokens_threshold: 0,
      num_typos: 2,
      typo_tokens_threshold: 1,
      prefix: true,
      // The field a word matched in decides the rank (title > keywords > description > labels), not an exact
      // whole-field match or the number of fields that matched.
      prioritize_exact_match: false,
      prioritize_num_matching_fields: false,
      offset: plan.offset,
      limit: plan.limit,
      ...(plan.facets ? { facet_by: [...TERM_FACETS, 'license', 'year', 'visibility'].join(','), max_facet_values: ALL_FACET_VALUES, facet_strategy: 'exhaustive' as const } : {}),
      include_fields: 'id',
      highlight_fields: 'title,description',
      highlight_full_fields: 'title',
      highlight_start_tag: START,
      highlight_end_tag: STOP,
      highlight_affix_num_tokens: SNIPPET_WORDS,
      enable_highlight_v1: false,
    };
    const result = await this.query(request);
    const hits = (result.hits ?? []).filter((h) => UUID.test(h.document.id));
    const rows = await this.store.rowsByIds(hits.map((h) => h.document.id));
    const byId = new Map(hits.map((h) => [h.document.id, h]));
    for (const row of rows) {
      const hit = byId.get(row.datasetId)!;
      row.score = Number(hit.text_match_info?.score ?? hit.text_match ?? 0) / TEXT_MATCH_UNIT;
      const title = hit.highlight?.title;
      const marked = title?.value ?? title?.snippet;
      row.titleMarked = marked?.includes(START) ? marked : '';
      row.snippetMarked = snippetOf(hit.highlight?.description?.snippet, row.metadata.description);
    }
    // A copy whose row is gone (a dataset deleted while Typesense was unreachable) is dropped on sight.
    const found = new Set(rows.map((r) => r.datasetId));
    for (const h of hits) if (!found.has(h.document.id)) this.changed(h.document.id);
    return { rows, total: result.found ?? rows.length, facets: plan.facets ? toFacets(result.facet_counts) : null };
  }

  /**
   * One search, sent as a multi_search POST: term filters list every narrower term of a region (hundreds of ids),
   * longer than the query string of a GET may be.
   */
  private async query(request: SearchParams<IndexedDataset> & { collection: string }, retried = false): Promise<TypesenseResult> {
    let result: TypesenseResult | undefined;
    try {
      await this.ensureCollection();
      const response = (await this.client.multiSearch.perform({ searches: [request] })) as unknown as { results: TypesenseResult[] };
      result = response.results[0];
    } catch (err) {
      this.log.error({ err: messageOf(err), status: statusOf(err) }, 'typesense search failed');
      throw new ServiceUnavailable('dataset search is unavailable: the search engine did not answer; try again later');
    }
    if (result?.error) {
      if (result.code === 404 && !retried) {
        // The collection went away (dropped by hand, or a new node): create it and ask again.
        this.ready = null;
        return this.query(request, true);
      }
      this.log.error({ err: result.error, status: result.code, q: request.q, filter: request.filter_by }, 'typesense refused a search');
      throw new Error(`typesense refused the search: ${result.error}`);
    }
    return result ?? {};
  }

  /** Never throws: a failed copy is logged and left for the next change of the dataset or a re-index to repair. */
  changed(datasetId: string): void {
    const previous = this.queues.get(datasetId) ?? Promise.resolve();
    const next = previous
      .then(() => this.copy(datasetId))
      .catch((err) => this.log.warn({ datasetId, err: messageOf(err) }, 'typesense: dataset not updated in the search index; a re-index (npm run search:reindex) repairs it'));
    this.queues.set(datasetId, next);
    void next.then(() => {
      if (this.queues.get(datasetId) === next) this.queues.delete(datasetId);
    });
  }

  /** Copies the dataset's catalogue row as it is now (read when its turn comes, not when it was queued), or drops it. */
  private async copy(datasetId: string, retried = false): Promise<void> {
    const [doc] = await this.store.documents([datasetId]);
    await this.ensureCollection();
    try {
      if (doc) await this.client.collections<IndexedDataset>(COLLECTION).documents().upsert(toIndexed(doc));
      else await this.client.collections<IndexedDataset>(COLLECTION).documents(datasetId).delete();
    } catch (err) {
      if (statusOf(err) !== 404) throw err;
      if (!doc) return; // already absent
      if (retried) throw err;
      // The collection itself is missing: create it and copy again.
      this.ready = null;
      await this.copy(datasetId, true);
    }
  }

  /**
   * Rebuilds the PostgreSQL catalogue rows first (they are the source), then drops and recreates the collection and
   * imports every row, reporting progress after each imported batch. Searches made meanwhile find only the datasets
   * imported so far.
   */
  async reindex(onProgress?: (done: number, total: number) => void): Promise<{ indexed: number; removed: number }> {
    const { removed, ids } = await reindexCatalogue(this.store);
    await this.client
      .collections(COLLECTION)
      .delete()
      .catch((err) => {
        if (statusOf(err) !== 404) throw err;
      });
    this.ready = null;
    await this.ensureCollection();
    let indexed = 0;
    for (let i = 0; i < ids.length; i += BATCH) {
      const docs = (await this.store.documents(ids.slice(i, i + BATCH))).map(toIndexed);
      if (docs.length) {
        const results = await this.client.collections<IndexedDataset>(COLLECTION).documents().import(docs, { action: 'upsert', throwOnFail: false });
        const failed = results.filter((r) => !r.success);
        if (failed.length) {
          const first = failed[0];
          throw new Error(`typesense refused ${failed.length} of ${docs.length} datasets (first: ${first.document?.id ?? first.id ?? '?'}: ${first.error})`);
        }
        indexed += docs.length;
      }
      onProgress?.(Math.min(i + BATCH, ids.length), ids.length);
    }
    return { indexed, removed };
  }

  /** Creates the collection when it is missing; checked once, and again after a failure or a lost collection. */
  private ensureCollection(): Promise<void> {
    this.ready ??= (async () => {
      if (await this.client.collections(COLLECTION).exists()) return;
      await this.client
        .collections()
        .create(collectionSchema())
        .catch((err) => {
          // Created meanwhile by a concurrent copy or re-index, with the same schema.
          if (statusOf(err) !== 409) throw err;
        });
    })().catch((err) => {
      this.ready = null;
      throw err;
    });
    return this.ready;
  }
}
