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
