import { performance } from 'node:perf_hooks';
import { sql, type SQL } from 'drizzle-orm';
import { startTestApp } from '../test/kit/app.js';
import type { Db } from '../lib/db/relational.js';
import type { DatasetMetadata, RowCounts, TermValue } from '../subgraphs/neurodata/dataset.model.js';
import { neurodata } from '../subgraphs/neurodata/index.js';
import { reindexCatalogue } from '../subgraphs/neurodata/search/search-engine.js';
import type { SearchPlan } from '../subgraphs/neurodata/search/search.model.js';
import { DatasetSearchService, type SearchInput, type SearchOutcome } from '../subgraphs/neurodata/search/search.service.js';
import { ontology as ontologySubgraph } from '../subgraphs/ontology/index.js';
import { percentile, seededRandom } from './lib.js';

/**
 * Dataset search on PostgreSQL full text over a catalogue of 10,000 synthetic published datasets (seeded, so every
 * run searches the same text), one caller at a time: DatasetSearchService.search against the statement the store
 * generates for the same request written out by hand with its values inline, run on the same database in the same
 * run, interleaved. The store's own statements given the service's plan sit in between, to tell the cost of the
 * SQL's shape from the cost of the work around it.
 */
const DATASETS = 10_000;
const SEED = 20261124;
const RUNS = 200;
const WARMUP = 20;
const INSERT_BATCH = 1000;
/** An Allen region whose subtree in the shipped vocabulary holds about 100 terms. */
const REGION = { code: 'MBA:1089', label: 'Hippocampal formation' };
const WORD = 'interneuron';
const PHRASE = 'dendritic spine';

/**
 * Neuroscience words, most frequent first: drawn with Zipf weights, so a few are in most documents and the query
 * word (rank 79 of 153) is in about one in eight, a search with a thousand-odd hits to rank.
 */
const WORDS = `neurons synaptic connectivity cortex reconstruction dataset cells circuit neuronal imaging
  electron microscopy volume connectome mouse brain layer neural activity dendrites axons synapses wiring
  segmentation tissue recordings morphology sections resolution region projections inhibitory excitatory
  pyramidal network responses stimulus visual sensory motor cortical thalamic hippocampal cerebellar olfactory
  behaviour signals spikes membrane potential receptors channels neurotransmitter release plasticity learning
  memory development adult larval juvenile male female slice vivo vitro labelled fluorescent genetic transgenic
  annotation proofreading skeleton mesh automated manual ground truth interneuron
  dense sparse local long-range feedback feedforward recurrent oscillations gamma theta rhythm
  calcium voltage optogenetic stimulation electrophysiology whole-cell extracellular tracing viral anterograde
  retrograde laminar columnar topographic map orientation selectivity direction tuning receptive population
  coding decoding model simulation statistics distribution density volume-based serial block-face transmission
  scanning focused ion beam array tomography expansion light-sheet two-photon confocal super-resolution
  glia astrocytes microglia oligodendrocytes myelin vasculature capillaries nucleus soma bouton spine shaft
  vesicle cleft postsynaptic presynaptic density mitochondria organelles ultrastructure`.split(/\s+/).filter(Boolean);

/** Multi-word terms of the field, kept whole in the text so that phrase queries find them. */
const PHRASES = [
  PHRASE, 'synaptic vesicle', 'axon initial segment', 'place cell', 'grid cell', 'mossy fiber', 'climbing fiber',
  'parallel fiber', 'spike timing', 'long-term potentiation', 'gap junction', 'receptive field', 'calcium imaging',
  'patch clamp', 'serial section', 'electron tomography', 'barrel column', 'thalamocortical loop',
  'feedforward inhibition', 'recurrent excitation', 'neuromuscular junction', 'motor neuron', 'sensory neuron',
  'projection neuron', 'cell type', 'wiring diagram', 'spine neck', 'dendritic arbor', 'synaptic cleft', 'basket cell',
];
const NAMES = ['Ada Moreno', 'Ben Okafor', 'Chen Wei', 'Dara Novak', 'Elif Kaya', 'Femi Adeyemi', 'Greta Lund', 'Hiro Tanaka', 'Ines Duarte', 'Jonas Berg', 'Kavya Rao', 'Lena Vogel'];
const LICENSES = ['CC-BY-4.0', 'CC-BY-4.0', 'CC-BY-4.0', 'CC0-1.0', 'CC-BY-NC-4.0', 'CC-BY-SA-4.0', 'ODC-By-1.0', 'MIT'];

interface Term {
  id: string;
  vocabulary: string;
  code: string;
  label: string;
  uri: string | null;
}

