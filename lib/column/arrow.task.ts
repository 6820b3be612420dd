import {
  Bool,
  DataType,
  Field,
  Float64,
  Int64,
  Precision,
  RecordBatch,
  RecordBatchReader,
  Schema,
  Struct,
  Type,
  Utf8,
  makeData,
  type Data,
  type Int,
  type Float,
} from 'apache-arrow';
import { move } from 'piscina';
import { END_OF_STREAM, recordBatchMessage, schemaMessage } from '../arrow-ipc.js';

/** A result column as the export declares it: its Arrow type follows `type`, its ClickHouse type is `chType`. */
export interface ArrowColumn {
  name: string;
  type: 'string' | 'integer' | 'float' | 'boolean';
  nullable: boolean;
  /** The ClickHouse type the SQL gives the column (String, Int64, Float64, UInt8, Nullable(Float64), ...). */
  chType: string;
}

/**
 * Apache Arrow IPC stream encoding of query results, with apache-arrow: the schema of a result, its record batches
 * (flat Utf8, Int64, Float64 and Bool columns), the end-of-stream marker.
 *
 * Imports nothing of the request side, so worker threads run it: `tsvToRecordBatch` is the task that turns
 * TabSeparated text from a ClickHouse server into one record batch. The request thread uses the rest (the schema
 * message, and on chDB the conversion of the columns whose layout ClickHouse wrote differently from the declared type).
 */

export { END_OF_STREAM };

const TWO_32 = 4294967296;
const UTF8 = new TextEncoder();

function arrowType(c: ArrowColumn): DataType {
  switch (c.type) {
    case 'string':
      return new Utf8();
    case 'integer':
      return new Int64();
    case 'float':
      return new Float64();
    case 'boolean':
      return new Bool();
    default:
      throw new Error(`result column ${c.name}: no Arrow type for ${String((c as ArrowColumn).type)}`);
  }
}

/** The schema of a result: one field per column, named and typed as declared, with the declared nullability. */
export function resultSchema(columns: readonly ArrowColumn[], metadata?: Record<string, string>): Schema {
  const fields = columns.map((c) => new Field(c.name, arrowType(c), c.nullable));
  return new Schema(fields, metadata ? new Map(Object.entries(metadata).map(([k, v]) => [k, String(v)])) : undefined);
}

/**
 * The Schema message of a result: one field per column, named and typed as declared (Utf8, Int64, Float64, Bool),
 * with the declared nullability, and `metadata` as the schema's custom metadata.
 */
export function encodeSchemaMessage(columns: readonly ArrowColumn[], metadata: Record<string, string>): Uint8Array {
  return schemaMessage(resultSchema(columns, metadata));
}

/** The RecordBatch message of `batch`, ready to append to a stream of its schema. */
export function encodeRecordBatch(batch: RecordBatch): Uint8Array {
  return recordBatchMessage(batch);
}

/** A record batch of `columns` from one Data per column. */
function recordBatch(columns: readonly ArrowColumn[], length: number, children: Data[]): RecordBatch {
  const schema = resultSchema(columns);
  return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length, nullCount: 0, children }));
}

// ---------------------------------------------------------------------------------------------------------------
// Columns Arrow wrote in another layout than the declared type's (ClickHouse's UInt8 for a boolean, say).

/** How one native column becomes the declared one. */
export type Conversion =
  | { kind: 'same'; buffers: number }
  | { kind: 'int-to-bool' }
  | { kind: 'widen-int' }
  | { kind: 'widen-float' }
  | { kind: 'large-offsets' };

