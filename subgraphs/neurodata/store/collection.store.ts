import { sql } from 'drizzle-orm';
import type { Db } from '../../../lib/db/relational.js';
import { namedQuery, toDate } from '../../../lib/db/named-query.js';
import { pagedQuery, type Page } from '../../../lib/db/paged-query.js';
import { collectionItems, collections } from './tables.js';

export type CollectionVisibility = 'public' | 'private';

export interface CollectionRecord {
  id: string;
  ownerId: string;
  title: string;
  description: string;
  visibility: CollectionVisibility;
  datasetIds: string[];
  createdAt: Date;
  updatedAt: Date;
}

type Row = Record<string, unknown>;

const COLUMNS = sql.raw(`c.id, c.owner_id, c.title, c.description, c.visibility, c.created_at, c.updated_at,
  coalesce((select jsonb_agg(i.dataset_id order by i.added_at, i.dataset_id) from neurodata.collection_items i where i.collection_id = c.id), '[]'::jsonb) as dataset_ids`);

const toCollection = (r: Row): CollectionRecord => ({
  id: r.id as string,
  ownerId: r.owner_id as string,
  title: r.title as string,
  description: r.description as string,
  visibility: r.visibility as CollectionVisibility,
  datasetIds: (typeof r.dataset_ids === 'string' ? JSON.parse(r.dataset_ids) : r.dataset_ids) as string[],
  createdAt: toDate(r.created_at),
  updatedAt: toDate(r.updated_at),
});

export class CollectionStore {
  constructor(private readonly db: Db) {}

  async insert(c: Omit<CollectionRecord, 'datasetIds' | 'updatedAt'>): Promise<CollectionRecord> {
    const at = c.createdAt.toISOString();
    await namedQuery(
      this.db,
      'CollectionStore.insert',
      sql`insert into ${collections} (id, owner_id, title, description, visibility, created_at, updated_at)
        values (${c.id}, ${c.ownerId}, ${c.title}, ${c.description}, ${c.visibility}, ${at}, ${at})`,
    );
    return (await this.find(c.id))!;
  }

  async find(id: string): Promise<CollectionRecord | undefined> {
    const rows = await namedQuery<Row>(this.db, 'CollectionStore.find', sql`select ${COLUMNS} from ${collections} c where c.id = ${id}`);
    return rows[0] && toCollection(rows[0]);
  }

  /** The viewer's own collections and every public one (all of them for a SuperUser), newest first. */
  async list(viewerId: string, superuser: boolean, page: Page): Promise<{ items: CollectionRecord[]; total: number }> {
    const where = superuser ? sql`true` : sql`(c.owner_id = ${viewerId} or c.visibility = 'public')`;
    const { rows, total } = await pagedQuery<Row>(
      this.db,
      { list: 'CollectionStore.list', count: 'CollectionStore.count' },
      { columns: COLUMNS, from: sql`${collections} c`, where, orderBy: sql`c.created_at desc, c.id desc` },
      page,
    );
    return { items: rows.map(toCollection), total };
  }

  async delete(id: string): Promise<void> {
    await namedQuery(this.db, 'CollectionStore.delete', sql`delete from ${collections} where id = ${id}`);
  }

  /** Adds a dataset; adding one that is already there changes nothing. */
  async addItem(collectionId: string, datasetId: string, by: string, now: Date): Promise<void> {
    await namedQuery(
      this.db,
      'CollectionStore.addItem',
      sql`insert into ${collectionItems} (collection_id, dataset_id, added_by, added_at)
        values (${collectionId}, ${datasetId}, ${by}, ${now.toISOString()}) on conflict do nothing`,
    );
    await this.touch(collectionId, now);
  }

  async removeItem(collectionId: string, datasetId: string, now: Date): Promise<boolean> {
    const rows = await namedQuery<Row>(
      this.db,
      'CollectionStore.removeItem',
      sql`delete from ${collectionItems} where collection_id = ${collectionId} and dataset_id = ${datasetId} returning dataset_id`,
    );
    await this.touch(collectionId, now);
    return rows.length > 0;
  }

  private async touch(id: string, now: Date): Promise<void> {
    await namedQuery(this.db, 'CollectionStore.touch', sql`update ${collections} set updated_at = ${now.toISOString()} where id = ${id}`);
  }
}