function zipfPicker<T>(items: readonly T[], rnd: () => number): () => T {
  const cumulative: number[] = [];
  let sum = 0;
  for (let r = 1; r <= items.length; r++) cumulative.push((sum += 1 / r));
  return () => {
    const x = rnd() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return items[lo];
  };
}

/** Deterministic ids, so the ties in the ordering (and so the pages) are the same in every run. */
function seededUuid(rnd: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(rnd() * 16).toString(16));
  hex[12] = '4';
  hex[16] = '89ab'[Math.floor(rnd() * 4)];
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

interface DatasetRow {
  id: string;
  slug: string;
  visibility: 'public' | 'restricted';
  published_at: string;
  metadata: DatasetMetadata;
  row_counts: RowCounts;
}

function generateDatasets(terms: Term[], rnd: () => number): DatasetRow[] {
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const word = zipfPicker(WORDS, rnd);
  const of = (vocabulary: string) => terms.filter((t) => t.vocabulary === vocabulary);
  const species = zipfPicker(of('species'), rnd);
  const regions = of('brain_region');
  const microscopy = zipfPicker(of('microscopy_technique'), rnd);
  const transmitters = of('neurotransmitter');
  const value = (t: Term): TermValue => ({ termId: t.id, vocabulary: t.vocabulary, code: t.code, label: t.label, uri: t.uri });
  const distinct = (n: number, draw: () => Term) => [...new Map(Array.from({ length: n }, draw).map((t) => [t.id, t])).values()].map(value);
  const words = (n: number) => Array.from({ length: n }, word).join(' ');
  const sentence = () => {
    const text = rnd() < 0.3 ? `${words(int(3, 7))} ${pick(PHRASES)} ${words(int(3, 7))}` : words(int(8, 16));
    return `${text[0].toUpperCase()}${text.slice(1)}.`;
  };
  const start = Date.UTC(2015, 0, 1);
  const span = Date.UTC(2026, 10, 1) - start;
  return Array.from({ length: DATASETS }, (_, i) => {
    const title = rnd() < 0.5 ? `${words(int(2, 4))} ${pick(PHRASES)} ${words(int(1, 3))}` : words(int(5, 9));
    const year = int(2005, 2026);
    const metadata: DatasetMetadata = {
      title: `${title[0].toUpperCase()}${title.slice(1)}`,
      description: Array.from({ length: int(3, 6) }, sentence).join(' '),
      species: distinct(1, species),
      brainRegions: distinct(int(1, 3), () => pick(regions)),
      microscopy: distinct(1, microscopy),
      neurotransmitters: distinct(int(0, 2), () => pick(transmitters)),
      keywords: [...new Set(Array.from({ length: int(3, 6) }, () => (rnd() < 0.3 ? pick(PHRASES) : word())))],
      license: pick(LICENSES),
      creators: Array.from({ length: int(1, 3) }, () => ({ name: pick(NAMES), orcid: null, affiliation: null })),
      relatedPublication: rnd() < 0.6 ? { doi: null, citation: `${pick(NAMES)} et al. (${year}). ${words(int(4, 8))}.`, url: null, year } : null,
      doi: null,
    };
    const neurons = int(100, 200_000);
    const connections = neurons * int(5, 50);
    return {
      id: seededUuid(rnd),
      slug: `bench_search_${i}`,
      visibility: rnd() < 0.85 ? 'public' : 'restricted',
      published_at: new Date(start + Math.floor(rnd() * span)).toISOString(),
      metadata,
      row_counts: { neurons, connections, chemicalConnections: connections, electricalConnections: 0, morphologies: int(0, 500), synapses: 0, roiConnections: 0, neuronAnnotations: 0, rois: 0, neuronRois: 0 },
    };
  });
}

async function insertDatasets(db: Db, rows: DatasetRow[], ownerId: string): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_BATCH) {
    const batch = JSON.stringify(rows.slice(i, i + INSERT_BATCH));
    const records = sql`jsonb_to_recordset(${batch}::jsonb) AS x(id uuid, slug text, visibility text, published_at timestamptz, metadata jsonb, row_counts jsonb)`;
    await db.execute(sql`INSERT INTO neurodata.datasets (id, slug, title, metadata, owner_id, visibility, status, latest_version, created_at, updated_at, published_at)
      SELECT id, slug, metadata->>'title', metadata, ${ownerId}::uuid, visibility, 'published', 1, published_at, published_at, published_at FROM ${records}`);
    await db.execute(sql`INSERT INTO neurodata.dataset_versions (dataset_id, version, metadata, assets, row_counts, published_at, published_by)
      SELECT id, 1, metadata, '[]'::jsonb, row_counts, published_at, ${ownerId}::uuid FROM ${records}`);
  }
}

