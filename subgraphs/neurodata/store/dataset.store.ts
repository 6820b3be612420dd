import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../lib/db/relational.js';
import { namedQuery } from '../../../lib/db/named-query.js';
import { col, queryRow, queryRows, rowOf } from '../../../lib/db/rows.js';
import { pagedQuery } from '../../../lib/db/paged-query.js';
import { ASSET_KINDS, DATASET_STATUSES, VISIBILITIES, type AssetRecord, type DatasetMetadata, type DatasetRecord, type RowCounts, type VersionRecord, type Visibility } from '../dataset.model.js';
import { datasetAssets, datasets, datasetSlugAliases, datasetVersions, provenanceEvents } from './tables.js';
import { DatasetSearchStore } from './search.store.js';
import { FROZEN_ASSETS, JSON_OBJECT, METADATA, ROW_COUNTS } from './dataset.columns.js';
import { DraftDerivationStore, IngestProgressStore, type IngestProgress } from './ingest-progress.store.js';

/** A dataset row with its slug and draft state, which the domain record leaves to the store. */
export interface StoredDataset extends DatasetRecord {
  slug: string;
  draftVersion: number | null;
}

/** An asset record with the version it belongs to and what ingestion found of it. */
export type StoredAsset = AssetRecord & { version: number; summary: Record<string, unknown> };

/** A published version with its publication note. */
export type StoredVersion = VersionRecord & { note: string | null };

const DATASET = rowOf(
  {
    id: col.text,
    slug: col.text,
    title: col.text,
    metadata: METADATA,
    owner_id: col.text,
    maintainer_ids: col.textArray,
    visibility: col.oneOf(VISIBILITIES),
    status: col.oneOf(DATASET_STATUSES),
    latest_version: col.int.nullable(),
    draft_version: col.int.nullable(),
    created_at: col.timestamp,
    updated_at: col.timestamp,
    published_at: col.timestamp.nullable(),
  },
  (r): StoredDataset => ({
    ...r.metadata,
    id: r.id,
    slug: r.slug,
    title: r.title,
    ownerId: r.owner_id,
    maintainerIds: r.maintainer_ids,
    visibility: r.visibility,
    status: r.status,
    latestVersion: r.latest_version,
    draftVersion: r.draft_version,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    publishedAt: r.published_at,
  }),
);

const ASSET = rowOf(
  {
    id: col.text,
    version: col.int,
    filename: col.text,
    kind: col.oneOf(ASSET_KINDS),
    media_type: col.text,
    size: col.int,
    sha256: col.text,
    object_key: col.text,
    rows: col.int,
    summary: JSON_OBJECT,
    created_at: col.timestamp,
  },
  (r): StoredAsset => ({
    id: r.id,
    version: r.version,
    filename: r.filename,
    kind: r.kind,
    mediaType: r.media_type,
    size: r.size,
    sha256: r.sha256,
    objectKey: r.object_key,
    rows: r.rows,
    summary: r.summary,
    createdAt: r.created_at,
  }),
);

const VERSION = rowOf(
  {
    dataset_id: col.text,
    version: col.int,
    metadata: METADATA,
    assets: FROZEN_ASSETS,
    row_counts: ROW_COUNTS,
    note: col.text.nullable(),
    published_at: col.timestamp,
    published_by: col.text,
  },
  (r): StoredVersion => ({
    datasetId: r.dataset_id,
    version: r.version,
    metadata: r.metadata,
    assets: r.assets,
    rowCounts: r.row_counts,
    note: r.note,
    publishedAt: r.published_at,
    publishedBy: r.published_by,
  }),
);

const LATEST_METADATA = rowOf({ dataset_id: col.text, metadata: METADATA });
const LATEST_VERSION = rowOf({ dataset_id: col.text, version: col.int, metadata: METADATA, row_counts: ROW_COUNTS });

