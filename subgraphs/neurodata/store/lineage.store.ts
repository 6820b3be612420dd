import { sql } from 'drizzle-orm';
import type { Db } from '../../../lib/db/relational.js';
import { namedQuery, toDate } from '../../../lib/db/named-query.js';
import { lineageLinks } from './tables.js';

export interface LineageLinkRecord {
  id: string;
  datasetId: string;
  sourceDatasetId: string;
  sourceVersion: number;
  sourceTitle: string;
  relation: string;
  description: string | null;
  createdBy: string;
  createdAt: Date;
}

type Row = Record<string, unknown>;

const toLink = (r: Row): LineageLinkRecord => ({
  id: r.id as string,
  datasetId: r.dataset_id as string,
  sourceDatasetId: r.source_dataset_id as string,
  sourceVersion: Number(r.source_version),
  sourceTitle: r.source_title as string,
  relation: r.relation as string,
  description: (r.description as string | null) ?? null,
  createdBy: r.created_by as string,
  createdAt: toDate(r.created_at),
});

export class LineageStore {
  constructor(private readonly db: Db) {}

  async insert(l: LineageLinkRecord): Promise<LineageLinkRecord> {
    const rows = await namedQuery<Row>(
      this.db,
      'LineageStore.insert',
      sql`insert into ${lineageLinks} (id, dataset_id, source_dataset_id, source_version, source_title, relation, description, created_by, created_at)
        values (${l.id}, ${l.datasetId}, ${l.sourceDatasetId}, ${l.sourceVersion}, ${l.sourceTitle}, ${l.relation}, ${l.description}, ${l.createdBy}, ${l.createdAt.toISOString()})
        returning *`,
      () => 'this lineage link is already declared',
    );
    return toLink(rows[0]);
  }

  /** Links from this dataset to what it was derived from. */
  async upstream(datasetId: string): Promise<LineageLinkRecord[]> {
    const rows = await namedQuery<Row>(
      this.db,
      'LineageStore.upstream',
      sql`select * from ${lineageLinks} where dataset_id = ${datasetId} order by created_at`,
    );
    return rows.map(toLink);
  }

  /** Links from other datasets that were derived from this one. */
  async downstream(datasetId: string): Promise<LineageLinkRecord[]> {
    const rows = await namedQuery<Row>(
      this.db,
      'LineageStore.downstream',
      sql`select * from ${lineageLinks} where source_dataset_id = ${datasetId} order by created_at`,
    );
    return rows.map(toLink);
  }

  /** Whether `from` reaches `to` by following derived-from links upstream (a new link to -> from would close a cycle). */
  async reaches(from: string, to: string): Promise<boolean> {
    const rows = await namedQuery<Row>(
      this.db,
      'LineageStore.reaches',
      sql`with recursive up(id) as (
          select ${from}::uuid
          union
          select l.source_dataset_id from ${lineageLinks} l join up on l.dataset_id = up.id
        )
        select 1 from up where id = ${to}::uuid limit 1`,
    );
    return rows.length > 0;
  }
}
