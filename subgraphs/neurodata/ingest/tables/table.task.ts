import { CompressionType, Precision, RecordBatchReader, Type, compressionRegistry, type Vector } from 'apache-arrow';
import { parquetMetadata, parquetRead } from 'hyparquet';
import { compressors, decompressZstd } from 'hyparquet-compressors';
import { END_OF_STREAM } from '../../../../lib/arrow-ipc.js';
import { badInputAsValue, type TaskOutcome } from '../../../../lib/workers/outcome.js';
import { readCsvRecords } from '../csv-records.js';
import { encodeRois, roiRowsFromJson, roiRowsFromTable, rowEncoder, RowProblems, type EncodeContext, type EncodedBatch } from './encode.js';
import { decodeLz4Frame } from './lz4-frame.js';
import { recognizeLayout, type ColumnMapping, type Layout } from './layouts.js';

/**
 * Worker-thread tasks of synapse-level table ingestion (lib/workers/pool.ts): each parses one batch (a line-aligned
 * CSV chunk, the messages of one Arrow record batch, one Parquet row group, or a whole ROI file), validates it and
 * encodes its rows as TabSeparated text. A problem with the file comes back as a value (TaskOutcome).
 */

// Arrow IPC bodies written with compression (Feather v2 defaults to LZ4): apache-arrow decodes them through its registry.
// apache-arrow views 64-bit columns in place: a decoded buffer must start at a multiple of 8 bytes.
const aligned = (data: Uint8Array) => (data.byteOffset % 8 === 0 ? data : data.slice());
compressionRegistry.set(CompressionType.LZ4_FRAME, { decode: (data) => aligned(decodeLz4Frame(data)) });
compressionRegistry.set(CompressionType.ZSTD, { decode: (data) => aligned(decompressZstd(data)) });

/** The longest CSV cell: a neuPrint roiInfo lists counts for every ROI a neuron touches (100 kB in the optic lobe). */
const CELL_MAX_CHARS = 4 * 1024 * 1024;

export interface CsvChunkInput {
  ctx: EncodeContext;
  /** Whole records (no header), UTF-8. */
  bytes: Uint8Array;
  delimiter: ',' | '\t';
  /** Fields per record: the header's. */
  width: number;
}

/** Each record of `bytes` with its data-row number (1-based over the file's data rows). */
function csvRecords(input: CsvChunkInput, problems: RowProblems, visit: (cell: (c: number) => unknown, row: number) => void): number {
  let row = input.ctx.rowOffset;
  const badWidth = (width: number) => `the row has ${width} field${width === 1 ? '' : 's'} but the header has ${input.width}; quote fields that contain the delimiter`;
  if (input.delimiter === ',') {
    readCsvRecords(
      input.bytes,
      (record) => {
        row++;
        if (record.width !== input.width) problems.add(row, null, badWidth(record.width));
        else visit((c) => record.field(c), row);
      },
      (_line, message) => problems.add(row + 1, null, message),
      { maxCellChars: CELL_MAX_CHARS },
    );
    return row - input.ctx.rowOffset;
  }
  // Tab-separated files (the FlyWire paper's annotation tables) are not quoted.
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(input.bytes);
  } catch {
    problems.add(row + 1, null, 'the file is not UTF-8 text');
    return 0;
  }
  let fields: string[] = [];
  const cell = (c: number) => fields[c];
  for (const line of text.split('\n')) {
    const l = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (!l.trim()) continue;
    row++;
    fields = l.split('\t');
    if (fields.length !== input.width) problems.add(row, null, badWidth(fields.length));
    else visit(cell, row);
  }
  return row - input.ctx.rowOffset;
}

export async function encodeCsvChunkTask(input: CsvChunkInput): Promise<TaskOutcome<EncodedBatch>> {
  return badInputAsValue(() => {
    if (input.ctx.layout.kind === 'rois') return encodeRois(input.ctx, roiRowsFromTable(input.ctx, (visit) => {
      const problems = new RowProblems(input.ctx.filename);
      csvRecords(input, problems, visit);
      problems.throwIfAny();
    }));
    const encoder = rowEncoder(input.ctx);
    const problems = new RowProblems(input.ctx.filename);
    csvRecords(input, problems, (cell, row) => encoder.add(cell, row));
    problems.throwIfAny();
    return encoder.finish();
  });
}

export interface ArrowBatchInput {
  ctx: EncodeContext;
  /** The stream's schema message, its dictionary batches so far, then one record batch message with its body. */
  messages: Uint8Array[];
}

export async function encodeArrowBatchTask(input: ArrowBatchInput): Promise<TaskOutcome<EncodedBatch>> {
  return badInputAsValue(() => {
    const encoder = rowEncoder(input.ctx);
    let rowOffset = input.ctx.rowOffset;
    let batches;
    try {
      batches = [...RecordBatchReader.from([...input.messages, END_OF_STREAM])];
    } catch (e) {
      return unreadable(input.ctx, `the Arrow record batch cannot be read (${(e as Error).message})`);
    }
    for (const batch of batches) {
      const columns = input.ctx.layout.names.map((_, i) => columnReader(batch.getChildAt(i)));
      let at = 0;
      const cell = (c: number) => columns[c](at);
      for (; at < batch.numRows; at++) encoder.add(cell, ++rowOffset);
    }
    return encoder.finish();
  });
}

/**
 * A record batch column's value at a row. Vector.get walks apache-arrow's type visitor on every call (most of an
 * Arrow file's reading time at synapse scale), so columns without nulls are read from their buffers instead: numbers
 * and 64-bit integers from the typed array, dictionary-encoded text (FlyWire's neuropil) through its decoded
 * dictionary. Anything else, and any column with nulls, goes through get.
 */
