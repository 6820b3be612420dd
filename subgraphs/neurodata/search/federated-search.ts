import { BadInput } from '../../../lib/errors.js';
import { remainingRequestTime } from '../../../lib/request-scope.js';
import type { SubgraphDeps } from '../../../lib/subgraph.js';
import { federation, type ClusterAnswer } from '../../federation/index.js';
import { ontology } from '../../ontology/index.js';
import { markedToHtml, SEARCH_LIMITS, type SearchInput } from './search.service.js';
import type { DatasetSearchHit, DatasetSearchResult, FacetCount, FederatedSearchCluster, SearchFacets, SearchHitCluster, SearchTermMatch } from './search.types.js';
import type { RowCountsView, TermValue } from '../dataset.types.js';

/** Federated search pages reach at most this deep: every cluster is asked for offset + limit hits. */
export const FEDERATED_SEARCH_DEPTH = 100;
/** Time kept back from the request's deadline to merge and answer after the slowest cluster was given up. */
const ANSWER_RESERVE_MS = 100;
/** Term facets list the largest values only, like a local search. */
const TERM_FACET_CUT = 50;

const TERM_VALUE = '{ term_id code label vocabulary uri term { id } }';
const FACET_VALUES = '{ value label count }';

/**
 * The document sent to every active cluster: the same search, answered locally there (no `scope`, so a cluster
 * never fans out again), from offset 0. It selects every field of DatasetSearchHit except `cluster`, which this
 * cluster fills in. Variable types are the argument types of searchDatasets (schema/supergraph.graphql).
 */
export const FEDERATED_SEARCH_DOCUMENT = `query FederatedSearch($q: String, $species: [String!], $brain_region: [String!], $microscopy: [String!], $neurotransmitter: [String!], $license: [String!], $year: String, $visibility: String, $limit: Int, $offset: Int, $facets: Boolean) {
  searchDatasets(q: $q, species: $species, brain_region: $brain_region, microscopy: $microscopy, neurotransmitter: $neurotransmitter, license: $license, year: $year, visibility: $visibility, limit: $limit, offset: $offset, facets: $facets) {
    total
    facets { species ${FACET_VALUES} brain_region ${FACET_VALUES} microscopy ${FACET_VALUES} neurotransmitter ${FACET_VALUES} license ${FACET_VALUES} year ${FACET_VALUES} visibility ${FACET_VALUES} }
    items {
      dataset_id slug title description version visibility license year keywords
      species ${TERM_VALUE} brain_regions ${TERM_VALUE} microscopy ${TERM_VALUE} neurotransmitters ${TERM_VALUE}
      score
      highlight { title snippet }
      matched_terms { matched term_code term_label annotation ${TERM_VALUE} }
      counts { neurons connections chemical_connections electrical_connections morphologies }
      url published_at version_published_at
    }
  }
}`;

/** The fan-out search needs: this cluster's name, the time limit, and a way to ask every active cluster. */
export interface SearchFederation {
  clusterName: string;
  searchTimeoutMs: number;
  query<T>(req: { document: string; variables: Record<string, unknown>; timeoutMs: number; signal?: AbortSignal }): Promise<ClusterAnswer<T>[]>;
  /** This cluster's term ids for (vocabulary, code) pairs, keyed by termKey(); codes it lacks are absent. */
  localTerms(pairs: readonly { vocabulary: string; code: string }[]): Promise<Map<string, string>>;
}

const termKey = (vocabulary: string, code: string) => `${vocabulary}\u0000${code}`;

export function searchFederationOf(deps: SubgraphDeps): SearchFederation {
  return {
    clusterName: deps.config.federation.clusterName,
    searchTimeoutMs: deps.config.federation.searchTimeoutMs,
    query: <T>(req: { document: string; variables: Record<string, unknown>; timeoutMs: number; signal?: AbortSignal }) => federation.use(deps).queryActiveClusters<T>(req),
    async localTerms(pairs) {
      if (!pairs.length) return new Map();
      const vocabularies = [...new Set(pairs.map((p) => p.vocabulary))];
      const matches = await ontology.use(deps).findTermsByName([...new Set(pairs.map((p) => p.code))], vocabularies);
      const out = new Map<string, string>();
      for (const m of matches) if (m.kind === 'code') out.set(termKey(m.term.vocabulary, m.term.code), m.term.id);
      return out;
    },
  };
}

