import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { Message } from 'apache-arrow';
import { parquetMetadata, parquetSchema } from 'hyparquet';
import { BadInput } from '../../../../lib/errors.js';
import { abortError } from '../../../../lib/request-scope.js';
import { unwrapOutcome, type TaskOutcome } from '../../../../lib/workers/outcome.js';
import { runTask } from '../../../../lib/workers/pool.js';
import type { DataTable } from '../../store/clickhouse/columns.js';
import type { Bounds, EncodeContext, EncodedBatch, TableChunk } from './encode.js';
import { recognizeLayout, tableKindOf, type ColumnMapping, type Layout, type TableKind } from './layouts.js';
import { ARROW_FILE_TRAILER_BYTES, arrowColumns, arrowFooterLength, arrowFooterSchema, detectFormat, detectTableKind, gunzipPrefix, headerColumns, type TableFormat } from './table-format.js';
import type { ArrowBatchInput, CsvChunkInput, JsonFileInput, JsonFileResult, ParquetRowGroupInput } from './table.task.js';
import { idBefore } from './values.js';

export type { TableChunk, Bounds };

// Named by URL, not imported: the task module runs on worker threads.
const TABLE_TASKS = new URL('./table.task.ts', import.meta.url);

/** Text handed to one CSV task: a few MB, so that a batch's rows and its TSV stay small. */
export const CSV_CHUNK_BYTES = 4 * 1024 * 1024;
/** An ROI table or a JSON file is read whole: ROI hierarchies have hundreds of rows, neuPrint answers a page of neurons. */
export const WHOLE_FILE_MAX_BYTES = 64 * 1024 * 1024;

/** Where the file's bytes come from: ObjectStore.getStream for the stream, byte ranges of it for Parquet. */
export interface TableSource {
  /** The whole file as a byte stream (opened once; not opened for Parquet beyond its first bytes). */
  open(): Promise<AsyncIterable<Uint8Array>>;
  /** The file's size in bytes (needed for Parquet, and for an Arrow file whose schema is in its footer only). */
  size?: number;
  /** Bytes [start, end) of the file (end exclusive; ObjectStore ranges are inclusive: pass end - 1). Needed for Parquet. */
  readRange?(start: number, end: number): Promise<Uint8Array>;
}

export interface IngestTableOptions {
  /** Named in every problem and in generated synapse ids (`<filename>:<row>`). */
  filename: string;
  datasetId: string;
  version: number;
  /** The kind, when the caller knows it; otherwise told from the name and columns (tableKindOf). */
  kind?: TableKind;
  /** The version's ROI names: synapses, connections and roiInfo entries in another ROI are refused. */
  knownRois?: ReadonlySet<string> | null;
  /** The version's primary ROIs: a neuPrint roiInfo column keeps only these (all it lists when absent). */
  primaryRois?: ReadonlySet<string> | null;
  /** Positions outside are refused (the dataset's declared extent, in its coordinate unit). */
  bounds?: Bounds | null;
  /** Our field -> the file's column, overriding or completing the recognised layout. */
  mapping?: ColumnMapping | null;
  signal?: AbortSignal;
  /** After each batch: bytes of the file read and data rows encoded so far. */
  onProgress?: (p: { bytes: number; rows: number }) => void;
}

export interface TableIngestSummary {
  kind: TableKind;
  /** The recognised layout (`flywire_synapses`, `neuprint_synapses`, `mapping`, ...). */
  layout: string;
  format: TableFormat;
  gzip: boolean;
  /** Data rows of the file. */
  rows: number;
  /** Rows yielded per table. */
  tables: Partial<Record<DataTable, number>>;
  /** The file's columns no field was taken from (annotations keep them in `extra`). */
  ignoredColumns: string[];
  /**
   * How far synapse ids were checked for duplicates here: `file` (every batch's ids ascended past the last batch's,
   * so the whole file has none), `batch` (within each batch only: the store's checkSynapseIds covers the rest),
   * `generated` (`<file>:<row>`, unique by construction), or null for other kinds.
   */
  synapseIdCheck: 'file' | 'batch' | 'generated' | null;
}

/** A byte source read piece by piece, with what was looked at first pushed back. */
class Bytes {
  private readonly chunks: Uint8Array[] = [];
  private length = 0;
  private ended = false;
  read = 0;
  constructor(private readonly source: AsyncIterator<Uint8Array>) {}

