import { move } from 'piscina';
import type { ResultColumn } from '../syql/plan.js';

/**
 * Apache Arrow IPC stream encoding of query results, with no Arrow library: the few message kinds a result needs
 * (a Schema, RecordBatches of flat Utf8, Int64, Float64 and Bool columns, the end-of-stream marker), written and read
 * as the format specifies them (https://arrow.apache.org/docs/format/Columnar.html#serialization-and-interprocess-communication-ipc).
 *
 * Imports nothing of the request side, so worker threads run it: `tsvToRecordBatch` is the task that turns
 * TabSeparated text from a ClickHouse server into one record batch. The request thread uses the rest (the schema
 * message, reading ClickHouse's own Arrow messages on chDB and re-encoding the columns whose layout differs).
 */

/** A stream ends with a continuation marker and a zero length. */
export const END_OF_STREAM = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);

const METADATA_V5 = 4;
const HEADER_SCHEMA = 1;
const HEADER_DICTIONARY_BATCH = 2;
const HEADER_RECORD_BATCH = 3;

/** Arrow's Type union tags (Schema.fbs). */
export const ArrowTypeTag = {
  Null: 1,
  Int: 2,
  FloatingPoint: 3,
  Binary: 4,
  Utf8: 5,
  Bool: 6,
  LargeBinary: 19,
  LargeUtf8: 20,
} as const;

const PRECISION_SINGLE = 1;
const PRECISION_DOUBLE = 2;

// ---------------------------------------------------------------------------------------------------------------
// FlatBuffers, as far as Arrow's messages need them.

type FbScalar = { kind: 'u8' | 'i16' | 'i32' | 'i64'; value: number };
type FbField = FbScalar | { kind: 'ref'; value: FbObject } | undefined;
type FbObject =
  | { kind: 'table'; fields: FbField[] }
  | { kind: 'string'; bytes: Uint8Array }
  | { kind: 'refs'; items: FbObject[] }
  | { kind: 'structs'; count: number; bytes: Uint8Array };

const u8 = (value: number): FbScalar => ({ kind: 'u8', value });
const i16 = (value: number): FbScalar => ({ kind: 'i16', value });
const i32 = (value: number): FbScalar => ({ kind: 'i32', value });
const i64 = (value: number): FbScalar => ({ kind: 'i64', value });
const ref = (value: FbObject): FbField => ({ kind: 'ref', value });
const table = (...fields: FbField[]): FbObject => ({ kind: 'table', fields });
const refs = (items: FbObject[]): FbObject => ({ kind: 'refs', items });
const UTF8 = new TextEncoder();
const str = (s: string): FbObject => ({ kind: 'string', bytes: UTF8.encode(s) });

const SCALAR_SIZE = { u8: 1, i16: 2, i32: 4, i64: 8 } as const;
const TWO_32 = 4294967296;

/**
 * Writes a FlatBuffer front to back: each object is laid out before the objects it refers to, so every reference
 * (an unsigned offset) points forward, and a table's vtable sits just before the table.
 */
class FbWriter {
  private buf = new Uint8Array(256);
  private view = new DataView(this.buf.buffer);
  private pos = 0;

  finish(root: FbObject): Uint8Array {
    this.pos = 4;
    const at = this.place(root);
    this.view.setUint32(0, at, true);
    return this.buf.subarray(0, this.pos);
  }

  private reserve(n: number): number {
    const at = this.pos;
    if (at + n > this.buf.length) {
      const next = new Uint8Array(Math.max(this.buf.length * 2, at + n));
      next.set(this.buf);
      this.buf = next;
      this.view = new DataView(next.buffer);
    }
    this.pos += n;
    return at;
  }

  /** Pads with zeros until the position is `mod` modulo `align`. */
  private align(align: number, mod = 0): void {
    const pad = (mod - (this.pos % align) + align) % align;
    this.reserve(pad);
  }

  private setScalar(at: number, f: FbScalar): void {
    switch (f.kind) {
      case 'u8':
        this.view.setUint8(at, f.value);
        break;
      case 'i16':
        this.view.setInt16(at, f.value, true);
        break;
      case 'i32':
        this.view.setInt32(at, f.value, true);
        break;
      case 'i64':
        writeInt64(this.view, at, f.value);
        break;
    }
  }