const EVENT = rowOf(
  {
    id: col.text,
    dataset_id: col.text,
    activity: col.text,
    agent_id: col.text,
    version: col.int.nullable(),
    details: JSON_OBJECT,
    at: col.timestamp,
  },
  (r): ProvenanceEvent => ({
    id: r.id,
    datasetId: r.dataset_id,
    activity: r.activity,
    agentId: r.agent_id,
    version: r.version,
    details: r.details,
    at: r.at,
  }),
);

export interface NewDataset {
  id: string;
  slug: string;
  metadata: DatasetMetadata;
  ownerId: string;
  maintainerIds: string[];
  visibility: Visibility;
  now: Date;
}

/** A file to record in a version: what ingestion found of it (`summary`), who uploaded it and when. */
export interface NewAsset extends Omit<AssetRecord, 'createdAt'> {
  datasetId: string;
  version: number;
  summary: Record<string, unknown>;
  createdBy: string;
  now: Date;
}

export interface ProvenanceEvent {
  id: string;
  datasetId: string;
  activity: string;
  agentId: string;
  version: number | null;
  details: Record<string, unknown>;
  at: Date;
}

export type DatasetListFilter =
  | { kind: 'owned'; userId: string }
  | { kind: 'modifiable'; userId: string; superuser: boolean }
  | { kind: 'incomplete'; userId: string }
  /** Published datasets, plus the viewer's own drafts (every draft for a SuperUser). */
  | { kind: 'visible'; userId: string; superuser: boolean; visibility?: Visibility };

const slugTaken = () => 'a dataset with this slug already exists; choose another slug';

export class DatasetStore {
  constructor(private readonly db: Db) {}

  /** Rebuilds the dataset's search catalogue row; inside `transaction`, in the same transaction as the write. */
  async syncSearch(datasetId: string): Promise<void> {
    await new DatasetSearchStore(this.db).sync(datasetId);
  }