function columnReader(vector: Vector | null): (row: number) => unknown {
  if (!vector) return () => null;
  const data = vector.data;
  if (vector.nullCount === 0 && data.length === 1) {
    const [chunk] = data;
    const id = chunk.type.typeId;
    // Ints and floats: the values buffer is the column. Half floats are stored as integers: they are left to get.
    const half = id === Type.Float && (chunk.type as { precision?: Precision }).precision === Precision.HALF;
    const values = chunk.values as unknown as ArrayLike<number | bigint> | undefined;
    if ((id === Type.Int || id === Type.Float) && !half && ArrayBuffer.isView(values) && values.length >= chunk.offset + chunk.length) {
      const offset = chunk.offset;
      return (row) => values[offset + row];
    }
    if (id === Type.Dictionary && chunk.dictionary && chunk.dictionary.nullCount === 0 && ArrayBuffer.isView(chunk.values)) {
      const words = chunk.dictionary.toArray() as unknown[];
      const keys = chunk.values as unknown as ArrayLike<number | bigint>;
      const offset = chunk.offset;
      return (row) => words[Number(keys[offset + row])] ?? null;
    }
  }
  return (row) => vector.get(row) ?? null;
}

function unreadable(ctx: EncodeContext, message: string): never {
  const problems = new RowProblems(ctx.filename);
  problems.add(ctx.rowOffset + 1, null, message);
  problems.throwIfAny();
  throw new Error('unreachable');
}

export interface ParquetRowGroupInput {
  ctx: EncodeContext;
  /** The file's footer: metadata, its length and the closing magic. */
  footer: Uint8Array;
  fileSize: number;
  /** The bytes of the row group's column chunks, from `start` of the file. */
  start: number;
  bytes: Uint8Array;
  rowStart: number;
  rowEnd: number;
  /** Top-level columns to read, by name. */
  columns: string[];
}

export async function encodeParquetRowGroupTask(input: ParquetRowGroupInput): Promise<TaskOutcome<EncodedBatch>> {
  const { ctx } = input;
  let rows: unknown[][] = [];
  try {
    const metadata = parquetMetadata(input.footer);
    const file = {
      byteLength: input.fileSize,
      slice(s: number, e?: number): ArrayBuffer {
        const from = s - input.start;
        const to = (e ?? input.fileSize) - input.start;
        if (from < 0 || to > input.bytes.length) throw new Error(`read outside the row group (${s}-${e})`);
        return input.bytes.slice(from, to).buffer as ArrayBuffer;
      },
    };
    await parquetRead({ file, metadata, rowStart: input.rowStart, rowEnd: input.rowEnd, columns: input.columns, compressors, onComplete: (r) => (rows = r) });
  } catch (e) {
    return badInputAsValue(() => unreadable(ctx, `the Parquet row group cannot be read (${(e as Error).message})`));
  }
  return badInputAsValue(() => {
    const encoder = rowEncoder(ctx);
    const position = new Int32Array(ctx.layout.names.length).fill(-1);
    input.columns.forEach((name, i) => (position[ctx.layout.names.indexOf(name)] = i));
    let current: unknown[] = [];
    const cell = (c: number) => (position[c] < 0 ? null : current[position[c]]);
    let row = ctx.rowOffset;
    for (const r of rows) {
      current = r;
      encoder.add(cell, ++row);
    }
    return encoder.finish();
  });
}

export interface JsonFileInput {
  ctx: Omit<EncodeContext, 'layout' | 'rowOffset'>;
  bytes: Uint8Array;
  mapping?: ColumnMapping | null;
}

export type JsonFileResult = EncodedBatch & { layout: Layout };

/** A neuPrint answer `{"columns": [...], "data": [[{neuron}, ...], ...]}`: the neuron objects of its first column. */
function neuPrintNeurons(json: unknown): Record<string, unknown>[] | null {
  if (!json || typeof json !== 'object' || !Array.isArray((json as { data?: unknown }).data) || !Array.isArray((json as { columns?: unknown }).columns)) return null;
  const rows = (json as { data: unknown[] }).data.map((r) => (Array.isArray(r) ? r[0] : null));
  return rows.every((n) => n && typeof n === 'object' && 'bodyId' in n) ? (rows as Record<string, unknown>[]) : null;
}

/**
 * A JSON file, whole: a neuPrint ROI hierarchy (tree or roiInfo map), or a neuPrint neuron answer (the Cypher
 * `MATCH (n:Neuron) RETURN n` shape), read as an annotation table whose columns are the neurons' properties.
 */
export async function encodeJsonTask(input: JsonFileInput): Promise<TaskOutcome<JsonFileResult>> {
  return badInputAsValue(() => {
    const { filename } = input.ctx;
    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(input.bytes));
    } catch (e) {
      const problems = new RowProblems(filename);
      problems.add(0, null, `not JSON (${(e as Error).message})`);
      problems.throwIfAny();
    }
    const neurons = neuPrintNeurons(json);
    if (neurons) {
      const names = [...new Set(neurons.flatMap((n) => Object.keys(n)))].sort();
      const layout = recognizeLayout('annotations', filename, names, input.mapping);
      const encoder = rowEncoder({ ...input.ctx, layout, rowOffset: 0 });
      neurons.forEach((n, i) => encoder.add((c) => n[names[c]] ?? null, i + 1));
      return { ...encoder.finish(), layout };
    }
    const layout: Layout = { kind: 'rois', name: 'neuprint_rois_json', columns: {}, names: [], integerIds: false, ignored: [] };
    return { ...encodeRois(input.ctx, roiRowsFromJson(filename, json)), layout };
  });
}
