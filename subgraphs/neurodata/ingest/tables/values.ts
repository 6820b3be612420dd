import { TRANSMITTER_COLUMNS } from '../../store/clickhouse/columns.js';

/**
 * Cell values of synapse-level tables as the readers hand them over: text from CSV, and from Arrow and Parquet
 * numbers, bigints (64-bit integer columns), strings, booleans, lists (an Arrow Vector, a typed array or an array)
 * or null. Each conversion returns the value or throws a CellProblem saying what is wrong; the encoder adds the file,
 * row and column.
 */
export class CellProblem extends Error {}

const INTEGER = /^[+-]?\d+$/;
const CANONICAL_ID = /^(?:0|[1-9]\d*)$/;
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const CONTROL = /[\u0000-\u001f\u007f]/;
/** Spellings of a missing number in CSV exports (pandas writes NaN as empty, R as NA). */
const MISSING = new Set(['', 'nan', 'na', 'null', 'none', '<na>']);

const describe = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v) : String(v));

/** Whether a cell is empty: null, undefined, or blank text. */
export const isEmpty = (v: unknown): boolean => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

/**
 * An integer id as exact decimal text: a 64-bit integer column's bigint, a safe integer number, or integer text
 * (written as given, without a leading '+' or zeros). Ids of FlyWire (18 digits) exceed 2^53, so a float id
 * beyond that is refused rather than rounded. '' for an empty cell.
 */
export function integerId(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') {
    if (Number.isSafeInteger(v)) return String(v);
    throw new CellProblem(Number.isInteger(v) ? `id ${v} is a floating-point number beyond 2^53 and may have lost digits; store ids as 64-bit integers or text` : `id ${describe(v)} is not an integer`);
  }
  const text = typeof v === 'string' ? v.trim() : String(v).trim();
  // Nearly every id is already in its canonical form.
  if (CANONICAL_ID.test(text)) return text;
  if (text === '') return '';
  if (!INTEGER.test(text)) throw new CellProblem(`id ${describe(text)} is not an integer`);
  const negative = text[0] === '-';
  const digits = text.replace(/^[+-]/, '').replace(/^0+(?=\d)/, '');
  return negative && digits !== '0' ? `-${digits}` : digits;
}

/** A text id (an explicit mapping's ids may be names): non-empty text without control characters. */
export function textId(v: unknown): string {
  if (typeof v === 'bigint') return v.toString();
  const text = isEmpty(v) ? '' : String(v).trim();
  if (CONTROL.test(text)) throw new CellProblem('the id contains a tab, line break or another control character');
  if (text.length > 256) throw new CellProblem('the id is longer than 256 characters');
  return text;
}

/** A number, or null for an empty or missing cell. NaN and infinities pass through for the caller to judge. */
export function optionalNumber(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Number.isNaN(v) ? null : v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  const text = typeof v === 'string' ? v.trim() : String(v).trim();
  if (NUMBER.test(text)) return Number(text);
  if (MISSING.has(text.toLowerCase())) return null;
  if (/^[+-]?inf(inity)?$/i.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  throw new CellProblem(`${describe(text)} is not a number`);
}

/** A finite number (a coordinate): anything else is a problem. */
export function finiteNumber(v: unknown): number {
  const n = optionalNumber(v);
  if (n === null) throw new CellProblem('the value is missing');
  if (!Number.isFinite(n)) throw new CellProblem(`${describe(v)} is not a finite number`);
  return n;
}

/** A text value: numbers and bigints as written, objects as JSON, null as ''. */
export function text(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v, (_, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
}

/**
 * A 3-D point from a list column (an Arrow Vector, typed array or array of three numbers), CAVE's CSV text
 * "[x y z]" or "[x, y, z]", or neuPrint's somaLocation (`{"coordinates": [x, y, z]}`, as an object or its JSON text).
 * Null for an empty cell.
 */
export function point(v: unknown): [number, number, number] | null {
  if (isEmpty(v)) return null;
  let list: unknown = v;
  if (typeof v === 'string') {
    const t = v.trim();
    if (t.startsWith('{')) {
      try {
        list = JSON.parse(t);
      } catch {
        throw new CellProblem(`${describe(t)} is not a point`);
      }
    } else {
      const parts = t.replace(/^[[(]\s*|\s*[\])]$/g, '').split(/[\s,]+/);
      list = parts;
    }
  }
  if (list && typeof list === 'object' && !Array.isArray(list) && 'coordinates' in list) list = (list as { coordinates: unknown }).coordinates;
  if (list && typeof list === 'object' && typeof (list as { toArray?: unknown }).toArray === 'function' && !ArrayBuffer.isView(list)) {
    list = (list as { toArray(): ArrayLike<unknown> }).toArray();
  }
  const items = Array.isArray(list) || ArrayBuffer.isView(list) ? Array.from(list as ArrayLike<unknown>) : null;
  if (!items || items.length !== 3) throw new CellProblem(`${describe(typeof v === 'string' ? v : text(v))} is not a point of three coordinates`);
  return [finiteNumber(items[0]), finiteNumber(items[1]), finiteNumber(items[2])];
}

/** Transmitter names as the tables store them: lower-case short codes, the names of TRANSMITTER_COLUMNS. */
const TRANSMITTERS: Record<string, string> = {
  acetylcholine: 'ach',
  ach: 'ach',
  gaba: 'gaba',
  glutamate: 'glut',
  glut: 'glut',
  dopamine: 'da',
  da: 'da',
  serotonin: 'ser',
  ser: 'ser',
  '5-ht': 'ser',
  octopamine: 'oct',
  oct: 'oct',
  histamine: 'his',
  his: 'his',
};

/** A transmitter name normalised (`ACH`, `acetylcholine` -> `ach`); another name lower-cased as it is. */
export function transmitter(v: unknown): string {
  const t = text(v).toLowerCase();
  return TRANSMITTERS[t] ?? t;
}

/** The transmitter of the highest of the six probabilities (in TRANSMITTER_COLUMNS order on ties), '' when none is given. */
export function argmaxTransmitter(p: readonly (number | null)[]): string {
  let best = -1;
  for (let i = 0; i < p.length; i++) if (p[i] !== null && (best < 0 || p[i]! > p[best]!)) best = i;
  return best < 0 ? '' : TRANSMITTER_COLUMNS[best];
}

/** Whether integer-id text `a` comes before `b` numerically (shorter is smaller for non-negative ids). */
export function idBefore(a: string, b: string): boolean {
  const an = a.startsWith('-');
  const bn = b.startsWith('-');
  if (an !== bn) return an;
  const less = a.length !== b.length ? a.length < b.length : a < b;
  return an ? !less && a !== b : less;
}