/** The conversion of each column, or an error naming the first column whose native type cannot become the declared one. */
export function planConversions(columns: readonly ArrowColumn[], fields: readonly Field[]): Conversion[] {
  if (fields.length !== columns.length) throw new Error(`the query returned ${fields.length} columns, ${columns.length} were declared`);
  return columns.map((c, i) => {
    const t = fields[i].type;
    const fail = () => new Error(`result column ${c.name} (${c.type}, ${c.chType}): Arrow type ${String(t)} cannot be converted`);
    if (DataType.isDictionary(t) || (t.children?.length ?? 0) > 0) throw fail();
    const intBytes = DataType.isInt(t) ? (t as Int).bitWidth / 8 : 0;
    switch (c.type) {
      case 'string':
        if (t.typeId === Type.Utf8 || t.typeId === Type.Binary) return { kind: 'same', buffers: 3 };
        if (t.typeId === Type.LargeUtf8 || t.typeId === Type.LargeBinary) return { kind: 'large-offsets' };
        throw fail();
      case 'integer':
        if (intBytes === 8) return { kind: 'same', buffers: 2 };
        if (intBytes) return { kind: 'widen-int' };
        throw fail();
      case 'float':
        if (DataType.isFloat(t) && (t as Float).precision === Precision.DOUBLE) return { kind: 'same', buffers: 2 };
        if (DataType.isFloat(t) && (t as Float).precision === Precision.SINGLE) return { kind: 'widen-float' };
        throw fail();
      case 'boolean':
        if (t.typeId === Type.Bool) return { kind: 'same', buffers: 2 };
        if (intBytes) return { kind: 'int-to-bool' };
        throw fail();
      default:
        throw fail();
    }
  });
}

export const needsReencoding = (conversions: readonly Conversion[]) => conversions.some((c) => c.kind !== 'same');

/** Buffers each converted native column has in a record batch (all columns are flat). */
const nativeBufferCount = (c: Conversion) => (c.kind === 'same' ? c.buffers : c.kind === 'large-offsets' ? 3 : 2);

/** A native record batch's header, as apache-arrow decodes it (Message.header() of a RecordBatch message). */
export interface NativeBatch {
  length: number;
  nodes: { length: number; nullCount: number }[];
  buffers: { offset: number; length: number }[];
  compression: unknown;
}

/**
 * Checks a native record batch against the declared columns: no compression, one node per column with the
 * batch's length, no NULLs in a column declared non-nullable, every buffer inside the body.
 */
export function checkBatch(batch: NativeBatch, bodyLength: number, columns: readonly ArrowColumn[], conversions: readonly Conversion[]): void {
  if (batch.compression) throw new Error('Arrow record batch: compressed bodies are not expected');
  if (batch.nodes.length !== columns.length) throw new Error(`Arrow record batch: ${batch.nodes.length} columns, ${columns.length} declared`);
  const expected = conversions.reduce((n, c) => n + nativeBufferCount(c), 0);
  if (batch.buffers.length !== expected) throw new Error(`Arrow record batch: ${batch.buffers.length} buffers, ${expected} expected`);
  batch.nodes.forEach((n, i) => {
    if (n.length !== batch.length) throw new Error(`Arrow record batch: column ${columns[i].name} has ${n.length} values in a batch of ${batch.length} rows`);
    if (n.nullCount > 0 && !columns[i].nullable) throw new Error(`result column ${columns[i].name} is declared non-nullable but holds NULL`);
  });
  for (const b of batch.buffers) if (b.offset < 0 || b.offset + b.length > bodyLength) throw new Error('Arrow record batch: a buffer lies outside the body');
}

/**
 * A native record batch re-encoded in the declared layout: `schemaMessage` and `batchMessage` are the native stream's
 * schema message and this batch's message (marker, length, metadata), `body` its body. apache-arrow decodes the
 * batch, the columns whose type differs are converted, and apache-arrow writes the new batch.
 */