// The statements DatasetSearchStore.search generates, written out with their values inline, as one would type them.
const CFG = `'neurodata.english_unaccent'::regconfig`;
const WEIGHTS = `'{0.05, 0.2, 0.5, 1.0}'::float4[]`;
const MARKS = `StartSel=\\x01, StopSel=\\x02`;
const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;

function pageSql(where: string, text: string | null): string {
  const q = text === null ? null : `websearch_to_tsquery(${CFG}, ${literal(text)})`;
  const headline = (column: string, options: string) => (q ? `ts_headline(${CFG}, ${column}, ${q}, E'${options}, ${MARKS}')` : 'NULL');
  return `WITH hits AS (
  SELECT s.dataset_id, ${q ? `ts_rank(${WEIGHTS}, s.document, ${q})` : '0'}::float8 AS score, s.version_published_at, s.title
  FROM neurodata.dataset_search s WHERE ${where}
), page AS (
  SELECT dataset_id, score, count(*) OVER () AS total FROM hits ORDER BY score DESC, version_published_at DESC, title, dataset_id LIMIT 20
)
SELECT p.total, p.score, s.dataset_id, s.slug, s.visibility, s.version, s.metadata, s.row_counts, s.year, s.published_at, s.version_published_at,
       d.owner_id, d.maintainer_ids::text[] AS maintainer_ids,
       ${headline(`s.title`, 'HighlightAll=true')} AS title_marked,
       ${headline(`s.metadata->>'description'`, 'MaxFragments=2, MaxWords=30, MinWords=12, ShortWord=2, FragmentDelimiter=" … "')} AS snippet_marked
FROM page p JOIN neurodata.dataset_search s ON s.dataset_id = p.dataset_id JOIN neurodata.datasets d ON d.id = p.dataset_id
ORDER BY p.score DESC, s.version_published_at DESC, s.title, s.dataset_id`;
}

/** The first page and the facet counts over every hit, in one statement: the hits are read once. */
function pageAndFacetsSql(where: string): string {
  return `WITH hits AS (
  SELECT s.dataset_id, s.title, s.facet_terms, s.license, s.year, s.visibility, s.version_published_at FROM neurodata.dataset_search s WHERE ${where}
), page AS (
  SELECT dataset_id, version_published_at, title FROM hits ORDER BY version_published_at DESC, title, dataset_id LIMIT 20
), facets AS (
  SELECT 'total' AS facet, NULL AS value, NULL AS label, count(*) AS n FROM hits
  UNION ALL (SELECT facet, value, label, n FROM (
    SELECT t->>'f' AS facet, t->>'c' AS value, t->>'l' AS label, count(*) AS n,
           row_number() OVER (PARTITION BY t->>'f' ORDER BY count(*) DESC, t->>'l', t->>'c') AS rank
    FROM hits, jsonb_array_elements(hits.facet_terms) t GROUP BY 1, 2, 3) ranked WHERE rank <= 50)
  UNION ALL (SELECT 'license', license, license, count(*) FROM hits WHERE license IS NOT NULL GROUP BY license ORDER BY 4 DESC, 2)
  UNION ALL (SELECT 'year', year::text, year::text, count(*) FROM hits GROUP BY year ORDER BY year DESC)
  UNION ALL (SELECT 'visibility', visibility, visibility, count(*) FROM hits GROUP BY visibility ORDER BY 4 DESC, 2)
)
SELECT (SELECT json_agg(r ORDER BY r.version_published_at DESC, r.title, r.dataset_id) FROM (
          SELECT s.dataset_id, s.slug, s.title, s.visibility, s.version, s.metadata, s.row_counts, s.year, s.published_at, s.version_published_at,
                 d.owner_id, d.maintainer_ids
          FROM page p JOIN neurodata.dataset_search s ON s.dataset_id = p.dataset_id JOIN neurodata.datasets d ON d.id = p.dataset_id) r) AS page,
       (SELECT json_agg(f) FROM facets f) AS facets`;
}

interface Stats {
  p50: number;
  p99: number;
  mean: number;
}

function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), mean: sorted.reduce((a, b) => a + b, 0) / sorted.length };
}

/**
 * Runs the variants in turn, `RUNS` times after `WARMUP` rounds, starting each round with the next one, so that a
 * busy moment of a shared machine falls on all of them alike.
 */
