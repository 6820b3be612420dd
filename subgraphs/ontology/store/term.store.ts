import { chunks } from '../../../lib/chunks.js';
import { throwIfRequestAborted } from '../../../lib/request-scope.js';
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../../lib/db/relational.js';
import { col, rowOf, type RowShape } from '../../../lib/db/rows.js';
import { WRITE_CHUNK, encodeNewTerms, type NewTermBatches } from './term-batches.js';
// The tables by their Drizzle definitions, named apart from the many locals called terms.
import { termNames as TERM_NAMES, terms as TERMS, vocabularies as VOCABULARIES } from './tables.js';
import { TermNameStore, type ExactMatch, type NameMatch, type Suggestion } from './term-names.store.js';
import {
  NODE,
  TERM,
  TERM_COLUMNS,
  TERM_JSON,
  TERM_ROW,
  TERM_TUPLE,
  termOfTuple,
  jsonParam,
  readTermRows,
  runTermQuery,
  termOf,
  type NewSynonym,
  type NewTerm,
  type TermChange,
  type TermNode,
  type TermRecord,
  type VocabularyRecord,
} from './term-records.js';

export type { TermStatus, TermRecord, VocabularyRecord, TermNode, TermRef, NewTerm, TermChange, NewSynonym } from './term-records.js';
export { SUGGEST_NEAREST_NAMES, TermNameStore, type ExactMatch, type Suggestion, type NameMatch } from './term-names.store.js';

/** The listing's order, which terms_listing_order_idx serves: vocabulary, label case-insensitively, label, id, byte by byte. */
const LISTING_ORDER = sql.raw(`t.vocabulary COLLATE "C", lower(t.label) COLLATE "C", t.label COLLATE "C", t.id`);

const VOCABULARY = rowOf(
  { name: col.text, description: col.text.nullable(), term_count: col.int, deprecated_count: col.int },
  (r): VocabularyRecord => ({ name: r.name, description: r.description, termCount: r.term_count, deprecatedCount: r.deprecated_count }),
);
const TERM_AT_DEPTH = rowOf({ depth: col.int, ...TERM_ROW }, (r) => ({ depth: r.depth, term: termOf(r) }));
const SEARCH_HIT = rowOf({ ...TERM_ROW, total: col.int }, (r) => ({ term: termOf(r), total: r.total }));
/** A page of terms as TERM_JSON arrays, and the total before paging. */
const TERM_PAGE = rowOf({ total: col.int, items: col.json(z.array(TERM_TUPLE)) }, (r) => ({ total: r.total, items: r.items.map(termOfTuple) }));
/** A step of a lineage: the code the walk started from, and one term on the way to the root. */
const LINEAGE_STEP = rowOf({ start: col.text, code: col.text, label: col.text });
const ID = rowOf({ id: col.text }, (r) => r.id);
const CODE = rowOf({ code: col.text }, (r) => r.code);
const ATTNAME = rowOf({ attname: col.text }, (r) => r.attname);
const COUNT = rowOf({ n: col.int }, (r) => r.n);
const TOTAL = rowOf({ total: col.int }, (r) => r.total);

/**
 * `WITH RECURSIVE chain (start, id, depth)`: each seed term (`seeds` selects `start`, any key to group by, and `id`)
 * and its ancestors up to the root, nearest first (depth 0 is the seed). The depth cap only bounds the work if a cycle
 * ever slipped in; real vocabularies are at most 10 deep.
 */
const ancestorChain = (seeds: SQL) => sql`WITH RECURSIVE chain (start, id, depth) AS (
            SELECT s.start, s.id, 0 FROM (${seeds}) s
            UNION ALL
            SELECT c.start, p.parent_id, c.depth + 1 FROM chain c JOIN ${TERMS} p ON p.id = c.id
            WHERE p.parent_id IS NOT NULL AND c.depth < 1000
          )`;

