import { sql } from 'drizzle-orm';
import type { Db } from '../../../lib/db/relational.js';
import { z } from 'zod';
import { namedQuery } from '../../../lib/db/named-query.js';
import { col, queryRow, rowOf } from '../../../lib/db/rows.js';
import { pagedQuery, type Page } from '../../../lib/db/paged-query.js';
import { savedQueries } from './tables.js';

export interface SavedQueryRecord {
  id: string;
  ownerId: string;
  name: string;
  description: string | null;
  syql: string;
  parameters: Record<string, unknown>;
  lastJobId: string | null;
  previousJobId: string | null;
  lastRunAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const SAVED_QUERY = rowOf(
  {
    id: col.text,
    owner_id: col.text,
    name: col.text,
    description: col.text.nullable(),
    syql: col.text,
    parameters: col.json(z.record(z.string(), z.unknown()).nullable()),
    last_job_id: col.text.nullable(),
    previous_job_id: col.text.nullable(),
    last_run_at: col.timestamp.nullable(),
    created_at: col.timestamp,
    updated_at: col.timestamp,
  },
  (r): SavedQueryRecord => ({
    id: r.id,
    ownerId: r.owner_id,
    name: r.name,
    description: r.description,
    syql: r.syql,
    parameters: r.parameters ?? {},
    lastJobId: r.last_job_id,
    previousJobId: r.previous_job_id,
    lastRunAt: r.last_run_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }),
);

/** Saved SyQL queries, one owner each; names are unique per owner. */
export class SavedQueryStore {
  constructor(private readonly db: Db) {}

  async insert(q: Omit<SavedQueryRecord, 'lastJobId' | 'previousJobId' | 'lastRunAt' | 'updatedAt'>): Promise<SavedQueryRecord> {
    const at = q.createdAt.toISOString();
    await namedQuery(
      this.db,
      'SavedQueryStore.insert',
      sql`insert into ${savedQueries} (id, owner_id, name, description, syql, parameters, created_at, updated_at)
        values (${q.id}, ${q.ownerId}, ${q.name}, ${q.description}, ${q.syql}, ${JSON.stringify(q.parameters)}::jsonb, ${at}, ${at})`,
      () => `you already have a saved query named ${JSON.stringify(q.name)}`,
    );
    return (await this.find(q.id))!;
  }

  async find(id: string): Promise<SavedQueryRecord | undefined> {
    return queryRow(this.db, 'SavedQueryStore.find', sql`select ${SAVED_QUERY.columns()} from ${savedQueries} where id = ${id}`, SAVED_QUERY);
  }

  async list(ownerId: string, page: Page): Promise<{ items: SavedQueryRecord[]; total: number }> {
    const { rows, total } = await pagedQuery(
      this.db,
      { list: 'SavedQueryStore.list', count: 'SavedQueryStore.count' },
      { shape: SAVED_QUERY, from: sql`${savedQueries}`, where: sql`owner_id = ${ownerId}`, orderBy: sql`updated_at desc, id` },
      page,
    );
    return { items: rows, total };
  }

  async update(id: string, change: Partial<Pick<SavedQueryRecord, 'name' | 'description' | 'syql' | 'parameters'>>, at: Date): Promise<SavedQueryRecord | undefined> {
    await namedQuery(
        this.db,
        'SavedQueryStore.update',
        sql`update ${savedQueries} set
            name = coalesce(${change.name ?? null}, name),
            description = case when ${change.description !== undefined} then ${change.description ?? null} else description end,
            syql = coalesce(${change.syql ?? null}, syql),
            parameters = coalesce(${change.parameters ? JSON.stringify(change.parameters) : null}::jsonb, parameters),
            updated_at = ${at.toISOString()}
          where id = ${id}`,
        () => `you already have a saved query named ${JSON.stringify(change.name)}`,
      );
    return this.find(id);
  }

  /** Records a new run: the last run's job becomes the previous one, whose result stays available. */
  async recordRun(id: string, jobId: string, at: Date): Promise<void> {
    await namedQuery(
      this.db,
      'SavedQueryStore.recordRun',
      sql`update ${savedQueries} set previous_job_id = last_job_id, last_job_id = ${jobId}, last_run_at = ${at.toISOString()} where id = ${id}`,
    );
  }

  async delete(id: string): Promise<boolean> {
    const rows = await namedQuery(this.db, 'SavedQueryStore.delete', sql`delete from ${savedQueries} where id = ${id} returning id`);
    return rows.length > 0;
  }
}