/** The filters and query forwarded as they were given (paging is the federation's own). */
export type ForwardedSearch = Omit<SearchInput, 'limit' | 'offset'>;

export interface FederatedSearchArgs {
  search: ForwardedSearch;
  limit?: number | null;
  offset?: number | null;
  /** This cluster, as its hits name it. */
  self: SearchHitCluster;
  /** The request's signal: ends every remote call when the request ends. */
  signal?: AbortSignal;
  /** Runs this cluster's own search for the hits [0, depth), as the caller (counts by the caller's access). */
  local(depth: number): Promise<DatasetSearchResult>;
}

/** Checks limit and offset for federation scope: the usual ranges, and offset + limit at most 100. */
export function federatedPage(limit: number | null | undefined, offset: number | null | undefined): { limit: number; offset: number } {
  const l = limit ?? SEARCH_LIMITS.defaultLimit;
  const o = offset ?? 0;
  if (!Number.isInteger(l) || l < 1 || l > SEARCH_LIMITS.limit) throw new BadInput(`limit: 1..${SEARCH_LIMITS.limit} (got ${l})`);
  if (!Number.isInteger(o) || o < 0 || o > SEARCH_LIMITS.offset) throw new BadInput(`offset: 0..${SEARCH_LIMITS.offset} (got ${o})`);
  if (o + l > FEDERATED_SEARCH_DEPTH) throw new BadInput(`federated search pages reach at most ${FEDERATED_SEARCH_DEPTH} hits deep (offset + limit = ${o + l})`);
  return { limit: l, offset: o };
}

interface RemoteSearch {
  searchDatasets: unknown;
}

/**
 * Searches this cluster and every active cluster of the federation at once and merges the answers into one
 * ranking (see docs/search.md, "Federated search"). A cluster that does not answer in time, or answers
 * something of the wrong shape, is reported in `clusters`; it never fails the search.
 */
