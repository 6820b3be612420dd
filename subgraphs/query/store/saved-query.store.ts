import { sql } from 'drizzle-orm';
import type { Db } from '../../../lib/db/relational.js';
import { namedQuery, toDate } from '../../../lib/db/named-query.js';
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

type Row = Record<string, unknown>;

const COLUMNS = sql.raw('id, owner_id, name, description, syql, parameters, last_job_id, previous_job_id, last_run_at, created_at, updated_at');

const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);

const toSaved = (r: Row): SavedQueryRecord => ({
  id: r.id as string,
  ownerId: r.owner_id as string,
  name: r.name as string,
  description: (r.description as string | null) ?? null,
  syql: r.syql as string,
  parameters: (json(r.parameters) as Record<string, unknown>) ?? {},
  lastJobId: (r.last_job_id as string | null) ?? null,
  previousJobId: (r.previous_job_id as string | null) ?? null,
  lastRunAt: r.last_run_at ? toDate(r.last_run_at) : null,
  createdAt: toDate(r.created_at),
  updatedAt: toDate(r.updated_at),
});


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
    const rows = await namedQuery<Row>(this.db, 'SavedQueryStore.find', sql`select ${COLUMNS} from ${savedQueries} where id = ${id}`);
    return rows[0] && toSaved(rows[0]);
  }

  async list(ownerId: string, page: Page): Promise<{ items: SavedQueryRecord[]; total: number }> {
    const { rows, total } = await pagedQuery<Row>(
      this.db,
      { list: 'SavedQueryStore.list', count: 'SavedQueryStore.count' },
      { columns: COLUMNS, from: sql`${savedQueries}`, where: sql`owner_id = ${ownerId}`, orderBy: sql`updated_at desc, id` },
      page,
    );
    return { items: rows.map(toSaved), total };
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
    const rows = await namedQuery<Row>(this.db, 'SavedQueryStore.delete', sql`delete from ${savedQueries} where id = ${id} returning id`);
    return rows.length > 0;
  }
}
