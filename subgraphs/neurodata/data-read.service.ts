import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { Bool, Field, Float64, Schema, Utf8, makeData, type Data } from 'apache-arrow';
import { ARROW_STREAM_MEDIA_TYPE, END_OF_STREAM, recordBatchMessage, recordBatchOf, schemaMessage } from '../../lib/arrow-ipc.js';
import type { Clock } from '../../lib/clock.js';
import type { ObjectStore } from '../../lib/objects/objects.js';
import { currentRequestScope } from '../../lib/request-scope.js';
import type { Actor, DatasetService, ResolvedVersion } from './dataset.service.js';
import {
  connectionFilter,
  filterParameters,
  neuronFilter,
  type ConnectionFilterInput,
  type NeuronFilterInput,
  type RowsPage,
} from './data-read.rules.js';
import type { ConnectionBatch, ConnectionRow, DataStore, NeuronRow } from './store/data.store.js';

export type RowsTable = 'neurons' | 'connections';
export type { ConnectionRow, NeuronRow };

/** Where Arrow answers wait between being written and being streamed to their caller. */
export const ROWS_EXPORT_PREFIX = 'tmp/rows/';
/** An Arrow answer left behind (its request died before streaming it) is removed by a later export after this long. */
const STALE_EXPORT_MS = 60 * 60 * 1000;
/** Rows per record batch: one batch is parsed and encoded between turns of the event loop. */
const ARROW_BATCH_ROWS = 16_384;
/** Seconds the statement of a whole read may run (a FlyWire-sized connectome takes minutes to stream). */
const SCAN_MAX_EXECUTION_S = 1800;

export interface RowsPageResult<T> {
  resolved: ResolvedVersion;
  items: T[];
  total: number;
  limit: number;
  offset: number;
}

export interface RowsExport {
  resolved: ResolvedVersion;
  /** The object holding the Arrow IPC stream, to be streamed once and removed (ROWS_EXPORT_PREFIX). */
  objectKey: string;
  rows: number;
  bytes: number;
  sha256: string;
  filename: string;
}

const NEURON_FIELDS = [
  new Field('neuron_id', new Utf8(), false),
  new Field('name', new Utf8(), false),
  new Field('cell_class', new Utf8(), false),
  new Field('cell_type', new Utf8(), false),
  new Field('neurotransmitter', new Utf8(), false),
  new Field('is_neuron', new Bool(), false),
  new Field('region', new Utf8(), false),
  new Field('x', new Float64(), true),
  new Field('y', new Float64(), true),
  new Field('z', new Float64(), true),
];
const CONNECTION_FIELDS = [
  new Field('pre', new Utf8(), false),
  new Field('post', new Utf8(), false),
  new Field('synapse_type', new Utf8(), false),
  new Field('weight', new Float64(), false),
];
const SYNAPSE_TYPE_NAMES = ['', 'chemical', 'electrical'];

/**
 * The rows of a dataset version's neurons and connections, as pages of JSON or whole as Apache Arrow, under the one
 * access decision of every data read (`DatasetService.resolve`: the Academic class, restricted datasets for granted
 * readers only, drafts for those who may change them).
 */
export class DataReadService {
  constructor(
    private readonly datasets: DatasetService,
    private readonly data: DataStore,
    private readonly objects: ObjectStore,
    private readonly clock: Clock,
    private readonly serviceVersion: string,
  ) {}

  /** One page of the neurons that pass the filters, by neuron id, with how many pass. */
  async neurons(actor: Actor, ref: string, version: string | null | undefined, input: NeuronFilterInput, page: RowsPage): Promise<RowsPageResult<NeuronRow>> {
    const filter = neuronFilter(input);
    const resolved = await this.datasets.resolve(actor, ref, version);
    const id = resolved.dataset.id;
    const [items, total] = await Promise.all([this.data.readNeurons(id, resolved.version, { ...page, filter }), this.data.countNeurons(id, resolved.version, filter)]);
    return { resolved, items, total, ...page };
  }

  /** One page of the connections that pass the filters, by (pre, post, synapse type), with how many pass. */
  async connections(actor: Actor, ref: string, version: string | null | undefined, input: ConnectionFilterInput, page: RowsPage): Promise<RowsPageResult<ConnectionRow>> {
    const filter = connectionFilter(input);
    const resolved = await this.datasets.resolve(actor, ref, version);
    const id = resolved.dataset.id;
    const [items, total] = await Promise.all([
      this.data.readConnections(id, resolved.version, { ...page, filter }),
      this.data.countConnections(id, resolved.version, filter),
    ]);
    return { resolved, items, total, ...page };
  }