  static of(iterable: AsyncIterable<Uint8Array>): Bytes {
    return new Bytes(iterable[Symbol.asyncIterator]());
  }

  /** Waits until `n` bytes are at hand; false when the source ends first. */
  async fill(n: number): Promise<boolean> {
    while (this.length < n && !this.ended) {
      const next = await this.source.next();
      if (next.done) {
        this.ended = true;
        break;
      }
      const piece = next.value instanceof Uint8Array ? next.value : Buffer.from(next.value as string);
      this.read += piece.length;
      this.chunks.push(piece);
      this.length += piece.length;
    }
    return this.length >= n;
  }
  get available(): number {
    return this.length;
  }
  get done(): boolean {
    return this.ended && this.length === 0;
  }
  peek(n: number): Uint8Array {
    return Buffer.concat(this.chunks, this.length).subarray(0, Math.min(n, this.length));
  }
  take(n: number): Uint8Array {
    const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.length);
    const k = Math.min(n, all.length);
    const out = all.subarray(0, k);
    this.chunks.length = 0;
    if (k < all.length) this.chunks.push(all.subarray(k));
    this.length = all.length - k;
    return out;
  }
  async close(): Promise<void> {
    await this.source.return?.();
  }
}

/** The source's bytes with a gzip stream decompressed as they come (zlib runs off the JavaScript thread). */
async function* gunzipped(bytes: Bytes): AsyncGenerator<Uint8Array> {
  async function* raw() {
    while (await bytes.fill(1)) yield bytes.take(bytes.available);
  }
  const gunzip = Readable.from(raw()).pipe(createGunzip());
  try {
    for await (const piece of gunzip) yield piece as Buffer;
  } catch (e) {
    throw new BadInput(`the gzip data is damaged (${(e as Error).message})`);
  }
}

const bad = (filename: string, message: string) => new BadInput(`${filename}: ${message}`);

function runBatch(name: string, input: unknown, signal: AbortSignal | undefined): Promise<EncodedBatch> {
  return runTask<TaskOutcome<EncodedBatch>>(TABLE_TASKS, name, input, { signal }).then(unwrapOutcome);
}

/**
 * Reads a synapse-level table file (synapses, per-ROI connections, neuron annotations or an ROI hierarchy) batch by
 * batch and yields its rows as TabSeparated chunks in the column order of each target table (columns.ts): CSV (gzip
 * too) in line-aligned chunks of CSV_CHUNK_BYTES, Arrow IPC streams and files (Feather v2, LZ4 or ZSTD bodies)
 * record batch by record batch, Parquet row group by row group through `readRange`. Parsing, validation and encoding
 * run on the worker pool, one batch at a time per file while the next batch's bytes are read and the caller inserts
 * the previous one, so memory stays at a few batches whatever the file's size. Returns the summary when done.
 *
 * Throws BadInput `<file> row <n> column <c>: ...` at the first batch with a problem (earlier batches have been
 * yielded: the caller discards what it inserted), `<file>: ...` for an unreadable file or missing columns.
 */
