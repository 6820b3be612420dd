import { z } from 'zod';
import { col, type RowShape } from '../db/rows.js';
import type { ColumnQueryOptions, ColumnStore } from './column.js';
import type { ChQuery } from './sql.js';

/**
 * Column readers for the JSONEachRow rows of both engines, for row shapes built with rowOf (lib/db/rows.ts): String
 * and Enum columns arrive as text, so ids (FlyWire's 18-digit ones included) stay exact; integers of every width as
 * numbers (a 64-bit one as text where the engine quotes them); floats as numbers, and NaN, infinities and the
 * average of no rows as null.
 */
export const chCol = {
  text: col.text,
  /** Integers, counts and integer sums; never an id (ids are String columns, read with `text`). */
  int: col.int,
  float: col.float,
  /** A UInt8 holding 0 or 1. */
  flag: z.union([z.number(), z.string()]).transform((v) => Number(v) === 1),
  /** An Enum or String column holding one of a closed set of values. */
  oneOf: col.oneOf,
};

/**
 * Runs a SELECT on the column store and reads each row through `shape`; a row that does not match throws an Error
 * naming the query (`opts.name`) and the column. For bounded reads (pages, counts, aggregates): a read of a whole
 * version's rows streams text instead (ColumnStore.queryTsv) and parses it without a shape.
 */
export async function columnRows<T>(column: ColumnStore, q: ChQuery, opts: ColumnQueryOptions, shape: RowShape<T>): Promise<T[]> {
  const rows = await column.query(q, opts);
  return rows.map((r) => shape.parse(r, opts.name));
}
