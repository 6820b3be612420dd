import { sql } from 'drizzle-orm';
import type { Db } from '../../../lib/db/relational.js';
import { z } from 'zod';
import { namedQuery } from '../../../lib/db/named-query.js';
import { col, queryRow, rowOf } from '../../../lib/db/rows.js';
import { pagedQuery, type Page } from '../../../lib/db/paged-query.js';
import { collectionItems, collections } from './tables.js';

export const COLLECTION_VISIBILITIES = ['public', 'private'] as const;
export type CollectionVisibility = (typeof COLLECTION_VISIBILITIES)[number];

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

/** The columns of a collection's own row. */
const STORED = {
  id: col.text,
  owner_id: col.text,
  title: col.text,
  description: col.text,
  visibility: col.oneOf(COLLECTION_VISIBILITIES),
  created_at: col.timestamp,
  updated_at: col.timestamp,
};

/** A collection with its datasets in the order they were added. */
const COLLECTION = rowOf({ ...STORED, dataset_ids: col.json(z.array(z.string())) }, (r): CollectionRecord => ({
  id: r.id,
  ownerId: r.owner_id,
  title: r.title,
  description: r.description,
  visibility: r.visibility,
  datasetIds: r.dataset_ids,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
}));

const COLUMNS = sql`${rowOf(STORED).columns('c')},
  coalesce((select jsonb_agg(i.dataset_id order by i.added_at, i.dataset_id) from neurodata.collection_items i where i.collection_id = c.id), '[]'::jsonb) as dataset_ids`;

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
    return queryRow(this.db, 'CollectionStore.find', sql`select ${COLUMNS} from ${collections} c where c.id = ${id}`, COLLECTION);
  }

  /** The viewer's own collections and every public one (all of them for a SuperUser), newest first. */
  async list(viewerId: string, superuser: boolean, page: Page): Promise<{ items: CollectionRecord[]; total: number }> {
    const where = superuser ? sql`true` : sql`(c.owner_id = ${viewerId} or c.visibility = 'public')`;
    const { rows, total } = await pagedQuery(
      this.db,
      { list: 'CollectionStore.list', count: 'CollectionStore.count' },
      { shape: COLLECTION, columns: COLUMNS, from: sql`${collections} c`, where, orderBy: sql`c.created_at desc, c.id desc` },
      page,
    );
    return { items: rows, total };
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
    const rows = await namedQuery(
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