export async function* ingestTable(source: TableSource, opts: IngestTableOptions): AsyncGenerator<TableChunk, TableIngestSummary> {
  const { filename, signal } = opts;
  const check = () => {
    if (signal?.aborted) throw abortError(signal);
  };
  check();
  const raw = Bytes.of(await source.open());
  let closed = false;
  try {
    await raw.fill(64);
    const { format, gzip } = detectFormat(filename, raw.peek(64));
    const tables: Partial<Record<DataTable, number>> = {};
    let rows = 0;
    let idCheck: TableIngestSummary['synapseIdCheck'] = null;
    let lastId: string | null = null;
    let layout: Layout | null = null;
    const target = {
      filename,
      datasetId: opts.datasetId,
      version: opts.version,
      knownRois: opts.knownRois ? [...opts.knownRois] : null,
      primaryRois: opts.primaryRois ? [...opts.primaryRois] : null,
      bounds: opts.bounds ?? null,
    };
    const ctxOf = (l: Layout, rowOffset: number): EncodeContext => ({ ...target, layout: l, rowOffset });
    const kindOf = (names: string[]): TableKind => {
      const kind = opts.kind ?? tableKindOf(filename, names);
      if (!kind) throw bad(filename, `not a synapse-level table: no synapse, connection, annotation or ROI layout has the columns ${names.join(', ')}; give a column mapping`);
      return kind;
    };
    const summary = (l: Layout): TableIngestSummary => ({
      kind: l.kind,
      layout: l.name,
      format,
      gzip,
      rows,
      tables,
      ignoredColumns: l.ignored.map((i) => l.names[i]),
      synapseIdCheck: l.kind === 'synapses' ? (l.columns.synapse_id === undefined ? 'generated' : (idCheck ?? 'file')) : null,
    });
    /** Accounts a finished batch: row count, the synapse-id order across batches, progress. */
    const account = (batch: EncodedBatch, rowOffset: number) => {
      rows += batch.rows;
      for (const c of batch.chunks) tables[c.table] = (tables[c.table] ?? 0) + c.rows;
      if (batch.ids) {
        if (idCheck !== 'batch') {
          if (!batch.ids.ascending) idCheck = 'batch';
          else if (lastId !== null) {
            if (lastId === batch.ids.first) {
              const column = layout!.names[layout!.columns.synapse_id!];
              throw new BadInput(`${filename} row ${rowOffset + 1} column ${column}: synapse id ${lastId} already appears in the row before`);
            }
            if (!(batch.ids.integer ? idBefore(lastId, batch.ids.first) : lastId < batch.ids.first)) idCheck = 'batch';
          }
        }
        lastId = batch.ids.last;
      }
      opts.onProgress?.({ bytes: raw.read, rows });
    };

    /**
     * Runs the batches one after the other on the pool: the next batch's bytes are read while one is encoded, and
     * it starts before the previous result is yielded, so that the caller's insert overlaps the next encoding.
     */
    async function* pipeline<T>(inputs: AsyncIterator<T>, task: string, build: (input: T, rowOffset: number) => unknown): AsyncGenerator<TableChunk> {
      let offset = 0;
      let next = inputs.next();
      next.catch(() => undefined);
      const first = await next;
      if (first.done) return;
      let running: Promise<EncodedBatch> | null = runBatch(task, build(first.value, offset), signal);
      next = inputs.next();
      next.catch(() => undefined);
      while (running) {
        const batch: EncodedBatch = await running;
        const at = offset;
        account(batch, at);
        offset += batch.rows;
        check();
        const n = await next;
        running = n.done ? null : runBatch(task, build(n.value, offset), signal);
        running?.catch(() => undefined);
        if (!n.done) {
          next = inputs.next();
          next.catch(() => undefined);
        }
        for (const c of batch.chunks) yield c;
      }
    }

    if (format === 'parquet') {
      await raw.close();
      closed = true;
      layout = yield* readParquet();
      return summary(layout);
    }

    const text = gzip ? Bytes.of(gunzipped(raw)) : raw;
    if (format === 'json') {
      await text.fill(WHOLE_FILE_MAX_BYTES + 1);
      if (text.available > WHOLE_FILE_MAX_BYTES) throw bad(filename, `a JSON table file is read whole and may have at most ${WHOLE_FILE_MAX_BYTES} bytes`);
      const input: JsonFileInput = {
        ctx: target,
        bytes: text.take(text.available),
        mapping: opts.mapping,
      };
      const result = await runTask<TaskOutcome<JsonFileResult>>(TABLE_TASKS, 'encodeJsonTask', input, { signal }).then(unwrapOutcome);
      layout = result.layout;
      if (opts.kind && opts.kind !== layout.kind) throw bad(filename, `a ${opts.kind} table was expected, but the JSON holds ${layout.kind}`);
      account(result, 0);
      for (const c of result.chunks) yield c;
      return summary(layout);
    }

    if (format === 'csv' || format === 'tsv') {
      const delimiter = format === 'tsv' ? '\t' : ',';
      const header = await readHeaderLine(text);
      if (header === null) throw bad(filename, 'the file is empty; expected a header row');
      const names = headerColumns(header, delimiter);
      const l = recognizeLayout(kindOf(names), filename, names, opts.mapping);
      layout = l;
      const build = (bytes: Uint8Array, rowOffset: number): CsvChunkInput => ({ ctx: ctxOf(l, rowOffset), bytes, delimiter, width: names.length });
      if (l.kind === 'rois') {
        await text.fill(WHOLE_FILE_MAX_BYTES + 1);
        if (text.available > WHOLE_FILE_MAX_BYTES) throw bad(filename, `an ROI table may have at most ${WHOLE_FILE_MAX_BYTES} bytes`);
        const batch = await runBatch('encodeCsvChunkTask', build(text.take(text.available), 0), signal);
        account(batch, 0);
        for (const c of batch.chunks) yield c;
      } else {
        yield* pipeline(csvChunks(text, delimiter === ','), 'encodeCsvChunkTask', build);
      }
      if (rows === 0) throw bad(filename, 'the file has a header but no rows');
      return summary(l);
    }

    // Arrow IPC: a file is its magic and padding (8 bytes), the stream, and a footer that is not needed here.
    const file = format === 'arrow_file';
    if (file) {
      await text.fill(8);
      text.take(8);
    }
    const messages = arrowMessages(text, filename, file);
    const first = await messages.next();
    // A file written without the schema message up front (apache-arrow's writer) has it in its footer.
    let pending: ArrowMessage | null = null;
    let schema: ArrowMessage;
    if (!first.done && first.value.type === 'schema') schema = first.value;
    else if (file && !first.done) {
      schema = await readArrowFooterSchema(filename, source);
      pending = first.value;
    } else throw bad(filename, 'unreadable Arrow data: the stream does not start with a schema');
    const names = schema.names!;
    const l = recognizeLayout(kindOf(names), filename, names, opts.mapping);
    layout = l;
    if (l.kind === 'rois') throw bad(filename, 'ROI hierarchies are read from CSV or JSON');
    const dictionaries: Uint8Array[] = [];
    const schemaBytes = schema.bytes;
    async function* batches(): AsyncGenerator<Uint8Array[]> {
      for (;;) {
        let m: ArrowMessage;
        if (pending) [m, pending] = [pending, null];
        else {
          const next = await messages.next();
          if (next.done) return;
          m = next.value;
        }
        if (m.type === 'dictionary') dictionaries.push(m.bytes);
        else if (m.type === 'batch') yield [schemaBytes, ...dictionaries, m.bytes];
        else throw bad(filename, 'unreadable Arrow data: a second schema in the stream');
      }
    }
    yield* pipeline(batches(), 'encodeArrowBatchTask', (msgs, rowOffset): ArrowBatchInput => ({ ctx: ctxOf(l, rowOffset), messages: msgs }));
    return summary(l);

    async function* readParquet(): AsyncGenerator<TableChunk, Layout> {
      const size = source.size;
      const readRange = source.readRange?.bind(source);
      if (size === undefined || !readRange) throw new Error('reading Parquet needs the source size and readRange');
      const { footer, metadata } = await readParquetFooter(filename, size, readRange);
      const names = parquetSchema(metadata).children.map((c) => c.element.name);
      const l = recognizeLayout(kindOf(names), filename, names, opts.mapping);
      layout = l;
      if (l.kind === 'rois') throw bad(filename, 'ROI hierarchies are read from CSV or JSON');
      const used = l.kind === 'annotations' ? names : names.filter((_, i) => Object.values(l.columns).includes(i));
      let groupStart = 0;
      const groups = metadata.row_groups.map((g) => {
        const chunks = g.columns.filter((c) => c.meta_data && used.includes(c.meta_data.path_in_schema[0]));
        const starts = chunks.map((c) => Number(c.meta_data!.dictionary_page_offset ?? c.meta_data!.data_page_offset));
        const ends = chunks.map((c, i) => starts[i] + Number(c.meta_data!.total_compressed_size));
        const group = { start: Math.min(...starts), end: Math.max(...ends), rowStart: groupStart, rowEnd: groupStart + Number(g.num_rows) };
        groupStart = group.rowEnd;
        return group;
      });
      async function* groupBytes() {
        for (const g of groups) yield { ...g, bytes: new Uint8Array(await readRange!(g.start, g.end)) };
      }
      yield* pipeline(groupBytes(), 'encodeParquetRowGroupTask', (g, rowOffset): ParquetRowGroupInput => ({
        ctx: ctxOf(l, rowOffset),
        footer,
        fileSize: size,
        start: g.start,
        bytes: g.bytes,
        rowStart: g.rowStart,
        rowEnd: g.rowEnd,
        columns: used,
      }));
      return l;
    }
  } finally {
    if (!closed) await raw.close().catch(() => undefined);
  }
}

