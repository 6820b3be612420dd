import type { ColumnStore } from '../../../lib/column/column.js';
import { ch, typed, type ChQuery } from '../../../lib/column/sql.js';

/** Seconds a whole connectome's read may take (FlyWire's 15 million rows take a few). */
const READ_SECONDS = 600;

/**
 * Reads a dataset version's cells and connections from the neurodata column tables (docs/neurodata-tables.md) as
 * TabSeparated text, for a worker thread to parse: nothing is parsed on the thread that serves requests. The
 * caller got (datasetId, version) from the neurodata access function.
 */
export class GraphSourceStore {
  constructor(private readonly column: ColumnStore) {}

  /** `neuron_id \t name \t cell_class \t cell_type` lines in code point order of neuron_id (ClickHouse compares strings bytewise: UTF-8). */
  async neurons(datasetId: string, version: number, signal?: AbortSignal): Promise<string[]> {
    return this.collect('GraphSourceStore.neurons', ch`SELECT neuron_id, name, cell_class, cell_type FROM neurons WHERE ${where(datasetId, version)} ORDER BY neuron_id`, signal);
  }

  /** `pre \t post \t type \t weight` lines, type 1 chemical and 2 electrical, in no particular order. */
  async connections(datasetId: string, version: number, signal?: AbortSignal): Promise<string[]> {
    return this.collect(
      'GraphSourceStore.connections',
      ch`SELECT pre, post, toUInt8(synapse_type), weight FROM connections WHERE ${where(datasetId, version)}`,
      signal,
    );
  }

  private async collect(name: string, q: ChQuery, signal?: AbortSignal): Promise<string[]> {
    const chunks: string[] = [];
    for await (const text of this.column.queryTsv(q, { name, signal, maxExecutionTime: READ_SECONDS })) chunks.push(text);
    return chunks;
  }
}

const where = (datasetId: string, version: number): ChQuery => ch`dataset_id = ${datasetId} AND version = ${typed(version, 'UInt32')}`;
