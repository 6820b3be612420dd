import { randomUUID } from 'node:crypto';
import type { Clock } from '../../lib/clock.js';
import type { ObjectStore } from '../../lib/objects/objects.js';
import type { PerUserSlots } from '../../lib/per-user-slots.js';
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
import type { ConnectionRow, DataStore, NeuronRow, RowsTable } from './store/data.store.js';

export type { ConnectionRow, NeuronRow, RowsTable };

/** Where Arrow answers wait between being written and being streamed to their caller. */
export const ROWS_EXPORT_PREFIX = 'tmp/rows/';
/** An Arrow answer left behind (its request died before streaming it) is removed by a later export after this long. */
const STALE_EXPORT_MS = 60 * 60 * 1000;
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
    /** A user's whole-table reads at once (DATA_READS_MAX_CONCURRENT_PER_USER). */
    private readonly heavyReads: PerUserSlots,
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
   * (DataStore.exportRows: memory bounded whatever the row count); the schema's metadata says
   * what was read (dataset, version, table, query, parameters, service version). The caller streams the object
   * once and removes it; one left behind is removed by a later export.
   */
  async exportArrow(actor: Actor, ref: string, version: string | null | undefined, table: RowsTable, input: NeuronFilterInput & ConnectionFilterInput): Promise<RowsExport> {
    const filter = table === 'neurons' ? neuronFilter(input) : connectionFilter(input);
    const resolved = await this.datasets.resolve(actor, ref, version);
    await removeStaleExports(this.objects, this.clock);
    const { objectKey, metadata, label } = rowsExportTarget(resolved, table, filterParameters(input), this.clock, this.serviceVersion);
    const stored = await this.heavyReads.run(actor.id, () =>
      this.data.exportRows(this.objects, objectKey, table, { datasetId: resolved.dataset.id, version: resolved.version }, filter, metadata, {
        signal: currentRequestScope()?.signal,
        maxExecutionTime: SCAN_MAX_EXECUTION_S,
      }),
    );
    return { resolved, objectKey, rows: stored.rows, bytes: stored.bytes, sha256: stored.sha256, filename: `${label}_${table}.arrows` };
  }
}

/** Removes the Arrow answers whose requests died before streaming them (their key starts with the time they were written). */
export async function removeStaleExports(objects: ObjectStore, clock: Clock): Promise<void> {
  const before = clock.now().getTime() - STALE_EXPORT_MS;
  for (const key of await objects.list(ROWS_EXPORT_PREFIX)) {
    const at = Number(key.slice(ROWS_EXPORT_PREFIX.length).split('-')[0]);
    if (Number.isFinite(at) && at < before) await objects.delete(key).catch(() => undefined);
  }
}

/**
 * Where an Arrow answer of `table` is written (under ROWS_EXPORT_PREFIX, its key starting with the time) and the
 * provenance its schema carries: the request with its version pinned, the parameters, the dataset version read and
 * the service. `label` is `slug_vN` (or `slug_draft`), for the file name.
 */
export function rowsExportTarget(resolved: ResolvedVersion, table: string, parameters: Record<string, unknown>, clock: Clock, serviceVersion: string) {
  const d = resolved.dataset;
  const label = resolved.isDraft ? `${d.slug}@draft` : `${d.slug}@v${resolved.version}`;
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
    service_version: serviceVersion,
    created_at: clock.now().toISOString(),
  };
  const objectKey = `${ROWS_EXPORT_PREFIX}${clock.now().getTime()}-${randomUUID()}.arrows`;
  return { objectKey, metadata, label: label.replace('@', '_') };
}

function queryString(params: Record<string, unknown>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const one of Array.isArray(v) ? v : [v]) q.append(k, String(one));
  const text = q.toString();
  return text ? `?${text}` : '';
}