async function interleaved(variants: Array<() => Promise<unknown>>): Promise<Stats[]> {
  for (let i = 0; i < WARMUP; i++) for (const v of variants) await v();
  const samples = variants.map(() => [] as number[]);
  for (let i = 0; i < RUNS; i++) {
    for (let k = 0; k < variants.length; k++) {
      const j = (i + k) % variants.length;
      const t = performance.now();
      await variants[j]();
      samples[j].push(performance.now() - t);
    }
  }
  return samples.map(stats);
}

async function rowsOf<T>(db: Db, q: SQL): Promise<T[]> {
  return ((await db.execute(q)) as unknown as { rows: T[] }).rows;
}

const ms = (v: number) => `${v.toFixed(2).padStart(7)} ms`;
const line = (name: string, s: Stats, tail = '') => console.log(`  ${name.padEnd(52)} p50 ${ms(s.p50)}   p99 ${ms(s.p99)}   mean ${ms(s.mean)}${tail}`);
const ratio = (a: Stats, b: Stats) => `x${(a.p50 / b.p50).toFixed(2)} p50, x${(a.p99 / b.p99).toFixed(2)} p99, x${(a.mean / b.mean).toFixed(2)} mean`;

interface Workload {
  name: string;
  input: SearchInput;
  hand: string;
  /** What the service does for this request beyond the hand-written statement. */
  beyond: string;
}