export function reencodeBatch(schemaMessage: Uint8Array, batchMessage: Uint8Array, body: Uint8Array, columns: readonly ArrowColumn[], conversions: readonly Conversion[]): Uint8Array {
  const native = RecordBatchReader.from([schemaMessage, batchMessage, body, END_OF_STREAM]).next();
  if (native.done) throw new Error('Arrow record batch: apache-arrow read no batch');
  const n = native.value.numRows;
  const children = conversions.map((c, col): Data => {
    const d = native.value.data.children[col];
    const type = arrowType(columns[col]);
    const nulls = { nullCount: d.nullCount, nullBitmap: d.nullCount > 0 ? d.nullBitmap : undefined };
    const values = d.values as ArrayLike<number | bigint>;
    switch (c.kind) {
      case 'same':
        return makeData({ type, length: n, ...nulls, data: d.values, valueOffsets: d.valueOffsets } as never);
      case 'large-offsets': {
        const offsets = d.valueOffsets as unknown as BigInt64Array;
        const narrow = new Int32Array(n + 1);
        for (let i = 0; i <= n; i++) {
          const o = Number(offsets[i]);
          if (o > 0x7fffffff) throw new Error('Arrow record batch: a string column larger than 2 GiB in one batch');
          narrow[i] = o;
        }
        return makeData({ type: new Utf8(), length: n, ...nulls, valueOffsets: narrow, data: d.values as Uint8Array });
      }
      case 'int-to-bool': {
        const bits = new Uint8Array(Math.ceil(n / 8));
        for (let i = 0; i < n; i++) if (values[i]) bits[i >> 3] |= 1 << (i & 7);
        return makeData({ type: new Bool(), length: n, ...nulls, data: bits });
      }
      case 'widen-int': {
        const wide = new Int32Array(2 * n);
        for (let i = 0; i < n; i++) {
          const v = values[i] as number;
          const hi = Math.floor(v / TWO_32);
          wide[2 * i] = v - hi * TWO_32;
          wide[2 * i + 1] = hi;
        }
        return makeData({ type: new Int64(), length: n, ...nulls, data: new BigInt64Array(wide.buffer) });
      }
      case 'widen-float':
        return makeData({ type: new Float64(), length: n, ...nulls, data: Float64Array.from(values as Float32Array) });
    }
  });
  return encodeRecordBatch(recordBatch(columns, n, children));
}

// ---------------------------------------------------------------------------------------------------------------
// ---------------------------------------------------------------------------------------------------------------
// The task: TabSeparated text of a ClickHouse server to one record batch.

export interface TsvBatchInput {
  /** Whole lines of TabSeparated text, each ending in '\n'; `\N` is NULL. */
  text: string;
  columns: ArrowColumn[];
  /** Each line ends in one more field, `1`, after the columns: see encodeTsvBatch. */
  terminated?: boolean;
}

export interface EncodedBatch {
  rows: number;
  /** The RecordBatch message, ready to append to the stream. */
  message: Uint8Array;
}

const TAB = 9;
const NL = 10;
const BACKSLASH = 92;
/** What follows a backslash in ClickHouse's TabSeparated escapes (as lib/column/tsv.ts unescapeTsv, on bytes). */
const UNESCAPE = new Uint8Array(256).map((_, c) => c);
for (const [c, v] of [['b', 8], ['f', 12], ['r', 13], ['n', 10], ['t', 9], ['0', 0]] as const) UNESCAPE[c.charCodeAt(0)] = v;

/**
 * One column of a batch being built. `parse` reads the field that starts at `start` (not NULL) in one pass, stores its
 * value for `row` and returns where the field ends: the index of the tab or newline after it (or the text's end).
 */
interface Builder {
  validity: Uint8Array | null;
  nulls: number;
  parse(bytes: Uint8Array, start: number, row: number): number;
  null(row: number): void;
  /** The column's values for `rows` rows, as apache-arrow Data of the declared type. */
  data(rows: number): Data;
}

/** The NULLs of a builder, as makeData takes them. */
const nulls = (b: Builder) => ({ nullCount: b.nulls, nullBitmap: b.nulls > 0 ? b.validity! : undefined });

