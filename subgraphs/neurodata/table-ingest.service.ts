import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock.js';
import { BadInput, Conflict, NotFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { ObjectStore } from '../../lib/objects/objects.js';
import { unwrapOutcome } from '../../lib/workers/outcome.js';
import { runTask } from '../../lib/workers/pool.js';
import { currentRequestScope, outsideRequestScope, remainingRequestTime } from '../../lib/request-scope.js';
import { unescapeTsv } from '../../lib/column/tsv.js';
import { tsvString } from './ingest/tsv.js';
import type { AssetKind, AssetRecord } from './dataset.model.js';
import { INGEST_STALE_MS, type Actor, type DatasetService } from './dataset.service.js';
import type { MergedAnnotations } from './ingest/annotation-merge.js';
import type { DataTable } from './store/clickhouse/columns.js';
import type { DatasetStore, StoredDataset } from './store/dataset.store.js';
import type { IngestProgress } from './store/ingest-progress.store.js';

/** The asset kinds of synapse-level connectomes: streamed, any size, several files of a kind merged. */
export const TABLE_KINDS = ['synapses', 'roi_connections', 'annotations', 'rois'] as const;
export type TableKind = (typeof TABLE_KINDS)[number];
export const isTableKind = (kind: AssetKind): kind is TableKind => (TABLE_KINDS as readonly string[]).includes(kind);

/** The column tables each kind's files are read into (those derived from them are the store's). */
const KIND_TABLES: Record<TableKind, DataTable[]> = {
  synapses: ['synapses'],
  roi_connections: ['roi_connections'],
  annotations: ['neurons', 'neuron_annotations', 'neuron_rois'],
  rois: ['rois'],
};

/** A stored file as the readers take it: streamed whole, or by byte ranges (Parquet reads its footer first). */
export interface TableSource {
  filename: string;
  size: number;
  open(): Promise<Readable>;
  readRange(start: number, end: number): Promise<Buffer>;
}

export interface TableReadOptions {
  datasetId: string;
  version: number;
  /** The version's primary ROIs (a synapse in any other is refused); null when it has no ROI hierarchy. */
  knownRois: ReadonlySet<string> | null;
  bounds: { min: [number, number, number]; max: [number, number, number] } | null;
  mapping: Record<string, string> | null;
  signal?: AbortSignal;
  onProgress?(p: { rows: number; bytesRead: number }): void;
}

/** An encoded piece of a file: TabSeparated rows of one column table. */
export interface TableChunk {
  table: DataTable;
  tsv: string;
  rows: number;
}

export type TableReader = (kind: TableKind, source: TableSource, opts: TableReadOptions) => AsyncGenerator<TableChunk, Record<string, unknown>>;

/** What the service needs of the column store. */
export interface TableIngestData {
  rowCounts(datasetId: string, version: number): Promise<{ synapses: number }>;
  insertTsv(table: DataTable, chunks: Iterable<string> | AsyncIterable<string>, opts?: { signal?: AbortSignal }): Promise<void>;
  dropTableVersion(table: DataTable, datasetId: string, version: number): Promise<void>;
  deriveSynapseTables(at: { datasetId: string; version: number }, opts: { signal?: AbortSignal }): Promise<unknown>;
  deriveFromRoiConnections(at: { datasetId: string; version: number }, opts: { signal?: AbortSignal }): Promise<unknown>;
  checkSynapseIds(at: { datasetId: string; version: number }): Promise<string | null>;
  primaryRois(at: { datasetId: string; version: number }): Promise<string[]>;
}

export interface TableIngestInput {
  uploadKey: string;
  filename: string;
  mediaType: string;
  kind: TableKind;
  mapping: Record<string, string> | null;
}

/** Progress is written at most this often, and at least this often while one long statement runs (the heartbeat). */
const REPORT_EVERY_MS = 1_000;
const HEARTBEAT_MS = 20_000;

const MERGE_TASK = new URL('./ingest/ingest.task.ts', import.meta.url);

/**
 * Ingests the files of synapse-level connectomes (synapses, per-ROI connections, neuron annotations, ROI
 * hierarchies) into a draft, streamed from object storage whatever their size. Unlike the C. elegans tables, these
 * are written outside the upload's transaction, so that their progress shows while the rows stream in; a claim on
 * the dataset's ingest slot keeps two uploads from writing one draft at once. Nothing of a refused file is kept:
 * the kind's tables are rebuilt from the draft's other files of that kind.
 */
export class TableIngestService {
  constructor(
    private readonly datasets: DatasetService,
    private readonly store: DatasetStore,
    private readonly data: TableIngestData,
    private readonly objects: ObjectStore,
    private readonly readTable: TableReader,
    private readonly bounds: (d: StoredDataset) => TableReadOptions['bounds'],
    private readonly findRegions: (phrases: string[]) => Promise<Array<{ input: string; code: string }>>,
    private readonly limits: { deriveOnUploadMaxSynapses: number; publishWaitMs: number | null },
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  async attach(actor: Actor, dataset: StoredDataset, input: TableIngestInput, objectKeyOf: (sha256: string) => string): Promise<AssetRecord & { version: number }> {
    const head = await this.objects.head(input.uploadKey);
    if (!head) throw new NotFound('that upload does not exist (uploads are attached once)');
    if (head.size === 0) throw new BadInput(`${input.filename}: the file is empty`);

    const { version, previous, tookOver } = await this.store.transaction(async (tx) => {
      const locked = (await tx.find(dataset.id, { forUpdate: true }))!;
      const v = await this.datasets.openDraft(tx, locked);
      const existing = await tx.assets(dataset.id, v);
      const prev = existing.find((a) => a.filename === input.filename);
      if (prev && prev.kind !== input.kind) throw new Conflict(`${input.filename}: the draft already has a ${prev.kind} file of this name; remove it first`);
      checkCombination(input.kind, input.filename, existing);
      const claim = await tx.claimIngest(
        { datasetId: dataset.id, version: v, filename: input.filename, kind: input.kind, bytesTotal: head.size, startedBy: actor.id },
        this.clock.now(),
        new Date(this.clock.now().getTime() - INGEST_STALE_MS),
      );
      if (!claim.claimed) throw new Conflict(busy(claim.holder));
      return { version: v, previous: prev, tookOver: claim.tookOver };
    });
    const at = { datasetId: dataset.id, version };
    const signal = currentRequestScope()?.signal;
    const progress = this.reporter(dataset.id, input.filename);
    try {
      // A stale claim's ingest stopped half-way: its tables are rebuilt from the files the draft has.
      if (tookOver && isTableKind(tookOver.kind as AssetKind)) await this.rebuild(at, tookOver.kind as TableKind, (await this.store.assets(dataset.id, version)).filter((a) => a.kind === tookOver.kind), signal);
      const others = (await this.store.assets(dataset.id, version)).filter((a) => a.kind === input.kind && a.filename !== input.filename);
      if (previous) await this.rebuild(at, input.kind, others, signal);

      const hash = createHash('sha256');
      const source = this.source(input.uploadKey, input.filename, head.size, (chunk) => hash.update(chunk));
      const summary = await this.ingestFile(at, input.kind, source, input.mapping, others, progress, signal).catch(async (e: unknown) => {
        // Nothing of a refused file is kept: the kind's tables go back to the draft's other files.
        await this.restore(at, input.kind, previous, others, signal);
        throw e;
      });
      const sha256 = hash.digest('hex');
      const objectKey = objectKeyOf(sha256);
      progress.stage('deriving');
      await this.derive(at, signal, input.kind);
      return await this.store.transaction(async (tx) => {
        const locked = (await tx.find(dataset.id, { forUpdate: true }))!;
        if (locked.draftVersion !== version) throw new Conflict('the draft changed while the file was ingested; upload it again');
        await this.objects.copy(input.uploadKey, objectKey);
        const now = this.clock.now();
        const asset = await tx.insertAsset({
          id: newId(),
          datasetId: dataset.id,
          version,
          filename: input.filename,
          kind: input.kind,
          mediaType: input.mediaType,
          size: head.size,
          sha256,
          objectKey,
          rows: summary.rows,
          summary: summary.summary,
          createdBy: actor.id,
          now,
        });
        await tx.addEvent({ id: newId(), datasetId: dataset.id, activity: 'upload', agentId: actor.id, version, details: { filename: input.filename, kind: input.kind, sha256, size: head.size, rows: summary.rows }, at: now });
        if (previous && previous.objectKey !== objectKey && !(await tx.objectInUse(dataset.id, previous.objectKey))) await this.objects.delete(previous.objectKey);
        this.log.info({ datasetId: dataset.id, version, filename: input.filename, kind: input.kind, rows: summary.rows }, 'dataset file ingested');
        return { ...asset, version };
      });
    } finally {
      progress.stop();
      // Also when the request has ended: its signal would stop the release, and the slot would stay held.
      await outsideRequestScope(() => this.store.releaseIngest(dataset.id, input.filename)).catch((err) => this.log.error({ err, datasetId: dataset.id }, 'could not release the ingest slot'));
    }
  }

  /**
   * Before a publication: rebuilds the draft's derived tables when uploads left them behind, holding the draft's
   * ingest slot meanwhile (its progress shows as `deriving`). Nothing to do for a draft whose tables are current.
   *
   * At FlyWire's size this takes minutes, longer than a request may last: the rebuild runs outside the request
   * (its end does not stop it) and the publication waits for it as long as the request may (at most PUBLISH_WAIT_MS).
   * When that time runs out first, it answers 409 saying so; the rebuild goes on, and publishing again once the draft shows no
   * ingest finds the tables current and publishes at once.
   */
  async deriveBeforePublish(actor: Actor, dataset: StoredDataset): Promise<void> {
    const version = await this.store.derivations.staleVersion(dataset.id);
    if (version === null || version !== dataset.draftVersion) return;
    const slot = '(derived tables)';
    const claim = await this.store.claimIngest({ datasetId: dataset.id, version, filename: slot, kind: 'derive', bytesTotal: 0, startedBy: actor.id }, this.clock.now(), new Date(this.clock.now().getTime() - INGEST_STALE_MS));
    if (!claim.claimed) throw new Conflict(busy(claim.holder));
    const rebuild = outsideRequestScope(async () => {
      const progress = this.reporter(dataset.id, slot);
      try {
        progress.stage('deriving');
        await this.derive({ datasetId: dataset.id, version }, undefined, undefined, { now: true });
      } finally {
        progress.stop();
        await this.store.releaseIngest(dataset.id, slot);
      }
    });
    rebuild.catch((err) => this.log.error({ err, datasetId: dataset.id, version }, 'could not build the derived tables of the draft'));
    // A second short of the deadline, so that the answer is this one rather than the request's timeout; sooner when
    // PUBLISH_WAIT_MS says so (a proxy in front may give up before the service's own timeout).
    const wait = Math.min(remainingRequestTime() - 1000, this.limits.publishWaitMs ?? Infinity);
    if (wait === Infinity) return rebuild;
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([rebuild.then(() => true), new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, wait))))]).finally(() => clearTimeout(timer));
    if (!finished) {
      throw new Conflict(
        `the draft's derived tables are still being built (per-ROI connections, per-neuron ROI counts, connections); publish again when GET /v1/neurodata/datasets/${dataset.id}/draft shows no ingest`,
      );
    }
  }

  /** Removes a file of a table kind from the draft: its kind's tables are rebuilt from the draft's other files. */
  async afterRemoval(at: { datasetId: string; version: number }, kind: TableKind, remaining: AssetRecord[]): Promise<void> {
    await this.rebuild(at, kind, remaining.filter((a) => a.kind === kind), undefined);
    await this.derive(at, undefined);
  }

  /** Reads one file into the draft's tables; for annotations, merges it with the draft's other annotation files. */
  private async ingestFile(
    at: { datasetId: string; version: number },
    kind: TableKind,
    source: TableSource,
    mapping: Record<string, string> | null,
    others: AssetRecord[],
    progress: ProgressReporter,
    signal: AbortSignal | undefined,
  ): Promise<{ rows: number; summary: Record<string, unknown> }> {
    const opts = await this.readOptions(at, kind, mapping, signal, progress.update);
    if (kind === 'annotations') {
      const files: string[][] = [];
      for (const a of others) files.push((await this.encodeAll(kind, this.storedSource(a), { ...opts, mapping: storedMapping(a) })).annotations);
      const mine = await this.encodeAll(kind, source, opts);
      files.push(mine.annotations);
      const merged = unwrapOutcome(await runTask<{ ok: MergedAnnotations } | { problem: { message: string } }>(MERGE_TASK, 'mergeAnnotationsTask', { files, ...at }, { signal }));
      for (const table of KIND_TABLES.annotations) await this.data.dropTableVersion(table, at.datasetId, at.version);
      await this.data.insertTsv('neuron_annotations', merged.annotationChunks, { signal });
      await this.data.insertTsv('neurons', merged.neuronChunks, { signal });
      for (const a of others) await this.insertRoiInfo(a, opts, signal);
      if (mine.roiInfo.length) await this.data.insertTsv('neuron_rois', mine.roiInfo, { signal });
      return { rows: mine.rows, summary: { ...mine.summary, neurons_after_merge: merged.neurons } };
    }
    if (kind === 'rois') {
      const chunks: string[] = [];
      let rows = 0;
      const gen = this.readTable(kind, source, opts);
      for (;;) {
        const next = await gen.next();
        if (next.done) {
          await this.data.dropTableVersion('rois', at.datasetId, at.version);
          const mapped = await this.withTerms(chunks);
          await this.data.insertTsv('rois', [mapped.tsv], { signal });
          return { rows, summary: { ...next.value, mapped_to_terms: mapped.mapped } };
        }
        chunks.push(next.value.tsv);
        rows += next.value.rows;
      }
    }
    let rows = 0;
    const gen = this.readTable(kind, source, opts);
    for (;;) {
      const next = await gen.next();
      if (next.done) {
        if (kind === 'synapses') {
          const duplicate = await this.data.checkSynapseIds(at);
          if (duplicate !== null) throw new BadInput(`${source.filename}: synapse id ${duplicate} appears more than once in the draft's synapse files`);
        }
        return { rows, summary: next.value };
      }
      await this.data.insertTsv(next.value.table, [next.value.tsv], { signal });
      rows += next.value.rows;
    }
  }

  /**
   * Fills each ROI's `term` with the brain-region term its name or description names (the shipped vocabulary has
   * the hemibrain and FlyWire neuropil names as synonyms: `AL(R)`, `LA_L`). An ROI hierarchy is small (hundreds).
   */
  private async withTerms(chunks: string[]): Promise<{ tsv: string; mapped: number }> {
    const rows = chunks.join('').split('\n').filter(Boolean).map((line) => line.split('\t'));
    // Columns of ROI_COLUMNS: dataset_id, version, roi, parent, is_primary, description, term.
    const phrases = [...new Set(rows.flatMap((r) => [unescapeTsv(r[2]), unescapeTsv(r[5])]).filter(Boolean))];
    const matches = phrases.length ? await this.findRegions(phrases) : [];
    const byPhrase = new Map<string, string>();
    for (const m of matches) if (!byPhrase.has(m.input.toLowerCase())) byPhrase.set(m.input.toLowerCase(), m.code);
    let mapped = 0;
    for (const r of rows) {
      if (r[6]) continue;
      const code = byPhrase.get(unescapeTsv(r[2]).toLowerCase()) ?? byPhrase.get(unescapeTsv(r[5]).toLowerCase());
      if (code) {
        r[6] = tsvString(code);
        mapped++;
      }
    }
    return { tsv: rows.map((r) => `${r.join('\t')}\n`).join(''), mapped };
  }

  /** Every encoded chunk of an annotation file, by table (annotation files are small: a few million rows at most). */
  private async encodeAll(kind: TableKind, source: TableSource, opts: TableReadOptions): Promise<{ annotations: string[]; roiInfo: string[]; rows: number; summary: Record<string, unknown> }> {
    const annotations: string[] = [];
    const roiInfo: string[] = [];
    let rows = 0;
    const gen = this.readTable(kind, source, opts);
    for (;;) {
      const next = await gen.next();
      if (next.done) return { annotations, roiInfo, rows, summary: next.value };
      if (next.value.table === 'neuron_annotations') {
        annotations.push(next.value.tsv);
        rows += next.value.rows;
      } else if (next.value.table === 'neuron_rois') roiInfo.push(next.value.tsv);
    }
  }

  private async insertRoiInfo(a: AssetRecord, opts: TableReadOptions, signal: AbortSignal | undefined): Promise<void> {
    const { roiInfo } = await this.encodeAll('annotations', this.storedSource(a), { ...opts, mapping: storedMapping(a) });
    if (roiInfo.length) await this.data.insertTsv('neuron_rois', roiInfo, { signal });
  }

  /** The kind's tables as the given files make them (none: empty). */
  private async rebuild(at: { datasetId: string; version: number }, kind: TableKind, files: AssetRecord[], signal: AbortSignal | undefined): Promise<void> {
    for (const table of KIND_TABLES[kind]) await this.data.dropTableVersion(table, at.datasetId, at.version);
    if (!files.length) return;
    if (kind === 'annotations') {
      const [last, ...rest] = [...files].reverse();
      await this.ingestFile(at, kind, this.storedSource(last), storedMapping(last), rest.reverse(), SILENT, signal);
      return;
    }
    const opts = await this.readOptions(at, kind, null, signal);
    for (const a of files) {
      for await (const chunk of this.readTable(kind, this.storedSource(a), { ...opts, mapping: storedMapping(a) })) await this.data.insertTsv(chunk.table, [chunk.tsv], { signal });
    }
  }

  /** Puts the kind's tables back as they were before a refused upload (the replaced file included). */
  private async restore(at: { datasetId: string; version: number }, kind: TableKind, previous: AssetRecord | undefined, others: AssetRecord[], signal: AbortSignal | undefined): Promise<void> {
    await this.rebuild(at, kind, previous ? [...others, previous] : others, signal).catch((err) =>
      this.log.error({ err, datasetId: at.datasetId, version: at.version, kind }, 'could not restore the tables of a refused upload'),
    );
  }

  /**
   * Rebuilds the tables computed from synapses or per-ROI connections: what every read of the draft sees. A draft of
   * more than `deriveOnUploadMaxSynapses` synapses (SYNAPSES_DERIVE_ON_UPLOAD_MAX) is marked instead, and rebuilt
   * once when it is published: a release uploaded as many part files would otherwise rebuild them once per part.
   */
  private async derive(at: { datasetId: string; version: number }, signal: AbortSignal | undefined, uploading?: TableKind, opts: { now?: boolean } = {}): Promise<void> {
    if (!opts.now && (await this.data.rowCounts(at.datasetId, at.version)).synapses > this.limits.deriveOnUploadMaxSynapses) {
      await this.store.derivations.markStale(at.datasetId, at.version, this.clock.now());
      return;
    }
    await this.store.derivations.clear(at.datasetId);
    const assets = await this.store.assets(at.datasetId, at.version);
    // The file being uploaded is not among the draft's assets until its ingest has finished.
    const has = (kind: AssetKind) => kind === uploading || assets.some((a) => a.kind === kind);
    // Synapses with both partners give the per-ROI connections; a per-ROI connections file gives them otherwise.
    if (has('synapses')) await this.data.deriveSynapseTables(at, { signal });
    else if (has('roi_connections')) await this.data.deriveFromRoiConnections(at, { signal });
  }

  private async readOptions(at: { datasetId: string; version: number }, kind: TableKind, mapping: Record<string, string> | null, signal?: AbortSignal, onProgress?: TableReadOptions['onProgress']): Promise<TableReadOptions> {
    const needsRois = kind === 'synapses' || kind === 'roi_connections';
    // Without a hierarchy no ROI is known: a file naming ROIs must wait for the draft's rois file.
    const knownRois = needsRois ? new Set(await this.data.primaryRois(at)) : null;
    const dataset = (await this.store.find(at.datasetId))!;
    return { ...at, knownRois, bounds: this.bounds(dataset), mapping, signal, onProgress };
  }

  private source(key: string, filename: string, size: number, onBytes?: (chunk: Buffer) => void): TableSource {
    return {
      filename,
      size,
      open: async () => {
        const s = await this.objects.getStream(key);
        if (!s) throw new NotFound(`${filename}: the stored file is missing`);
        if (onBytes) s.body.on('data', (chunk: Buffer) => onBytes(chunk));
        return s.body;
      },
      readRange: async (start, end) => {
        const s = await this.objects.getStream(key, { start, end });
        if (!s) throw new NotFound(`${filename}: the stored file is missing`);
        const parts: Buffer[] = [];
        for await (const part of s.body) parts.push(part as Buffer);
        return Buffer.concat(parts);
      },
    };
  }

  private storedSource(a: AssetRecord): TableSource {
    return this.source(a.objectKey, a.filename, a.size);
  }

  /** Writes the ingest's progress at most once a second. */
  private reporter(datasetId: string, filename: string): ProgressReporter {
    let last = 0;
    let stage: IngestProgress['stage'] = 'reading';
    let latest = { rows: 0, bytesRead: 0 };
    const write = () =>
      this.store.reportIngest(datasetId, filename, { stage, ...latest }, this.clock.now()).catch((err) => this.log.warn({ err, datasetId }, 'could not record ingest progress'));
    // The heartbeat goes on while a single statement (the derive step) runs for minutes without progress of its own.
    const beat = setInterval(() => void write(), HEARTBEAT_MS);
    beat.unref();
    return {
      stop: () => clearInterval(beat),
      update: (p: { rows: number; bytesRead: number }) => {
        latest = p;
        const now = Date.now();
        if (now - last < REPORT_EVERY_MS) return;
        last = now;
        void write();
      },
      stage: (s: IngestProgress['stage']) => {
        stage = s;
        void write();
      },
    };
  }
}

