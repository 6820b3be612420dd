import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgSchema, primaryKey, text, timestamp, unique, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';

/** The ontology subgraph's Postgres schema. */
export const ontology = pgSchema('ontology');

/** A named set of terms (brain_region, species, ...). Created by the first write that names it. */
export const vocabularies = ontology.table('vocabularies', {
  name: text().primaryKey(),
  description: text(),
  createdAt: timestamp({ withTimezone: true }).notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull(),
});

/**
 * Terms are never deleted: deprecation flags them (spec 3), so ids held by datasets keep resolving. A parent is in
 * the same vocabulary and the parent graph has no cycle; both are checked by the service under a per-vocabulary
 * advisory lock, because neither fits a plain constraint.
 */
export const terms = ontology.table(
  'terms',
  {
    id: uuid().primaryKey(),
    vocabulary: text()
      .notNull()
      .references(() => vocabularies.name),
    code: text().notNull(),
    label: text().notNull(),
    uri: text(),
    parentId: uuid().references((): AnyPgColumn => terms.id),
    /** The older term form's free text. */
    description: text(),
    metadata: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    /** active | deprecated */
    status: text().notNull().default('active'),
    replacedBy: uuid().references((): AnyPgColumn => terms.id),
    deprecatedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    unique('terms_vocabulary_code_unique').on(t.vocabulary, t.code),
    index('terms_parent_id_idx').on(t.parentId),
    // Searches walk from a term to the deprecated terms it replaced; few terms have one.
    index('terms_replaced_by_idx').on(t.replacedBy).where(sql`${t.replacedBy} IS NOT NULL`),
    index('terms_vocabulary_label_idx').on(t.vocabulary, t.label),
    // The listing's order (TermStore.list): a page is read in index order and stops at its last row, rather than
    // sorting every term of the vocabularies for each page.
    index('terms_listing_order_idx').on(sql`${t.vocabulary} COLLATE "C"`, sql`lower(${t.label}) COLLATE "C"`, sql`${t.label} COLLATE "C"`, t.id),
    check('terms_status_check', sql`${t.status} in ('active', 'deprecated')`),
    check('terms_not_own_parent_check', sql`${t.parentId} <> ${t.id}`),
  ],
);

/**
 * Every string a term can be found by: its code, its label and its synonyms, each with `norm`, the
 * `lower(unaccent(...))` form that search and validation compare. One table means one trigram index, so a fuzzy
 * lookup is one index scan instead of one per kind. `vocabulary` is copied from the term so lookups filter without
 * a join.
 */
export const termNames = ontology.table(
  'term_names',
  {
    termId: uuid()
      .notNull()
      .references(() => terms.id, { onDelete: 'cascade' }),
    vocabulary: text().notNull(),
    /** code | label | synonym */
    kind: text().notNull(),
    name: text().notNull(),
    norm: text().notNull(),
    /** For synonyms: acronym, abbreviation, exact, related, ... (synonyms.tsv) */
    synonymType: text(),
    source: text(),
  },
  (t) => [
    primaryKey({ columns: [t.termId, t.kind, t.name] }),
    index('term_names_norm_idx').on(t.norm),
    // GiST rather than GIN: suggestions order by trigram distance (KNN), which only GiST serves from the index.
    index('term_names_norm_trgm_idx').using('gist', t.norm.op('gist_trgm_ops')),
    check('term_names_kind_check', sql`${t.kind} in ('code', 'label', 'synonym')`),
  ],
);