/** A Parquet file's footer (metadata, its length, the magic) and its parsed metadata. */
async function readParquetFooter(filename: string, size: number, readRange: (start: number, end: number) => Promise<Uint8Array>) {
  if (size < 12) throw bad(filename, 'unreadable Parquet file: too short');
  const tail = await readRange(size - 8, size);
  const metaLength = new DataView(tail.buffer, tail.byteOffset, 8).getUint32(0, true);
  if (String.fromCharCode(...tail.subarray(4)) !== 'PAR1' || metaLength + 12 > size) throw bad(filename, 'unreadable Parquet file: no footer');
  const footer = new Uint8Array(await readRange(size - 8 - metaLength, size));
  try {
    return { footer, metadata: parquetMetadata(footer) };
  } catch (e) {
    throw bad(filename, `unreadable Parquet file (${(e as Error).message})`);
  }
}

/** The schema of an Arrow file from its footer, as the stream message a reader starts with. */
export async function readArrowFooterSchema(filename: string, source: Pick<TableSource, 'size' | 'readRange'>): Promise<ArrowMessage> {
  const { size, readRange } = source;
  const noSchema = bad(filename, 'unreadable Arrow data: the file has no schema, neither at its start nor in its footer');
  if (size === undefined || !readRange || size < 8 + ARROW_FILE_TRAILER_BYTES) throw noSchema;
  const length = arrowFooterLength(new Uint8Array(await readRange(size - ARROW_FILE_TRAILER_BYTES, size)));
  if (length === null || length > size - 8 - ARROW_FILE_TRAILER_BYTES) throw noSchema;
  try {
    const { names, message } = arrowFooterSchema(new Uint8Array(await readRange(size - ARROW_FILE_TRAILER_BYTES - length, size - ARROW_FILE_TRAILER_BYTES)));
    return { type: 'schema', bytes: message, names };
  } catch (e) {
    throw bad(filename, `unreadable Arrow data: the footer cannot be read (${(e as Error).message})`);
  }
}