/**
 * `WITH RECURSIVE found (id, depth)`: the seed terms (`seeds` selects `id`) and every term below them at any depth,
 * deprecated ones too; with `replaced`, also the deprecated terms each of those replaced.
 */
const descendantClosure = (seeds: SQL, opts: { replaced: boolean }) => sql`WITH RECURSIVE found (id, depth) AS (
            SELECT s.id, 0 FROM (${seeds}) s
            UNION
            SELECT t.id, f.depth + 1 FROM found f JOIN ${TERMS} t ON t.parent_id = f.id${opts.replaced ? sql` OR t.replaced_by = f.id` : sql``}
            WHERE f.depth < 64
          )`;

/**
 * Drizzle queries of the ontology schema. Every statement is plain SQL with a leading `/* TermStore.method *\/`
 * comment, so logs and pg_stat_statements name it, and every value is a bound parameter. Batches travel as one
 * jsonb parameter, which keeps a 1,400-term import to a handful of statements on both drivers. Name matching and
 * suggestions are TermNameStore's (`names`).
 */
export class TermStore {
  /** Name matching and suggestions, on the same connection or transaction. */
  readonly names: TermNameStore;

  constructor(private readonly db: Db) {
    this.names = new TermNameStore(db);
  }

  /** Runs `fn` in one transaction with a store bound to it; an error rolls everything back. */
  transaction<T>(fn: (store: TermStore) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new TermStore(tx as unknown as Db)));
  }

  private run(name: string, query: SQL): Promise<unknown[]> {
    return runTermQuery(this.db, `TermStore.${name}`, query);
  }

  private read<T>(name: string, query: SQL, shape: RowShape<T>): Promise<T[]> {
    return readTermRows(this.db, `TermStore.${name}`, query, shape);
  }

  private async readOne<T>(name: string, query: SQL, shape: RowShape<T>): Promise<T | undefined> {
    const [row] = await this.read(name, query, shape);
    return row;
  }

  /**
   * Refreshes planner statistics after a bulk load. Without them the planner guesses the vocabulary filter keeps a
   * handful of rows and sorts the whole table instead of walking the trigram index (20 ms instead of 2 per lookup);
   * PGlite has no autovacuum to do it later. One statement per column: the embedded engine runs nothing else during
   * a statement, and a whole table's ANALYZE after a 60,000-term import takes about half a second there. Each gathers
   * the same statistics a whole-table ANALYZE does for its column.
   */
  async analyze(): Promise<void> {
    for (const table of ['terms', 'term_names']) {
      const columns = await this.read(
        'analyzedColumns',
        sql`SELECT attname FROM pg_attribute WHERE attrelid = ${`ontology.${table}`}::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum`,
        ATTNAME,
      );
      for (const attname of columns) {
        await this.run('analyzeColumn', sql`ANALYZE ${sql.identifier('ontology')}.${sql.identifier(table)} (${sql.identifier(attname)})`);
      }
    }
  }

  /**
   * Serialises hierarchy writes within one vocabulary until the transaction ends, so two writers cannot each pass
   * the cycle check and together close a cycle. Vocabularies are locked in name order by callers that take several.
   */
  async lockVocabulary(vocabulary: string): Promise<void> {
    await this.run('lockVocabulary', sql`SELECT pg_advisory_xact_lock(hashtext(${`ontology.vocabulary:${vocabulary}`}))`);
  }

  /** Creates the vocabulary if it is new; a given description replaces the stored one. */
  async ensureVocabulary(name: string, description: string | null, now: Date): Promise<void> {
    await this.run(
      'ensureVocabulary',
      sql`INSERT INTO ${VOCABULARIES} (name, description, created_at, updated_at) VALUES (${name}, ${description}, ${now}, ${now})
          ON CONFLICT (name) DO UPDATE SET description = coalesce(EXCLUDED.description, ${VOCABULARIES}.description),
            updated_at = CASE WHEN EXCLUDED.description IS NOT NULL AND EXCLUDED.description IS DISTINCT FROM ${VOCABULARIES}.description
                              THEN EXCLUDED.updated_at ELSE ${VOCABULARIES}.updated_at END`,
    );
  }

  /** Vocabularies in name order, with active and deprecated term counts. */
  async listVocabularies(): Promise<VocabularyRecord[]> {
    return this.read(
      'listVocabularies',
      sql`SELECT v.name, v.description,
                 count(t.id) FILTER (WHERE t.status = 'active')::int AS term_count,
                 count(t.id) FILTER (WHERE t.status = 'deprecated')::int AS deprecated_count
          FROM ${VOCABULARIES} v LEFT JOIN ${TERMS} t ON t.vocabulary = v.name
          GROUP BY v.name, v.description
          ORDER BY v.name COLLATE "C"`,
      VOCABULARY,
    );
  }

  async vocabularyExists(name: string): Promise<boolean> {
    const rows = await this.run('vocabularyExists', sql`SELECT 1 FROM ${VOCABULARIES} WHERE name = ${name}`);
    return rows.length > 0;
  }

  async countTerms(vocabulary: string): Promise<number> {
    return (await this.readOne('countTerms', sql`SELECT count(*)::int AS n FROM ${TERMS} WHERE vocabulary = ${vocabulary}`, COUNT)) ?? 0;
  }

  async findById(id: string): Promise<TermRecord | undefined> {
    return this.readOne('findById', sql`SELECT ${TERM_COLUMNS} FROM ${TERMS} t WHERE t.id = ${id}`, TERM);
  }

  /**
   * Terms by id (UUIDs), in no particular order; unknown ids are left out. One statement text for any number of ids
   * (a uuid[] parameter), so it is prepared once per connection; it answers the coalesced reads by id of
   * concurrent requests (TermService.get).
   */
  async findByIds(ids: readonly string[]): Promise<TermRecord[]> {
    if (ids.length === 0) return [];
    return this.read('findByIds', sql`SELECT ${TERM_COLUMNS} FROM ${TERMS} t WHERE t.id = ANY(${sql.param(ids)}::uuid[])`, TERM);
  }

  async findByCode(vocabulary: string, code: string): Promise<TermRecord | undefined> {
    return this.readOne('findByCode', sql`SELECT ${TERM_COLUMNS} FROM ${TERMS} t WHERE t.vocabulary = ${vocabulary} AND t.code = ${code}`, TERM);
  }

  /** Active terms whose label equals `label` exactly, in a vocabulary. */
  async findActiveByLabel(vocabulary: string, label: string): Promise<TermNode[]> {
    return this.read(
      'findActiveByLabel',
      sql`SELECT ${NODE.columns('t')} FROM ${TERMS} t
          WHERE t.vocabulary = ${vocabulary} AND t.label = ${label} AND t.status = 'active'`,
      NODE,
    );
  }

  /** Direct children of a term, by label. */
  async children(id: string, includeDeprecated: boolean): Promise<TermRecord[]> {
    return this.read(
      'children',
      sql`SELECT ${TERM_COLUMNS} FROM ${TERMS} t
          WHERE t.parent_id = ${id} AND (${includeDeprecated} OR t.status = 'active')
          ORDER BY lower(t.label) COLLATE "C", t.label COLLATE "C", t.id`,
      TERM,
    );
  }

  /**
   * The term itself (depth 0) and its ancestors up to the root, nearest first, in one recursive query. The depth
   * cap only bounds the work if a cycle ever slipped in; real vocabularies are at most 10 deep.
   */
  async selfAndAncestors(id: string): Promise<{ depth: number; term: TermRecord }[]> {
    return this.read(
      'selfAndAncestors',
      sql`${ancestorChain(sql`SELECT id AS start, id FROM ${TERMS} WHERE id = ${id}`)}
          SELECT c.depth, ${TERM_COLUMNS} FROM chain c JOIN ${TERMS} t ON t.id = c.id ORDER BY c.depth`,
      TERM_AT_DEPTH,
    );
  }

  /**
   * Every term a search for `ids` should find annotated: the terms themselves, their descendants at any depth, and,
   * of each of those, the deprecated terms it replaced (a dataset annotated before a term was deprecated still
   * carries the old term). Deprecated descendants count as well: the annotation is older than the deprecation.
   */
  async narrowerOrReplaced(ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    return this.read(
      'narrowerOrReplaced',
      sql`${descendantClosure(sql`SELECT t.id FROM ${TERMS} t WHERE t.id IN (SELECT value::uuid FROM jsonb_array_elements_text(${jsonParam(ids)}))`, { replaced: true })}
          SELECT DISTINCT id FROM found`,
      ID,
    );
  }

  /**
   * The codes of the term with `code` in `vocabulary` and of every term below it (any depth, deprecated ones too:
   * data annotated before a deprecation keeps the old code); null when no term has that code.
   */
  async codesWithin(vocabulary: string, code: string): Promise<string[] | null> {
    const codes = await this.read(
      'codesWithin',
      sql`${descendantClosure(sql`SELECT t.id FROM ${TERMS} t WHERE t.vocabulary = ${vocabulary} AND t.code = ${code}`, { replaced: false })}
          SELECT DISTINCT t.code FROM found f JOIN ${TERMS} t ON t.id = f.id`,
      CODE,
    );
    return codes.length ? codes : null;
  }

  /**
   * For each code of `vocabulary` in `codes`: the term and its ancestors up to the root, root first, as code and
   * label. Codes with no term are absent from the map. One recursive statement for every code.
   */
  async lineages(vocabulary: string, codes: readonly string[]): Promise<Map<string, Array<{ code: string; label: string }>>> {
    if (codes.length === 0) return new Map();
    const steps = await this.read(
      'lineages',
      sql`${ancestorChain(sql`SELECT t.code AS start, t.id FROM ${TERMS} t
            WHERE t.vocabulary = ${vocabulary} AND t.code IN (SELECT value FROM jsonb_array_elements_text(${jsonParam(codes)}))`)}
          SELECT c.start, c.depth, t.code, t.label FROM chain c JOIN ${TERMS} t ON t.id = c.id ORDER BY c.start, c.depth DESC`,
      LINEAGE_STEP,
    );
    const out = new Map<string, Array<{ code: string; label: string }>>();
    for (const { start, code, label } of steps) {
      let list = out.get(start);
      if (!list) out.set(start, (list = []));
      list.push({ code, label });
    }
    return out;
  }

  /** True when `candidateAncestor` is `id` itself or one of its ancestors. */
  async isSelfOrAncestor(id: string, candidateAncestor: string): Promise<boolean> {
    const rows = await this.run(
      'isSelfOrAncestor',
      sql`${ancestorChain(sql`SELECT id AS start, id FROM ${TERMS} WHERE id = ${id}`)}
          SELECT 1 FROM chain WHERE id = ${candidateAncestor} LIMIT 1`,
    );
    return rows.length > 0;
  }

  /**
   * One page of terms in a stable order (vocabulary, label, id), with the total before paging. The page is read in
   * the order of terms_listing_order_idx and the total counted once beside it, so a page costs its own rows (and
   * their synonyms), not a sort of every matching term, which a window count over them would force. The page comes
   * back as one JSON array (TERM_JSON), aggregated in the listing's order.
   */
  async list(p: { vocabulary?: string; includeDeprecated: boolean; limit: number; offset: number }): Promise<{ items: TermRecord[]; total: number }> {
    const vocabulary = p.vocabulary ?? null;
    const filterOn = (t: string) =>
      sql`(${vocabulary}::text IS NULL OR ${sql.raw(t)}.vocabulary = ${vocabulary}) AND (${p.includeDeprecated} OR ${sql.raw(t)}.status = 'active')`;
    const page = await this.readOne(
      'list',
      sql`SELECT (SELECT count(*)::int FROM ${TERMS} c WHERE ${filterOn('c')}) AS total,
                 (SELECT coalesce(json_agg(page.term ORDER BY page.n), '[]'::json) FROM (
                    SELECT ${TERM_JSON} AS term,
                           row_number() OVER (ORDER BY ${LISTING_ORDER}) AS n
                    FROM ${TERMS} t WHERE ${filterOn('t')}
                    ORDER BY ${LISTING_ORDER}
                    LIMIT ${p.limit} OFFSET ${p.offset}) page) AS items`,
      TERM_PAGE,
    );
    return { items: page?.items ?? [], total: page?.total ?? 0 };
  }

  /**
   * Text search over codes, labels and synonyms, compared as lower(unaccent(...)). A term matches when one of its
   * names equals the query, starts with it, or is trigram-similar (pg_trgm `%`, similarity >= 0.3, or `<%`, word
   * similarity >= 0.6). Ranked: exact code or label, exact synonym, prefix, fuzzy; then by the better of similarity
   * and word similarity, then by plain similarity (so "Hippocampal region" beats "dorsal hippocampal commissure" for
   * "hippocampus"), label, id.
   */
  async search(p: { vocabulary?: string; q: string; includeDeprecated: boolean; limit: number; offset: number }): Promise<{ items: TermRecord[]; total: number }> {
    const vocabulary = p.vocabulary ?? null;
    const hits = sql`
      q AS (
        SELECT n, replace(replace(replace(n, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%' AS prefix
        FROM (SELECT lower(unaccent(${p.q})) AS n) s
      ),
      hits AS (
        SELECT tn.term_id,
               min(CASE WHEN tn.norm = q.n AND tn.kind <> 'synonym' THEN 0
                        WHEN tn.norm = q.n THEN 1
                        WHEN tn.norm LIKE q.prefix THEN 2
                        ELSE 3 END) AS rank,
               max(greatest(similarity(tn.norm, q.n), word_similarity(q.n, tn.norm))) AS score,
               max(similarity(tn.norm, q.n)) AS closeness
        FROM ${TERM_NAMES} tn CROSS JOIN q
        WHERE (${vocabulary}::text IS NULL OR tn.vocabulary = ${vocabulary})
          AND (tn.norm = q.n OR tn.norm LIKE q.prefix OR tn.norm % q.n OR q.n <% tn.norm)
        GROUP BY tn.term_id
      )`;
    const found = await this.read(
      'search',
      sql`WITH ${hits}
          SELECT ${TERM_COLUMNS}, h.rank, h.score, count(*) OVER ()::int AS total
          FROM hits h JOIN ${TERMS} t ON t.id = h.term_id
          WHERE (${p.includeDeprecated} OR t.status = 'active')
          ORDER BY h.rank, h.score DESC, h.closeness DESC, lower(t.label) COLLATE "C", t.label COLLATE "C", t.id
          LIMIT ${p.limit} OFFSET ${p.offset}`,
      SEARCH_HIT,
    );
    if (found.length === 0 && p.offset > 0) {
      const total = await this.readOne(
        'searchCount',
        sql`WITH ${hits} SELECT count(*)::int AS total FROM hits h JOIN ${TERMS} t ON t.id = h.term_id
            WHERE (${p.includeDeprecated} OR t.status = 'active')`,
        TOTAL,
      );
      return { items: [], total: total ?? 0 };
    }
    return { items: found.map((h) => h.term), total: found[0]?.total ?? 0 };
  }

  /** Every term of a vocabulary with the fields an import compares; read under the vocabulary lock. */
  async vocabularyNodes(vocabulary: string): Promise<TermNode[]> {
    return this.read('vocabularyNodes', sql`SELECT ${NODE.columns('t')} FROM ${TERMS} t WHERE t.vocabulary = ${vocabulary}`, NODE);
  }

  /**
   * Inserts terms and their code and label names, WRITE_CHUNK terms per statement pair. Terms are written parents
   * first, so every statement's foreign keys hold on their own. Bounded statements let the embedded engine answer
   * other callers between them, and a request that is aborted stops at the next one (its transaction rolls back).
   */
  async insertTerms(terms: NewTerm[], now: Date): Promise<void> {
    await this.insertTermBatches(encodeNewTerms(terms), now);
  }

  /** Writes new terms that encodeNewTerms encoded (an import, on the worker pool): two statements per batch. */
  async insertTermBatches(terms: NewTermBatches, now: Date): Promise<void> {
    for (const batch of terms.batches) {
      throwIfRequestAborted();
      await this.run(
        'insertTerms',
        sql`INSERT INTO ${TERMS} (id, vocabulary, code, label, uri, parent_id, description, metadata, status, created_at, updated_at)
            SELECT x.id, x.vocabulary, x.code, x.label, x.uri, x.parent_id, x.description, coalesce(x.metadata, '{}'::jsonb), 'active', ${now}, ${now}
            FROM jsonb_to_recordset(${batch}::jsonb)
              AS x(id uuid, vocabulary text, code text, label text, uri text, parent_id uuid, description text, metadata jsonb)`,
      );
      await this.run(
        'insertTermNames',
        sql`INSERT INTO ${TERM_NAMES} (term_id, vocabulary, kind, name, norm)
            SELECT x.id, x.vocabulary, k.kind, k.name, lower(unaccent(k.name))
            FROM jsonb_to_recordset(${batch}::jsonb)
              AS x(id uuid, vocabulary text, code text, label text)
            CROSS JOIN LATERAL (VALUES ('code', x.code), ('label', x.label)) AS k(kind, name)`,
      );
    }
  }

  /**
   * Applies field changes to existing terms in one statement (a field left undefined is kept) and renames their
   * label entries in term_names.
   */
  async updateTerms(changes: TermChange[], now: Date): Promise<void> {
    // A parent moved within the same import may be updated in a later chunk; the tree is whole again at commit.
    for (const chunk of chunks(changes, WRITE_CHUNK)) {
      throwIfRequestAborted();
      await this.updateChunk(chunk, now);
    }
  }

  private async updateChunk(changes: TermChange[], now: Date): Promise<void> {
    const batch = changes.map((c) => ({
      id: c.id,
      set_label: c.label !== undefined,
      label: c.label ?? null,
      set_uri: c.uri !== undefined,
      uri: c.uri ?? null,
      set_parent: c.parentId !== undefined,
      parent_id: c.parentId ?? null,
      set_description: c.description !== undefined,
      description: c.description ?? null,
      set_metadata: c.metadata !== undefined,
      metadata: c.metadata ?? null,
    }));
    await this.run(
      'updateTerms',
      sql`UPDATE ${TERMS} t SET
            label = CASE WHEN x.set_label THEN x.label ELSE t.label END,
            uri = CASE WHEN x.set_uri THEN x.uri ELSE t.uri END,
            parent_id = CASE WHEN x.set_parent THEN x.parent_id ELSE t.parent_id END,
            description = CASE WHEN x.set_description THEN x.description ELSE t.description END,
            metadata = CASE WHEN x.set_metadata THEN x.metadata ELSE t.metadata END,
            updated_at = ${now}
          FROM jsonb_to_recordset(${jsonParam(batch)}) AS x(id uuid, set_label boolean, label text, set_uri boolean, uri text,
            set_parent boolean, parent_id uuid, set_description boolean, description text, set_metadata boolean, metadata jsonb)
          WHERE t.id = x.id`,
    );
    const relabelled = changes.filter((c) => c.label !== undefined).map((c) => ({ id: c.id, label: c.label }));
    if (relabelled.length) {
      await this.run(
        'relabelTermNames',
        sql`UPDATE ${TERM_NAMES} n SET name = x.label, norm = lower(unaccent(x.label))
            FROM jsonb_to_recordset(${jsonParam(relabelled)}) AS x(id uuid, label text)
            WHERE n.term_id = x.id AND n.kind = 'label'`,
      );
    }
  }

  /** Flags a term deprecated (idempotent); `replacedBy` null keeps an earlier replacement. */
  async deprecate(id: string, replacedBy: string | null, now: Date): Promise<void> {
    await this.run(
      'deprecate',
      sql`UPDATE ${TERMS} SET status = 'deprecated', replaced_by = coalesce(${replacedBy}::uuid, replaced_by),
            deprecated_at = coalesce(deprecated_at, ${now}), updated_at = ${now}
          WHERE id = ${id}`,
    );
  }

  /** Replaces a term's synonyms with `synonyms`. */
  async setSynonyms(termId: string, vocabulary: string, synonyms: string[]): Promise<void> {
    await this.run('clearSynonyms', sql`DELETE FROM ${TERM_NAMES} WHERE term_id = ${termId} AND kind = 'synonym'`);
    if (synonyms.length === 0) return;
    await this.run(
      'insertSynonyms',
      sql`INSERT INTO ${TERM_NAMES} (term_id, vocabulary, kind, name, norm)
          SELECT ${termId}::uuid, ${vocabulary}, 'synonym', s.value, lower(unaccent(s.value))
          FROM (SELECT DISTINCT value FROM jsonb_array_elements_text(${jsonParam(synonyms)})) s`,
    );
  }

  /** Adds synonyms to terms found by vocabulary and code; existing ones and unknown codes are skipped. Returns how many were added. */
  async addSynonyms(rows: NewSynonym[]): Promise<number> {
    if (rows.length === 0) return 0;
    const batch = rows.map((r) => ({ vocabulary: r.vocabulary, code: r.code, synonym: r.synonym, synonym_type: r.synonymType, source: r.source }));
    const added = await this.readOne(
      'addSynonyms',
      sql`WITH inserted AS (
            INSERT INTO ${TERM_NAMES} (term_id, vocabulary, kind, name, norm, synonym_type, source)
            SELECT DISTINCT ON (t.id, x.synonym) t.id, t.vocabulary, 'synonym', x.synonym, lower(unaccent(x.synonym)), x.synonym_type, x.source
            FROM jsonb_to_recordset(${jsonParam(batch)}) AS x(vocabulary text, code text, synonym text, synonym_type text, source text)
            JOIN ${TERMS} t ON t.vocabulary = x.vocabulary AND t.code = x.code
            ON CONFLICT (term_id, kind, name) DO NOTHING
            RETURNING 1
          ) SELECT count(*)::int AS n FROM inserted`,
      COUNT,
    );
    return added ?? 0;
  }

  // The name lookups as callers have always reached them; TermNameStore holds them.

  matchNames(inputs: readonly string[], vocabularies: readonly string[]): Promise<NameMatch[]> {
    return this.names.matchNames(inputs, vocabularies);
  }

  matchExact(inputs: readonly string[], vocabulary?: string): Promise<ExactMatch[]> {
    return this.names.matchExact(inputs, vocabulary);
  }

  suggest(...args: Parameters<TermNameStore['suggest']>): Promise<Suggestion[]> {
    return this.names.suggest(...args);
  }

  vocabularyNames(vocabulary?: string): Promise<{ rows: string; foreign: boolean }> {
    return this.names.vocabularyNames(vocabulary);
  }

  measureForeignNames(values: readonly string[], vocabulary?: string): Promise<string> {
    return this.names.measureForeignNames(values, vocabulary);
  }

  normalize(values: readonly string[]): Promise<Map<string, string>> {
    return this.names.normalize(values);
  }
}