  /** Writes `obj` and returns where a reference to it points. */
  private place(obj: FbObject): number {
    switch (obj.kind) {
      case 'string': {
        this.align(4);
        const at = this.reserve(4 + obj.bytes.length + 1);
        this.view.setUint32(at, obj.bytes.length, true);
        this.buf.set(obj.bytes, at + 4);
        this.buf[at + 4 + obj.bytes.length] = 0;
        return at;
      }
      case 'structs': {
        // The elements (structs of 64-bit numbers) start 8-aligned, right after the 32-bit count.
        this.align(8, 4);
        const at = this.reserve(4 + obj.bytes.length);
        this.view.setUint32(at, obj.count, true);
        this.buf.set(obj.bytes, at + 4);
        return at;
      }
      case 'refs': {
        this.align(4);
        const at = this.reserve(4 + 4 * obj.items.length);
        this.view.setUint32(at, obj.items.length, true);
        obj.items.forEach((item, i) => {
          const slot = at + 4 + 4 * i;
          // Placed first: placing may grow the buffer, and the write must go to the new one.
          const target = this.place(item);
          this.view.setUint32(slot, target - slot, true);
        });
        return at;
      }
      case 'table': {
        const fields = obj.fields;
        this.align(2);
        const vtable = this.reserve(4 + 2 * fields.length);
        this.align(4);
        const start = this.pos;
        // Largest first, each aligned to its size, after the table's 32-bit offset to its vtable.
        const order = fields.map((f, i) => i).filter((i) => fields[i] !== undefined);
        const size = (f: FbField) => (f!.kind === 'ref' ? 4 : SCALAR_SIZE[f!.kind]);
        order.sort((a, b) => size(fields[b]) - size(fields[a]));
        const at: number[] = [];
        let cursor = start + 4;
        for (const i of order) {
          const s = size(fields[i]);
          cursor = Math.ceil(cursor / s) * s;
          at[i] = cursor;
          cursor += s;
        }
        this.reserve(cursor - start);
        this.buf.fill(0, start, cursor);
        this.view.setUint16(vtable, 4 + 2 * fields.length, true);
        this.view.setUint16(vtable + 2, cursor - start, true);
        fields.forEach((f, i) => this.view.setUint16(vtable + 4 + 2 * i, f === undefined ? 0 : at[i] - start, true));
        this.view.setInt32(start, start - vtable, true);
        for (const i of order) {
          const f = fields[i]!;
          if (f.kind !== 'ref') this.setScalar(at[i], f);
        }
        for (const i of order) {
          const f = fields[i]!;
          if (f.kind !== 'ref') continue;
          const target = this.place(f.value);
          this.view.setUint32(at[i], target - at[i], true);
        }
        return start;
      }
    }
  }
}

function writeInt64(view: DataView, at: number, value: number): void {
  const hi = Math.floor(value / TWO_32);
  view.setUint32(at, value - hi * TWO_32, true);
  view.setInt32(at + 4, hi, true);
}

function readInt64(view: DataView, at: number): number {
  const value = view.getInt32(at + 4, true) * TWO_32 + view.getUint32(at, true);
  if (!Number.isSafeInteger(value)) throw new Error('Arrow message: a 64-bit length beyond 2^53');
  return value;
}

/** Reads tables of a FlatBuffer. */
class FbReader {
  constructor(readonly view: DataView) {}

  root(): number {
    return this.view.getUint32(0, true);
  }

  /** Absolute position of field `i` of the table at `t`; 0 when the field is absent. */
  field(t: number, i: number): number {
    const vtable = t - this.view.getInt32(t, true);
    const vsize = this.view.getUint16(vtable, true);
    const off = 4 + 2 * i < vsize ? this.view.getUint16(vtable + 4 + 2 * i, true) : 0;
    return off ? t + off : 0;
  }

  deref(at: number): number {
    return at + this.view.getUint32(at, true);
  }

  u8(t: number, i: number, dflt = 0): number {
    const at = this.field(t, i);
    return at ? this.view.getUint8(at) : dflt;
  }

  i16(t: number, i: number, dflt = 0): number {
    const at = this.field(t, i);
    return at ? this.view.getInt16(at, true) : dflt;
  }

  i32(t: number, i: number, dflt = 0): number {
    const at = this.field(t, i);
    return at ? this.view.getInt32(at, true) : dflt;
  }

  i64(t: number, i: number): number {
    const at = this.field(t, i);
    return at ? readInt64(this.view, at) : 0;
  }

  table(t: number, i: number): number {
    const at = this.field(t, i);
    return at ? this.deref(at) : 0;
  }

