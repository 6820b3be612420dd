import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../lib/db/relational.js';
import type { z } from 'zod';
import { namedQuery } from '../../../lib/db/named-query.js';
import { col, queryRow, queryRows, rowOf } from '../../../lib/db/rows.js';
import { VISIBILITIES, type DatasetMetadata, type Visibility } from '../dataset.model.js';
import type { FacetValue, Facets, PlanClause, SearchPlan, SearchResultPage, SearchRow } from '../search/search.model.js';
import { METADATA, ROW_COUNTS } from './dataset.columns.js';

/** The text search configuration of the catalogue (migration 0008): English stemming after unaccent. */
const CONFIG = sql.raw(`'neurodata.english_unaccent'::regconfig`);
/** ts_rank weights for D, C, B, A: term labels and creators, description, keywords, title. */
const WEIGHTS = sql.raw(`'{0.05, 0.2, 0.5, 1.0}'::float4[]`);
/** What a dataset annotated with a term the query names scores, on top of its text rank (a keyword's weight). */
const TERM_MATCH_SCORE = 0.5;
/** Values shown per term facet (the largest counts); license, year and visibility show all. */
const TERM_FACET_VALUES = 50;
/** Marks around matches in highlights; control characters, which metadata text cannot hold. */
const START = '\u0001';
const STOP = '\u0002';

