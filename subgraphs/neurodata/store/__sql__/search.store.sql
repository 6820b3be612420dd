/* DatasetSearchStore.search */ WITH hits AS (
            SELECT s.dataset_id, (ts_rank('{0.05, 0.2, 0.5, 1.0}'::float4[], s.document, $1::tsquery) + CASE WHEN s.term_ids && ARRAY(SELECT jsonb_array_elements_text($2::jsonb)::uuid) THEN $3::float8 ELSE 0 END)::float8 AS score, s.version_published_at, s.title
            FROM neurodata.dataset_search s WHERE true AND (s.document @@ $4::tsquery) AND (s.term_ids && ARRAY(SELECT jsonb_array_elements_text($5::jsonb)::uuid)) AND NOT (s.document @@ $6::tsquery) AND s.term_ids && ARRAY(SELECT jsonb_array_elements_text($7::jsonb)::uuid) AND s.license IN (SELECT jsonb_array_elements_text($8::jsonb)) AND s.year BETWEEN $9 AND $10 AND s.visibility = $11
          ),
          page AS (
            SELECT dataset_id, score, count(*) OVER () AS total FROM hits
            ORDER BY score DESC, version_published_at DESC, title, dataset_id LIMIT $12 OFFSET $13
          )
          SELECT p.total, p.score, s.dataset_id, s.slug, s.visibility, s.version, s.metadata, s.row_counts, s.year, s.published_at,
                 s.version_published_at, d.owner_id, d.maintainer_ids::text[] AS maintainer_ids,
                 ts_headline('neurodata.english_unaccent'::regconfig, s.title, $14::tsquery, $15) AS title_marked,
                 ts_headline('neurodata.english_unaccent'::regconfig, s.metadata->>'description', $16::tsquery, $17) AS snippet_marked
          FROM page p JOIN neurodata.dataset_search s ON s.dataset_id = p.dataset_id JOIN neurodata.datasets d ON d.id = p.dataset_id
          ORDER BY p.score DESC, s.version_published_at DESC, s.title, s.dataset_id;

/* DatasetSearchStore.searchFacets */ WITH hits AS (SELECT s.facet_terms, s.license, s.year, s.visibility FROM neurodata.dataset_search s WHERE true AND (s.document @@ $1::tsquery) AND (s.term_ids && ARRAY(SELECT jsonb_array_elements_text($2::jsonb)::uuid)) AND NOT (s.document @@ $3::tsquery) AND s.term_ids && ARRAY(SELECT jsonb_array_elements_text($4::jsonb)::uuid) AND s.license IN (SELECT jsonb_array_elements_text($5::jsonb)) AND s.year BETWEEN $6 AND $7 AND s.visibility = $8)
          SELECT 'total' AS facet, NULL AS value, NULL AS label, count(*) AS n FROM hits
          UNION ALL (
            SELECT facet, value, label, n FROM (
              SELECT t->>'f' AS facet, t->>'c' AS value, t->>'l' AS label, count(*) AS n,
                     row_number() OVER (PARTITION BY t->>'f' ORDER BY count(*) DESC, t->>'l', t->>'c') AS rank
              FROM hits, jsonb_array_elements(hits.facet_terms) t GROUP BY 1, 2, 3
            ) ranked WHERE rank <= $9 ORDER BY facet, n DESC, label, value)
          UNION ALL (SELECT 'license', license, license, count(*) FROM hits WHERE license IS NOT NULL GROUP BY license ORDER BY 4 DESC, 2)
          UNION ALL (SELECT 'year', year::text, year::text, count(*) FROM hits GROUP BY year ORDER BY year DESC)
          UNION ALL (SELECT 'visibility', visibility, visibility, count(*) FROM hits GROUP BY visibility ORDER BY 4 DESC, 2);

/* DatasetSearchStore.search */ WITH hits AS (
            SELECT s.dataset_id, (0 + 0)::float8 AS score, s.version_published_at, s.title
            FROM neurodata.dataset_search s WHERE true
          ),
          page AS (
            SELECT dataset_id, score, count(*) OVER () AS total FROM hits
            ORDER BY score DESC, version_published_at DESC, title, dataset_id LIMIT $1 OFFSET $2
          )
          SELECT p.total, p.score, s.dataset_id, s.slug, s.visibility, s.version, s.metadata, s.row_counts, s.year, s.published_at,
                 s.version_published_at, d.owner_id, d.maintainer_ids::text[] AS maintainer_ids,
                 NULL AS title_marked,
                 NULL AS snippet_marked
          FROM page p JOIN neurodata.dataset_search s ON s.dataset_id = p.dataset_id JOIN neurodata.datasets d ON d.id = p.dataset_id
          ORDER BY p.score DESC, s.version_published_at DESC, s.title, s.dataset_id;

/* DatasetSearchStore.searchCount */ SELECT count(*)::int AS n FROM neurodata.dataset_search s WHERE true;

