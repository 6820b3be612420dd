import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../lib/db/relational.js';
import { namedQuery, toDate, toDateOrNull, fromJson, fromTextArray } from '../../../lib/db/named-query.js';
import { pagedQuery } from '../../../lib/db/paged-query.js';
import type { AssetKind, AssetRecord, DatasetMetadata, DatasetRecord, DatasetStatus, RowCounts, VersionRecord, Visibility } from '../dataset.model.js';
import { datasetAssets, datasets, datasetSlugAliases, datasetVersions, provenanceEvents } from './tables.js';
import { DatasetSearchStore, storedRowCounts } from './search.store.js';
import { DraftDerivationStore, IngestProgressStore, type IngestProgress } from './ingest-progress.store.js';

type Row = Record<string, unknown>;

const DATASET_COLUMNS = sql.raw(
  'd.id, d.slug, d.title, d.metadata, d.owner_id, d.maintainer_ids, d.visibility, d.status, d.latest_version, d.draft_version, d.created_at, d.updated_at, d.published_at',
);

/** A dataset row with its slug and draft state, which the domain record leaves to the store. */
export interface StoredDataset extends DatasetRecord {
  slug: string;
  draftVersion: number | null;
}


function toDataset(r: Row): StoredDataset {
  const metadata = fromJson<DatasetMetadata>(r.metadata);
  return {
    ...metadata,
    id: r.id as string,
    slug: r.slug as string,
    title: r.title as string,
    ownerId: r.owner_id as string,
    maintainerIds: fromTextArray(r.maintainer_ids),
    visibility: r.visibility as Visibility,
    status: r.status as DatasetStatus,
    latestVersion: (r.latest_version as number | null) ?? null,
    draftVersion: (r.draft_version as number | null) ?? null,
    createdAt: toDate(r.created_at),
    updatedAt: toDate(r.updated_at),
    publishedAt: toDateOrNull(r.published_at),
  };
}

function toAsset(r: Row): AssetRecord & { version: number; summary: Record<string, unknown> } {
  return {
    id: r.id as string,
    version: Number(r.version),
    filename: r.filename as string,
    kind: r.kind as AssetKind,
    mediaType: r.media_type as string,
    size: Number(r.size),
    sha256: r.sha256 as string,
    objectKey: r.object_key as string,
    rows: Number(r.rows),
    summary: fromJson<Record<string, unknown>>(r.summary) ?? {},
    createdAt: toDate(r.created_at),
  };
}

/** Assets as a version freezes them: dates become ISO strings inside jsonb and come back as dates here. */
function toFrozenAssets(v: unknown): AssetRecord[] {
  return (fromJson<Array<AssetRecord & { createdAt: string | Date }>>(v) ?? []).map((a) => ({ ...a, createdAt: toDate(a.createdAt) }));
}

