import { sql } from 'drizzle-orm';
import type { Db } from '../../../lib/db/relational.js';
import { namedQuery } from '../../../lib/db/named-query.js';
import { col, queryRow, queryRows, rowOf } from '../../../lib/db/rows.js';
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

const LINK = rowOf(
  {
    id: col.text,
    dataset_id: col.text,
    source_dataset_id: col.text,
    source_version: col.int,
    source_title: col.text,
    relation: col.text,
    description: col.text.nullable(),
    created_by: col.text,
    created_at: col.timestamp,
  },
  (r): LineageLinkRecord => ({
    id: r.id,
    datasetId: r.dataset_id,
    sourceDatasetId: r.source_dataset_id,
    sourceVersion: r.source_version,
    sourceTitle: r.source_title,
    relation: r.relation,
    description: r.description,
    createdBy: r.created_by,
    createdAt: r.created_at,
  }),
);

export class LineageStore {
  constructor(private readonly db: Db) {}

  async insert(l: LineageLinkRecord): Promise<LineageLinkRecord> {
    const row = await queryRow(
      this.db,
      'LineageStore.insert',
      sql`insert into ${lineageLinks} (id, dataset_id, source_dataset_id, source_version, source_title, relation, description, created_by, created_at)
        values (${l.id}, ${l.datasetId}, ${l.sourceDatasetId}, ${l.sourceVersion}, ${l.sourceTitle}, ${l.relation}, ${l.description}, ${l.createdBy}, ${l.createdAt.toISOString()})
        returning ${LINK.columns()}`,
      LINK,
      () => 'this lineage link is already declared',
    );
    return row!;
  }

  /** Links from this dataset to what it was derived from. */
  async upstream(datasetId: string): Promise<LineageLinkRecord[]> {
    return queryRows(
      this.db,
      'LineageStore.upstream',
      sql`select ${LINK.columns()} from ${lineageLinks} where dataset_id = ${datasetId} order by created_at`,
      LINK,
    );
  }

  /** Links from other datasets that were derived from this one. */
  async downstream(datasetId: string): Promise<LineageLinkRecord[]> {
    return queryRows(
      this.db,
      'LineageStore.downstream',
      sql`select ${LINK.columns()} from ${lineageLinks} where source_dataset_id = ${datasetId} order by created_at`,
      LINK,
    );
  }

  /** Whether `from` reaches `to` by following derived-from links upstream (a new link to -> from would close a cycle). */
  async reaches(from: string, to: string): Promise<boolean> {
    const rows = await namedQuery(
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
