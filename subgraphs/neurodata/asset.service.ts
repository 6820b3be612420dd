import { webcrypto } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock.js';
import { BadInput, Conflict, NotFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { ObjectStore } from '../../lib/objects/objects.js';
import type { DownloadSigner } from '../../lib/objects/signed-url.js';
import type { AssetKind, AssetRecord } from './dataset.model.js';
import type { DataTable } from './store/clickhouse/columns.js';
import type { DatasetStore, StoredDataset } from './store/dataset.store.js';
import { INGEST_STALE_MS, type Actor, type DatasetService } from './dataset.service.js';
import { detectAssetKind, saysCsv } from './ingest/asset-kind.js';
import { checkCsvEncoding, checkFileName } from './ingest/file-rules.js';
import { parseConnectionsOffThread, parseNeuronsOffThread, parseSwcOffThread } from './ingest/ingest.js';
import { isTableKind, type TableIngestService, type TableKind } from './table-ingest.service.js';

/** Says whether a file is a synapse-level table (and which) from its name and first bytes; null when it is not. */
export type TableKindOf = (
  filename: string,
  head: Buffer,
  source: { size: number; readRange(start: number, end: number): Promise<Buffer | null> },
  mapping: Record<string, string> | null,
) => Promise<TableKind | null>;

/** Bytes of an upload read to tell what it holds before it is read whole. */
const HEAD_BYTES = 64 * 1024;

/** What the service needs of the column store. */
export interface AssetData {
  dropTableVersion(table: DataTable, datasetId: string, version: number): Promise<void>;
  insertTsv(table: DataTable, chunks: Iterable<string> | AsyncIterable<string>): Promise<void>;
  neuronIds(datasetId: string, version: number): Promise<string[]>;
}

/** What the service needs of object storage. */
export interface AssetObjects {
  readonly kind: 'local' | 's3';
  get(key: string): Promise<{ body: Buffer; contentType: string } | null>;
  copy(fromKey: string, toKey: string): Promise<unknown>;
  delete(key: string): Promise<void>;
  presignedGetUrl(key: string, opts: { expiresInSeconds: number; filename?: string; contentType?: string }): Promise<string | null>;
  head: ObjectStore['head'];
  getStream: ObjectStore['getStream'];
}

export type DownloadTokenSigner = Pick<DownloadSigner, 'sign'>;

interface TableIngest {
  rows: number;
  chunks: string[];
  stats: object;
  ignoredColumns: string[];
  electricalSwapped?: number;
}

/** The object key of a file: content-addressed within its dataset, so versions share unchanged files. */
export const assetObjectKey = (datasetId: string, sha256: string) => `datasets/${datasetId}/assets/${sha256}`;

/**
 * Files of a dataset's draft: streamed uploads are checked, parsed on the worker pool and ingested into the column
 * store; each replaces the draft's file of the same name. Published versions' files never change.
 */
export class AssetService {
  constructor(
    private readonly datasets: DatasetService,
    private readonly store: DatasetStore,
    private readonly data: AssetData,
    private readonly objects: AssetObjects,
    private readonly signer: DownloadTokenSigner,
    private readonly limits: { uploadMaxBytes: number; downloadUrlTtlSeconds: number },
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly tables: TableIngestService,
    private readonly tableKindOf: TableKindOf,
  ) {}

  /** Where the upload route may stream a file for this dataset; only its owner, maintainers and SuperUsers get one. */
  async uploadTarget(actor: Actor, datasetId: string): Promise<{ datasetId: string; uploadKey: string; maxBytes: number }> {
    const { dataset } = await this.datasets.viewForChange(actor, datasetId);
    return { datasetId: dataset.id, uploadKey: `uploads/${dataset.id}/${newId()}`, maxBytes: this.limits.uploadMaxBytes };
  }

  /**
   * Attaches a streamed upload to the open draft: recognised files (neurons and connections CSV, SWC) are validated
   * and ingested, all or nothing; a malformed file is a 400 naming the file, line and problem, and the draft keeps
   * what it had. The upload object is removed in every case.
   */
  async attach(
    actor: Actor,
    datasetId: string,
    input: { uploadKey: string; filename: string; mediaType?: string | null; mapping?: string | null },
  ): Promise<AssetRecord & { version: number }> {
    const { dataset } = await this.datasets.viewForChange(actor, datasetId);
    if (!input.uploadKey.startsWith(`uploads/${dataset.id}/`) || !/^uploads\/[0-9a-f-]{36}\/[0-9a-f-]{36}$/.test(input.uploadKey)) {
      throw new BadInput('upload_key: not an upload of this dataset');
    }
    try {
      const filename = checkFileName(input.filename);
      const mapping = parseMapping(input.mapping);
      // Synapse-level tables may be many gigabytes: they are told by their first bytes and streamed, never read whole.
      const size = (await this.objects.head(input.uploadKey))?.size;
      const head = size === undefined ? null : await this.range(input.uploadKey, 0, Math.min(size, HEAD_BYTES) - 1);
      if (size === undefined || !head) throw new NotFound('that upload does not exist (uploads are attached once)');
      const tableKind = size > 0 ? await this.tableKindOf(filename, head, { size, readRange: (start, end) => this.range(input.uploadKey, start, end) }, mapping) : null;
      if (tableKind) {
        const mediaType = (input.mediaType || 'application/octet-stream').split(';')[0].trim().toLowerCase();
        return await this.tables.attach(actor, dataset, { uploadKey: input.uploadKey, filename, mediaType, kind: tableKind, mapping }, (sha) => assetObjectKey(dataset.id, sha));
      }
      if (mapping) throw new BadInput(`mapping: ${filename} is not a synapse-level table (synapses*, connections*, neurons*, classification*, rois*), whose columns a mapping names`);
      const object = await this.objects.get(input.uploadKey);
      if (!object) throw new NotFound('that upload does not exist (uploads are attached once)');
      const body = object.body;
      if (body.length === 0) throw new BadInput(`${filename}: the file is empty`);
      // WebCrypto hashes on libuv's thread pool: a large file does not hold up the request thread.
      const sha256 = Buffer.from(await webcrypto.subtle.digest('SHA-256', body)).toString('hex');
      const mediaType = (input.mediaType || object.contentType || 'application/octet-stream').split(';')[0].trim().toLowerCase();
      if (saysCsv(filename, mediaType)) checkCsvEncoding(filename, body);
      const firstLine = body.subarray(0, 4096).toString('utf8').split(/\r?\n/)[0] ?? '';
      const kind: AssetKind = detectAssetKind(filename, mediaType, firstLine);
      const objectKey = assetObjectKey(dataset.id, sha256);
      const now = this.clock.now();

      let rollback: (() => Promise<void>) | undefined;
      return await this.store.transaction(async (tx) => {
        const locked = (await tx.find(dataset.id, { forUpdate: true }))!;
        const version = await this.datasets.openDraft(tx, locked);
        const existing = await tx.assets(dataset.id, version);
        const previous = existing.find((a) => a.filename === filename);
        if (previous && previous.kind !== kind) throw new Conflict(`${filename}: the draft already has a ${previous.kind} file of this name; remove it first`);
        let rows = 0;
        let summary: Record<string, unknown> = {};
        if (kind === 'neurons' || kind === 'connections') {
          const other = existing.find((a) => a.kind === kind && a.filename !== filename);
          if (other) throw new Conflict(`the draft already has a ${kind} file (${other.filename}); upload under that name to replace it, or remove it first`);
          const parsed = await this.parseTable(kind, { text: body, filename, datasetId: dataset.id, version }, existing);
          await this.replaceTable(kind === 'neurons' ? 'neurons' : 'connections', dataset.id, version, parsed.chunks, previous);
          // The rows are in the column store, outside this transaction: should it fail from here on (its session lost,
          // a conflict), the draft gets back the rows it had, as it keeps the files it had.
          rollback = () => this.undoTable(kind, dataset.id, version, previous);
          rows = parsed.rows;
          summary = { stats: parsed.stats, ignored_columns: parsed.ignoredColumns, ...(parsed.electricalSwapped ? { electrical_swapped: parsed.electricalSwapped } : {}) };
        } else if (kind === 'morphology') {
          const neuron = filename.replace(/\.swc$/i, '');
          const parsed = await parseSwcOffThread({ text: body, filename, datasetId: dataset.id, version, neuron, objectKey, sha256 });
          rows = 1;
          summary = { ...parsed.summary, tsv: parsed.tsv, warnings: parsed.warnings };
          const lines = existing.filter((a) => a.kind === 'morphology' && a.filename !== filename).map((a) => String(a.summary.tsv ?? ''));
          await this.data.dropTableVersion('morphologies', dataset.id, version);
          await this.data.insertTsv('morphologies', [[...lines, parsed.tsv].map((l) => (l.endsWith('\n') ? l : `${l}\n`)).join('')]);
        }
        await this.objects.copy(input.uploadKey, objectKey);
        const asset = await tx.insertAsset({ id: newId(), datasetId: dataset.id, version, filename, kind, mediaType, size: body.length, sha256, objectKey, rows, summary, createdBy: actor.id, now });
        await tx.addEvent({ id: newId(), datasetId: dataset.id, activity: 'upload', agentId: actor.id, version, details: { filename, kind, sha256, size: body.length, rows }, at: now });
        if (previous && previous.objectKey !== objectKey && !(await tx.objectInUse(dataset.id, previous.objectKey))) await this.objects.delete(previous.objectKey);
        this.log.info({ datasetId: dataset.id, version, filename, kind, rows }, 'dataset file ingested');
        return { ...asset, version };
      }).catch(async (e: unknown) => {
        await rollback?.().catch((err) => this.log.error({ err, datasetId: dataset.id, filename }, 'could not put back the rows of a failed upload'));
        throw e;
      });
    } finally {
      await this.objects.delete(input.uploadKey).catch(() => undefined);
    }
  }

  /** Bytes start..end (inclusive) of a stored object; null when it does not exist. */
  private async range(key: string, start: number, end: number): Promise<Buffer | null> {
    if (end < start) return Buffer.alloc(0);
    const s = await this.objects.getStream(key, { start, end });
    if (!s) return null;
    const parts: Buffer[] = [];
    for await (const part of s.body) parts.push(part as Buffer);
    return Buffer.concat(parts);
  }

  /** Removes a file from the open draft (and its rows from the column store). */
  async remove(actor: Actor, datasetId: string, assetId: string): Promise<AssetRecord & { version: number }> {
    const { dataset } = await this.datasets.viewForChange(actor, datasetId);
    return this.store.transaction(async (tx) => {
      const locked = (await tx.find(dataset.id, { forUpdate: true }))!;
      const target = /^[0-9a-f-]{36}$/i.test(String(assetId)) ? await tx.asset(dataset.id, assetId) : undefined;
      if (!target) throw new NotFound(`file ${assetId} not found in this dataset`);
      const draft = locked.draftVersion ?? (locked.latestVersion ?? 0) + 1;
      if (target.version !== draft && locked.draftVersion !== null) throw new Conflict(`file ${target.filename} belongs to published v${target.version}, which never changes; remove it from the draft instead`);
      const version = await this.datasets.openDraft(tx, locked);
      const current = (await tx.assets(dataset.id, version)).find((a) => a.filename === target.filename);
      if (!current) throw new NotFound(`file ${target.filename} is not in the draft`);
      const all = await tx.assets(dataset.id, version);
      if (current.kind === 'neurons' && all.some((a) => a.kind === 'connections')) throw new Conflict('remove the connections file first: its rows refer to these neurons');
      if (isTableKind(current.kind)) {
        const checked = all.find((a) => a.kind === 'synapses' || a.kind === 'roi_connections');
        if (current.kind === 'rois' && checked) throw new Conflict(`remove the synapse-level files first (${checked.filename}): they were checked against this ROI hierarchy`);
        const claim = await tx.claimIngest({ datasetId: dataset.id, version, filename: current.filename, kind: current.kind, bytesTotal: 0, startedBy: actor.id }, this.clock.now(), new Date(this.clock.now().getTime() - INGEST_STALE_MS));
        if (!claim.claimed) throw new Conflict(`the draft is ingesting ${claim.holder.filename}; remove files when it has finished`);
        try {
          await this.tables.afterRemoval({ datasetId: dataset.id, version }, current.kind, all.filter((a) => a.id !== current.id));
        } finally {
          await tx.releaseIngest(dataset.id, current.filename);
        }
      }
      if (current.kind === 'neurons') await this.data.dropTableVersion('neurons', dataset.id, version);
      if (current.kind === 'connections') await this.data.dropTableVersion('connections', dataset.id, version);
      if (current.kind === 'morphology') {
        const lines = all.filter((a) => a.kind === 'morphology' && a.id !== current.id).map((a) => String(a.summary.tsv ?? ''));
        await this.data.dropTableVersion('morphologies', dataset.id, version);
        if (lines.length) await this.data.insertTsv('morphologies', [lines.map((l) => (l.endsWith('\n') ? l : `${l}\n`)).join('')]);
      }
      await tx.deleteAsset(current.id);
      await tx.addEvent({ id: newId(), datasetId: dataset.id, activity: 'remove_asset', agentId: actor.id, version, details: { filename: current.filename }, at: this.clock.now() });
      if (!(await tx.objectInUse(dataset.id, current.objectKey))) {
        try {
          await this.objects.delete(current.objectKey);
        } catch (e) {
          // The transaction rolls back and keeps the file; its rows, already dropped from the column store, go back.
          await this.putBackRows(dataset.id, version, current, all).catch((err) => this.log.error({ err, datasetId: dataset.id, version, filename: current.filename }, 'could not restore the rows of a file whose removal failed'));
          throw e;
        }
      }
      return { ...current, version };
    });
  }

  private async putBackRows<A extends AssetRecord & { summary: Record<string, unknown> }>(datasetId: string, version: number, file: A, all: A[]): Promise<void> {
    if (file.kind === 'neurons' || file.kind === 'connections') await this.restore(file.kind, datasetId, version, file);
    if (file.kind === 'morphology') {
      const lines = all.filter((a) => a.kind === 'morphology').map((a) => String(a.summary.tsv ?? ''));
      await this.data.dropTableVersion('morphologies', datasetId, version);
      await this.data.insertTsv('morphologies', [lines.map((l) => (l.endsWith('\n') ? l : `${l}\n`)).join('')]);
    }
  }

  /** The files of a version (default latest; `draft` for those who may change the dataset). */
  async list(actor: Actor, datasetId: string, version?: string | null): Promise<{ dataset: StoredDataset; version: number; draft: boolean; assets: AssetRecord[] }> {
    const r = await this.datasets.resolve(actor, datasetId, version);
    return { dataset: r.dataset, version: r.version, draft: r.isDraft, assets: await this.store.assets(r.dataset.id, r.version) };
  }

  /** Expiring URLs that download the files of a version without a token: pre-signed on S3, signed by this service otherwise. */
  async downloadUrls(
    actor: Actor,
    input: { datasetId: string; version?: string | null; assetIds?: readonly string[] | null; expiresIn?: number | null },
    baseUrl: string,
    holder: { id: string; remote: boolean },
  ) {
    // A file id names its version: without an explicit version, the files' own version is meant.
    let version = input.version ?? null;
    if (version === null && input.assetIds?.length && /^[0-9a-f-]{36}$/i.test(input.assetIds[0]) && !input.datasetId.includes('@')) {
      const { dataset: d } = await this.datasets.viewData(actor, input.datasetId);
      const first = await this.store.asset(d.id, input.assetIds[0]);
      if (first) version = first.version === d.draftVersion ? 'draft' : String(first.version);
    }
    const listed = await this.list(actor, input.datasetId, version);
    const { dataset, assets } = listed;
    const ttl = input.expiresIn ?? this.limits.downloadUrlTtlSeconds;
    if (!Number.isInteger(ttl) || ttl < 1 || ttl > this.limits.downloadUrlTtlSeconds) throw new BadInput(`expires_in: 1..${this.limits.downloadUrlTtlSeconds} seconds`);
    let chosen = assets;
    if (input.assetIds?.length) {
      const byId = new Map(assets.map((a) => [a.id, a]));
      const unknown = input.assetIds.filter((id) => !byId.has(id));
      if (unknown.length) throw new BadInput(`asset_ids: not files of ${dataset.slug}@v${version}: ${unknown.join(', ')}`);
      chosen = input.assetIds.map((id) => byId.get(id)!);
    }
    const expiresAt = new Date(this.clock.now().getTime() + ttl * 1000);
    // Each download checks again that the holder may still read this version (access can be withdrawn meanwhile).
    const reads = [{ datasetId: dataset.id, version: listed.version, draft: listed.draft }];
    const urls = [];
    for (const a of chosen) {
      const presigned = await this.objects.presignedGetUrl(a.objectKey, { expiresInSeconds: ttl, filename: a.filename, contentType: a.mediaType });
      const url = presigned ?? `${baseUrl.replace(/\/+$/, '')}/v1/neurodata/files?grant=${this.signer.sign({ key: a.objectKey, expiresAt, filename: a.filename, issuedTo: holder, reads })}`;
      urls.push({ asset: a, url });
    }
    return { dataset, version: listed.version, expiresAt, signedBy: this.objects.kind === 's3' ? 's3' : 'service', urls };
  }

  private async parseTable(kind: 'neurons' | 'connections', input: { text: Buffer; filename: string; datasetId: string; version: number }, existing: AssetRecord[]): Promise<TableIngest> {
    if (kind === 'neurons') {
      const parsed = await parseNeuronsOffThread(input);
      // Connections already in the draft must still name neurons of the new file.
      const connections = existing.find((a) => a.kind === 'connections');
      const obj = connections && (await this.objects.get(connections.objectKey));
      if (connections && obj) {
        await parseConnectionsOffThread({ text: obj.body, filename: connections.filename, datasetId: input.datasetId, version: input.version, neuronIds: parsed.neuronIds }).catch((e: Error) => {
          throw new BadInput(`${input.filename} leaves the draft's connections without their neurons: ${e.message}`);
        });
      }
      return parsed;
    }
    const neuronIds = await this.data.neuronIds(input.datasetId, input.version);
    if (neuronIds.length === 0) throw new BadInput(`${input.filename}: upload the neurons file (neurons.csv) before the connections, so every pre and post can be checked`);
    return parseConnectionsOffThread({ ...input, neuronIds });
  }

  /** Replaces one table's rows of the draft; if writing fails, the previous file's rows are put back. */
  private async replaceTable(table: 'neurons' | 'connections', datasetId: string, version: number, tsv: string[], previous: AssetRecord | undefined): Promise<void> {
    await this.data.dropTableVersion(table, datasetId, version);
    try {
      await this.data.insertTsv(table, tsv);
    } catch (e) {
      await this.data.dropTableVersion(table, datasetId, version).catch(() => undefined);
      if (previous) await this.restore(table, datasetId, version, previous).catch((err) => this.log.error({ err, datasetId, version, table }, 'could not restore the previous rows'));
      throw e;
    }
  }

  /** The rows of one table of the draft as they were before an upload that failed: the previous file's, or none. */
  private async undoTable(table: 'neurons' | 'connections', datasetId: string, version: number, previous: AssetRecord | undefined): Promise<void> {
    await this.data.dropTableVersion(table, datasetId, version);
    if (previous) await this.restore(table, datasetId, version, previous);
  }

  private async restore(table: 'neurons' | 'connections', datasetId: string, version: number, previous: AssetRecord): Promise<void> {
    const obj = await this.objects.get(previous.objectKey);
    if (!obj) return;
    const input = { text: obj.body, filename: previous.filename, datasetId, version };
    const parsed = table === 'neurons' ? await parseNeuronsOffThread(input) : await parseConnectionsOffThread({ ...input, neuronIds: await this.data.neuronIds(datasetId, version) });
    await this.data.insertTsv(table, parsed.chunks);
  }
}

/** A column mapping given with an upload: a JSON object from our field names to the file's column names. */
function parseMapping(text: string | null | undefined): Record<string, string> | null {
  if (text === undefined || text === null || text === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BadInput('mapping: must be a JSON object such as {"pre": "source_cell", "post": "target_cell"}');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new BadInput('mapping: must be a JSON object of field name to column name');
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > 64) throw new BadInput('mapping: at most 64 fields');
  for (const [k, v] of entries) {
    if (typeof v !== 'string' || !v || v.length > 256 || k.length > 64) throw new BadInput(`mapping: ${JSON.stringify(k).slice(0, 70)} must name a column (text of 1 to 256 characters)`);
  }
  return value as Record<string, string>;
}
