import { sql } from 'drizzle-orm';
import type { Db } from '../../../lib/db/relational.js';
import { namedQuery } from '../../../lib/db/named-query.js';
import { col, queryRow, rowOf } from '../../../lib/db/rows.js';
import { datasetIngests, draftDerivations } from './tables.js';

/** reading: rows are being read and written; deriving: the tables computed from them are being rebuilt. */
export const INGEST_STAGES = ['reading', 'deriving'] as const;

/** A file being ingested into a dataset's draft, as its progress is shown. */
export interface IngestProgress {
  datasetId: string;
  version: number;
  filename: string;
  kind: string;
  stage: (typeof INGEST_STAGES)[number];
  rows: number;
  bytesRead: number;
  bytesTotal: number;
  startedBy: string;
  startedAt: Date;
  heartbeatAt: Date;
}

const PROGRESS = rowOf(
  {
    dataset_id: col.text,
    version: col.int,
    filename: col.text,
    kind: col.text,
    stage: col.oneOf(INGEST_STAGES),
    rows: col.int,
    bytes_read: col.int,
    bytes_total: col.int,
    started_by: col.text,
    started_at: col.timestamp,
    heartbeat_at: col.timestamp,
  },
  (r): IngestProgress => ({
    datasetId: r.dataset_id,
    version: r.version,
    filename: r.filename,
    kind: r.kind,
    stage: r.stage,
    rows: r.rows,
    bytesRead: r.bytes_read,
    bytesTotal: r.bytes_total,
    startedBy: r.started_by,
    startedAt: r.started_at,
    heartbeatAt: r.heartbeat_at,
  }),
);

const STALE_VERSION = rowOf({ version: col.int }, (r) => r.version);

/**
 * The ingest under way in each dataset's draft (at most one per dataset). Claiming one is the guard that keeps two
 * uploads from writing the same draft's column tables at once; it is written outside the upload's own
 * transaction, so its progress is visible while the rows stream in.
 */
export class IngestProgressStore {
  constructor(private readonly db: Db) {}

  /**
   * Claims the dataset's ingest slot for a file. Returns `{ claimed: true, tookOver }` when the slot was free or its
   * holder's heartbeat is older than `staleBefore` (a process that died mid-ingest: `tookOver` then says which file
   * it was writing), or `{ claimed: false, holder }` when another ingest runs.
   */
  async claim(
    p: Pick<IngestProgress, 'datasetId' | 'version' | 'filename' | 'kind' | 'bytesTotal' | 'startedBy'>,
    now: Date,
    staleBefore: Date,
  ): Promise<{ claimed: true; tookOver: IngestProgress | null } | { claimed: false; holder: IngestProgress }> {
    const holder = await this.current(p.datasetId);
    if (holder && holder.heartbeatAt >= staleBefore) return { claimed: false, holder };
    const at = now.toISOString();
    // The compare on the old heartbeat makes two takeovers of the same stale row race safely: one wins.
    const rows = await namedQuery(
      this.db,
      'IngestProgressStore.claim',
      holder
        ? sql`update ${datasetIngests} set version = ${p.version}, filename = ${p.filename}, kind = ${p.kind}, stage = 'reading', rows = 0,
              bytes_read = 0, bytes_total = ${p.bytesTotal}, started_by = ${p.startedBy}, started_at = ${at}, heartbeat_at = ${at}
            where dataset_id = ${p.datasetId} and heartbeat_at = ${holder.heartbeatAt.toISOString()} returning *`
        : sql`insert into ${datasetIngests} (dataset_id, version, filename, kind, stage, rows, bytes_read, bytes_total, started_by, started_at, heartbeat_at)
            values (${p.datasetId}, ${p.version}, ${p.filename}, ${p.kind}, 'reading', 0, 0, ${p.bytesTotal}, ${p.startedBy}, ${at}, ${at})
            on conflict (dataset_id) do nothing returning *`,
    );
    if (!rows.length) {
      const winner = await this.current(p.datasetId);
      if (!winner) throw new Error('IngestProgressStore.claim: the ingest that took the slot ended before it could be read');
      return { claimed: false, holder: winner };
    }
    return { claimed: true, tookOver: holder };
  }

  /** Records progress (and renews the heartbeat) of the dataset's ingest of `filename`. */
  async report(datasetId: string, filename: string, p: { stage: IngestProgress['stage']; rows: number; bytesRead: number }, now: Date): Promise<void> {
    await namedQuery(
      this.db,
      'IngestProgressStore.report',
      sql`update ${datasetIngests} set stage = ${p.stage}, rows = ${p.rows}, bytes_read = ${p.bytesRead}, heartbeat_at = ${now.toISOString()}
        where dataset_id = ${datasetId} and filename = ${filename}`,
    );
  }

  /** Frees the dataset's ingest slot (held for `filename`). */
  async release(datasetId: string, filename: string): Promise<void> {
    await namedQuery(
      this.db,
      'IngestProgressStore.release',
      sql`delete from ${datasetIngests} where dataset_id = ${datasetId} and filename = ${filename}`,
    );
  }

  /** The ingest under way in the dataset's draft, if any. */
  async current(datasetId: string): Promise<IngestProgress | null> {
    const r = await queryRow(this.db, 'IngestProgressStore.current', sql`select ${PROGRESS.columns()} from ${datasetIngests} where dataset_id = ${datasetId}`, PROGRESS);
    return r ?? null;
  }
}

/** Which drafts' derived tables are behind their synapses (tables.ts, draftDerivations). */
export class DraftDerivationStore {
  constructor(private readonly db: Db) {}

  async markStale(datasetId: string, version: number, now: Date): Promise<void> {
    await namedQuery(
      this.db,
      'DraftDerivationStore.markStale',
      sql`insert into ${draftDerivations} (dataset_id, version, stale_since) values (${datasetId}, ${version}, ${now.toISOString()})
        on conflict (dataset_id) do update set version = excluded.version, stale_since = least(${draftDerivations}.stale_since, excluded.stale_since)`,
    );
  }

  async clear(datasetId: string): Promise<void> {
    await namedQuery(this.db, 'DraftDerivationStore.clear', sql`delete from ${draftDerivations} where dataset_id = ${datasetId}`);
  }

  /** The draft version whose derived tables are behind, or null. */
  async staleVersion(datasetId: string): Promise<number | null> {
    const version = await queryRow(this.db, 'DraftDerivationStore.staleVersion', sql`select ${STALE_VERSION.columns()} from ${draftDerivations} where dataset_id = ${datasetId}`, STALE_VERSION);
    return version ?? null;
  }
}