/* DatasetSearchStore.rowsByIds */ SELECT 0 AS score, s.dataset_id, s.slug, s.visibility, s.version, s.metadata, s.row_counts, s.year, s.published_at,
                 s.version_published_at, d.owner_id, d.maintainer_ids::text[] AS maintainer_ids, NULL AS title_marked, NULL AS snippet_marked
          FROM neurodata.dataset_search s JOIN neurodata.datasets d ON d.id = s.dataset_id WHERE s.dataset_id = ANY(ARRAY(SELECT jsonb_array_elements_text($1::jsonb)::uuid));

/* DatasetSearchStore.sync */ WITH docs AS (SELECT d.id AS dataset_id, d.slug, coalesce(m->>'title', '') AS title, d.visibility, v.version, v.metadata, v.row_counts, m->>'license' AS license,
      coalesce((m->'relatedPublication'->>'year')::int, extract(year FROM d.published_at)::int) AS year,
      ARRAY(SELECT DISTINCT (t->>'termId')::uuid FROM jsonb_array_elements(coalesce(m->'species', '[]') || coalesce(m->'brainRegions', '[]')
        || coalesce(m->'microscopy', '[]') || coalesce(m->'neurotransmitters', '[]')) t) AS term_ids,
      (SELECT coalesce(jsonb_agg(DISTINCT jsonb_build_object('f', f.facet, 'c', t->>'code', 'l', t->>'label')), '[]')
        FROM (VALUES ('species', 'species'), ('brain_region', 'brainRegions'), ('microscopy', 'microscopy'), ('neurotransmitter', 'neurotransmitters')) f(facet, key),
        jsonb_array_elements(coalesce(m->f.key, '[]')) t) AS facet_terms,
      d.published_at, v.published_at AS version_published_at,
      setweight(to_tsvector('neurodata.english_unaccent'::regconfig, coalesce(m->>'title', '')), 'A')
        || setweight(to_tsvector('neurodata.english_unaccent'::regconfig, coalesce((SELECT string_agg(k, ' ') FROM jsonb_array_elements_text(coalesce(m->'keywords', '[]')) k), '')), 'B')
        || setweight(to_tsvector('neurodata.english_unaccent'::regconfig, coalesce(m->>'description', '')), 'C')
        || setweight(to_tsvector('neurodata.english_unaccent'::regconfig, coalesce((SELECT string_agg((t->>'label') || ' ' || (t->>'code'), ' ')
  FROM jsonb_array_elements(coalesce(m->'species', '[]') || coalesce(m->'brainRegions', '[]') || coalesce(m->'microscopy', '[]') || coalesce(m->'neurotransmitters', '[]')) t), '') || ' ' || coalesce((SELECT string_agg(c->>'name', ' ') FROM jsonb_array_elements(coalesce(m->'creators', '[]')) c), '') || ' ' || coalesce(m->'relatedPublication'->>'citation', '') || ' ' || d.slug), 'D') AS document,
      lower(unaccent(coalesce(m->>'title', '') || ' ' || coalesce((SELECT string_agg(k, ' ') FROM jsonb_array_elements_text(coalesce(m->'keywords', '[]')) k), '') || ' ' || coalesce(m->>'description', '') || ' ' || coalesce((SELECT string_agg((t->>'label') || ' ' || (t->>'code'), ' ')
  FROM jsonb_array_elements(coalesce(m->'species', '[]') || coalesce(m->'brainRegions', '[]') || coalesce(m->'microscopy', '[]') || coalesce(m->'neurotransmitters', '[]')) t), ''))) AS words
    FROM neurodata.datasets d
    JOIN neurodata.dataset_versions v ON v.dataset_id = d.id AND v.version = d.latest_version
    CROSS JOIN LATERAL (SELECT v.metadata AS m) meta
    WHERE d.latest_version IS NOT NULL AND d.id = $1),
    written AS (
      INSERT INTO neurodata.dataset_search (dataset_id, slug, title, visibility, version, metadata, row_counts, license, year, term_ids, facet_terms, published_at, version_published_at, document) SELECT dataset_id, slug, title, visibility, version, metadata, row_counts, license, year, term_ids, facet_terms, published_at, version_published_at, document FROM docs
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
    SELECT count(*)::int AS n FROM written;

/* DatasetSearchStore.unlist */ DELETE FROM neurodata.dataset_search WHERE dataset_id = $1;

/* DatasetSearchStore.syncStale */ WITH docs AS (SELECT d.id AS dataset_id, d.slug, coalesce(m->>'title', '') AS title, d.visibility, v.version, v.metadata, v.row_counts, m->>'license' AS license,
      coalesce((m->'relatedPublication'->>'year')::int, extract(year FROM d.published_at)::int) AS year,
      ARRAY(SELECT DISTINCT (t->>'termId')::uuid FROM jsonb_array_elements(coalesce(m->'species', '[]') || coalesce(m->'brainRegions', '[]')
        || coalesce(m->'microscopy', '[]') || coalesce(m->'neurotransmitters', '[]')) t) AS term_ids,
      (SELECT coalesce(jsonb_agg(DISTINCT jsonb_build_object('f', f.facet, 'c', t->>'code', 'l', t->>'label')), '[]')
        FROM (VALUES ('species', 'species'), ('brain_region', 'brainRegions'), ('microscopy', 'microscopy'), ('neurotransmitter', 'neurotransmitters')) f(facet, key),
        jsonb_array_elements(coalesce(m->f.key, '[]')) t) AS facet_terms,
      d.published_at, v.published_at AS version_published_at,
      setweight(to_tsvector('neurodata.english_unaccent'::regconfig, coalesce(m->>'title', '')), 'A')
        || setweight(to_tsvector('neurodata.english_unaccent'::regconfig, coalesce((SELECT string_agg(k, ' ') FROM jsonb_array_elements_text(coalesce(m->'keywords', '[]')) k), '')), 'B')
        || setweight(to_tsvector('neurodata.english_unaccent'::regconfig, coalesce(m->>'description', '')), 'C')
        || setweight(to_tsvector('neurodata.english_unaccent'::regconfig, coalesce((SELECT string_agg((t->>'label') || ' ' || (t->>'code'), ' ')
  FROM jsonb_array_elements(coalesce(m->'species', '[]') || coalesce(m->'brainRegions', '[]') || coalesce(m->'microscopy', '[]') || coalesce(m->'neurotransmitters', '[]')) t), '') || ' ' || coalesce((SELECT string_agg(c->>'name', ' ') FROM jsonb_array_elements(coalesce(m->'creators', '[]')) c), '') || ' ' || coalesce(m->'relatedPublication'->>'citation', '') || ' ' || d.slug), 'D') AS document,
      lower(unaccent(coalesce(m->>'title', '') || ' ' || coalesce((SELECT string_agg(k, ' ') FROM jsonb_array_elements_text(coalesce(m->'keywords', '[]')) k), '') || ' ' || coalesce(m->>'description', '') || ' ' || coalesce((SELECT string_agg((t->>'label') || ' ' || (t->>'code'), ' ')
  FROM jsonb_array_elements(coalesce(m->'species', '[]') || coalesce(m->'brainRegions', '[]') || coalesce(m->'microscopy', '[]') || coalesce(m->'neurotransmitters', '[]')) t), ''))) AS words
    FROM neurodata.datasets d
    JOIN neurodata.dataset_versions v ON v.dataset_id = d.id AND v.version = d.latest_version
    CROSS JOIN LATERAL (SELECT v.metadata AS m) meta
    WHERE d.latest_version IS NOT NULL AND d.id IN (SELECT d2.id FROM neurodata.datasets d2 LEFT JOIN neurodata.dataset_search s ON s.dataset_id = d2.id
        WHERE d2.latest_version IS NOT NULL AND (s.dataset_id IS NULL OR s.version <> d2.latest_version OR s.visibility <> d2.visibility OR s.slug <> d2.slug)
        ORDER BY d2.id LIMIT $1)),
    written AS (
      INSERT INTO neurodata.dataset_search (dataset_id, slug, title, visibility, version, metadata, row_counts, license, year, term_ids, facet_terms, published_at, version_published_at, document) SELECT dataset_id, slug, title, visibility, version, metadata, row_counts, license, year, term_ids, facet_terms, published_at, version_published_at, document FROM docs
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
    SELECT count(*)::int AS n FROM written;

/* DatasetSearchStore.publishedIds */ SELECT id FROM neurodata.datasets WHERE latest_version IS NOT NULL AND ($1::uuid IS NULL OR id > $2::uuid) ORDER BY id LIMIT $3;

/* DatasetSearchStore.documents */ SELECT s.dataset_id, s.slug, s.visibility, s.version, s.metadata, s.license, s.year, s.term_ids::text[] AS term_ids, s.published_at, s.version_published_at
          FROM neurodata.dataset_search s WHERE s.dataset_id = ANY(ARRAY(SELECT jsonb_array_elements_text($1::jsonb)::uuid));

/* DatasetSearchStore.tsqueries */ SELECT ord, websearch_to_tsquery('neurodata.english_unaccent'::regconfig, value)::text AS q FROM jsonb_array_elements_text($1::jsonb) WITH ORDINALITY AS x(value, ord) ORDER BY ord;

/* DatasetSearchStore.knownWords */ SELECT word FROM neurodata.dataset_search_words WHERE word IN (SELECT jsonb_array_elements_text($1::jsonb));

/* DatasetSearchStore.nearestWords */ SELECT i.input, n.word, n.score FROM jsonb_array_elements_text($1::jsonb) AS i(input)
          CROSS JOIN LATERAL (
            SELECT w.word, similarity(w.word, i.input) AS score FROM neurodata.dataset_search_words w
            WHERE w.word % i.input ORDER BY similarity(w.word, i.input) DESC, w.word LIMIT 1
          ) n WHERE n.score >= $2;

/* DatasetSearchStore.pruneUnpublished */ DELETE FROM neurodata.dataset_search s USING neurodata.datasets d WHERE d.id = s.dataset_id AND d.latest_version IS NULL RETURNING s.dataset_id;