const isSeparator = (c: number) => c === TAB || c === NL;

/** Where the field starting at `start` ends. */
function fieldEnd(bytes: Uint8Array, start: number): number {
  let i = start;
  while (i < bytes.length && !isSeparator(bytes[i])) i++;
  return i;
}

class StringBuilder implements Builder {
  validity: Uint8Array | null;
  nulls = 0;
  private readonly offsets: Int32Array;
  private readonly values: Uint8Array;
  private size = 0;
  constructor(rows: number, textBytes: number, nullable: boolean) {
    this.offsets = new Int32Array(rows + 1);
    // The values of one column never hold more bytes than the text: no growing.
    this.values = new Uint8Array(textBytes);
    this.validity = nullable ? new Uint8Array(Math.ceil(rows / 8)) : null;
  }
  parse(bytes: Uint8Array, start: number, row: number): number {
    const data = this.values;
    const n = bytes.length;
    let size = this.size;
    let i = start;
    while (i < n) {
      const c = bytes[i];
      if (c === TAB || c === NL) break;
      if (c === BACKSLASH && i + 1 < n) {
        data[size++] = UNESCAPE[bytes[i + 1]];
        i += 2;
      } else {
        data[size++] = c;
        i++;
      }
    }
    this.size = size;
    this.offsets[row + 1] = size;
    return i;
  }
  null(row: number): void {
    this.offsets[row + 1] = this.size;
  }
  data(rows: number): Data {
    return makeData({ type: new Utf8(), length: rows, ...nulls(this), valueOffsets: this.offsets, data: this.values.subarray(0, this.size) });
  }
}

class IntBuilder implements Builder {
  validity: Uint8Array | null;
  nulls = 0;
  private readonly words: Int32Array;
  private readonly big: BigInt64Array;
  constructor(rows: number, nullable: boolean) {
    this.words = new Int32Array(2 * rows);
    this.big = new BigInt64Array(this.words.buffer);
    this.validity = nullable ? new Uint8Array(Math.ceil(rows / 8)) : null;
  }
  parse(bytes: Uint8Array, start: number, row: number): number {
    let i = start;
    const negative = bytes[i] === 45;
    if (negative || bytes[i] === 43) i++;
    const first = i;
    let v = 0;
    while (i < bytes.length) {
      const d = bytes[i] - 48;
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
      i++;
    }
    if (i === first || (i < bytes.length && !isSeparator(bytes[i]))) throw badValue('integer', bytes, start);
    if (i - first > 15) {
      // Beyond 2^53: exactly, through BigInt.
      const text = latin1(bytes, start, i);
      const big = BigInt(text);
      if (big !== BigInt.asIntN(64, big)) throw new Error(`the integer ${text} does not fit in Int64`);
      this.big[row] = big;
      return i;
    }
    if (negative) v = -v;
    const hi = Math.floor(v / TWO_32);
    this.words[2 * row] = v - hi * TWO_32;
    this.words[2 * row + 1] = hi;
    return i;
  }
  null(): void {}
  data(rows: number): Data {
    return makeData({ type: new Int64(), length: rows, ...nulls(this), data: this.big });
  }
}

/** Powers of ten a double holds exactly. */
const POW10 = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));

