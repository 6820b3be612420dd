import { inflateRawSync, gunzipSync, constants as zlib } from 'node:zlib';
import { Message } from 'apache-arrow';
import { Footer } from 'apache-arrow/ipc/metadata/file';
import { readCsvRecords } from '../csv-records.js';
import { tableKindOf, type TableKind } from './layouts.js';

/**
 * The container of a synapse-level table file, from its name and first bytes: CSV or tab-separated text (gzip
 * when it starts with 1f 8b), an Arrow IPC file (Feather v2: magic ARROW1) or stream, Parquet (magic PAR1), or
 * JSON (neuPrint ROI hierarchies).
 */
export type TableFormat = 'csv' | 'tsv' | 'arrow_file' | 'arrow_stream' | 'parquet' | 'json';

export interface FileFormat {
  format: TableFormat;
  /** Text compressed with gzip (decompressed as it streams). */
  gzip: boolean;
}

const startsWith = (bytes: Uint8Array, text: string) => bytes.length >= text.length && [...text].every((c, i) => bytes[i] === c.charCodeAt(0));

export function detectFormat(filename: string, firstBytes: Uint8Array): FileFormat {
  const name = filename.toLowerCase().replace(/\.gz$/, '');
  const gzip = firstBytes[0] === 0x1f && firstBytes[1] === 0x8b;
  if (startsWith(firstBytes, 'PAR1')) return { format: 'parquet', gzip: false };
  if (startsWith(firstBytes, 'ARROW1')) return { format: 'arrow_file', gzip: false };
  if (firstBytes.length >= 4 && firstBytes[0] === 0xff && firstBytes[1] === 0xff && firstBytes[2] === 0xff && firstBytes[3] === 0xff) return { format: 'arrow_stream', gzip: false };
  if (!gzip && /\.(arrows|arrow|feather|ipc)$/.test(name)) return { format: 'arrow_stream', gzip: false };
  if (name.endsWith('.json')) return { format: 'json', gzip };
  if (name.endsWith('.tsv') || name.endsWith('.tab')) return { format: 'tsv', gzip };
  if (!gzip) {
    const text = new TextDecoder().decode(firstBytes.subarray(0, 64)).replace(/^\ufeff/, '').trimStart();
    if (text.startsWith('{') || text.startsWith('[')) return { format: 'json', gzip };
  }
  return { format: 'csv', gzip };
}

/** The first bytes of gzip data decompressed as far as they go (a prefix of a larger file). */
export function gunzipPrefix(bytes: Uint8Array): Uint8Array {
  try {
    return gunzipSync(bytes, { finishFlush: zlib.Z_SYNC_FLUSH });
  } catch {
    // Skip the gzip header by hand: a truncated stream can still be inflated as far as it goes.
    const flags = bytes[3];
    let at = 10;
    if (flags & 4) at += 2 + (bytes[10] | (bytes[11] << 8));
    if (flags & 8) while (at < bytes.length && bytes[at++] !== 0);
    if (flags & 16) while (at < bytes.length && bytes[at++] !== 0);
    if (flags & 2) at += 2;
    return inflateRawSync(bytes.subarray(at), { finishFlush: zlib.Z_SYNC_FLUSH });
  }
}

/** The column names of a CSV or TSV header line (the first record of `text`). */
export function headerColumns(text: string, delimiter: ',' | '\t'): string[] {
  const clean = text.replace(/^\ufeff/, '');
  if (delimiter === '\t') return clean.split('\n')[0].replace(/\r$/, '').split('\t').map((c) => c.trim());
  let names: string[] = [];
  let done = false;
  readCsvRecords(
    clean.split('\n')[0],
    (row) => {
      if (!done) names = row.toArray().map((c) => c.trim());
      done = true;
    },
    () => undefined,
  );
  return names;
}

/** The field names of an Arrow stream's schema message at the start of `bytes` (after a file's magic), or null. */
export function arrowColumns(bytes: Uint8Array, file: boolean): string[] | null {
  let at = file ? 8 : 0;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < at + 8) return null;
  let length = view.getInt32(at, true);
  if (length === -1) {
    length = view.getInt32(at + 4, true);
    at += 8;
  } else at += 4;
  if (length <= 0 || bytes.length < at + length) return null;
  const message = Message.decode(bytes.subarray(at, at + length));
  return message.isSchema() ? message.header().fields.map((f) => f.name) : null;
}

/** An Arrow IPC file ends in its footer, the footer's length (int32) and the magic: the bytes after the footer. */
export const ARROW_FILE_TRAILER_BYTES = 10;

/** The footer's length from an Arrow file's last ARROW_FILE_TRAILER_BYTES bytes, or null when they are not a trailer. */
export function arrowFooterLength(trailer: Uint8Array): number | null {
  if (trailer.length !== ARROW_FILE_TRAILER_BYTES || !startsWith(trailer.subarray(4), 'ARROW1')) return null;
  const length = new DataView(trailer.buffer, trailer.byteOffset, 4).getInt32(0, true);
  return length > 0 ? length : null;
}

/**
 * The schema in an Arrow file's footer as a stream message (continuation marker, length, metadata), with its field
 * names. apache-arrow's own file writer puts the schema in the footer only, where pyarrow, DuckDB and ClickHouse
 * read it; a reader of the stream inside the file needs it as the stream's first message.
 */
export function arrowFooterSchema(footer: Uint8Array): { names: string[]; message: Uint8Array } {
  const { schema } = Footer.decode(footer);
  const metadata = Message.encode(Message.from(schema));
  const padded = (metadata.length + 7) & ~7;
  const message = new Uint8Array(8 + padded);
  const view = new DataView(message.buffer);
  view.setInt32(0, -1, true);
  view.setInt32(4, padded, true);
  message.set(metadata, 8);
  return { names: schema.fields.map((f) => f.name), message };
}

/**
 * Which synapse-level table a file is, from its name and first bytes (for CSV, TSV and Arrow, enough to hold the
 * header or schema; gzip is decompressed) or, for Parquet whose schema is in its footer, the `columns` read from
 * there; null when it is none of them (the existing C. elegans neuron and connection tables among others).
 * A JSON file named `rois*` or shaped like a neuPrint ROI hierarchy is `rois`, a neuPrint neuron answer `annotations`.
 */
export function detectTableKind(filename: string, firstBytes: Uint8Array, columns?: readonly string[]): TableKind | null {
  const { format, gzip } = detectFormat(filename, firstBytes);
  const bytes = gzip ? gunzipPrefix(firstBytes) : firstBytes;
  if (format === 'json') {
    const text = new TextDecoder().decode(bytes.subarray(0, 4096)).replace(/\s+/g, '');
    if (/^\{"columns":\[/.test(text)) return 'annotations';
    if (/^rois/i.test(filename.replace(/^.*[\\/]/, '')) || /^\{"name":/.test(text) || /"isPrimary"/.test(text)) return 'rois';
    return null;
  }
  let names: readonly string[] | null | undefined = columns;
  if (!names) {
    if (format === 'csv' || format === 'tsv') names = headerColumns(new TextDecoder().decode(bytes), format === 'tsv' ? '\t' : ',');
    else if (format === 'arrow_file' || format === 'arrow_stream') names = arrowColumns(bytes, format === 'arrow_file');
  }
  return names ? tableKindOf(filename, names) : null;
}