export async function searchFederation(fed: SearchFederation, args: FederatedSearchArgs): Promise<DatasetSearchResult> {
  const { limit, offset } = federatedPage(args.limit, args.offset);
  const depth = offset + limit;
  const facetsWanted = args.search.facets ?? true;
  const variables: Record<string, unknown> = { limit: depth, offset: 0, facets: facetsWanted };
  for (const [k, v] of Object.entries(args.search)) if (k !== 'facets' && v !== undefined && v !== null) variables[k] = v;

  // The remote calls end when the request does, when the local search fails, or at the deadline.
  const stop = new AbortController();
  const signal = args.signal ? AbortSignal.any([args.signal, stop.signal]) : stop.signal;
  const timeoutMs = Math.max(1, Math.floor(Math.min(fed.searchTimeoutMs, remainingRequestTime() - ANSWER_RESERVE_MS)));
  const started = performance.now();
  const remote = fed.query<RemoteSearch>({ document: FEDERATED_SEARCH_DOCUMENT, variables, timeoutMs, signal });
  remote.catch(() => undefined); // awaited below; only keeps an early local failure from leaving it unhandled
  let local: DatasetSearchResult;
  try {
    local = await args.local(depth);
  } catch (e) {
    stop.abort(new Error('the local search failed'));
    throw e;
  }
  const localLatency = Math.round((performance.now() - started) * 1000) / 1000;
  const answers = await remote;

  const rankings: DatasetSearchHit[][] = [local.items];
  const facetSets: SearchFacets[] = local.facets ? [local.facets] : [];
  let total = local.total;
  const clusters: FederatedSearchCluster[] = [
    { cluster_id: null, name: args.self.name, base_url: args.self.base_url, status: 'ok', hits: local.total, latency_ms: localLatency, error: null },
  ];
  for (const answer of answers) {
    const entry: FederatedSearchCluster = {
      cluster_id: answer.cluster.id,
      name: answer.cluster.name,
      base_url: answer.cluster.base_url,
      status: answer.status,
      hits: null,
      latency_ms: answer.latency_ms,
      error: answer.error,
    };
    clusters.push(entry);
    if (answer.status !== 'ok') continue;
    const cluster: SearchHitCluster = { id: answer.cluster.id, name: answer.cluster.name, base_url: answer.cluster.base_url };
    let envelope: { total: number; items: unknown[]; facets: SearchFacets | null };
    try {
      envelope = remoteEnvelope(answer.data);
    } catch (e) {
      entry.status = 'error';
      entry.error = `the answer has the wrong shape: ${(e as Error).message}`;
      continue;
    }
    const hits: DatasetSearchHit[] = [];
    const problems: string[] = [];
    envelope.items.slice(0, depth).forEach((item, i) => {
      try {
        hits.push(remoteHit(item, `items[${i}]`, cluster));
      } catch (e) {
        if (!(e instanceof ShapeError)) throw e;
        problems.push(e.message);
      }
    });
    if (problems.length) {
      entry.status = 'error';
      entry.error = `${problems.length} of ${Math.min(envelope.items.length, depth)} hits had the wrong shape and were dropped: ${problems.slice(0, 3).join('; ')}`;
    }
    entry.hits = envelope.total;
    total += envelope.total;
    if (facetsWanted && envelope.facets) facetSets.push(envelope.facets);
    rankings.push(stableSort(hits, byRank));
  }

  await relinkTerms(fed, rankings.slice(1).flat());
  return {
    ...local,
    items: mergeRankings(rankings, depth).slice(offset, depth),
    total,
    limit,
    offset,
    facets: local.facets ? mergeFacets(facetSets) : null,
    scope: 'federation',
    clusters,
  };
}

/** Score descending; ties: the most recently published version, then the title. */
function byRank(a: DatasetSearchHit, b: DatasetSearchHit): number {
  if (a.score !== b.score) return b.score - a.score;
  const newer = b.version_published_at.getTime() - a.version_published_at.getTime();
  if (newer) return newer;
  return a.title < b.title ? -1 : a.title > b.title ? 1 : 0;
}

function stableSort<T>(items: T[], cmp: (a: T, b: T) => number): T[] {
  return items.map((item, i) => ({ item, i })).sort((a, b) => cmp(a.item, b.item) || a.i - b.i).map((x) => x.item);
}

/**
 * Merges each cluster's ranking (each already in rank order) into one, keeping each cluster's own order; equal
 * ranks go to the earlier cluster (this one first). With no other cluster the local order stays as it is.
 */
function mergeRankings(rankings: DatasetSearchHit[][], depth: number): DatasetSearchHit[] {
  const heads = rankings.map(() => 0);
  const out: DatasetSearchHit[] = [];
  while (out.length < depth) {
    let best = -1;
    for (let r = 0; r < rankings.length; r++) {
      const hit = rankings[r][heads[r]];
      if (hit && (best < 0 || byRank(hit, rankings[best][heads[best]]) < 0)) best = r;
    }
    if (best < 0) break;
    out.push(rankings[best][heads[best]++]);
  }
  return out;
}

const FACET_KEYS = ['species', 'brain_region', 'microscopy', 'neurotransmitter', 'license', 'year', 'visibility'] as const;
const TERM_FACETS = new Set<string>(['species', 'brain_region', 'microscopy', 'neurotransmitter']);

/** Sums the counts per (facet, value); labels from the first cluster that gave the value; count desc, then value. */
function mergeFacets(sets: SearchFacets[]): SearchFacets {
  const merged = {} as SearchFacets;
  for (const key of FACET_KEYS) {
    const byValue = new Map<string, FacetCount>();
    for (const set of sets) {
      for (const f of set[key]) {
        const seen = byValue.get(f.value);
        if (seen) seen.count += f.count;
        else byValue.set(f.value, { value: f.value, label: f.label, count: f.count });
      }
    }
    const sorted = [...byValue.values()].sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
    merged[key] = TERM_FACETS.has(key) ? sorted.slice(0, TERM_FACET_CUT) : sorted;
  }
  return merged;
}