  /**
   * Every row that passes the filters, in the pages' order, written as an Arrow IPC stream into object storage
   * (record batches of 16,384 rows, so memory stays bounded whatever the row count); the schema's metadata says
   * what was read (dataset, version, table, query, parameters, service version). The caller streams the object
   * once and removes it; one left behind is removed by a later export.
   */
  async exportArrow(actor: Actor, ref: string, version: string | null | undefined, table: RowsTable, input: NeuronFilterInput & ConnectionFilterInput): Promise<RowsExport> {
    const nFilter = table === 'neurons' ? neuronFilter(input) : undefined;
    const cFilter = table === 'connections' ? connectionFilter(input) : undefined;
    const resolved = await this.datasets.resolve(actor, ref, version);
    await this.removeStaleExports();
    const d = resolved.dataset;
    const label = resolved.isDraft ? `${d.slug}@draft` : `${d.slug}@v${resolved.version}`;
    const parameters = filterParameters(input);
    const metadata: Record<string, string> = {
      query: `GET /v1/neurodata/datasets/${d.slug}/${table}.arrow${queryString({ version: resolved.isDraft ? 'draft' : `v${resolved.version}`, ...parameters })}`,
      table,
      parameters: JSON.stringify(parameters),
      dataset: d.slug,
      dataset_id: d.id,
      version: String(resolved.version),
      is_draft: String(resolved.isDraft),
      datasets: JSON.stringify([{ dataset_id: d.id, slug: d.slug, version: resolved.version, is_draft: resolved.isDraft, label }]),
      service: 'neurodata-service',
      service_version: this.serviceVersion,
      created_at: this.clock.now().toISOString(),
    };
    const signal = currentRequestScope()?.signal;
    // A whole read may take minutes: on chDB it gets a connection of its own, so interactive statements never wait for it.
    const scan = { signal, maxExecutionTime: SCAN_MAX_EXECUTION_S, batchRows: ARROW_BATCH_ROWS, parallel: true };
    let rows = 0;
    const data = this.data;
    const schema = new Schema(table === 'neurons' ? NEURON_FIELDS : CONNECTION_FIELDS, new Map(Object.entries(metadata)));
    async function* stream(): AsyncGenerator<Uint8Array> {
      yield schemaMessage(schema);
      if (nFilter) {
        for await (const batch of data.scanNeurons(d.id, resolved.version, nFilter, scan)) {
          rows += batch.length;
          yield recordBatchMessage(recordBatchOf(schema, batch.length, neuronColumns(batch)));
        }
      } else {
        for await (const batch of data.scanConnectionRows(d.id, resolved.version, cFilter, scan)) {
          rows += batch.pre.length;
          yield recordBatchMessage(recordBatchOf(schema, batch.pre.length, connectionColumns(batch)));
        }
      }
      yield END_OF_STREAM;
    }
    const objectKey = `${ROWS_EXPORT_PREFIX}${this.clock.now().getTime()}-${randomUUID()}.arrows`;
    const stored = await this.objects.putStream(objectKey, Readable.from(stream(), { objectMode: false }), { contentType: ARROW_STREAM_MEDIA_TYPE, signal });
    return { resolved, objectKey, rows, bytes: stored.size, sha256: stored.sha256, filename: `${label.replace('@', '_')}_${table}.arrows` };
  }

  /** Arrow answers whose requests died before streaming them (their key starts with the time they were written). */
  private async removeStaleExports(): Promise<void> {
    const before = this.clock.now().getTime() - STALE_EXPORT_MS;
    for (const key of await this.objects.list(ROWS_EXPORT_PREFIX)) {
      const at = Number(key.slice(ROWS_EXPORT_PREFIX.length).split('-')[0]);
      if (Number.isFinite(at) && at < before) await this.objects.delete(key).catch(() => undefined);
    }
  }
}

const UTF8 = new TextEncoder();

/**
 * Arrow columns built straight from their buffers: apache-arrow's generic builders (vectorFromArray) take hundreds
 * of milliseconds for a batch of strings, which this thread cannot spend between two turns of its loop.
 */
function utf8Column(values: readonly string[]): Data {
  const offsets = new Int32Array(values.length + 1);
  let bytes = new Uint8Array(values.length * 24 + 64);
  let at = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    // A UTF-16 code unit takes at most 3 bytes in UTF-8.
    if (bytes.length - at < v.length * 3) {
      const grown = new Uint8Array(Math.max(bytes.length * 2, at + v.length * 3));
      grown.set(bytes.subarray(0, at));
      bytes = grown;
    }
    at += UTF8.encodeInto(v, bytes.subarray(at)).written;
    offsets[i + 1] = at;
  }
  return makeData({ type: new Utf8(), length: values.length, nullCount: 0, valueOffsets: offsets, data: bytes.subarray(0, at) });
}

function float64Column(values: ArrayLike<number | null>): Data {
  const data = new Float64Array(values.length);
  let nulls = 0;
  const valid = new Uint8Array((values.length + 7) >> 3);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null) nulls++;
    else {
      data[i] = v;
      valid[i >> 3] |= 1 << (i & 7);
    }
  }
  return makeData({ type: new Float64(), length: values.length, nullCount: nulls, data, ...(nulls ? { nullBitmap: valid } : {}) });
}

function boolColumn(values: readonly boolean[]): Data {
  const bits = new Uint8Array((values.length + 7) >> 3);
  for (let i = 0; i < values.length; i++) if (values[i]) bits[i >> 3] |= 1 << (i & 7);
  return makeData({ type: new Bool(), length: values.length, nullCount: 0, data: bits });
}

function neuronColumns(batch: NeuronRow[]): Data[] {
  return [
    utf8Column(batch.map((r) => r.neuronId)),
    utf8Column(batch.map((r) => r.name)),
    utf8Column(batch.map((r) => r.cellClass)),
    utf8Column(batch.map((r) => r.cellType)),
    utf8Column(batch.map((r) => r.neurotransmitter)),
    boolColumn(batch.map((r) => r.isNeuron)),
    utf8Column(batch.map((r) => r.regionCode)),
    float64Column(batch.map((r) => r.x)),
    float64Column(batch.map((r) => r.y)),
    float64Column(batch.map((r) => r.z)),
  ];
}

function connectionColumns(batch: ConnectionBatch): Data[] {
  return [
    utf8Column(batch.pre),
    utf8Column(batch.post),
    utf8Column(Array.from(batch.synapseType, (t) => SYNAPSE_TYPE_NAMES[t])),
    float64Column(batch.weight),
  ];
}

function queryString(params: Record<string, unknown>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const one of Array.isArray(v) ? v : [v]) q.append(k, String(one));
  const text = q.toString();
  return text ? `?${text}` : '';
}