interface ProgressReporter {
  stop(): void;
  update(p: { rows: number; bytesRead: number }): void;
  stage(s: IngestProgress['stage']): void;
}

/** Rebuilds from stored files report nothing: the upload that caused them reports its own file. */
const SILENT: ProgressReporter = { stop: () => undefined, update: () => undefined, stage: () => undefined };

/** The column mapping a file was uploaded with, as its summary keeps it. */
const storedMapping = (a: AssetRecord): Record<string, string> | null => {
  const m = (a as AssetRecord & { summary?: Record<string, unknown> }).summary?.mapping;
  return m && typeof m === 'object' ? (m as Record<string, string>) : null;
};

function busy(holder: IngestProgress): string {
  const pct = holder.bytesTotal > 0 ? ` (${Math.floor((100 * holder.bytesRead) / holder.bytesTotal)}% read)` : '';
  return `the draft is ingesting ${holder.filename}${pct}; upload again when it has finished (GET /v1/neurodata/datasets/${holder.datasetId}/draft shows its progress)`;
}

/** Which kinds of files a draft may hold together: one source for each column table. */
function checkCombination(kind: TableKind, filename: string, existing: AssetRecord[]): void {
  const other = (k: AssetKind) => existing.find((a) => a.kind === k && a.filename !== filename);
  if (kind === 'annotations' && other('neurons')) throw new Conflict(`the draft's neurons come from ${other('neurons')!.filename}; remove it before uploading annotation tables`);
  if ((kind === 'synapses' || kind === 'roi_connections') && other('connections')) {
    throw new Conflict(`the draft's connections come from ${other('connections')!.filename}; remove it before uploading synapse-level tables`);
  }
  if (kind === 'rois' && other('rois')) throw new Conflict(`the draft already has an ROI hierarchy (${other('rois')!.filename}); upload under that name to replace it, or remove it first`);
  const checked = existing.find((a) => a.kind === 'synapses' || a.kind === 'roi_connections');
  if (kind === 'rois' && checked) throw new Conflict(`the draft's synapse-level files (${checked.filename}) were checked against its ROI hierarchy; remove them before changing it`);
}