  string(t: number, i: number): string {
    const at = this.field(t, i);
    if (!at) return '';
    const s = this.deref(at);
    const len = this.view.getUint32(s, true);
    return new TextDecoder().decode(new Uint8Array(this.view.buffer, this.view.byteOffset + s + 4, len));
  }

  /** Position of the first element and the count of the vector in field `i`; count 0 when absent. */
  vector(t: number, i: number): { at: number; count: number } {
    const f = this.field(t, i);
    if (!f) return { at: 0, count: 0 };
    const v = this.deref(f);
    return { at: v + 4, count: this.view.getUint32(v, true) };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Messages.

/** An encapsulated message: continuation marker, metadata length, the metadata padded to 8 bytes, the body. */
function frame(metadata: Uint8Array, bodyLength: number): { bytes: Uint8Array; bodyAt: number } {
  const metaLength = Math.ceil(metadata.length / 8) * 8;
  const bytes = new Uint8Array(8 + metaLength + bodyLength);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, 0xffffffff, true);
  view.setInt32(4, metaLength, true);
  bytes.set(metadata, 8);
  return { bytes, bodyAt: 8 + metaLength };
}

function arrowType(c: ResultColumn): { tag: number; type: FbObject } {
  switch (c.type) {
    case 'string':
      return { tag: ArrowTypeTag.Utf8, type: table() };
    case 'integer':
      return { tag: ArrowTypeTag.Int, type: table(i32(64), u8(1)) };
    case 'float':
      return { tag: ArrowTypeTag.FloatingPoint, type: table(i16(PRECISION_DOUBLE)) };
    case 'boolean':
      return { tag: ArrowTypeTag.Bool, type: table() };
    default:
      throw new Error(`result column ${c.name}: no Arrow type for ${String((c as ResultColumn).type)}`);
  }
}

/**
 * The Schema message of a result: one field per column, named and typed as declared (Utf8, Int64, Float64, Bool),
 * with the declared nullability, and `metadata` as the schema's custom metadata.
 */
export function encodeSchemaMessage(columns: readonly ResultColumn[], metadata: Record<string, string>): Uint8Array {
  const fields = columns.map((c) => {
    const { tag, type } = arrowType(c);
    // name, nullable, type_type, type, dictionary, children (required by some readers, even when empty)
    return table(ref(str(c.name)), u8(c.nullable ? 1 : 0), u8(tag), ref(type), undefined, ref(refs([])));
  });
  const keyValues = Object.entries(metadata).map(([k, v]) => table(ref(str(k)), ref(str(String(v)))));
  // endianness (little), fields, custom_metadata
  const schema = table(i16(0), ref(refs(fields)), ref(refs(keyValues)));
  // version, header_type, header, bodyLength
  const metadataBytes = new FbWriter().finish(table(i16(METADATA_V5), u8(HEADER_SCHEMA), ref(schema), i64(0)));
  return frame(metadataBytes, 0).bytes;
}

export interface FieldNode {
  length: number;
  nullCount: number;
}

/** A RecordBatch message of `length` rows: one node per column and the column buffers, in order. */
export function encodeRecordBatchMessage(length: number, nodes: readonly FieldNode[], buffers: readonly (Uint8Array | null)[]): Uint8Array {
  const nodeBytes = new Uint8Array(16 * nodes.length);
  const nodeView = new DataView(nodeBytes.buffer);
  nodes.forEach((n, i) => {
    writeInt64(nodeView, 16 * i, n.length);
    writeInt64(nodeView, 16 * i + 8, n.nullCount);
  });
  const bufferBytes = new Uint8Array(16 * buffers.length);
  const bufferView = new DataView(bufferBytes.buffer);
  let bodyLength = 0;
  buffers.forEach((b, i) => {
    const size = b?.length ?? 0;
    writeInt64(bufferView, 16 * i, bodyLength);
    writeInt64(bufferView, 16 * i + 8, size);
    bodyLength += Math.ceil(size / 8) * 8;
  });
  const batch = table(i64(length), ref({ kind: 'structs', count: nodes.length, bytes: nodeBytes }), ref({ kind: 'structs', count: buffers.length, bytes: bufferBytes }));
  const metadata = new FbWriter().finish(table(i16(METADATA_V5), u8(HEADER_RECORD_BATCH), ref(batch), i64(bodyLength)));
  const { bytes, bodyAt } = frame(metadata, bodyLength);
  let at = bodyAt;
  for (const b of buffers) {
    if (!b) continue;
    bytes.set(b, at);
    at += Math.ceil(b.length / 8) * 8;
  }
  return bytes;
}

/** A field of a schema Arrow wrote, as far as deciding how its columns map to ours. */
export interface NativeField {
  name: string;
  nullable: boolean;
  tag: number;
  bitWidth?: number;
  signed?: boolean;
  precision?: number;
  dictionary: boolean;
  children: number;
}

export type ParsedMessage =
  | { kind: 'schema'; fields: NativeField[]; bodyLength: number }
  | { kind: 'batch'; length: number; nodes: FieldNode[]; buffers: { offset: number; length: number }[]; compressed: boolean; bodyLength: number }
  | { kind: 'other'; headerType: number; bodyLength: number };

/** Parses a message's metadata (the FlatBuffer after the length prefix). */
export function parseMessage(metadata: Uint8Array): ParsedMessage {
  const fb = new FbReader(new DataView(metadata.buffer, metadata.byteOffset, metadata.byteLength));
  const m = fb.root();
  const headerType = fb.u8(m, 1);
  const header = fb.table(m, 2);
  const bodyLength = fb.i64(m, 3);
  if (headerType === HEADER_SCHEMA) {
    const { at, count } = fb.vector(header, 1);
    const fields: NativeField[] = [];
    for (let i = 0; i < count; i++) {
      const f = fb.deref(at + 4 * i);
      const tag = fb.u8(f, 2);
      const type = fb.table(f, 3);
      const field: NativeField = { name: fb.string(f, 0), nullable: fb.u8(f, 1) === 1, tag, dictionary: fb.field(f, 4) !== 0, children: fb.vector(f, 5).count };
      if (tag === ArrowTypeTag.Int && type) {
        field.bitWidth = fb.i32(type, 0);
        field.signed = fb.u8(type, 1) === 1;
      }
      if (tag === ArrowTypeTag.FloatingPoint && type) field.precision = fb.i16(type, 0);
      fields.push(field);
    }
    return { kind: 'schema', fields, bodyLength };
  }
  if (headerType === HEADER_RECORD_BATCH) {
    const nodesVec = fb.vector(header, 1);
    const buffersVec = fb.vector(header, 2);
    const nodes: FieldNode[] = [];
    for (let i = 0; i < nodesVec.count; i++) nodes.push({ length: readInt64(fb.view, nodesVec.at + 16 * i), nullCount: readInt64(fb.view, nodesVec.at + 16 * i + 8) });
    const buffers: { offset: number; length: number }[] = [];
    for (let i = 0; i < buffersVec.count; i++) buffers.push({ offset: readInt64(fb.view, buffersVec.at + 16 * i), length: readInt64(fb.view, buffersVec.at + 16 * i + 8) });
    return { kind: 'batch', length: fb.i64(header, 0), nodes, buffers, compressed: fb.field(header, 3) !== 0, bodyLength };
  }
  return { kind: 'other', headerType, bodyLength };
}

export const isDictionaryBatch = (m: ParsedMessage) => m.kind === 'other' && m.headerType === HEADER_DICTIONARY_BATCH;

// ---------------------------------------------------------------------------------------------------------------
// Columns Arrow wrote in another layout than the declared type's (ClickHouse's UInt8 for a boolean, say).

/** How one native column becomes the declared one. */
export type Conversion =
  | { kind: 'same'; buffers: number }
  | { kind: 'int-to-bool'; bytes: number }
  | { kind: 'widen-int'; bytes: number; signed: boolean }
  | { kind: 'widen-float' }
  | { kind: 'large-offsets' };

/** The conversion of each column, or an error naming the first column whose native type cannot become the declared one. */
export function planConversions(columns: readonly ResultColumn[], fields: readonly NativeField[]): Conversion[] {
  if (fields.length !== columns.length) throw new Error(`the query returned ${fields.length} columns, ${columns.length} were declared`);
  return columns.map((c, i) => {
    const f = fields[i];
    const fail = () => new Error(`result column ${c.name} (${c.type}, ${c.chType}): Arrow type ${describe(f)} cannot be converted`);
    if (f.dictionary || f.children) throw fail();
    const intBytes = f.tag === ArrowTypeTag.Int && [8, 16, 32, 64].includes(f.bitWidth ?? 0) ? f.bitWidth! / 8 : 0;
    switch (c.type) {
      case 'string':
        if (f.tag === ArrowTypeTag.Utf8 || f.tag === ArrowTypeTag.Binary) return { kind: 'same', buffers: 3 };
        if (f.tag === ArrowTypeTag.LargeUtf8 || f.tag === ArrowTypeTag.LargeBinary) return { kind: 'large-offsets' };
        throw fail();
      case 'integer':
        if (intBytes === 8) return { kind: 'same', buffers: 2 };
        if (intBytes) return { kind: 'widen-int', bytes: intBytes, signed: f.signed ?? true };
        throw fail();
      case 'float':
        if (f.tag === ArrowTypeTag.FloatingPoint && f.precision === PRECISION_DOUBLE) return { kind: 'same', buffers: 2 };
        if (f.tag === ArrowTypeTag.FloatingPoint && f.precision === PRECISION_SINGLE) return { kind: 'widen-float' };
        throw fail();
      case 'boolean':
        if (f.tag === ArrowTypeTag.Bool) return { kind: 'same', buffers: 2 };
        if (intBytes) return { kind: 'int-to-bool', bytes: intBytes };
        throw fail();
      default:
        throw fail();
    }
  });
}

function describe(f: NativeField): string {
  const name = Object.entries(ArrowTypeTag).find(([, t]) => t === f.tag)?.[0] ?? `type #${f.tag}`;
  if (f.dictionary) return `dictionary of ${name}`;
  if (f.tag === ArrowTypeTag.Int) return `${f.signed ? 'Int' : 'UInt'}${f.bitWidth}`;
  if (f.tag === ArrowTypeTag.FloatingPoint) return `Float (precision ${f.precision})`;
  return name;
}

export const needsReencoding = (conversions: readonly Conversion[]) => conversions.some((c) => c.kind !== 'same');

/** Buffers each converted native column has in a record batch (all columns are flat). */
const nativeBufferCount = (c: Conversion) => (c.kind === 'same' ? c.buffers : c.kind === 'large-offsets' ? 3 : 2);

/**
 * Checks a native record batch against the declared columns: no compression, one node per column with the
 * batch's length, no NULLs in a column declared non-nullable, every buffer inside the body.
 */
export function checkBatch(batch: Extract<ParsedMessage, { kind: 'batch' }>, columns: readonly ResultColumn[], conversions: readonly Conversion[]): void {
  if (batch.compressed) throw new Error('Arrow record batch: compressed bodies are not expected');
  if (batch.nodes.length !== columns.length) throw new Error(`Arrow record batch: ${batch.nodes.length} columns, ${columns.length} declared`);
  const expected = conversions.reduce((n, c) => n + nativeBufferCount(c), 0);
  if (batch.buffers.length !== expected) throw new Error(`Arrow record batch: ${batch.buffers.length} buffers, ${expected} expected`);
  batch.nodes.forEach((n, i) => {
    if (n.length !== batch.length) throw new Error(`Arrow record batch: column ${columns[i].name} has ${n.length} values in a batch of ${batch.length} rows`);
    if (n.nullCount > 0 && !columns[i].nullable) throw new Error(`result column ${columns[i].name} is declared non-nullable but holds NULL`);
  });
  for (const b of batch.buffers) if (b.offset < 0 || b.offset + b.length > batch.bodyLength) throw new Error('Arrow record batch: a buffer lies outside the body');
}

/** A native record batch (its body) re-encoded in the declared layout. */
export function reencodeBatch(batch: Extract<ParsedMessage, { kind: 'batch' }>, body: Uint8Array, conversions: readonly Conversion[]): Uint8Array {
  const out: (Uint8Array | null)[] = [];
  const n = batch.length;
  let b = 0;
  const slice = (i: number) => body.subarray(batch.buffers[i].offset, batch.buffers[i].offset + batch.buffers[i].length);
  conversions.forEach((c, col) => {
    const validity = batch.nodes[col].nullCount > 0 ? slice(b) : null;
    switch (c.kind) {
      case 'same':
        out.push(validity);
        for (let k = 1; k < c.buffers; k++) out.push(slice(b + k));
        break;
      case 'large-offsets': {
        const wide = aligned(slice(b + 1), 8);
        const offsets = new BigInt64Array(wide.buffer, wide.byteOffset, n + 1);
        const narrow = new Int32Array(n + 1);
        for (let i = 0; i <= n; i++) {
          const o = Number(offsets[i]);
          if (o > 0x7fffffff) throw new Error('Arrow record batch: a string column larger than 2 GiB in one batch');
          narrow[i] = o;
        }
        out.push(validity, new Uint8Array(narrow.buffer), slice(b + 2));
        break;
      }
      case 'int-to-bool': {
        const values = slice(b + 1);
        const bits = new Uint8Array(Math.ceil(n / 8));
        for (let i = 0; i < n; i++) {
          let nonzero = false;
          for (let k = 0; k < c.bytes; k++) if (values[i * c.bytes + k]) nonzero = true;
          if (nonzero) bits[i >> 3] |= 1 << (i & 7);
        }
        out.push(validity, bits);
        break;
      }
      case 'widen-int': {
        const src = slice(b + 1);
        const view = new DataView(src.buffer, src.byteOffset, src.byteLength);
        const wide = new Int32Array(2 * n);
        for (let i = 0; i < n; i++) {
          let v: number;
          if (c.bytes === 1) v = c.signed ? view.getInt8(i) : view.getUint8(i);
          else if (c.bytes === 2) v = c.signed ? view.getInt16(2 * i, true) : view.getUint16(2 * i, true);
          else v = c.signed ? view.getInt32(4 * i, true) : view.getUint32(4 * i, true);
          const hi = Math.floor(v / TWO_32);
          wide[2 * i] = v - hi * TWO_32;
          wide[2 * i + 1] = hi;
        }
        out.push(validity, new Uint8Array(wide.buffer));
        break;
      }
      case 'widen-float': {
        const src = aligned(slice(b + 1), 4);
        const narrow = new Float32Array(src.buffer, src.byteOffset, n);
        out.push(validity, new Uint8Array(Float64Array.from(narrow).buffer));
        break;
      }
    }
    b += nativeBufferCount(c);
  });
  return encodeRecordBatchMessage(n, batch.nodes, out);
}

/** `bytes`, copied when its offset is not a multiple of `align` (typed arrays need aligned views). */
function aligned(bytes: Uint8Array, align: number): Uint8Array {
  return bytes.byteOffset % align === 0 ? bytes : bytes.slice();
}

// ---------------------------------------------------------------------------------------------------------------
// The task: TabSeparated text of a ClickHouse server to one record batch.

export interface TsvBatchInput {
  /** Whole lines of TabSeparated text, each ending in '\n'; `\N` is NULL. */
  text: string;
  columns: ResultColumn[];
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
  buffers(): Uint8Array[];
}

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
  private readonly data: Uint8Array;
  private size = 0;
  constructor(rows: number, textBytes: number, nullable: boolean) {
    this.offsets = new Int32Array(rows + 1);
    // The values of one column never hold more bytes than the text: no growing.
    this.data = new Uint8Array(textBytes);
    this.validity = nullable ? new Uint8Array(Math.ceil(rows / 8)) : null;
  }
  parse(bytes: Uint8Array, start: number, row: number): number {
    const data = this.data;
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
  buffers(): Uint8Array[] {
    return [new Uint8Array(this.offsets.buffer), this.data.subarray(0, this.size)];
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
  buffers(): Uint8Array[] {
    return [new Uint8Array(this.words.buffer)];
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
  buffers(): Uint8Array[] {
    return [new Uint8Array(this.values.buffer)];
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
  buffers(): Uint8Array[] {
    return [this.bits];
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

function builderFor(c: ResultColumn, rows: number, textBytes: number): Builder {
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
      throw new Error(`result column ${c.name}: no Arrow type for ${String((c as ResultColumn).type)}`);
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
export function encodeTsvBatch(text: string, columns: readonly ResultColumn[], terminated = false): EncodedBatch {
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
  const nodes: FieldNode[] = builders.map((b) => ({ length: rows, nullCount: b.nulls }));
  const buffers = builders.flatMap((b) => [b.nulls > 0 ? b.validity : null, ...b.buffers()]);
  return { rows, message: encodeRecordBatchMessage(rows, nodes, buffers) };
}

/**
 * The worker task: TabSeparated lines in, the record batch's message out (its memory moved back, not copied). The
 * caller knows the row count: one per '\n'.
 */
export async function tsvToRecordBatch(input: TsvBatchInput): Promise<Uint8Array> {
  return move(encodeTsvBatch(input.text, input.columns, input.terminated).message) as unknown as Uint8Array;
}
