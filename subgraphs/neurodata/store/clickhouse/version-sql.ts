import { ch, ident, join, typed, type ChQuery } from '../../../../lib/column/sql.js';
import { BadInput } from '../../../../lib/errors.js';

/** One dataset version of the column store. */
export interface VersionRef {
  datasetId: string;
  version: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_VERSION = 0xffffffff;

/** SQL text as it is: only constants and checked integers. */
export const raw = (text: string): ChQuery => ({ sql: text, params: {} });

/** The condition that selects one version's partition of a table (docs/neurodata-tables.md, Addressing). */
export function version(at: VersionRef): ChQuery {
  if (typeof at.datasetId !== 'string' || !UUID.test(at.datasetId)) throw new BadInput('dataset_id: must be a UUID');
  if (!Number.isSafeInteger(at.version) || at.version < 0 || at.version > MAX_VERSION) throw new BadInput(`version: must be an integer from 0 to ${MAX_VERSION}`);
  return ch`dataset_id = ${at.datasetId} AND version = ${typed(at.version, 'UInt32')}`;
}

/** `col IN (v1, v2, ...)`, every value a bound parameter; an empty list matches nothing. */
export function inList(column: string, values: readonly string[]): ChQuery {
  if (!values.length) return raw('0');
  return ch`${ident(column)} IN (${join(values.map((v) => ch`${String(v)}`))})`;
}

/** ` AND a AND b ...`, or nothing for no conditions: appended to a WHERE that already has one. */
export const and = (parts: ChQuery[]): ChQuery => (parts.length ? ch` AND ${join(parts, ' AND ')}` : raw(''));

export function finite(field: string, v: number): number {
  if (!Number.isFinite(v)) throw new BadInput(`${field}: must be a finite number`);
  return v;
}