  /** Runs `fn` in one transaction with a store bound to it; an error rolls everything back. */
  transaction<T>(fn: (store: DatasetStore) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new DatasetStore(tx as unknown as Db)));
  }

  /** Inserts a new draft (version 1 open); a taken slug becomes Conflict. */
  async insert(d: NewDataset): Promise<StoredDataset> {
    const now = d.now.toISOString();
    const row = await queryRow(
      this.db,
      'DatasetStore.insert',
      sql`insert into ${datasets} as d (id, slug, title, metadata, owner_id, maintainer_ids, visibility, status, latest_version, draft_version, created_at, updated_at)
        values (${d.id}, ${d.slug}, ${d.metadata.title}, ${JSON.stringify(d.metadata)}::jsonb, ${d.ownerId}, ${`{${d.maintainerIds.join(',')}}`}::uuid[],
                ${d.visibility}, 'draft', null, 1, ${now}, ${now})
        returning ${DATASET.columns('d')}`,
      DATASET,
      slugTaken,
    );
    return row!;
  }

  /**
   * By id, slug or former slug (dataset_slug_aliases; a dataset's own slug wins over another's former one);
   * undefined when absent. `forUpdate` locks the row until the transaction ends.
   */
  async find(idOrSlug: string, opts: { forUpdate?: boolean } = {}): Promise<StoredDataset | undefined> {
    const byId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrSlug);
    const where = byId
      ? sql`d.id = ${idOrSlug}`
      : sql`(d.slug = ${idOrSlug} or d.id = (select a.dataset_id from ${datasetSlugAliases} a where a.slug = ${idOrSlug})) order by (d.slug = ${idOrSlug}) desc limit 1`;
    const lock = opts.forUpdate ? sql` for update` : sql``;
    return queryRow(this.db, 'DatasetStore.find', sql`select ${DATASET.columns('d')} from ${datasets} d where ${where}${lock}`, DATASET);
  }

  /**
   * Gives the dataset the slug `to` and keeps its current slug `from` as a former slug, which `find` still resolves
   * to it; `to` stops being a former slug of any dataset. A taken `to` becomes Conflict.
   */
  async renameSlug(id: string, from: string, to: string, now: Date): Promise<void> {
    await namedQuery(this.db, 'DatasetStore.renameSlug', sql`update ${datasets} as d set slug = ${to}, updated_at = ${now.toISOString()} where d.id = ${id}`, slugTaken);
    await namedQuery(
      this.db,
      'DatasetStore.addSlugAlias',
      sql`insert into ${datasetSlugAliases} as a (slug, dataset_id, created_at) values (${from}, ${id}, ${now.toISOString()})
        on conflict (slug) do update set dataset_id = excluded.dataset_id, created_at = excluded.created_at`,
    );
    await namedQuery(this.db, 'DatasetStore.dropSlugAlias', sql`delete from ${datasetSlugAliases} a where a.slug = ${to}`);
  }

  async findMany(ids: readonly string[]): Promise<StoredDataset[]> {
    if (ids.length === 0) return [];
    return queryRows(
      this.db,
      'DatasetStore.findMany',
      sql`select ${DATASET.columns('d')} from ${datasets} d where d.id = any(${`{${ids.join(',')}}`}::uuid[])`,
      DATASET,
    );
  }

  /** One page of a list, newest first, with the total. */
  async list(filter: DatasetListFilter, page: { limit: number; offset: number }): Promise<{ items: StoredDataset[]; total: number }> {
    let where: SQL;
    switch (filter.kind) {
      case 'owned':
        where = sql`d.owner_id = ${filter.userId}`;
        break;
      case 'modifiable':
        where = filter.superuser ? sql`true` : sql`(d.owner_id = ${filter.userId} or ${filter.userId}::uuid = any(d.maintainer_ids))`;
        break;
      case 'incomplete':
        where = sql`(d.owner_id = ${filter.userId} or ${filter.userId}::uuid = any(d.maintainer_ids)) and d.draft_version is not null`;
        break;
      case 'visible': {
        const mine = filter.superuser ? sql`true` : sql`(d.owner_id = ${filter.userId} or ${filter.userId}::uuid = any(d.maintainer_ids))`;
        const vis = filter.visibility ? sql` and d.visibility = ${filter.visibility}` : sql``;
        where = sql`(d.status = 'published' or ${mine})${vis}`;
        break;
      }
    }
    const { rows, total } = await pagedQuery(
      this.db,
      { list: 'DatasetStore.list', count: 'DatasetStore.count' },
      { shape: DATASET, columns: DATASET.columns('d'), from: sql`${datasets} d`, where, orderBy: sql`d.created_at desc, d.id desc` },
      page,
    );
    return { items: rows, total };
  }

  async update(
    id: string,
    patch: { metadata?: DatasetMetadata; visibility?: Visibility; maintainerIds?: string[]; slug?: string; draftVersion?: number | null },
    now: Date,
  ): Promise<StoredDataset> {
    const sets: SQL[] = [sql`updated_at = ${now.toISOString()}`];
    if (patch.metadata) sets.push(sql`metadata = ${JSON.stringify(patch.metadata)}::jsonb`, sql`title = ${patch.metadata.title}`);
    if (patch.visibility) sets.push(sql`visibility = ${patch.visibility}`);
    if (patch.maintainerIds) sets.push(sql`maintainer_ids = ${`{${patch.maintainerIds.join(',')}}`}::uuid[]`);
    if (patch.slug) sets.push(sql`slug = ${patch.slug}`);
    if (patch.draftVersion !== undefined) sets.push(sql`draft_version = ${patch.draftVersion}`);
    const row = await queryRow(
      this.db,
      'DatasetStore.update',
      sql`update ${datasets} as d set ${sql.join(sets, sql`, `)} where d.id = ${id} returning ${DATASET.columns('d')}`,
      DATASET,
      slugTaken,
    );
    return row!;
  }

  /** Records a publication: the frozen version row, and the dataset's latest version with no open draft. */
  async insertVersion(v: StoredVersion): Promise<void> {
    await namedQuery(
      this.db,
      'DatasetStore.insertVersion',
      sql`insert into ${datasetVersions} (dataset_id, version, metadata, assets, row_counts, note, published_at, published_by)
        values (${v.datasetId}, ${v.version}, ${JSON.stringify(v.metadata)}::jsonb, ${JSON.stringify(v.assets)}::jsonb, ${JSON.stringify(v.rowCounts)}::jsonb,
                ${v.note}, ${v.publishedAt.toISOString()}, ${v.publishedBy})`,
    );
    await namedQuery(
      this.db,
      'DatasetStore.markPublished',
      sql`update ${datasets} set status = 'published', latest_version = ${v.version}, draft_version = null,
          published_at = ${v.publishedAt.toISOString()}, updated_at = ${v.publishedAt.toISOString()}
        where id = ${v.datasetId}`,
    );
  }

  async versions(datasetId: string): Promise<StoredVersion[]> {
    return queryRows(
      this.db,
      'DatasetStore.versions',
      sql`select ${VERSION.columns()} from ${datasetVersions} where dataset_id = ${datasetId} order by version desc`,
      VERSION,
    );
  }

  async version(datasetId: string, version: number): Promise<StoredVersion | undefined> {
    return queryRow(
      this.db,
      'DatasetStore.version',
      sql`select ${VERSION.columns()} from ${datasetVersions} where dataset_id = ${datasetId} and version = ${version}`,
      VERSION,
    );
  }

  /** The metadata of each dataset's newest published version, by dataset id. */
  async latestMetadata(ids: readonly string[]): Promise<Map<string, DatasetMetadata>> {
    if (ids.length === 0) return new Map();
    const rows = await queryRows(
      this.db,
      'DatasetStore.latestMetadata',
      sql`select distinct on (dataset_id) ${LATEST_METADATA.columns()} from ${datasetVersions}
        where dataset_id = any(${`{${ids.join(',')}}`}::uuid[]) order by dataset_id, version desc`,
      LATEST_METADATA,
    );
    return new Map(rows.map((r) => [r.dataset_id, r.metadata]));
  }

  /** The metadata and row counts of each dataset's newest published version, by dataset id. */
  async latestVersions(ids: readonly string[]): Promise<Map<string, { version: number; metadata: DatasetMetadata; rowCounts: RowCounts }>> {
    if (ids.length === 0) return new Map();
    const rows = await queryRows(
      this.db,
      'DatasetStore.latestVersions',
      sql`select distinct on (dataset_id) ${LATEST_VERSION.columns()} from ${datasetVersions}
        where dataset_id = any(${`{${ids.join(',')}}`}::uuid[]) order by dataset_id, version desc`,
      LATEST_VERSION,
    );
    return new Map(rows.map((r) => [r.dataset_id, { version: r.version, metadata: r.metadata, rowCounts: r.row_counts }]));
  }

  async delete(id: string): Promise<boolean> {
    const rows = await namedQuery(this.db, 'DatasetStore.delete', sql`delete from ${datasets} where id = ${id} returning id`);
    return rows.length > 0;
  }

  async insertAsset(a: NewAsset): Promise<AssetRecord> {
    const row = await queryRow(
      this.db,
      'DatasetStore.insertAsset',
      sql`insert into ${datasetAssets} (id, dataset_id, version, filename, kind, media_type, size, sha256, object_key, rows, summary, created_by, created_at)
        values (${a.id}, ${a.datasetId}, ${a.version}, ${a.filename}, ${a.kind}, ${a.mediaType}, ${a.size}, ${a.sha256}, ${a.objectKey}, ${a.rows},
                ${JSON.stringify(a.summary)}::jsonb, ${a.createdBy}, ${a.now.toISOString()})
        on conflict (dataset_id, version, filename) do update set
          kind = excluded.kind, media_type = excluded.media_type, size = excluded.size, sha256 = excluded.sha256,
          object_key = excluded.object_key, rows = excluded.rows, summary = excluded.summary,
          created_by = excluded.created_by, created_at = excluded.created_at, id = excluded.id
        returning ${ASSET.columns()}`,
      ASSET,
    );
    return row!;
  }

  async assets(datasetId: string, version: number): Promise<StoredAsset[]> {
    return queryRows(
      this.db,
      'DatasetStore.assets',
      sql`select ${ASSET.columns()} from ${datasetAssets} where dataset_id = ${datasetId} and version = ${version} order by filename`,
      ASSET,
    );
  }

  async asset(datasetId: string, assetId: string): Promise<StoredAsset | undefined> {
    return queryRow(
      this.db,
      'DatasetStore.asset',
      sql`select ${ASSET.columns()} from ${datasetAssets} where dataset_id = ${datasetId} and id = ${assetId}`,
      ASSET,
    );
  }

  /** The dataset's ingest slot (store/ingest-progress.store.ts), in this store's transaction when it has one. */
  claimIngest(...a: Parameters<IngestProgressStore['claim']>) {
    return new IngestProgressStore(this.db).claim(...a);
  }

  reportIngest(...a: Parameters<IngestProgressStore['report']>): Promise<void> {
    return new IngestProgressStore(this.db).report(...a);
  }

  releaseIngest(datasetId: string, filename: string): Promise<void> {
    return new IngestProgressStore(this.db).release(datasetId, filename);
  }

  currentIngest(datasetId: string): Promise<IngestProgress | null> {
    return new IngestProgressStore(this.db).current(datasetId);
  }

  /** Whether a draft's derived synapse-level tables are behind (store/ingest-progress.store.ts). */
  get derivations(): DraftDerivationStore {
    return new DraftDerivationStore(this.db);
  }

  async deleteAsset(assetId: string): Promise<void> {
    await namedQuery(this.db, 'DatasetStore.deleteAsset', sql`delete from ${datasetAssets} where id = ${assetId}`);
  }

  /** Whether any asset row of the dataset still points at this object (objects are shared between versions). */
  async objectInUse(datasetId: string, objectKey: string): Promise<boolean> {
    const rows = await namedQuery(
      this.db,
      'DatasetStore.objectInUse',
      sql`select 1 from ${datasetAssets} where dataset_id = ${datasetId} and object_key = ${objectKey} limit 1`,
    );
    return rows.length > 0;
  }

  /** A new draft starts with the files of the version it follows. */
  async copyAssets(datasetId: string, from: number, to: number, ids: (n: number) => string[]): Promise<void> {
    const source = await this.assets(datasetId, from);
    if (!source.length) return;
    const fresh = ids(source.length);
    const pairs = source.map((a, i) => ({ id: fresh[i], src: a.id }));
    await namedQuery(
      this.db,
      'DatasetStore.copyAssets',
      sql`insert into ${datasetAssets} (id, dataset_id, version, filename, kind, media_type, size, sha256, object_key, rows, summary, created_by, created_at)
        select x.id, ${datasetId}, ${to}, s.filename, s.kind, s.media_type, s.size, s.sha256, s.object_key, s.rows, s.summary, s.created_by, s.created_at
        from jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) as x(id uuid, src uuid)
        join ${datasetAssets} s on s.id = x.src`,
    );
  }

  async addEvent(e: ProvenanceEvent): Promise<void> {
    await namedQuery(
      this.db,
      'DatasetStore.addEvent',
      sql`insert into ${provenanceEvents} (id, dataset_id, activity, agent_id, version, details, at)
        values (${e.id}, ${e.datasetId}, ${e.activity}, ${e.agentId}, ${e.version}, ${JSON.stringify(e.details)}::jsonb, ${e.at.toISOString()})`,
    );
  }

  async events(datasetId: string): Promise<ProvenanceEvent[]> {
    return queryRows(
      this.db,
      'DatasetStore.events',
      sql`select ${EVENT.columns()} from ${provenanceEvents} where dataset_id = ${datasetId} order by at, id`,
      EVENT,
    );
  }
}
