import { ingestTable, inspectTable } from './ingest/tables/ingest-table.js';
import { tableKindOf as kindOfColumns } from './ingest/tables/layouts.js';
import type { TableKind, TableReader } from './table-ingest.service.js';

/**
 * The synapse-level table readers (ingest/tables/) as the upload flow uses them: a stored file's kind from its first
 * bytes, and its rows read into encoded chunks for the column store.
 */

/** Reads one stored file of a table kind: the readers' generator, over the object's stream and byte ranges. */
export const readTableFile: TableReader = async function* (kind, source, opts) {
  const summary = yield* ingestTable(
    {
      open: async () => source.open(),
      size: source.size,
      // The readers' ranges end before `end`; the store's are inclusive.
      readRange: async (start, end) => source.readRange(start, end - 1),
    },
    {
      filename: source.filename,
      datasetId: opts.datasetId,
      version: opts.version,
      kind,
      knownRois: opts.knownRois,
      primaryRois: opts.knownRois,
      bounds: opts.bounds,
      mapping: opts.mapping,
      signal: opts.signal,
      onProgress: opts.onProgress && ((p) => opts.onProgress!({ rows: p.rows, bytesRead: p.bytes })),
    },
  );
  // What the file was found to be, as its asset's summary keeps it.
  return {
    layout: summary.layout,
    format: summary.format,
    gzip: summary.gzip,
    rows: summary.rows,
    tables: summary.tables,
    ignored_columns: summary.ignoredColumns,
    synapse_id_check: summary.synapseIdCheck,
    ...(opts.mapping ? { mapping: opts.mapping } : {}),
  };
};

/**
 * Which table kind an upload is, from its name and first bytes, or for Parquet and footer-only Arrow files (whose
 * schema is in their footer) from the footer's column names (inspectTable); null when it is not a synapse-level
 * table. A column mapping makes a file named as a table kind that table, whatever its columns.
 */
export async function tableKindOfUpload(
  filename: string,
  head: Buffer,
  source: { size: number; readRange(start: number, end: number): Promise<Buffer | null> },
  mapping: Record<string, string> | null,
): Promise<TableKind | null> {
  const upload = {
    // The first bytes are all inspectTable reads of the stream.
    open: async () => (async function* () {
      yield new Uint8Array(head.buffer, head.byteOffset, head.byteLength);
    })(),
    size: source.size,
    // The readers' ranges end before `end`; the store's are inclusive.
    readRange: async (start: number, end: number) => {
      const bytes = await source.readRange(start, end - 1);
      if (!bytes) throw new Error('the upload is gone');
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
  };
  // A footer that cannot be read leaves the kind to the name and the mapping.
  const kind = await inspectTable(upload, filename).then(
    (found) => found.kind,
    () => null,
  );
  if (kind || !mapping) return kind;
  return kindOfColumns(filename, Object.values(mapping)) ?? kindByName(filename);
}

function kindByName(filename: string): TableKind | null {
  const base = filename.replace(/^.*[\\/]/, '').toLowerCase();
  if (base.startsWith('synapses')) return 'synapses';
  if (base.startsWith('connections')) return 'roi_connections';
  if (base.startsWith('neurons') || base.startsWith('classification')) return 'annotations';
  if (base.startsWith('rois')) return 'rois';
  return null;
}