// ---- What another cluster answered, checked field by field: a wrong shape drops the hit, never fails the search.

class ShapeError extends Error {}

function fail(path: string, what: string): never {
  throw new ShapeError(`${path}: ${what}`);
}

function obj(v: unknown, path: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(path, 'missing or not an object');
  return v as Record<string, unknown>;
}
function str(v: unknown, path: string): string {
  if (typeof v !== 'string') fail(path, 'missing or not a string');
  return v;
}
function strOrNull(v: unknown, path: string): string | null {
  return v === null ? null : str(v, path);
}
function int(v: unknown, path: string, min = Number.MIN_SAFE_INTEGER): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) fail(path, 'missing or not a whole number');
  return v;
}
function num(v: unknown, path: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(path, 'missing or not a number');
  return v;
}
function list<T>(v: unknown, path: string, each: (x: unknown, p: string) => T): T[] {
  if (!Array.isArray(v)) fail(path, 'missing or not a list');
  return v.map((x, i) => each(x, `${path}[${i}]`));
}
function date(v: unknown, path: string): Date {
  const d = new Date(str(v, path));
  if (Number.isNaN(d.getTime())) fail(path, 'not a date');
  return d;
}
function httpUrl(v: unknown, path: string): string {
  const s = str(v, path);
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    fail(path, 'not a URL');
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') fail(path, 'not an http(s) URL');
  return s;
}

/**
 * Another cluster's highlight HTML made safe to show as ours: only <mark> and </mark> are kept as markup, every
 * other character is (re-)escaped, so a cluster cannot put markup of its own into our answer.
 */
function safeHighlight(html: string): string {
  const marked = html
    .replace(/[\u0001\u0002]/g, '')
    .replace(/<mark>/g, '\u0001')
    .replace(/<\/mark>/g, '\u0002')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
  return markedToHtml(marked);
}

function termValue(v: unknown, path: string): TermValue {
  const o = obj(v, path);
  const term = obj(o.term, `${path}.term`);
  return {
    term_id: str(o.term_id, `${path}.term_id`),
    code: str(o.code, `${path}.code`),
    label: str(o.label, `${path}.label`),
    vocabulary: str(o.vocabulary, `${path}.vocabulary`),
    uri: strOrNull(o.uri, `${path}.uri`),
    term: { id: str(term.id, `${path}.term.id`) },
  };
}

function termMatch(v: unknown, path: string): SearchTermMatch {
  const o = obj(v, path);
  return {
    matched: str(o.matched, `${path}.matched`),
    term_code: str(o.term_code, `${path}.term_code`),
    term_label: str(o.term_label, `${path}.term_label`),
    annotation: termValue(o.annotation, `${path}.annotation`),
  };
}

function counts(v: unknown, path: string): RowCountsView | null {
  if (v === null) return null;
  const o = obj(v, path);
  return {
    neurons: int(o.neurons, `${path}.neurons`, 0),
    connections: int(o.connections, `${path}.connections`, 0),
    chemical_connections: int(o.chemical_connections, `${path}.chemical_connections`, 0),
    electrical_connections: int(o.electrical_connections, `${path}.electrical_connections`, 0),
    morphologies: int(o.morphologies, `${path}.morphologies`, 0),
    // Not asked of peers (one running a release without these tables would refuse the whole query).
    synapses: 0,
    roi_connections: 0,
    neuron_annotations: 0,
    rois: 0,
    neuron_rois: 0,
  };
}