export interface TableInspection {
  format: TableFormat;
  gzip: boolean;
  /** The header's or schema's column names; null for JSON. */
  columns: string[] | null;
  /** What detectTableKind says: null when the file is none of the synapse-level tables. */
  kind: TableKind | null;
}

/**
 * A file's format, columns and kind, reading only its start (64 KiB, decompressed when gzip) or, for Parquet, its
 * footer: what an upload looks at to decide whether ingestTable reads it. Throws BadInput for an unreadable
 * Parquet footer.
 */
export async function inspectTable(source: TableSource, filename: string): Promise<TableInspection> {
  const bytes = Bytes.of(await source.open());
  let head: Uint8Array;
  try {
    await bytes.fill(64 * 1024);
    head = new Uint8Array(bytes.peek(64 * 1024));
  } finally {
    await bytes.close().catch(() => undefined);
  }
  const { format, gzip } = detectFormat(filename, head);
  let columns: string[] | null = null;
  if (format === 'parquet') {
    if (source.size === undefined || !source.readRange) throw new Error('inspecting Parquet needs the source size and readRange');
    const { metadata } = await readParquetFooter(filename, source.size, source.readRange.bind(source));
    columns = parquetSchema(metadata).children.map((c) => c.element.name);
  } else if (format !== 'json') {
    const text = gzip ? gunzipPrefix(head) : head;
    columns = format === 'csv' || format === 'tsv' ? headerColumns(new TextDecoder().decode(text), format === 'tsv' ? '\t' : ',') : arrowColumns(text, format === 'arrow_file');
    if (!columns && format === 'arrow_file' && source.size !== undefined && source.readRange) columns = (await readArrowFooterSchema(filename, source)).names ?? null;
  }
  return { format, gzip, columns, kind: detectTableKind(filename, head, columns ?? undefined) };
}

/** The header line (without its line break; a BOM removed), consumed from `text`; null for an empty file. */
async function readHeaderLine(text: Bytes): Promise<string | null> {
  for (let want = 64 * 1024; ; want *= 2) {
    const complete = await text.fill(want);
    const bytes = text.peek(want);
    const end = recordEnd(bytes, 0, true);
    if (end >= 0 || !complete) {
      const cut = end >= 0 ? end + 1 : bytes.length;
      if (cut === 0) return null;
      const line = Buffer.from(text.take(cut)).toString('utf8').replace(/\r?\n$/, '');
      return line.trim() === '' ? null : line;
    }
    if (want > 16 * 1024 * 1024) return null;
  }
}

