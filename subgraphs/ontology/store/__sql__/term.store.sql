/* TermStore.search */ WITH
      q AS (
        SELECT n, replace(replace(replace(n, '\', '\\'), '%', '\%'), '_', '\_') || '%' AS prefix
        FROM (SELECT lower(unaccent($1)) AS n) s
      ),
      hits AS (
        SELECT tn.term_id,
               min(CASE WHEN tn.norm = q.n AND tn.kind <> 'synonym' THEN 0
                        WHEN tn.norm = q.n THEN 1
                        WHEN tn.norm LIKE q.prefix THEN 2
                        ELSE 3 END) AS rank,
               max(greatest(similarity(tn.norm, q.n), word_similarity(q.n, tn.norm))) AS score,
               max(similarity(tn.norm, q.n)) AS closeness
        FROM "ontology"."term_names" tn CROSS JOIN q
        WHERE ($2::text IS NULL OR tn.vocabulary = $3)
          AND (tn.norm = q.n OR tn.norm LIKE q.prefix OR tn.norm % q.n OR q.n <% tn.norm)
        GROUP BY tn.term_id
      )
          SELECT t.id, t.vocabulary, t.code, t.label, t.uri, t.parent_id, t.description, t.metadata, t.status, t.replaced_by, t.deprecated_at, t.created_at, t.updated_at, coalesce((SELECT jsonb_agg(n.name ORDER BY n.name) FROM ontology.term_names n WHERE n.term_id = t.id AND n.kind = 'synonym'), '[]'::jsonb) AS synonyms, h.rank, h.score, count(*) OVER ()::int AS total
          FROM hits h JOIN "ontology"."terms" t ON t.id = h.term_id
          WHERE ($4 OR t.status = 'active')
          ORDER BY h.rank, h.score DESC, h.closeness DESC, lower(t.label) COLLATE "C", t.label COLLATE "C", t.id
          LIMIT $5 OFFSET $6;

/* TermStore.list */ SELECT (SELECT count(*)::int FROM "ontology"."terms" c WHERE ($1::text IS NULL OR c.vocabulary = $2) AND ($3 OR c.status = 'active')) AS total,
                 (SELECT coalesce(json_agg(page.term ORDER BY page.n), '[]'::json) FROM (
                    SELECT json_build_array(t.id, t.vocabulary, t.code, t.label, t.uri, t.parent_id, t.description, t.metadata, t.status,
  t.replaced_by, floor(extract(epoch FROM t.deprecated_at) * 1000), floor(extract(epoch FROM t.created_at) * 1000), floor(extract(epoch FROM t.updated_at) * 1000),
  coalesce((SELECT jsonb_agg(n.name ORDER BY n.name) FROM ontology.term_names n WHERE n.term_id = t.id AND n.kind = 'synonym'), '[]'::jsonb)) AS term,
                           row_number() OVER (ORDER BY t.vocabulary COLLATE "C", lower(t.label) COLLATE "C", t.label COLLATE "C", t.id) AS n
                    FROM "ontology"."terms" t WHERE ($4::text IS NULL OR t.vocabulary = $5) AND ($6 OR t.status = 'active')
                    ORDER BY t.vocabulary COLLATE "C", lower(t.label) COLLATE "C", t.label COLLATE "C", t.id
                    LIMIT $7 OFFSET $8) page) AS items;

/* TermStore.selfAndAncestors */ WITH RECURSIVE chain (start, id, depth) AS (
            SELECT s.start, s.id, 0 FROM (SELECT id AS start, id FROM "ontology"."terms" WHERE id = $1) s
            UNION ALL
            SELECT c.start, p.parent_id, c.depth + 1 FROM chain c JOIN "ontology"."terms" p ON p.id = c.id
            WHERE p.parent_id IS NOT NULL AND c.depth < 1000
          )
          SELECT c.depth, t.id, t.vocabulary, t.code, t.label, t.uri, t.parent_id, t.description, t.metadata, t.status, t.replaced_by, t.deprecated_at, t.created_at, t.updated_at, coalesce((SELECT jsonb_agg(n.name ORDER BY n.name) FROM ontology.term_names n WHERE n.term_id = t.id AND n.kind = 'synonym'), '[]'::jsonb) AS synonyms FROM chain c JOIN "ontology"."terms" t ON t.id = c.id ORDER BY c.depth;

/* TermStore.findByIds */ SELECT t.id, t.vocabulary, t.code, t.label, t.uri, t.parent_id, t.description, t.metadata, t.status, t.replaced_by, t.deprecated_at, t.created_at, t.updated_at, coalesce((SELECT jsonb_agg(n.name ORDER BY n.name) FROM ontology.term_names n WHERE n.term_id = t.id AND n.kind = 'synonym'), '[]'::jsonb) AS synonyms FROM "ontology"."terms" t WHERE t.id = ANY($1::uuid[]);

/* TermNameStore.matchExact */ WITH input AS (
            SELECT DISTINCT value AS input, lower(unaccent(btrim(value))) AS norm FROM jsonb_array_elements_text($1::jsonb)
          )
          SELECT i.input, tn.kind, t.id, t.vocabulary, t.code, t.label, t.uri, t.status,
                 r.id AS r_id, r.vocabulary AS r_vocabulary, r.code AS r_code, r.label AS r_label
          FROM input i
          JOIN ontology.term_names tn ON (tn.norm >= i.norm AND tn.norm <= i.norm) AND ($2::text IS NULL OR tn.vocabulary = $3)
          JOIN ontology.terms t ON t.id = tn.term_id
          LEFT JOIN ontology.terms r ON r.id = t.replaced_by;

/* TermNameStore.suggest */ WITH input AS (
            SELECT DISTINCT value AS input, lower(unaccent(btrim(value))) AS norm FROM jsonb_array_elements_text($1::jsonb)
          )
          SELECT i.input, s.* FROM input i CROSS JOIN LATERAL (
            SELECT t.id, t.vocabulary, t.code, t.label, min(c.rank) AS rank, max(c.score) AS score, max(c.sim) AS closeness,
                   (array_agg(c.name ORDER BY c.rank, c.score DESC, c.sim DESC))[1] AS matched
            FROM (
              SELECT x.term_id, x.name, greatest(x.sim, x.wsim) AS score, x.sim,
                     CASE WHEN x.norm = i.norm AND x.kind <> 'synonym' THEN 0 WHEN x.norm = i.norm THEN 1 ELSE 2 END AS rank
              FROM (
                SELECT tn.term_id, tn.kind, tn.name, tn.norm, 1 - (tn.norm <-> i.norm) AS sim, word_similarity(i.norm, tn.norm) AS wsim
                FROM ontology.term_names tn WHERE ($2::text IS NULL OR tn.vocabulary = $3)
                ORDER BY tn.norm <-> i.norm LIMIT 20
              ) x
            ) c
            JOIN ontology.terms t ON t.id = c.term_id AND t.status = 'active'
            GROUP BY t.id, t.vocabulary, t.code, t.label
            HAVING min(c.rank) < 2 OR max(c.score) >= $4
            ORDER BY 5, 6 DESC, 7 DESC, lower(t.label) COLLATE "C", t.id
            LIMIT $5
          ) s;

/* TermNameStore.vocabularyNames */ SELECT coalesce(json_agg(json_build_array(tn.norm, tn.name, tn.kind, t.id, t.vocabulary, t.code, t.label, lower(t.label), t.status = 'active',
                                                    t.uri, t.status, r.id, r.vocabulary, r.code, r.label)), '[]')::text AS rows,
                 coalesce(bool_or(octet_length(tn.norm) <> char_length(tn.norm)), false) AS foreign
          FROM ontology.term_names tn JOIN ontology.terms t ON t.id = tn.term_id LEFT JOIN ontology.terms r ON r.id = t.replaced_by
          WHERE ($1::text IS NULL OR tn.vocabulary = $2);

/* TermNameStore.measureForeignNames */ WITH foreign_name AS (
            SELECT DISTINCT norm FROM ontology.term_names tn
            WHERE ($1::text IS NULL OR tn.vocabulary = $2) AND octet_length(norm) <> char_length(norm)
          ),
          value AS (SELECT DISTINCT value FROM jsonb_array_elements_text($3::jsonb))
          SELECT coalesce(json_agg(json_build_array(v.value, f.norm, f.norm <-> v.value, word_similarity(v.value, f.norm))), '[]')::text AS measured
          FROM value v, foreign_name f;

/* TermStore.insertTerms */ INSERT INTO "ontology"."terms" (id, vocabulary, code, label, uri, parent_id, description, metadata, status, created_at, updated_at)
            SELECT x.id, x.vocabulary, x.code, x.label, x.uri, x.parent_id, x.description, coalesce(x.metadata, '{}'::jsonb), 'active', $1, $2
            FROM jsonb_to_recordset($3::jsonb)
              AS x(id uuid, vocabulary text, code text, label text, uri text, parent_id uuid, description text, metadata jsonb);

/* TermStore.insertTermNames */ INSERT INTO "ontology"."term_names" (term_id, vocabulary, kind, name, norm)
            SELECT x.id, x.vocabulary, k.kind, k.name, lower(unaccent(k.name))
            FROM jsonb_to_recordset($1::jsonb)
              AS x(id uuid, vocabulary text, code text, label text)
            CROSS JOIN LATERAL (VALUES ('code', x.code), ('label', x.label)) AS k(kind, name);

/* TermStore.updateTerms */ UPDATE "ontology"."terms" t SET
            label = CASE WHEN x.set_label THEN x.label ELSE t.label END,
            uri = CASE WHEN x.set_uri THEN x.uri ELSE t.uri END,
            parent_id = CASE WHEN x.set_parent THEN x.parent_id ELSE t.parent_id END,
            description = CASE WHEN x.set_description THEN x.description ELSE t.description END,
            metadata = CASE WHEN x.set_metadata THEN x.metadata ELSE t.metadata END,
            updated_at = $1
          FROM jsonb_to_recordset($2::jsonb) AS x(id uuid, set_label boolean, label text, set_uri boolean, uri text,
            set_parent boolean, parent_id uuid, set_description boolean, description text, set_metadata boolean, metadata jsonb)
          WHERE t.id = x.id;

/* TermStore.relabelTermNames */ UPDATE "ontology"."term_names" n SET name = x.label, norm = lower(unaccent(x.label))
            FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, label text)
            WHERE n.term_id = x.id AND n.kind = 'label';