const json = (v: unknown): SQL => sql`${JSON.stringify(v)}::jsonb`;
const uuids = (ids: readonly string[]): SQL => sql`ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid)`;
const texts = (values: readonly string[]): SQL => sql`(SELECT jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;

/** The text of the term annotations of a metadata document `m` (label and code of each). */
const TERM_TEXT = sql.raw(`coalesce((SELECT string_agg((t->>'label') || ' ' || (t->>'code'), ' ')
  FROM jsonb_array_elements(coalesce(m->'species', '[]') || coalesce(m->'brainRegions', '[]') || coalesce(m->'microscopy', '[]') || coalesce(m->'neurotransmitters', '[]')) t), '')`);
const KEYWORD_TEXT = sql.raw(`coalesce((SELECT string_agg(k, ' ') FROM jsonb_array_elements_text(coalesce(m->'keywords', '[]')) k), '')`);
const CREATOR_TEXT = sql.raw(`coalesce((SELECT string_agg(c->>'name', ' ') FROM jsonb_array_elements(coalesce(m->'creators', '[]')) c), '')`);

/**
 * The catalogue rows of the published datasets `where` selects, built from the dataset and its latest published
 * version: the one definition of a search document, used by sync, backfill and re-index alike.
 */
function documentsOf(where: SQL): SQL {
  return sql`SELECT d.id AS dataset_id, d.slug, coalesce(m->>'title', '') AS title, d.visibility, v.version, v.metadata, v.row_counts, m->>'license' AS license,
      coalesce((m->'relatedPublication'->>'year')::int, extract(year FROM d.published_at)::int) AS year,
      ARRAY(SELECT DISTINCT (t->>'termId')::uuid FROM jsonb_array_elements(coalesce(m->'species', '[]') || coalesce(m->'brainRegions', '[]')
        || coalesce(m->'microscopy', '[]') || coalesce(m->'neurotransmitters', '[]')) t) AS term_ids,
      (SELECT coalesce(jsonb_agg(DISTINCT jsonb_build_object('f', f.facet, 'c', t->>'code', 'l', t->>'label')), '[]')
        FROM (VALUES ('species', 'species'), ('brain_region', 'brainRegions'), ('microscopy', 'microscopy'), ('neurotransmitter', 'neurotransmitters')) f(facet, key),
        jsonb_array_elements(coalesce(m->f.key, '[]')) t) AS facet_terms,
      d.published_at, v.published_at AS version_published_at,
      setweight(to_tsvector(${CONFIG}, coalesce(m->>'title', '')), 'A')
        || setweight(to_tsvector(${CONFIG}, ${KEYWORD_TEXT}), 'B')
        || setweight(to_tsvector(${CONFIG}, coalesce(m->>'description', '')), 'C')
        || setweight(to_tsvector(${CONFIG}, ${TERM_TEXT} || ' ' || ${CREATOR_TEXT} || ' ' || coalesce(m->'relatedPublication'->>'citation', '') || ' ' || d.slug), 'D') AS document,
      lower(unaccent(coalesce(m->>'title', '') || ' ' || ${KEYWORD_TEXT} || ' ' || coalesce(m->>'description', '') || ' ' || ${TERM_TEXT})) AS words
    FROM neurodata.datasets d
    JOIN neurodata.dataset_versions v ON v.dataset_id = d.id AND v.version = d.latest_version
    CROSS JOIN LATERAL (SELECT v.metadata AS m) meta
    WHERE d.latest_version IS NOT NULL AND ${where}`;
}

const COLUMNS = sql.raw('dataset_id, slug, title, visibility, version, metadata, row_counts, license, year, term_ids, facet_terms, published_at, version_published_at, document');

function upsert(where: SQL): SQL {
  return sql`WITH docs AS (${documentsOf(where)}),
    written AS (
      INSERT INTO neurodata.dataset_search (${COLUMNS}) SELECT ${COLUMNS} FROM docs
      ON CONFLICT (dataset_id) DO UPDATE SET slug = excluded.slug, title = excluded.title, visibility = excluded.visibility, version = excluded.version,
        metadata = excluded.metadata, row_counts = excluded.row_counts, license = excluded.license, year = excluded.year,
        term_ids = excluded.term_ids, facet_terms = excluded.facet_terms, published_at = excluded.published_at, version_published_at = excluded.version_published_at,
        document = excluded.document
      RETURNING dataset_id
    ),
    -- Sorted, so that two transactions adding the same words lock them in the same order.
    new_words AS (
      INSERT INTO neurodata.dataset_search_words (word)
      SELECT DISTINCT w FROM docs, regexp_split_to_table(docs.words, '[^[:alnum:]]+') w WHERE length(w) BETWEEN 3 AND 40 ORDER BY w
      ON CONFLICT (word) DO NOTHING
    )
    SELECT count(*)::int AS n FROM written`;
}

/** The number a statement counts, as `n`. */
const COUNT = rowOf({ n: col.int }, (r) => r.n);
const DATASET_ID = rowOf({ id: col.text }, (r) => r.id);
const TSQUERY = rowOf({ q: col.text.nullable() }, (r) => r.q || null);
const WORD = rowOf({ word: col.text }, (r) => r.word);
const NEAREST_WORD = rowOf({ input: col.text, word: col.text, score: col.float });
/** A facet value with its count; the row of facet `total` counts every hit and has no value. */
const FACET_COUNT = rowOf(
  { facet: col.text, value: col.text.nullable(), label: col.text.nullable(), n: col.int },
  (r): FacetValue & { facet: string } => ({ facet: r.facet, value: String(r.value), label: r.label ?? String(r.value), count: r.n }),
);

const SEARCH_DOCUMENT = rowOf(
  {
    dataset_id: col.text,
    slug: col.text,
    visibility: col.oneOf(VISIBILITIES),
    version: col.int,
    metadata: METADATA,
    license: col.text.nullable(),
    year: col.int,
    term_ids: col.textArray,
    published_at: col.timestamp,
    version_published_at: col.timestamp,
  },
  (r): SearchDocument => ({
    datasetId: r.dataset_id,
    slug: r.slug,
    visibility: r.visibility,
    version: r.version,
    metadata: r.metadata,
    license: r.license,
    year: r.year,
    termIds: r.term_ids,
    publishedAt: r.published_at,
    versionPublishedAt: r.version_published_at,
  }),
);

/** A catalogue row with its dataset's owner and maintainers, its score and highlights (none from `rowsByIds`). */
const SEARCH_ROW_COLUMNS = {
  dataset_id: col.text,
  slug: col.text,
  visibility: col.oneOf(VISIBILITIES),
  owner_id: col.text,
  maintainer_ids: col.textArray,
  version: col.int,
  metadata: METADATA,
  row_counts: ROW_COUNTS,
  year: col.int,
  published_at: col.timestamp,
  version_published_at: col.timestamp,
  score: col.float,
  title_marked: col.text.nullable(),
  snippet_marked: col.text.nullable(),
};

const toSearchRow = (r: z.output<z.ZodObject<typeof SEARCH_ROW_COLUMNS>>): SearchRow => ({
  datasetId: r.dataset_id,
  slug: r.slug,
  visibility: r.visibility,
  ownerId: r.owner_id,
  maintainerIds: r.maintainer_ids,
  version: r.version,
  metadata: r.metadata,
  rowCounts: r.row_counts,
  year: r.year,
  publishedAt: r.published_at,
  versionPublishedAt: r.version_published_at,
  score: r.score,
  titleMarked: r.title_marked ?? '',
  snippetMarked: r.snippet_marked ?? '',
});

const SEARCH_ROW = rowOf(SEARCH_ROW_COLUMNS, toSearchRow);
/** A row of a search page, with the number of hits before paging. */
const SEARCH_HIT = rowOf({ ...SEARCH_ROW_COLUMNS, total: col.int }, (r) => ({ row: toSearchRow(r), total: r.total }));

/** Largest counts first, then by label; years newest first. */
function toFacetValues(rows: Array<FacetValue & { facet: string }>, facet: string): FacetValue[] {
  const values = rows.filter((r) => r.facet === facet).map(({ value, label, count }) => ({ value, label, count }));
  const byYear = (a: FacetValue, b: FacetValue) => Number(b.value) - Number(a.value);
  const byCount = (a: FacetValue, b: FacetValue) => b.count - a.count || a.label.localeCompare(b.label) || a.value.localeCompare(b.value);
  return values.sort(facet === 'year' ? byYear : byCount);
}

/**
 * The PostgreSQL side of dataset search: the catalogue rows (kept in step with dataset writes, in their
 * transaction) and the search over them. Every statement is named, every value a bound parameter.
 */
export class DatasetSearchStore {
  constructor(private readonly db: Db) {}

  /** Rebuilds the dataset's catalogue row from its latest published version, or removes it when there is none. */
  async sync(datasetId: string): Promise<void> {
    const written = (await queryRow(this.db, 'DatasetSearchStore.sync', upsert(sql`d.id = ${datasetId}`), COUNT)) ?? 0;
    if (written === 0) await namedQuery(this.db, 'DatasetSearchStore.unlist', sql`DELETE FROM neurodata.dataset_search WHERE dataset_id = ${datasetId}`);
  }

  /**
   * Writes the rows of published datasets that have none or show an older version (a database restored from before
   * the catalogue existed, or written by an older release), up to `limit` at a time; returns how many were written.
   */
  async syncStale(limit: number): Promise<number> {
    const written = await queryRow(
      this.db,
      'DatasetSearchStore.syncStale',
      upsert(sql`d.id IN (SELECT d2.id FROM neurodata.datasets d2 LEFT JOIN neurodata.dataset_search s ON s.dataset_id = d2.id
        WHERE d2.latest_version IS NOT NULL AND (s.dataset_id IS NULL OR s.version <> d2.latest_version OR s.visibility <> d2.visibility OR s.slug <> d2.slug)
        ORDER BY d2.id LIMIT ${limit})`),
      COUNT,
    );
    return written ?? 0;
  }

  /** Fresh planner statistics after many rows changed; PGlite has no autovacuum to gather them. */
  async analyze(): Promise<void> {
    await namedQuery(this.db, 'DatasetSearchStore.analyze', sql`ANALYZE neurodata.dataset_search`);
  }

  /** Published datasets, in id order, after `afterId`: what a re-index walks. */
  async publishedIds(afterId: string | null, limit: number): Promise<string[]> {
    return queryRows(
      this.db,
      'DatasetSearchStore.publishedIds',
      sql`SELECT ${DATASET_ID.columns()} FROM neurodata.datasets WHERE latest_version IS NOT NULL AND (${afterId}::uuid IS NULL OR id > ${afterId}::uuid) ORDER BY id LIMIT ${limit}`,
      DATASET_ID,
    );
  }

  async countPublished(): Promise<number> {
    const n = await queryRow(this.db, 'DatasetSearchStore.countPublished', sql`SELECT count(*)::int AS n FROM neurodata.datasets WHERE latest_version IS NOT NULL`, COUNT);
    return n!;
  }

  /** Rebuilds the rows of these datasets (a re-index batch); returns how many were written. */
  async syncMany(ids: readonly string[]): Promise<number> {
    if (!ids.length) return 0;
    return (await queryRow(this.db, 'DatasetSearchStore.syncMany', upsert(sql`d.id = ANY(${uuids(ids)})`), COUNT)) ?? 0;
  }

  /** Removes rows whose dataset has no published version any more (a re-index's last step). */
  async pruneUnpublished(): Promise<number> {
    const rows = await namedQuery(
      this.db,
      'DatasetSearchStore.pruneUnpublished',
      sql`DELETE FROM neurodata.dataset_search s USING neurodata.datasets d WHERE d.id = s.dataset_id AND d.latest_version IS NULL RETURNING s.dataset_id`,
    );
    return rows.length;
  }

  /** The catalogue rows of these datasets, in the engine-neutral shape an external engine indexes. */
  async documents(ids: readonly string[]): Promise<SearchDocument[]> {
    if (!ids.length) return [];
    return queryRows(
      this.db,
      'DatasetSearchStore.documents',
      sql`SELECT s.dataset_id, s.slug, s.visibility, s.version, s.metadata, s.license, s.year, s.term_ids::text[] AS term_ids, s.published_at, s.version_published_at
          FROM neurodata.dataset_search s WHERE s.dataset_id = ANY(${uuids(ids)})`,
      SEARCH_DOCUMENT,
    );
  }

  /** websearch_to_tsquery's reading of each text, as tsquery text; null for a text of stop words only. */
  async tsqueries(values: readonly string[]): Promise<Array<string | null>> {
    if (!values.length) return [];
    return queryRows(
      this.db,
      'DatasetSearchStore.tsqueries',
      sql`SELECT ord, websearch_to_tsquery(${CONFIG}, value)::text AS q FROM jsonb_array_elements_text(${json(values)}) WITH ORDINALITY AS x(value, ord) ORDER BY ord`,
      TSQUERY,
    );
  }

  /** Of these lower-case words, the ones some catalogue text has held. */
  async knownWords(words: readonly string[]): Promise<Set<string>> {
    if (!words.length) return new Set();
    return new Set(await queryRows(this.db, 'DatasetSearchStore.knownWords', sql`SELECT word FROM neurodata.dataset_search_words WHERE word IN ${texts(words)}`, WORD));
  }

  /** The closest catalogue word to each misspelled word (pg_trgm similarity at least `minScore`). */
  async nearestWords(words: readonly string[], minScore: number): Promise<Map<string, { word: string; score: number }>> {
    if (!words.length) return new Map();
    const rows = await queryRows(
      this.db,
      'DatasetSearchStore.nearestWords',
      sql`SELECT i.input, n.word, n.score FROM jsonb_array_elements_text(${json(words)}) AS i(input)
          CROSS JOIN LATERAL (
            SELECT w.word, similarity(w.word, i.input) AS score FROM neurodata.dataset_search_words w
            WHERE w.word % i.input ORDER BY similarity(w.word, i.input) DESC, w.word LIMIT 1
          ) n WHERE n.score >= ${minScore}`,
      NEAREST_WORD,
    );
    return new Map(rows.map((r) => [r.input, { word: r.word, score: r.score }]));
  }

  /** One page of hits, ranked, with highlights, the total and (when asked) facet counts over every hit. */
  async search(plan: SearchPlan): Promise<SearchResultPage> {
    const where = conditions(plan);
    const rank = plan.rankQuery ? sql`ts_rank(${WEIGHTS}, s.document, ${plan.rankQuery}::tsquery)` : sql`0`;
    const termIds = [...new Set(plan.must.flatMap((c) => c.terms.flatMap((t) => t.matchIds)))];
    const termScore = termIds.length ? sql`CASE WHEN s.term_ids && ${uuids(termIds)} THEN ${TERM_MATCH_SCORE}::float8 ELSE 0 END` : sql`0`;
    const headline = (text: SQL, options: string) =>
      plan.rankQuery ? sql`ts_headline(${CONFIG}, ${text}, ${plan.rankQuery}::tsquery, ${options})` : sql`NULL`;
    const marks = `StartSel=${START}, StopSel=${STOP}`;
    const hits = await queryRows(
      this.db,
      'DatasetSearchStore.search',
      sql`WITH hits AS (
            SELECT s.dataset_id, (${rank} + ${termScore})::float8 AS score, s.version_published_at, s.title
            FROM neurodata.dataset_search s WHERE ${where}
          ),
          page AS (
            SELECT dataset_id, score, count(*) OVER () AS total FROM hits
            ORDER BY score DESC, version_published_at DESC, title, dataset_id LIMIT ${plan.limit} OFFSET ${plan.offset}
          )
          SELECT p.total, p.score, s.dataset_id, s.slug, s.visibility, s.version, s.metadata, s.row_counts, s.year, s.published_at,
                 s.version_published_at, d.owner_id, d.maintainer_ids::text[] AS maintainer_ids,
                 ${headline(sql`s.title`, `HighlightAll=true, ${marks}`)} AS title_marked,
                 ${headline(sql`s.metadata->>'description'`, `MaxFragments=2, MaxWords=30, MinWords=12, ShortWord=2, FragmentDelimiter=" … ", ${marks}`)} AS snippet_marked
          FROM page p JOIN neurodata.dataset_search s ON s.dataset_id = p.dataset_id JOIN neurodata.datasets d ON d.id = p.dataset_id
          ORDER BY p.score DESC, s.version_published_at DESC, s.title, s.dataset_id`,
      SEARCH_HIT,
    );
    const page = hits.map((h) => h.row);
    let total = hits.length ? hits[0].total : -1;
    let facets: Facets | null = null;
    if (plan.facets) {
      const f = await this.facets(where);
      facets = f.facets;
      total = f.total;
    } else if (total < 0) {
      total = (await queryRow(this.db, 'DatasetSearchStore.searchCount', sql`SELECT count(*)::int AS n FROM neurodata.dataset_search s WHERE ${where}`, COUNT))!;
    }
    return { rows: page, total, facets };
  }

  /**
   * The catalogue rows of these datasets with the owner and maintainers (for the access decision), in the order
   * given: what an external engine's hits are completed with. Score and highlights are the engine's to fill in.
   */
  async rowsByIds(ids: readonly string[]): Promise<SearchRow[]> {
    if (!ids.length) return [];
    const rows = await queryRows(
      this.db,
      'DatasetSearchStore.rowsByIds',
      sql`SELECT 0 AS score, s.dataset_id, s.slug, s.visibility, s.version, s.metadata, s.row_counts, s.year, s.published_at,
                 s.version_published_at, d.owner_id, d.maintainer_ids::text[] AS maintainer_ids, NULL AS title_marked, NULL AS snippet_marked
          FROM neurodata.dataset_search s JOIN neurodata.datasets d ON d.id = s.dataset_id WHERE s.dataset_id = ANY(${uuids(ids)})`,
      SEARCH_ROW,
    );
    const byId = new Map(rows.map((r) => [r.datasetId, r]));
    return ids.map((id) => byId.get(id)).filter((r): r is SearchRow => r !== undefined);
  }

  private async facets(where: SQL): Promise<{ total: number; facets: Facets }> {
    // Term facets come from the small inline facet_terms column, in one pass; the largest TERM_FACET_VALUES each.
    const rows = await queryRows(
      this.db,
      'DatasetSearchStore.searchFacets',
      sql`WITH hits AS (SELECT s.facet_terms, s.license, s.year, s.visibility FROM neurodata.dataset_search s WHERE ${where})
          SELECT 'total' AS facet, NULL AS value, NULL AS label, count(*) AS n FROM hits
          UNION ALL (
            SELECT facet, value, label, n FROM (
              SELECT t->>'f' AS facet, t->>'c' AS value, t->>'l' AS label, count(*) AS n,
                     row_number() OVER (PARTITION BY t->>'f' ORDER BY count(*) DESC, t->>'l', t->>'c') AS rank
              FROM hits, jsonb_array_elements(hits.facet_terms) t GROUP BY 1, 2, 3
            ) ranked WHERE rank <= ${TERM_FACET_VALUES} ORDER BY facet, n DESC, label, value)
          UNION ALL (SELECT 'license', license, license, count(*) FROM hits WHERE license IS NOT NULL GROUP BY license ORDER BY 4 DESC, 2)
          UNION ALL (SELECT 'year', year::text, year::text, count(*) FROM hits GROUP BY year ORDER BY year DESC)
          UNION ALL (SELECT 'visibility', visibility, visibility, count(*) FROM hits GROUP BY visibility ORDER BY 4 DESC, 2)`,
      FACET_COUNT,
    );
    const total = rows.find((r) => r.facet === 'total')?.count ?? 0;
    return {
      total,
      facets: {
        species: toFacetValues(rows, 'species'),
        brain_region: toFacetValues(rows, 'brain_region'),
        microscopy: toFacetValues(rows, 'microscopy'),
        neurotransmitter: toFacetValues(rows, 'neurotransmitter'),
        license: toFacetValues(rows, 'license'),
        year: toFacetValues(rows, 'year'),
        visibility: toFacetValues(rows, 'visibility'),
      },
    };
  }
}

/** A catalogue row as an external engine indexes it. */
export interface SearchDocument {
  datasetId: string;
  slug: string;
  visibility: Visibility;
  version: number;
  metadata: DatasetMetadata;
  license: string | null;
  year: number;
  termIds: string[];
  publishedAt: Date;
  versionPublishedAt: Date;
}

function clauseCondition(c: PlanClause): SQL {
  const parts: SQL[] = [];
  if (c.tsquery) parts.push(sql`s.document @@ ${c.tsquery}::tsquery`);
  const ids = [...new Set(c.terms.flatMap((t) => t.matchIds))];
  if (ids.length) parts.push(sql`s.term_ids && ${uuids(ids)}`);
  return parts.length ? sql`(${sql.join(parts, sql` OR `)})` : sql`true`;
}

function conditions(plan: SearchPlan): SQL {
  const conds: SQL[] = [sql`true`];
  for (const c of plan.must) conds.push(clauseCondition(c));
  for (const c of plan.mustNot) if (c.tsquery || c.terms.length) conds.push(sql`NOT ${clauseCondition(c)}`);
  for (const f of plan.termFilters) conds.push(sql`s.term_ids && ${uuids([...new Set(f.values.flatMap((v) => v.matchIds))])}`);
  if (plan.licenses.length) conds.push(sql`s.license IN ${texts(plan.licenses)}`);
  if (plan.years) conds.push(sql`s.year BETWEEN ${plan.years.from} AND ${plan.years.to}`);
  if (plan.visibility) conds.push(sql`s.visibility = ${plan.visibility}`);
  return sql.join(conds, sql` AND `);
}