/** The index of the first line break after which quotes are balanced (from `from`, quotes even so far), or -1. */
function recordEnd(bytes: Uint8Array, from: number, first: boolean): number {
  let quotes = 0;
  for (let i = from; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 34) quotes++;
    else if (b === 10 && quotes % 2 === 0) return i;
    if (first && i > 1 << 20 && quotes === 0) break;
  }
  return -1;
}

/**
 * Line-aligned pieces of about CSV_CHUNK_BYTES: each ends at a line break outside quotes (quotes are counted only
 * when the piece has any, so unquoted files are cut with one lastIndexOf).
 */
async function* csvChunks(text: Bytes, quoted: boolean): AsyncGenerator<Uint8Array> {
  let parityOdd = false;
  while (await text.fill(CSV_CHUNK_BYTES) || text.available > 0) {
    if (text.done) return;
    const all = text.peek(text.available);
    const last = text.available < CSV_CHUNK_BYTES;
    if (last) {
      yield text.take(text.available);
      return;
    }
    let cut = -1;
    const hasQuote = quoted && (parityOdd || Buffer.from(all.buffer, all.byteOffset, all.length).indexOf(34) >= 0);
    if (!hasQuote) cut = Buffer.from(all.buffer, all.byteOffset, all.length).lastIndexOf(10);
    else {
      let odd = parityOdd;
      for (let i = 0; i < all.length; i++) {
        if (all[i] === 34) odd = !odd;
        else if (all[i] === 10 && !odd) cut = i;
      }
      parityOdd = false;
    }
    if (cut < 0) {
      // One record longer than a chunk: read on until it ends.
      await text.fill(text.available * 2);
      if (text.available === all.length) {
        yield text.take(text.available);
        return;
      }
      continue;
    }
    yield text.take(cut + 1);
  }
}

interface ArrowMessage {
  type: 'schema' | 'dictionary' | 'batch';
  /** The whole message: continuation marker, length, metadata, body. */
  bytes: Uint8Array;
  names?: string[];
}

/** The messages of an Arrow IPC stream, until its end-of-stream marker (or, in a file, the footer). */
async function* arrowMessages(text: Bytes, filename: string, file: boolean): AsyncGenerator<ArrowMessage> {
  const unreadable = (why: string) => bad(filename, `unreadable Arrow data: ${why}`);
  for (;;) {
    if (!(await text.fill(4))) {
      if (text.available === 0) return;
      throw unreadable('the stream ends inside a message');
    }
    const head = text.peek(8);
    const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
    const continued = view.getInt32(0, true) === -1;
    if (!continued && file) return;
    await text.fill(8);
    const prefix = continued ? 8 : 4;
    const length = view.getInt32(continued ? 4 : 0, true);
    if (length === 0) return;
    if (length < 0 || !(await text.fill(prefix + length))) throw unreadable('the stream ends inside a message');
    const metadata = text.peek(prefix + length).subarray(prefix);
    let message;
    try {
      message = Message.decode(metadata);
    } catch (e) {
      throw unreadable((e as Error).message);
    }
    const total = prefix + length + Number(message.bodyLength);
    if (!(await text.fill(total))) throw unreadable('the stream ends inside a record batch');
    const bytes = new Uint8Array(text.take(total));
    if (message.isSchema()) yield { type: 'schema', bytes, names: message.header().fields.map((f) => f.name) };
    else if (message.isDictionaryBatch()) yield { type: 'dictionary', bytes };
    else if (message.isRecordBatch()) yield { type: 'batch', bytes };
  }
}

/** Runs an ingest to its end, handing each chunk to `onChunk` (an insert), and returns the summary. */
export async function drainTable(ingest: AsyncGenerator<TableChunk, TableIngestSummary>, onChunk: (chunk: TableChunk) => Promise<void> | void): Promise<TableIngestSummary> {
  for (;;) {
    const next = await ingest.next();
    if (next.done) return next.value;
    await onChunk(next.value);
  }
}