function remoteHit(v: unknown, path: string, cluster: SearchHitCluster): DatasetSearchHit {
  const o = obj(v, path);
  const highlight = obj(o.highlight, `${path}.highlight`);
  return {
    dataset_id: str(o.dataset_id, `${path}.dataset_id`),
    slug: str(o.slug, `${path}.slug`),
    title: str(o.title, `${path}.title`),
    description: str(o.description, `${path}.description`),
    version: int(o.version, `${path}.version`, 1),
    visibility: str(o.visibility, `${path}.visibility`),
    license: strOrNull(o.license, `${path}.license`),
    year: int(o.year, `${path}.year`),
    keywords: list(o.keywords, `${path}.keywords`, str),
    species: list(o.species, `${path}.species`, termValue),
    brain_regions: list(o.brain_regions, `${path}.brain_regions`, termValue),
    microscopy: list(o.microscopy, `${path}.microscopy`, termValue),
    neurotransmitters: list(o.neurotransmitters, `${path}.neurotransmitters`, termValue),
    score: num(o.score, `${path}.score`),
    highlight: { title: safeHighlight(str(highlight.title, `${path}.highlight.title`)), snippet: safeHighlight(str(highlight.snippet, `${path}.highlight.snippet`)) },
    matched_terms: list(o.matched_terms, `${path}.matched_terms`, termMatch),
    counts: counts(o.counts, `${path}.counts`),
    url: httpUrl(o.url, `${path}.url`),
    published_at: date(o.published_at, `${path}.published_at`),
    version_published_at: date(o.version_published_at, `${path}.version_published_at`),
    cluster,
  };
}

function facetValue(v: unknown, path: string): FacetCount {
  const o = obj(v, path);
  return { value: str(o.value, `${path}.value`), label: str(o.label, `${path}.label`), count: int(o.count, `${path}.count`, 0) };
}

function remoteFacets(v: unknown, path: string): SearchFacets | null {
  if (v === null || v === undefined) return null;
  const o = obj(v, path);
  const facets = {} as SearchFacets;
  for (const key of FACET_KEYS) facets[key] = list(o[key], `${path}.${key}`, facetValue);
  return facets;
}

/** The answer around the hits: a total, a list of items, facets (or null). Wrong here, the whole answer is dropped. */
function remoteEnvelope(data: unknown): { total: number; items: unknown[]; facets: SearchFacets | null } {
  const found = obj(obj(data, 'data').searchDatasets, 'searchDatasets');
  const items = found.items;
  if (!Array.isArray(items)) fail('searchDatasets.items', 'missing or not a list');
  return { total: int(found.total, 'searchDatasets.total', 0), items, facets: remoteFacets(found.facets, 'searchDatasets.facets') };
}

/**
 * Points the term annotations of other clusters' hits at this cluster's terms, by vocabulary and code: their term
 * ids are their own, and `term` resolves against this cluster's ontology. An annotation whose code this cluster
 * does not know is left out of the hit (its text still matched where it was searched).
 */
async function relinkTerms(fed: SearchFederation, hits: DatasetSearchHit[]): Promise<void> {
  if (!hits.length) return;
  const pairs = new Map<string, { vocabulary: string; code: string }>();
  const values = (h: DatasetSearchHit) => [...h.species, ...h.brain_regions, ...h.microscopy, ...h.neurotransmitters, ...h.matched_terms.map((m) => m.annotation)];
  for (const h of hits) for (const v of values(h)) pairs.set(termKey(v.vocabulary, v.code), { vocabulary: v.vocabulary, code: v.code });
  const local = await fed.localTerms([...pairs.values()]);
  const relink = (list: TermValue[]) =>
    list.flatMap((v) => {
      const id = local.get(termKey(v.vocabulary, v.code));
      return id ? [{ ...v, term_id: id, term: { id } }] : [];
    });
  for (const h of hits) {
    h.species = relink(h.species);
    h.brain_regions = relink(h.brain_regions);
    h.microscopy = relink(h.microscopy);
    h.neurotransmitters = relink(h.neurotransmitters);
    h.matched_terms = h.matched_terms.flatMap((m) => relink([m.annotation]).map((annotation) => ({ ...m, annotation })));
  }
}