export default async function searchBench(): Promise<void> {
  const setupStarted = performance.now();
  const t = await startTestApp({}, { listen: true });
  try {
    const appSeconds = (performance.now() - setupStarted) / 1000;
    const db = t.app.stores.relational.db;
    const s = await neurodata.services(t.app.deps);
    const terms = await rowsOf<Term>(db, sql`SELECT id, vocabulary, code, label, uri FROM ontology.terms WHERE status = 'active' ORDER BY vocabulary, code`);

    let phase = performance.now();
    const rnd = seededRandom(SEED);
    const rows = generateDatasets(terms, rnd);
    await insertDatasets(db, rows, seededUuid(rnd));
    const insertSeconds = (performance.now() - phase) / 1000;

    phase = performance.now();
    let reported = 0;
    const reindexed = await reindexCatalogue(s.searchStore, (done, total) => {
      if (done - reported >= 2000 || done === total) {
        reported = done;
        console.log(`  reindexCatalogue: ${done.toLocaleString('en')} / ${total.toLocaleString('en')} (${((performance.now() - phase) / 1000).toFixed(1)} s)`);
      }
    });
    const reindexSeconds = (performance.now() - phase) / 1000;
    const [counts] = await rowsOf<{ docs: number; words: number; size: string }>(db, sql`SELECT (SELECT count(*) FROM neurodata.dataset_search)::int AS docs, (SELECT count(*) FROM neurodata.dataset_search_words)::int AS words,
      pg_size_pretty(pg_total_relation_size('neurodata.dataset_search')) AS size`);
    console.log(
      `setup on ${t.app.stores.relational.kind}: service start (migrations, ${terms.length.toLocaleString('en')} ontology terms seeded) ${appSeconds.toFixed(1)} s; ` +
        `${DATASETS.toLocaleString('en')} datasets generated and inserted ${insertSeconds.toFixed(1)} s; reindexCatalogue ${reindexSeconds.toFixed(1)} s ` +
        `(${reindexed.indexed.toLocaleString('en')} rows); total ${((performance.now() - setupStarted) / 1000).toFixed(1)} s`,
    );
    console.log(`  catalogue: ${counts.docs.toLocaleString('en')} rows (${counts.size} with indexes), ${counts.words.toLocaleString('en')} distinct words; seed ${SEED}`);

    // The same service, its engine wrapped to keep the plan it is handed: the store's SQL alone, for the same request.
    let captured: SearchPlan | null = null;
    const ontology = {
      findTermsByName: (phrases: readonly string[], vocabularies: readonly string[]) => ontologySubgraph.use(t.app.deps).findTermsByName(phrases, vocabularies),
      narrowerTerms: (ids: readonly string[]) => ontologySubgraph.use(t.app.deps).narrowerTerms(ids),
      suggestTermsForWord: (word: string, vocabularies: readonly string[], minScore: number) => ontologySubgraph.use(t.app.deps).suggestTermsForWord(word, vocabularies, minScore),
    };
    const planOf = async (input: SearchInput): Promise<SearchPlan> => {
      const spy = new DatasetSearchService(s.searchStore, { name: 'postgres', search: async (plan) => s.searchStore.search((captured = plan)) }, ontology, async () => new Map());
      await spy.search(null, input);
      return captured!;
    };

    const regionIds = (await s.search.search(null, { brain_region: [REGION.code], facets: false, limit: 1 })).interpreted[0].matchIds;
    const workloads: Workload[] = [
      {
        name: `(a) one word: q=${WORD}`,
        input: { q: WORD, facets: false },
        hand: pageSql(`s.document @@ websearch_to_tsquery(${CFG}, ${literal(WORD)})`, WORD),
        beyond: 'the service reads the query, looks the word up as an ontology term name, has the engine parse it (websearch_to_tsquery), then runs the page',
      },
      {
        name: `(b) phrase: q="${PHRASE}"`,
        input: { q: `"${PHRASE}"`, facets: false },
        hand: pageSql(`s.document @@ websearch_to_tsquery(${CFG}, ${literal(`"${PHRASE}"`)})`, `"${PHRASE}"`),
        beyond: 'as for (a): the phrase is looked up as a term name and parsed by the engine before the page runs',
      },
      {
        name: `(c) filter: brain_region=${REGION.code} (${REGION.label})`,
        input: { brain_region: [REGION.code], facets: false },
        hand: pageSql(`s.term_ids && '{${regionIds.join(',')}}'::uuid[]`, null),
        beyond: `the service resolves ${REGION.code} by name and expands it to its ${regionIds.length} terms (two ontology queries), parses the empty query, then runs the page`,
      },
      {
        name: '(d) facets: q empty, facets=true, limit 20',
        input: { q: '', facets: true, limit: 20 },
        hand: pageAndFacetsSql('true'),
        beyond: 'the service parses the empty query, then runs the page and the facets as two statements that each read every hit (the hand SQL reads them once)',
      },
    ];

    console.log(
      `workload: one caller; ${RUNS} runs of each of the three after ${WARMUP} warm-up rounds, interleaved; ${t.app.stores.relational.kind}. ` +
        `brain_region ${REGION.code} (${REGION.label}) expands to ${regionIds.length} terms`,
    );
    const summary: string[] = [];
    for (const w of workloads) {
      const plan = await planOf(w.input);
      const outcome: SearchOutcome = await s.search.search(null, w.input);
      const handRows = await rowsOf<Record<string, unknown>>(db, sql.raw(w.hand));
      const handIds = w.input.facets
        ? ((handRows[0].page ?? []) as Array<{ dataset_id: string }>).map((r) => r.dataset_id)
        : handRows.map((r) => r.dataset_id as string);
      const handTotal = w.input.facets
        ? Number((handRows[0].facets as Array<{ facet: string; n: number }>).find((f) => f.facet === 'total')?.n ?? 0)
        : Number(handRows[0]?.total ?? 0);
      const same = JSON.stringify(handIds) === JSON.stringify(outcome.hits.map((h) => h.row.datasetId)) && handTotal === outcome.total;
      const interpreted = outcome.interpreted.map((r) => `${r.text} -> ${r.term.code} (${r.matchIds.length} terms)`).join(', ') || 'no ontology term';
      console.log(`${w.name}: ${outcome.total.toLocaleString('en')} hits, page of ${outcome.hits.length}; read as: ${interpreted}; hand SQL gives ${same ? 'the same page and total' : 'A DIFFERENT PAGE OR TOTAL'}`);

      const [service, store, hand] = await interleaved([
        () => s.search.search(null, w.input),
        () => s.searchStore.search(plan),
        () => db.execute(sql.raw(w.hand)),
      ]);
      line('DatasetSearchService.search(null, input)', service, `   ${ratio(service, hand)} of hand SQL`);
      line(`store SQL alone (DatasetSearchStore.search(plan))`, store, `   ${ratio(store, hand)} of hand SQL`);
      line('hand SQL, values inline (baseline)', hand);
      console.log(`    beyond the hand SQL: ${w.beyond}`);
      summary.push(`  ${w.name.padEnd(58)} service p50 ${ms(service.p50)} p99 ${ms(service.p99)}   hand SQL p50 ${ms(hand.p50)} p99 ${ms(hand.p99)}   service/hand x${(service.p50 / hand.p50).toFixed(2)} p50, x${(service.p99 / hand.p99).toFixed(2)} p99`);
    }
    console.log('summary:');
    for (const l of summary) console.log(l);
    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
    const m = process.memoryUsage();
    console.log(`  memory after the run: rss ${mb(m.rss)}, heap used ${mb(m.heapUsed)}`);
  } finally {
    await t.close();
  }
}