function toVersion(r: Row): VersionRecord & { note: string | null } {
  return {
    datasetId: r.dataset_id as string,
    version: Number(r.version),
    metadata: fromJson<DatasetMetadata>(r.metadata),
    assets: toFrozenAssets(r.assets),
    rowCounts: storedRowCounts(r.row_counts),
    note: (r.note as string | null) ?? null,
    publishedAt: toDate(r.published_at),
    publishedBy: r.published_by as string,
  };
}

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

  private run(name: string, q: SQL, conflict?: (constraint: string) => string): Promise<Row[]> {
    return namedQuery<Row>(this.db, name, q, conflict);
  }

  /** Inserts a new draft (version 1 open); a taken slug becomes Conflict. */
  async insert(d: NewDataset): Promise<StoredDataset> {
    const now = d.now.toISOString();
    const rows = await this.run(
      'DatasetStore.insert',
      sql`insert into ${datasets} as d (id, slug, title, metadata, owner_id, maintainer_ids, visibility, status, latest_version, draft_version, created_at, updated_at)
        values (${d.id}, ${d.slug}, ${d.metadata.title}, ${JSON.stringify(d.metadata)}::jsonb, ${d.ownerId}, ${`{${d.maintainerIds.join(',')}}`}::uuid[],
                ${d.visibility}, 'draft', null, 1, ${now}, ${now})
        returning ${DATASET_COLUMNS}`,
      slugTaken,
    );
    return toDataset(rows[0]);
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
    const rows = await this.run('DatasetStore.find', sql`select ${DATASET_COLUMNS} from ${datasets} d where ${where}${lock}`);
    return rows[0] && toDataset(rows[0]);
  }

  /**
   * Gives the dataset the slug `to` and keeps its current slug `from` as a former slug, which `find` still resolves
   * to it; `to` stops being a former slug of any dataset. A taken `to` becomes Conflict.
   */
  async renameSlug(id: string, from: string, to: string, now: Date): Promise<void> {
    await this.run('DatasetStore.renameSlug', sql`update ${datasets} as d set slug = ${to}, updated_at = ${now.toISOString()} where d.id = ${id}`, slugTaken);
    await this.run(
      'DatasetStore.addSlugAlias',
      sql`insert into ${datasetSlugAliases} as a (slug, dataset_id, created_at) values (${from}, ${id}, ${now.toISOString()})
        on conflict (slug) do update set dataset_id = excluded.dataset_id, created_at = excluded.created_at`,
    );
    await this.run('DatasetStore.dropSlugAlias', sql`delete from ${datasetSlugAliases} a where a.slug = ${to}`);
  }

  async findMany(ids: readonly string[]): Promise<StoredDataset[]> {
    if (ids.length === 0) return [];
    const rows = await this.run(
      'DatasetStore.findMany',
      sql`select ${DATASET_COLUMNS} from ${datasets} d where d.id = any(${`{${ids.join(',')}}`}::uuid[])`,
    );
    return rows.map(toDataset);
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
    const { rows, total } = await pagedQuery<Row>(
      this.db,
      { list: 'DatasetStore.list', count: 'DatasetStore.count' },
      { columns: DATASET_COLUMNS, from: sql`${datasets} d`, where, orderBy: sql`d.created_at desc, d.id desc` },
      page,
    );
    return { items: rows.map(toDataset), total };
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
    const rows = await this.run(
      'DatasetStore.update',
      sql`update ${datasets} as d set ${sql.join(sets, sql`, `)} where d.id = ${id} returning ${DATASET_COLUMNS}`,
      slugTaken,
    );
    return toDataset(rows[0]);
  }

  /** Records a publication: the frozen version row, and the dataset's latest version with no open draft. */
  async insertVersion(v: VersionRecord & { note: string | null }): Promise<void> {
    await this.run(
      'DatasetStore.insertVersion',
      sql`insert into ${datasetVersions} (dataset_id, version, metadata, assets, row_counts, note, published_at, published_by)
        values (${v.datasetId}, ${v.version}, ${JSON.stringify(v.metadata)}::jsonb, ${JSON.stringify(v.assets)}::jsonb, ${JSON.stringify(v.rowCounts)}::jsonb,
                ${v.note}, ${v.publishedAt.toISOString()}, ${v.publishedBy})`,
    );
    await this.run(
      'DatasetStore.markPublished',
      sql`update ${datasets} set status = 'published', latest_version = ${v.version}, draft_version = null,
          published_at = ${v.publishedAt.toISOString()}, updated_at = ${v.publishedAt.toISOString()}
        where id = ${v.datasetId}`,
    );
  }

  async versions(datasetId: string): Promise<Array<VersionRecord & { note: string | null }>> {
    const rows = await this.run(
      'DatasetStore.versions',
      sql`select * from ${datasetVersions} where dataset_id = ${datasetId} order by version desc`,
    );
    return rows.map(toVersion);
  }

  async version(datasetId: string, version: number): Promise<(VersionRecord & { note: string | null }) | undefined> {
    const rows = await this.run(
      'DatasetStore.version',
      sql`select * from ${datasetVersions} where dataset_id = ${datasetId} and version = ${version}`,
    );
    return rows[0] && toVersion(rows[0]);
  }

  /** The metadata of each dataset's newest published version, by dataset id. */
  async latestMetadata(ids: readonly string[]): Promise<Map<string, DatasetMetadata>> {
    if (ids.length === 0) return new Map();
    const rows = await this.run(
      'DatasetStore.latestMetadata',
      sql`select distinct on (dataset_id) dataset_id, metadata from ${datasetVersions}
        where dataset_id = any(${`{${ids.join(',')}}`}::uuid[]) order by dataset_id, version desc`,
    );
    return new Map(rows.map((r) => [r.dataset_id as string, fromJson<DatasetMetadata>(r.metadata)]));
  }

  /** The metadata and row counts of each dataset's newest published version, by dataset id. */
  async latestVersions(ids: readonly string[]): Promise<Map<string, { version: number; metadata: DatasetMetadata; rowCounts: RowCounts }>> {
    if (ids.length === 0) return new Map();
    const rows = await this.run(
      'DatasetStore.latestVersions',
      sql`select distinct on (dataset_id) dataset_id, version, metadata, row_counts from ${datasetVersions}
        where dataset_id = any(${`{${ids.join(',')}}`}::uuid[]) order by dataset_id, version desc`,
    );
    return new Map(rows.map((r) => [r.dataset_id as string, { version: Number(r.version), metadata: fromJson<DatasetMetadata>(r.metadata), rowCounts: storedRowCounts(r.row_counts) }]));
  }

  async delete(id: string): Promise<boolean> {
    const rows = await this.run('DatasetStore.delete', sql`delete from ${datasets} where id = ${id} returning id`);
    return rows.length > 0;
  }

  async insertAsset(a: NewAsset): Promise<AssetRecord> {
    const rows = await this.run(
      'DatasetStore.insertAsset',
      sql`insert into ${datasetAssets} (id, dataset_id, version, filename, kind, media_type, size, sha256, object_key, rows, summary, created_by, created_at)
        values (${a.id}, ${a.datasetId}, ${a.version}, ${a.filename}, ${a.kind}, ${a.mediaType}, ${a.size}, ${a.sha256}, ${a.objectKey}, ${a.rows},
                ${JSON.stringify(a.summary)}::jsonb, ${a.createdBy}, ${a.now.toISOString()})
        on conflict (dataset_id, version, filename) do update set
          kind = excluded.kind, media_type = excluded.media_type, size = excluded.size, sha256 = excluded.sha256,
          object_key = excluded.object_key, rows = excluded.rows, summary = excluded.summary,
          created_by = excluded.created_by, created_at = excluded.created_at, id = excluded.id
        returning *`,
    );
    return toAsset(rows[0]);
  }

  async assets(datasetId: string, version: number): Promise<Array<AssetRecord & { version: number; summary: Record<string, unknown> }>> {
    const rows = await this.run(
      'DatasetStore.assets',
      sql`select * from ${datasetAssets} where dataset_id = ${datasetId} and version = ${version} order by filename`,
    );
    return rows.map(toAsset);
  }

  async asset(datasetId: string, assetId: string): Promise<(AssetRecord & { version: number; summary: Record<string, unknown> }) | undefined> {
    const rows = await this.run(
      'DatasetStore.asset',
      sql`select * from ${datasetAssets} where dataset_id = ${datasetId} and id = ${assetId}`,
    );
    return rows[0] && toAsset(rows[0]);
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
    await this.run('DatasetStore.deleteAsset', sql`delete from ${datasetAssets} where id = ${assetId}`);
  }

  /** Whether any asset row of the dataset still points at this object (objects are shared between versions). */
  async objectInUse(datasetId: string, objectKey: string): Promise<boolean> {
    const rows = await this.run(
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
    await this.run(
      'DatasetStore.copyAssets',
      sql`insert into ${datasetAssets} (id, dataset_id, version, filename, kind, media_type, size, sha256, object_key, rows, summary, created_by, created_at)
        select x.id, ${datasetId}, ${to}, s.filename, s.kind, s.media_type, s.size, s.sha256, s.object_key, s.rows, s.summary, s.created_by, s.created_at
        from jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) as x(id uuid, src uuid)
        join ${datasetAssets} s on s.id = x.src`,
    );
  }

  async addEvent(e: ProvenanceEvent): Promise<void> {
    await this.run(
      'DatasetStore.addEvent',
      sql`insert into ${provenanceEvents} (id, dataset_id, activity, agent_id, version, details, at)
        values (${e.id}, ${e.datasetId}, ${e.activity}, ${e.agentId}, ${e.version}, ${JSON.stringify(e.details)}::jsonb, ${e.at.toISOString()})`,
    );
  }

  async events(datasetId: string): Promise<ProvenanceEvent[]> {
    const rows = await this.run(
      'DatasetStore.events',
      sql`select * from ${provenanceEvents} where dataset_id = ${datasetId} order by at, id`,
    );
    return rows.map((r) => ({
      id: r.id as string,
      datasetId: r.dataset_id as string,
      activity: r.activity as string,
      agentId: r.agent_id as string,
      version: (r.version as number | null) ?? null,
      details: fromJson<Record<string, unknown>>(r.details) ?? {},
      at: toDate(r.at),
    }));
  }
}