class FloatBuilder implements Builder {
  validity: Uint8Array | null;
  nulls = 0;
  private readonly values: Float64Array;
  constructor(rows: number, nullable: boolean) {
    this.values = new Float64Array(rows);
    this.validity = nullable ? new Uint8Array(Math.ceil(rows / 8)) : null;
  }
  parse(bytes: Uint8Array, start: number, row: number): number {
    const fast = this.fast(bytes, start, row);
    if (fast >= 0) return fast;
    const end = fieldEnd(bytes, start);
    const text = latin1(bytes, start, end);
    let v = Number(text);
    if (Number.isNaN(v)) {
      const word = text.toLowerCase();
      if (word === 'inf' || word === '+inf' || word === 'infinity') v = Infinity;
      else if (word === '-inf' || word === '-infinity') v = -Infinity;
      else if (!/^[-+]?nan$/.test(word)) throw badValue('float', bytes, start);
    } else if (text.trim() === '') {
      throw badValue('float', bytes, start);
    }
    this.values[row] = v;
    return end;
  }
  /**
   * Decimal text of at most 15 significant digits and a power of ten a double holds (Clinger's fast path): one
   * correctly rounded operation gives the exact double Number() would. Returns the field's end, or -1 for the slow path.
   */
  private fast(bytes: Uint8Array, start: number, row: number): number {
    const n = bytes.length;
    let i = start;
    const negative = bytes[i] === 45;
    if (negative || bytes[i] === 43) i++;
    let mantissa = 0;
    let digits = 0;
    let seen = false;
    let exponent = 0;
    while (i < n) {
      const d = bytes[i] - 48;
      if (d < 0 || d > 9) break;
      seen = true;
      if (mantissa !== 0 || d !== 0) digits++;
      mantissa = mantissa * 10 + d;
      i++;
    }
    if (bytes[i] === 46) {
      i++;
      while (i < n) {
        const d = bytes[i] - 48;
        if (d < 0 || d > 9) break;
        seen = true;
        if (mantissa !== 0 || d !== 0) digits++;
        mantissa = mantissa * 10 + d;
        exponent--;
        i++;
      }
    }
    if (!seen || digits > 15) return -1;
    if (bytes[i] === 101 || bytes[i] === 69) {
      i++;
      const negativeExponent = bytes[i] === 45;
      if (negativeExponent || bytes[i] === 43) i++;
      let e = 0;
      const first = i;
      while (i < n) {
        const d = bytes[i] - 48;
        if (d < 0 || d > 9) break;
        e = e * 10 + d;
        i++;
        if (e > 1000) return -1;
      }
      if (i === first) return -1;
      exponent += negativeExponent ? -e : e;
    }
    if (i < n && !isSeparator(bytes[i])) return -1;
    if (exponent < -22 || exponent > 22) return -1;
    const v = exponent < 0 ? mantissa / POW10[-exponent] : mantissa * POW10[exponent];
    this.values[row] = negative ? -v : v;
    return i;
  }
  null(): void {}
  data(rows: number): Data {
    return makeData({ type: new Float64(), length: rows, ...nulls(this), data: this.values });
  }
}

class BoolBuilder implements Builder {
  validity: Uint8Array | null;
  nulls = 0;
  private readonly bits: Uint8Array;
  constructor(rows: number, nullable: boolean) {
    this.bits = new Uint8Array(Math.ceil(rows / 8));
    this.validity = nullable ? new Uint8Array(Math.ceil(rows / 8)) : null;
  }
  parse(bytes: Uint8Array, start: number, row: number): number {
    const c = bytes[start];
    let value: boolean;
    let end = start + 1;
    if ((c === 48 || c === 49) && (end === bytes.length || isSeparator(bytes[end]))) value = c === 49;
    else {
      end = fieldEnd(bytes, start);
      const text = latin1(bytes, start, end);
      if (text === 'true') value = true;
      else if (text === 'false') value = false;
      else throw badValue('boolean', bytes, start);
    }
    if (value) this.bits[row >> 3] |= 1 << (row & 7);
    return end;
  }
  null(): void {}
  data(rows: number): Data {
    return makeData({ type: new Bool(), length: rows, ...nulls(this), data: this.bits });
  }
}

function latin1(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode.apply(null, bytes.subarray(start, end) as unknown as number[]);
}

function badValue(type: string, bytes: Uint8Array, start: number): Error {
  const end = fieldEnd(bytes, start);
  const text = new TextDecoder().decode(bytes.subarray(start, Math.min(end, start + 60)));
  return new Error(`not a valid ${type} in the query result: ${JSON.stringify(text)}`);
}

