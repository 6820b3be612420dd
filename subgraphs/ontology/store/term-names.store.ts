import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../lib/db/relational.js';
import { col, rowOf, type RowShape } from '../../../lib/db/rows.js';
import { TERM_STATUSES, jsonParam, readTermRows, type TermRef, type TermStatus } from './term-records.js';

/** What a name of ontology.term_names is of its term. */
export const TERM_NAME_KINDS = ['code', 'label', 'synonym'] as const;
export type TermNameKind = (typeof TERM_NAME_KINDS)[number];

export interface ExactMatch {
  /** The input exactly as given. */
  input: string;
  kind: TermNameKind;
  term: TermRef & { status: TermStatus; replacedBy: TermRef | null };
}

export interface Suggestion extends TermRef {
  input: string;
  /** 0 exact code or label, 1 exact synonym, 2 similar */
  rank: number;
  /** max of pg_trgm similarity and word_similarity over the term's code, label and synonyms, 0..1 */
  score: number;
  /** The code, label or synonym that came closest. */
  matched: string;
}

/** A code, label or synonym equal to a searched phrase (TermNameStore.matchNames). */
export interface NameMatch {
  input: string;
  kind: TermNameKind;
  /** The name as stored, in its own case. */
  name: string;
  /** For synonyms: acronym, abbreviation, exact, related, ... */
  synonymType: string | null;
  term: TermRef;
  status: TermStatus;
  replacedBy: TermRef | null;
}

/** The columns of a matched name's term and, when it was deprecated for one, its replacement (`r_`). */
const MATCHED_TERM = {
  input: col.text,
  kind: col.oneOf(TERM_NAME_KINDS),
  id: col.text,
  vocabulary: col.text,
  code: col.text,
  label: col.text,
  uri: col.text.nullable(),
  status: col.oneOf(TERM_STATUSES),
  r_id: col.text.nullable(),
  r_vocabulary: col.text.nullable(),
  r_code: col.text.nullable(),
  r_label: col.text.nullable(),
};

/** The replacement of a matched term, from its left-joined `r_` columns; null when it has none. */
function replacementOf(r: { r_id: string | null; r_vocabulary: string | null; r_code: string | null; r_label: string | null }): TermRef | null {
  if (r.r_id === null || r.r_vocabulary === null || r.r_code === null || r.r_label === null) return null;
  return { id: r.r_id, vocabulary: r.r_vocabulary, code: r.r_code, label: r.r_label };
}

const NAME_MATCH = rowOf(
  { ...MATCHED_TERM, name: col.text, synonym_type: col.text.nullable(), r_uri: col.text.nullable() },
  (r): NameMatch => {
    const replacement = replacementOf(r);
    return {
      input: r.input,
      kind: r.kind,
      name: r.name,
      synonymType: r.synonym_type,
      term: { id: r.id, vocabulary: r.vocabulary, code: r.code, label: r.label, uri: r.uri },
      status: r.status,
      replacedBy: replacement && { ...replacement, uri: r.r_uri },
    };
  },
);

const EXACT_MATCH = rowOf(
  MATCHED_TERM,
  (r): ExactMatch => ({
    input: r.input,
    kind: r.kind,
    term: { id: r.id, vocabulary: r.vocabulary, code: r.code, label: r.label, uri: r.uri, status: r.status, replacedBy: replacementOf(r) },
  }),
);

const SUGGESTION = rowOf(
  { input: col.text, id: col.text, vocabulary: col.text, code: col.text, label: col.text, rank: col.int, score: col.float, matched: col.text },
  (r): Suggestion => ({ input: r.input, id: r.id, vocabulary: r.vocabulary, code: r.code, label: r.label, rank: r.rank, score: Math.round(r.score * 1000) / 1000, matched: r.matched }),
);

const VOCABULARY_NAMES = rowOf({ rows: col.text, foreign: col.bool });
const MEASURED = rowOf({ measured: col.text }, (r) => r.measured);
const NORMALIZED = rowOf({ value: col.text, norm: col.text }, (r): [string, string] => [r.value, r.norm]);

/**
 * `tn.norm = value` (tn: ontology.term_names), written as a range of one value so that only the btree index on norm
 * serves it. The trigram GiST index serves `=` too, and the planner prefers it, but among many similar names its
 * probe walks much of the tree: 3 to 50 ms each on the embedded engine after a 60,000-term import, against 0.05 ms.
 * Equal under the deterministic collations PostgreSQL and PGlite compare text with.
 */
