import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../lib/db/relational.js';
import { fromJson, namedQuery, toDate, toDateOrNull } from '../../../lib/db/named-query.js';
import type { DriverErrorMessages } from '../../../lib/db/driver-errors.js';

export type TermStatus = 'active' | 'deprecated';

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

export type Row = Record<string, unknown>;

/** One bound parameter holding a whole batch; the server unpacks it with jsonb_to_recordset / jsonb_array_elements. */
export const jsonParam = (v: unknown): SQL => sql`${JSON.stringify(v)}::jsonb`;

/** A term's synonyms, in name order, as a jsonb array. */
const SYNONYMS = `coalesce((SELECT jsonb_agg(n.name ORDER BY n.name) FROM ontology.term_names n WHERE n.term_id = t.id AND n.kind = 'synonym'), '[]'::jsonb)`;

/** Select list of a full term; synonyms are aggregated from term_names. */
export const TERM_COLUMNS = sql.raw(`t.id, t.vocabulary, t.code, t.label, t.uri, t.parent_id, t.description, t.metadata, t.status,
  t.replaced_by, t.deprecated_at, t.created_at, t.updated_at,
  ${SYNONYMS} AS synonyms`);

export function toTerm(r: Row): TermRecord {
  return {
    id: r.id as string,
    vocabulary: r.vocabulary as string,
    code: r.code as string,
    label: r.label as string,
    uri: (r.uri as string | null) ?? null,
    parentId: (r.parent_id as string | null) ?? null,
    description: (r.description as string | null) ?? null,
    metadata: fromJson<Record<string, unknown>>(r.metadata) ?? {},
    synonyms: fromJson<string[]>(r.synonyms) ?? [],
    status: r.status as TermStatus,
    replacedBy: (r.replaced_by as string | null) ?? null,
    deprecatedAt: toDateOrNull(r.deprecated_at),
    createdAt: toDate(r.created_at),
    updatedAt: toDate(r.updated_at),
  };
}

export const toNode = (r: Row): TermNode => ({
  id: r.id as string,
  code: r.code as string,
  label: r.label as string,
  uri: (r.uri as string | null) ?? null,
  parentId: (r.parent_id as string | null) ?? null,
  description: (r.description as string | null) ?? null,
  status: r.status as TermStatus,
});

/** A timestamp as whole milliseconds since the epoch, the precision a Date keeps; a number is cheaper to turn into a Date than text. */
const epochMs = (column: string) => `floor(extract(epoch FROM ${column}) * 1000)`;

/**
 * A full term as one JSON array, in the order `termFromJson` reads. A page of terms travels as one JSON value: the
 * driver then decodes one text and the engine's JSON parser builds the rows, instead of the driver slicing and
 * converting fifteen fields of every row (most of a large page's cost to the request thread).
 */
export const TERM_JSON = sql.raw(`json_build_array(t.id, t.vocabulary, t.code, t.label, t.uri, t.parent_id, t.description, t.metadata, t.status,
  t.replaced_by, ${epochMs('t.deprecated_at')}, ${epochMs('t.created_at')}, ${epochMs('t.updated_at')},
  ${SYNONYMS})`);

/** A term from TERM_JSON's array. */
export function termFromJson(a: unknown[]): TermRecord {
  return {
    id: a[0] as string,
    vocabulary: a[1] as string,
    code: a[2] as string,
    label: a[3] as string,
    uri: (a[4] as string | null) ?? null,
    parentId: (a[5] as string | null) ?? null,
    description: (a[6] as string | null) ?? null,
    metadata: (a[7] as Record<string, unknown> | null) ?? {},
    status: a[8] as TermStatus,
    replacedBy: (a[9] as string | null) ?? null,
    deprecatedAt: a[10] === null ? null : new Date(a[10] as number),
    createdAt: new Date(a[11] as number),
    updatedAt: new Date(a[12] as number),
    synonyms: (a[13] as string[] | null) ?? [],
  };
}

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
export function runTermQuery(db: Db, name: string, query: SQL): Promise<Row[]> {
  return namedQuery<Row>(db, name, query, TERM_ERRORS);
}
