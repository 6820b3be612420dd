import { sql } from 'drizzle-orm';
import { customType, index, integer, jsonb, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { DatasetMetadata, RowCounts } from '../dataset.model.js';
import { datasets, neurodata } from './tables.js';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * The search catalogue: one row per published dataset, holding the metadata of its latest published version (what
 * every reader sees) and its weighted full-text document. Written by DatasetSearchStore.sync in the transaction of
 * each dataset write; a dataset's deletion removes its row by cascade. Drafts never published have no row.
 */
export const datasetSearch = neurodata.table(
  'dataset_search',
  {
    datasetId: uuid()
      .primaryKey()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    slug: text().notNull(),
    /** The title, inline for sorting (the metadata document is stored compressed, out of line). */
    title: text().notNull(),
    /** public | restricted (restricted rows show their metadata; counts only to those who may read the data) */
    visibility: text().notNull(),
    version: integer().notNull(),
    metadata: jsonb().$type<DatasetMetadata>().notNull(),
    rowCounts: jsonb().$type<RowCounts>().notNull(),
    license: text(),
    /** The related paper's year, or the year of first publication here. */
    year: integer().notNull(),
    /** Every term the metadata names (species, regions, techniques, neurotransmitters); filters expand to descendants. */
    termIds: uuid().array().notNull(),
    /** The annotations as facets count them, [{f: facet, c: code, l: label}]: small enough to stay inline. */
    facetTerms: jsonb().$type<Array<{ f: string; c: string; l: string }>>().notNull(),
    /** First publication here, and publication of the version shown. */
    publishedAt: timestamp({ withTimezone: true }).notNull(),
    versionPublishedAt: timestamp({ withTimezone: true }).notNull(),
    /** Title (A), keywords (B), description (C), term labels, creators and citation (D), in neurodata.english_unaccent. */
    document: tsvector().notNull(),
  },
  (t) => [
    // No pending list: PGlite runs no autovacuum to merge one, and every search would read it in full.
    index('dataset_search_document_idx').using('gin', t.document).with({ fastupdate: false }),
    index('dataset_search_term_ids_idx').using('gin', t.termIds).with({ fastupdate: false }),
    index('dataset_search_year_idx').on(t.year),
    index('dataset_search_license_idx').on(t.license),
  ],
);

/**
 * Every word the catalogue's text has held (lower case, unaccented, 3+ characters): what a misspelled query word is
 * corrected to. Words are only added; a stale word corrects to a query that finds nothing, which is harmless.
 */
export const datasetSearchWords = neurodata.table(
  'dataset_search_words',
  { word: text().primaryKey() },
  (t) => [index('dataset_search_words_trgm_idx').using('gin', t.word.op('gin_trgm_ops')).with({ fastupdate: false })],
);

export const SEARCH_CONFIG = sql.raw(`'neurodata.english_unaccent'::regconfig`);
