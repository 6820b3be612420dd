import { getNamedType, TypeInfo, visit, visitWithTypeInfo, type DocumentNode, type GraphQLSchema } from 'graphql';
import { TRIAD_CODES as STANDARD } from '../domain/triad-codes.js';

/**
 * A triad census travels as an object keyed by class ("003", "012", "102", ...). JavaScript orders an object's
 * integer-like keys ("102", "201", "210", "300") before the others, so JSON.stringify would list them first;
 * readers who turn the object into a table (pandas, R) expect the standard order of Holland and Leinhardt. This
 * writes a value as JSON with every census in that order: an object whose keys are exactly the sixteen classes.
 */
export function censusJson(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const own = (value as { toJSON?: () => unknown }).toJSON;
  if (typeof own === 'function') return censusJson(own.call(value));
  if (Array.isArray(value)) return `[${value.map((v) => censusJson(v) ?? 'null').join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = isCensus(record) ? STANDARD : Object.keys(record);
  const parts: string[] = [];
  for (const key of keys) {
    const text = censusJson(record[key]);
    if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}

const CLASSES = new Set<string>(STANDARD);
const isCensus = (record: Record<string, unknown>): boolean => {
  const keys = Object.keys(record);
  return keys.length === CLASSES.size && keys.every((k) => CLASSES.has(k));
};

/** Scalars whose values are, or can hold, a triad census. */
const CENSUS_CARRIERS = new Set(['TriadCounts', 'TriadValues', 'JSON', 'JSONObject']);

/**
 * Whether an operation's answer can hold a census object: it selects a field of a census scalar, or of a JSON
 * scalar that may carry one. The others' answers (a validation of 10,000 values is 1.5 MB) are written by
 * JSON.stringify, which is faster.
 */
export function selectsTriadCensus(schema: GraphQLSchema, document: DocumentNode): boolean {
  const types = new TypeInfo(schema);
  let found = false;
  visit(
    document,
    visitWithTypeInfo(types, {
      Field() {
        const type = types.getType();
        if (type && CENSUS_CARRIERS.has(getNamedType(type).name)) found = true;
      },
    }),
  );
  return found;
}