const normIs = (value: SQL): SQL => sql`(tn.norm >= ${value} AND tn.norm <= ${value})`;

/**
 * Name matching and suggestions over ontology.term_names: which codes, labels and synonyms equal an input, and which
 * active terms come close to a misspelled one. Every name is compared as lower(unaccent(btrim(...))).
 */
export class TermNameStore {
  constructor(private readonly db: Db) {}

  private read<T>(name: string, query: SQL, shape: RowShape<T>): Promise<T[]> {
    return readTermRows(this.db, `TermNameStore.${name}`, query, shape);
  }

  /**
   * Names (codes, labels, synonyms) equal to each input after lower(unaccent(trim(...))), in the given vocabularies,
   * with the synonym's type and the case it is written in, so a caller can hold acronyms to their exact spelling.
   */
  async matchNames(inputs: readonly string[], vocabularies: readonly string[]): Promise<NameMatch[]> {
    if (inputs.length === 0) return [];
    return this.read(
      'matchNames',
      sql`WITH input AS (
            SELECT DISTINCT value AS input, lower(unaccent(btrim(value))) AS norm FROM jsonb_array_elements_text(${jsonParam(inputs)})
          )
          SELECT i.input, tn.kind, tn.name, tn.synonym_type, t.id, t.vocabulary, t.code, t.label, t.uri, t.status,
                 r.id AS r_id, r.vocabulary AS r_vocabulary, r.code AS r_code, r.label AS r_label, r.uri AS r_uri
          FROM input i
          JOIN ontology.term_names tn ON ${normIs(sql`i.norm`)} AND tn.vocabulary IN (SELECT value FROM jsonb_array_elements_text(${jsonParam(vocabularies)}))
          JOIN ontology.terms t ON t.id = tn.term_id
          LEFT JOIN ontology.terms r ON r.id = t.replaced_by`,
      NAME_MATCH,
    );
  }

  /**
   * Inputs whose lower(unaccent(trim(input))) equals a code, label or synonym, one row per (input, name) hit, with
   * the term's status and replacement. Inputs without a hit are absent.
   */
  async matchExact(inputs: readonly string[], vocabulary?: string): Promise<ExactMatch[]> {
    if (inputs.length === 0) return [];
    const voc = vocabulary ?? null;
    return this.read(
      'matchExact',
      sql`WITH input AS (
            SELECT DISTINCT value AS input, lower(unaccent(btrim(value))) AS norm FROM jsonb_array_elements_text(${jsonParam(inputs)})
          )
          SELECT i.input, tn.kind, t.id, t.vocabulary, t.code, t.label, t.uri, t.status,
                 r.id AS r_id, r.vocabulary AS r_vocabulary, r.code AS r_code, r.label AS r_label
          FROM input i
          JOIN ontology.term_names tn ON ${normIs(sql`i.norm`)} AND (${voc}::text IS NULL OR tn.vocabulary = ${voc})
          JOIN ontology.terms t ON t.id = tn.term_id
          LEFT JOIN ontology.terms r ON r.id = t.replaced_by`,
      EXACT_MATCH,
    );
  }

  /**
   * Up to `limit` active terms close to each input: the SUGGEST_NEAREST_NAMES names nearest by trigram distance
   * (pg_trgm `<->`, a KNN walk of the GiST index), regrouped per term and ranked exact code/label, exact synonym,
   * then by the better of similarity and word similarity. Candidates scoring below `minScore` are dropped unless they
   * match exactly. A second walk by word distance (`<<->`) found nothing better for misspelled values and doubled the
   * cost, so word-only matches are left to the search route.
   */
  async suggest(inputs: readonly string[], opts: { vocabulary?: string; limit: number; minScore: number }): Promise<Suggestion[]> {
    if (inputs.length === 0) return [];
    const voc = opts.vocabulary ?? null;
    return this.read(
      'suggest',
      sql`WITH input AS (
            SELECT DISTINCT value AS input, lower(unaccent(btrim(value))) AS norm FROM jsonb_array_elements_text(${jsonParam(inputs)})
          )
          SELECT i.input, s.* FROM input i CROSS JOIN LATERAL (${suggestionsOf(sql`
                FROM ontology.term_names tn WHERE (${voc}::text IS NULL OR tn.vocabulary = ${voc})`, opts)}
          ) s`,
      SUGGESTION,
    );
  }

