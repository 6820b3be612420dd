import { getNamedType, TypeInfo, visit, visitWithTypeInfo, type DocumentNode, type GraphQLSchema } from 'graphql';
import { TRIAD_CODES as STANDARD } from '../lib/triad-codes.js';

/**
 * A triad census travels as an object keyed by class ("003", "012", "102", ...). JavaScript orders an object's
 * integer-like keys ("102", "201", "210", "300") before the others, so the JSON text would list them first;
 * readers who turn the object into a table (pandas, R) expect the standard order of Holland and Leinhardt. This
 * rewrites each census object of a REST answer's text into that order. The values are numbers or null.
 */
const AS_SERIALISED = ['102', '201', '210', '300', ...STANDARD.filter((c) => !/^[1-9]\d*$/.test(c))];
const VALUE = '(-?[0-9.eE+-]+|null)';
const CENSUS = new RegExp(`\\{${AS_SERIALISED.map((c) => `"${c}":${VALUE}`).join(',')}\\}`, 'g');

export function triadClassesInStandardOrder(json: string): string {
  if (!json.includes('"021D":')) return json;
  return json.replace(CENSUS, (...m: string[]) => {
    const value = new Map(AS_SERIALISED.map((c, i) => [c, m[i + 1]]));
    return `{${STANDARD.map((c) => `"${c}":${value.get(c)}`).join(',')}}`;
  });
}

/** Scalars whose values are, or can hold, a triad census. */
const CENSUS_CARRIERS = new Set(['TriadCounts', 'TriadValues', 'JSON', 'JSONObject']);

/**
 * Whether an operation's answer can hold a census object: it selects a field of a census scalar, or of a JSON
 * scalar that may carry one. The others' answers (a validation of 10,000 values is 1.5 MB) are not searched.
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
