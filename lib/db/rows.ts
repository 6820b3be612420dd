import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from './relational.js';
import { namedQuery } from './named-query.js';
import type { DriverErrorMessages } from './driver-errors.js';

/** Timestamps arrive as text from both drivers (Drizzle turns their date parsing off). */
const toDate = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));

/** uuid[] and text[] come back as a JS array from node-postgres and as '{a,b}' text where the type parser is off. */
function fromTextArray(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  const s = String(v ?? '{}');
  return s === '{}' ? [] : s.slice(1, -1).split(',');
}

/**
 * Column readers: what the two drivers (node-postgres and PGlite, with Drizzle's date parsing off) return for a
 * PostgreSQL type, read into the type the domain uses. A store declares each row shape once, as an object of these,
 * and gets its select list and its parser from it (rowOf), so no store casts a row.
 */
export const col = {
  text: z.string(),
  /** int4 arrives as a number; int8, numeric and count(*) as text from node-postgres. */
  int: z.union([z.string(), z.number(), z.bigint()]).transform((v, ctx) => {
    const n = Number(v);
    if (!Number.isFinite(n)) ctx.addIssue({ code: 'custom', message: `not a number: ${String(v)}` });
    return n;
  }),
  float: z.union([z.string(), z.number()]).transform(Number),
  bool: z.boolean(),
  /** timestamptz arrives as text (or a Date, should a driver parse it). */
  timestamp: z.union([z.string(), z.date()]).transform(toDate),
  /** uuid[] and text[]: an array from node-postgres, '{a,b}' text from PGlite. */
  textArray: z.union([z.string(), z.array(z.unknown()), z.null()]).transform(fromTextArray),
  /** jsonb arrives parsed; text only if a driver ever stops parsing it. */
  json: <S extends z.ZodType>(shape: S) => z.preprocess((v) => (typeof v === 'string' ? JSON.parse(v) : v), shape),
  /** A text column holding one of a closed set of values (a CHECK or enum in the schema). */
  oneOf: <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values),
};

/** One row shape: its columns for a select list and the parser that reads a raw row into the domain type. */
export interface RowShape<T> {
  /** The shape's columns, comma-separated, each prefixed with `alias.` when one is given. */
  columns(alias?: string): SQL;
  /** The column names, in the order `columns` lists them. */
  readonly names: readonly string[];
  /** Reads one raw row; a row that does not match names the query, the column and what was wrong. */
  parse(raw: unknown, query: string): T;
}

/**
 * A row shape from its columns (keyed by the names the query returns, snake_case) and the mapping into the domain
 * type. A mismatch is the store's bug, not the user's: it throws a plain Error, which the API answers as a 500
 * without its text.
 */
export function rowOf<S extends z.ZodRawShape>(shape: S): RowShape<z.output<z.ZodObject<S>>>;
export function rowOf<S extends z.ZodRawShape, T>(shape: S, map: (r: z.output<z.ZodObject<S>>) => T): RowShape<T>;
export function rowOf<S extends z.ZodRawShape, T>(shape: S, map?: (r: z.output<z.ZodObject<S>>) => T): RowShape<T | z.output<z.ZodObject<S>>> {
  const schema = z.object(shape);
  const names = Object.keys(shape);
  const listed = new Map<string, SQL>();
  return {
    names,
    columns(alias?: string) {
      const key = alias ?? '';
      let list = listed.get(key);
      if (!list) {
        if (alias !== undefined && !/^[a-z_][a-z0-9_]*$/.test(alias)) throw new Error(`not a table alias: ${alias}`);
        list = sql.raw(names.map((n) => (alias ? `${alias}.${n}` : n)).join(', '));
        listed.set(key, list);
      }
      return list;
    },
    parse(raw, query) {
      const r = schema.safeParse(raw);
      if (!r.success) {
        const issue = r.error.issues[0];
        throw new Error(`${query} returned a row that does not match its shape: ${issue.path.join('.') || '(row)'}: ${issue.message}`);
      }
      return map ? map(r.data) : r.data;
    },
  };
}

/** Runs one named query (namedQuery) and reads each row it returns through `shape`. */
export async function queryRows<T>(
  db: Db,
  name: string,
  q: SQL,
  shape: RowShape<T>,
  errors?: DriverErrorMessages | ((constraint: string) => string),
): Promise<T[]> {
  const rows = await namedQuery(db, name, q, errors);
  return rows.map((r) => shape.parse(r, name));
}

/** The one row of a query that returns at most one, or undefined. */
export async function queryRow<T>(
  db: Db,
  name: string,
  q: SQL,
  shape: RowShape<T>,
  errors?: DriverErrorMessages | ((constraint: string) => string),
): Promise<T | undefined> {
  const [row] = await queryRows(db, name, q, shape, errors);
  return row;
}