function builderFor(c: ArrowColumn, rows: number, textBytes: number): Builder {
  const nullable = c.nullable || /^Nullable\(/.test(c.chType);
  switch (c.type) {
    case 'string':
      return new StringBuilder(rows, textBytes, nullable);
    case 'integer':
      return new IntBuilder(rows, nullable);
    case 'float':
      return new FloatBuilder(rows, nullable);
    case 'boolean':
      return new BoolBuilder(rows, nullable);
    default:
      throw new Error(`result column ${c.name}: no Arrow type for ${String((c as ArrowColumn).type)}`);
  }
}

/** A ClickHouse server's error, as it ends a result that failed after its first rows were sent. */
const ENGINE_ERROR = /^Code: \d+[.,] /;

/**
 * Encodes TabSeparated lines as one record batch of the declared columns (schema from encodeSchemaMessage).
 *
 * A ClickHouse server that fails while it sends a result (18.16 has answered 200 by then) writes its error message
 * as one more line and ends the response normally. `terminated` lines end in an extra field `1` (the query selects
 * it after the columns): a line without it is not a row, and an error message is reported as the query's failure
 * instead of being taken for a value.
 */
export function encodeTsvBatch(text: string, columns: readonly ArrowColumn[], terminated = false): EncodedBatch {
  const bytes = UTF8.encode(text);
  const n = bytes.length;
  let rows = 0;
  for (let i = bytes.indexOf(NL); i >= 0; i = bytes.indexOf(NL, i + 1)) rows++;
  if (n && bytes[n - 1] !== NL) rows++;
  const builders = columns.map((c) => builderFor(c, rows, n));
  const last = columns.length - 1;
  const fields = columns.length + (terminated ? 1 : 0);
  let pos = 0;
  let lineStart = 0;
  try {
    for (let row = 0; row < rows; row++) {
      lineStart = pos;
      for (let col = 0; col <= last; col++) {
        const b = builders[col];
        let end: number;
        if (b.validity && bytes[pos] === BACKSLASH && bytes[pos + 1] === 78 && (pos + 2 === n || isSeparator(bytes[pos + 2]))) {
          if (!columns[col].nullable) throw new Error(`result column ${columns[col].name} is declared non-nullable but holds NULL`);
          b.nulls++;
          b.null(row);
          end = pos + 2;
        } else {
          if (b.validity) b.validity[row >> 3] |= 1 << (row & 7);
          end = b.parse(bytes, pos, row);
        }
        const sep = end < n ? bytes[end] : NL;
        if (col < last || terminated ? sep !== TAB : sep !== NL) {
          throw new Error(`row ${row + 1} of a result batch has ${sep === NL ? col + 1 : `more than ${fields}`} fields, ${fields} were expected`);
        }
        pos = end + 1;
      }
      if (terminated) {
        if (bytes[pos] !== 49 || (pos + 1 < n && bytes[pos + 1] !== NL)) throw new Error(`row ${row + 1} of a result batch does not end in its terminating field`);
        pos += 2;
      }
    }
  } catch (e) {
    const nl = bytes.indexOf(NL, lineStart);
    const line = new TextDecoder().decode(bytes.subarray(lineStart, nl < 0 ? n : nl));
    if (ENGINE_ERROR.test(line)) throw new Error(`the query failed: ${line.slice(0, 2000)}`);
    throw e;
  }
  return { rows, message: encodeRecordBatch(recordBatch(columns, rows, builders.map((b) => b.data(rows)))) };
}

/**
 * The worker task: TabSeparated lines in, the record batch's message out (its memory moved back, not copied). The
 * caller knows the row count: one per '\n'.
 */
export async function tsvToRecordBatch(input: TsvBatchInput): Promise<Uint8Array> {
  return move(encodeTsvBatch(input.text, input.columns, input.terminated).message) as unknown as Uint8Array;
}
