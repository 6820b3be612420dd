import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../../lib/db/relational.js';
import { namedQuery } from '../../../lib/db/named-query.js';
import { col, queryRows, rowOf, type RowShape } from '../../../lib/db/rows.js';
import type { DriverErrorMessages } from '../../../lib/db/driver-errors.js';

export const TERM_STATUSES = ['active', 'deprecated'] as const;
export type TermStatus = (typeof TERM_STATUSES)[number];

/** A term as the service sees it. */
export interface TermRecord {
  id: string;
  vocabulary: string;
  code: string;
  label: string;
  uri: string | null;
  parentId: string | null;
  description: string | null;
  metadata: Record<string, unknown>;
  synonyms: string[];
  status: TermStatus;
  replacedBy: string | null;
  deprecatedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface VocabularyRecord {
  name: string;
  description: string | null;
  termCount: number;
  deprecatedCount: number;
}

/** The fields of a term that the hierarchy and CSV import compare; no synonyms or metadata. */
export type TermNode = Pick<TermRecord, 'id' | 'code' | 'label' | 'uri' | 'parentId' | 'description' | 'status'>;

/** A short reference to a term, as validation reports it. */
export interface TermRef {
  id: string;
  vocabulary: string;
  code: string;
  label: string;
  /** The term's IRI, where validation reports it (dataset metadata keeps it for linked data). */
  uri?: string | null;
}

export type NewTerm = Pick<TermRecord, 'id' | 'vocabulary' | 'code' | 'label' | 'uri' | 'parentId' | 'description' | 'metadata'>;

export interface TermChange {
  id: string;
  label?: string;
  uri?: string | null;
  parentId?: string | null;
  description?: string | null;
  metadata?: Record<string, unknown>;
}

export interface NewSynonym {
  vocabulary: string;
  code: string;
  synonym: string;
  synonymType: string | null;
  source: string | null;
}

/** One bound parameter holding a whole batch; the server unpacks it with jsonb_to_recordset / jsonb_array_elements. */
export const jsonParam = (v: unknown): SQL => sql`${JSON.stringify(v)}::jsonb`;

/** A term's synonyms, in name order, as a jsonb array. */
const SYNONYMS = `coalesce((SELECT jsonb_agg(n.name ORDER BY n.name) FROM ontology.term_names n WHERE n.term_id = t.id AND n.kind = 'synonym'), '[]'::jsonb)`;

/** A term's metadata, as both drivers return jsonb (parsed): any JSON object, its values unchecked. */
const metadata = z.looseObject({});

/**
 * The stored columns of a term, as ontology.terms holds them. Read lighter than the column readers would: a read
 * may return thousands of terms (findByIds, children), and the readers' union and transform per timestamp and
 * preprocess per jsonb column more than doubled the cost of reading 10,000 of them (about 12 ms against 5).
 * Timestamps are checked as the text both drivers return and made Dates by termOf; jsonb as the value both parse.
 */
const TERM_FIELDS = {
  id: col.text,
  vocabulary: col.text,
  code: col.text,
  label: col.text,
  uri: col.text.nullable(),
  parent_id: col.text.nullable(),
  description: col.text.nullable(),
  metadata: metadata.nullable(),
  status: col.oneOf(TERM_STATUSES),
  replaced_by: col.text.nullable(),
  deprecated_at: col.text.nullable(),
  created_at: col.text,
  updated_at: col.text,
};

/** A full term's row: its stored columns and its synonyms (TERM_COLUMNS); a query adding columns reads them beside these. */
export const TERM_ROW = { ...TERM_FIELDS, synonyms: z.array(z.string()).nullable() };

type TermRow = z.output<z.ZodObject<typeof TERM_ROW>>;

/** A term from TERM_ROW's columns. */
export const termOf = (r: TermRow): TermRecord => ({
  id: r.id,
  vocabulary: r.vocabulary,
  code: r.code,
  label: r.label,
  uri: r.uri,
  parentId: r.parent_id,
  description: r.description,
  metadata: r.metadata ?? {},
  synonyms: r.synonyms ?? [],
  status: r.status,
  replacedBy: r.replaced_by,
  deprecatedAt: r.deprecated_at === null ? null : new Date(r.deprecated_at),
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

/** A full term, read from TERM_COLUMNS. */
export const TERM = rowOf(TERM_ROW, termOf);

/** Select list of a full term (alias `t`); synonyms are aggregated from term_names. */
export const TERM_COLUMNS = sql`${rowOf(TERM_FIELDS).columns('t')}, ${sql.raw(SYNONYMS)} AS synonyms`;

/** The fields of a term that the hierarchy and CSV import compare (alias `t`: `NODE.columns('t')`). */
export const NODE = rowOf(
  z.object(TERM_FIELDS).pick({ id: true, code: true, label: true, uri: true, parent_id: true, description: true, status: true }).shape,
  (r): TermNode => ({ id: r.id, code: r.code, label: r.label, uri: r.uri, parentId: r.parent_id, description: r.description, status: r.status }),
);

/** A timestamp as whole milliseconds since the epoch, the precision a Date keeps; a number is cheaper to turn into a Date than text. */
const epochMs = (column: string) => `floor(extract(epoch FROM ${column}) * 1000)`;

/**
 * A full term as one JSON array, in the order TERM_TUPLE reads. A page of terms travels as one JSON value: the
 * driver then decodes one text and the engine's JSON parser builds the rows, instead of the driver slicing and
 * converting fifteen fields of every row (most of a large page's cost to the request thread).
 */
export const TERM_JSON = sql.raw(`json_build_array(t.id, t.vocabulary, t.code, t.label, t.uri, t.parent_id, t.description, t.metadata, t.status,
  t.replaced_by, ${epochMs('t.deprecated_at')}, ${epochMs('t.created_at')}, ${epochMs('t.updated_at')},
  ${SYNONYMS})`);

const text = z.string();
const epoch = z.number();

/** TERM_JSON's array, checked; termOfTuple makes it a term (a transform per item doubled the cost of a page). */
export const TERM_TUPLE = z.tuple([
  text,
  text,
  text,
  text,
  text.nullable(),
  text.nullable(),
  text.nullable(),
  metadata.nullable(),
  z.enum(TERM_STATUSES),
  text.nullable(),
  epoch.nullable(),
  epoch,
  epoch,
  z.array(text).nullable(),
]);

/** A term from TERM_JSON's array. */
export const termOfTuple = ([id, vocabulary, code, label, uri, parentId, description, meta, status, replacedBy, deprecatedAt, createdAt, updatedAt, synonyms]: z.output<
  typeof TERM_TUPLE
>): TermRecord => ({
  id,
  vocabulary,
  code,
  label,
  uri,
  parentId,
  description,
  metadata: meta ?? {},
  status,
  replacedBy,
  deprecatedAt: deprecatedAt === null ? null : new Date(deprecatedAt),
  createdAt: new Date(createdAt),
  updatedAt: new Date(updatedAt),
  synonyms: synonyms ?? [],
});

/** What the ontology's driver errors mean to the user. */
const TERM_ERRORS: DriverErrorMessages = {
  unique: (constraint) => `a term with this code already exists in the vocabulary (${constraint || 'unique'})`,
  foreignKey: 'a referenced term or vocabulary changed while the request ran; retry',
  badFormat: 'a value has the wrong format',
};

/**
 * Runs one statement of the ontology's stores, named `store.method` by a leading comment so logs and
 * pg_stat_statements show it; driver errors become the messages above.
 */
export function runTermQuery(db: Db, name: string, query: SQL): Promise<unknown[]> {
  return namedQuery(db, name, query, TERM_ERRORS);
}

/** Runs one statement as runTermQuery does and reads its rows through `shape`. */
export function readTermRows<T>(db: Db, name: string, query: SQL, shape: RowShape<T>): Promise<T[]> {
  return queryRows(db, name, query, shape, TERM_ERRORS);
}