  /**
   * Every name (code, label, synonym) of a vocabulary, or of all, with its term and the term's replacement, as the
   * JSON text of an array of NameRow (suggestion-ranking.ts), and whether any name is beyond ASCII (only pg_trgm
   * measures those: measureForeignNames). Left as text: the worker pool parses it for itself, and the request thread
   * once per change of the term tables (VocabularyNames).
   */
  async vocabularyNames(vocabulary?: string): Promise<{ rows: string; foreign: boolean }> {
    const voc = vocabulary ?? null;
    const [names] = await this.read(
      'vocabularyNames',
      sql`SELECT coalesce(json_agg(json_build_array(tn.norm, tn.name, tn.kind, t.id, t.vocabulary, t.code, t.label, lower(t.label), t.status = 'active',
                                                    t.uri, t.status, r.id, r.vocabulary, r.code, r.label)), '[]')::text AS rows,
                 coalesce(bool_or(octet_length(tn.norm) <> char_length(tn.norm)), false) AS foreign
          FROM ontology.term_names tn JOIN ontology.terms t ON t.id = tn.term_id LEFT JOIN ontology.terms r ON r.id = t.replaced_by
          WHERE (${voc}::text IS NULL OR tn.vocabulary = ${voc})`,
      VOCABULARY_NAMES,
    );
    return { rows: names?.rows ?? '[]', foreign: names?.foreign === true };
  }

  /**
   * pg_trgm's distance and word similarity between each of `values` (normalised) and each name of the vocabulary
   * that is not ASCII, which only pg_trgm measures: the JSON text of an array of MeasuredName (suggestion-ranking.ts).
   */
  async measureForeignNames(values: readonly string[], vocabulary?: string): Promise<string> {
    const voc = vocabulary ?? null;
    const [measured] = await this.read(
      'measureForeignNames',
      sql`WITH foreign_name AS (
            SELECT DISTINCT norm FROM ontology.term_names tn
            WHERE (${voc}::text IS NULL OR tn.vocabulary = ${voc}) AND octet_length(norm) <> char_length(norm)
          ),
          value AS (SELECT DISTINCT value FROM jsonb_array_elements_text(${jsonParam(values)}))
          SELECT coalesce(json_agg(json_build_array(v.value, f.norm, f.norm <-> v.value, word_similarity(v.value, f.norm))), '[]')::text AS measured
          FROM value v, foreign_name f`,
      MEASURED,
    );
    return measured ?? '[]';
  }

  /** Each value's normalised form, lower(unaccent(btrim(value))), as matchExact and suggest compare it. */
  async normalize(values: readonly string[]): Promise<Map<string, string>> {
    if (values.length === 0) return new Map();
    return new Map(
      await this.read('normalize', sql`SELECT DISTINCT value, lower(unaccent(btrim(value))) AS norm FROM jsonb_array_elements_text(${jsonParam(values)})`, NORMALIZED),
    );
  }
}

/** How many names nearest by trigram distance each suggestion lookup ranks. */
export const SUGGEST_NEAREST_NAMES = 20;

/**
 * The ranking of one input's suggestions (the body of a lateral subquery over `input i`): the input's
 * SUGGEST_NEAREST_NAMES nearest names among those `names` (a FROM clause naming them `tn`) yields, regrouped per
 * active term. See TermNameStore.suggest.
 */
function suggestionsOf(names: SQL, opts: { limit: number; minScore: number }): SQL {
  return sql`
            SELECT t.id, t.vocabulary, t.code, t.label, min(c.rank) AS rank, max(c.score) AS score, max(c.sim) AS closeness,
                   (array_agg(c.name ORDER BY c.rank, c.score DESC, c.sim DESC))[1] AS matched
            FROM (
              SELECT x.term_id, x.name, greatest(x.sim, x.wsim) AS score, x.sim,
                     CASE WHEN x.norm = i.norm AND x.kind <> 'synonym' THEN 0 WHEN x.norm = i.norm THEN 1 ELSE 2 END AS rank
              FROM (
                SELECT tn.term_id, tn.kind, tn.name, tn.norm, 1 - (tn.norm <-> i.norm) AS sim, word_similarity(i.norm, tn.norm) AS wsim${names}
                ORDER BY tn.norm <-> i.norm LIMIT ${sql.raw(String(SUGGEST_NEAREST_NAMES))}
              ) x
            ) c
            JOIN ontology.terms t ON t.id = c.term_id AND t.status = 'active'
            GROUP BY t.id, t.vocabulary, t.code, t.label
            HAVING min(c.rank) < 2 OR max(c.score) >= ${opts.minScore}
            ORDER BY 5, 6 DESC, 7 DESC, lower(t.label) COLLATE "C", t.id
            LIMIT ${opts.limit}`;
}
