import { sql } from 'drizzle-orm';
import type { Db } from '../../../lib/db/relational.js';
import { namedQuery, toDate, toDateOrNull } from '../../../lib/db/named-query.js';
import { accessRequests } from './tables.js';

export type AccessRequestStatus = 'pending' | 'approved' | 'denied';

export interface AccessRequestRecord {
  id: string;
  datasetId: string;
  requesterId: string;
  status: AccessRequestStatus;
  message: string | null;
  responseMessage: string | null;
  decidedBy: string | null;
  decidedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

type Row = Record<string, unknown>;

const toRequest = (r: Row): AccessRequestRecord => ({
  id: r.id as string,
  datasetId: r.dataset_id as string,
  requesterId: r.requester_id as string,
  status: r.status as AccessRequestStatus,
  message: (r.message as string | null) ?? null,
  responseMessage: (r.response_message as string | null) ?? null,
  decidedBy: (r.decided_by as string | null) ?? null,
  decidedAt: toDateOrNull(r.decided_at),
  createdAt: toDate(r.created_at),
  updatedAt: toDate(r.updated_at),
});

export class AccessRequestStore {
  constructor(private readonly db: Db) {}

  /**
   * Files a request, or re-opens the requester's denied one (a new message, pending again). An approved or pending
   * request is returned unchanged.
   */
  async upsert(r: { id: string; datasetId: string; requesterId: string; message: string | null; now: Date }): Promise<AccessRequestRecord> {
    const now = r.now.toISOString();
    const rows = await namedQuery<Row>(
      this.db,
      'AccessRequestStore.upsert',
      sql`insert into ${accessRequests} as a (id, dataset_id, requester_id, status, message, created_at, updated_at)
        values (${r.id}, ${r.datasetId}, ${r.requesterId}, 'pending', ${r.message}, ${now}, ${now})
        on conflict (dataset_id, requester_id) do update set
          status = case when a.status = 'denied' then 'pending' else a.status end,
          message = case when a.status = 'denied' then excluded.message else a.message end,
          response_message = case when a.status = 'denied' then null else a.response_message end,
          decided_by = case when a.status = 'denied' then null else a.decided_by end,
          decided_at = case when a.status = 'denied' then null else a.decided_at end,
          updated_at = case when a.status = 'denied' then excluded.updated_at else a.updated_at end
        returning *`,
    );
    return toRequest(rows[0]);
  }

  async forRequester(datasetId: string, requesterId: string): Promise<AccessRequestRecord | undefined> {
    const rows = await namedQuery<Row>(
      this.db,
      'AccessRequestStore.forRequester',
      sql`select * from ${accessRequests} where dataset_id = ${datasetId} and requester_id = ${requesterId}`,
    );
    return rows[0] && toRequest(rows[0]);
  }

  /** The requester's request status per dataset, for a page of datasets. */
  async statusesFor(datasetIds: readonly string[], requesterId: string): Promise<Map<string, AccessRequestStatus>> {
    if (datasetIds.length === 0) return new Map();
    const rows = await namedQuery<Row>(
      this.db,
      'AccessRequestStore.statusesFor',
      sql`select dataset_id, status from ${accessRequests}
        where requester_id = ${requesterId} and dataset_id = any(${`{${datasetIds.join(',')}}`}::uuid[])`,
    );
    return new Map(rows.map((r) => [r.dataset_id as string, r.status as AccessRequestStatus]));
  }

  /** Every request of a dataset, pending first, then newest first. */
  async forDataset(datasetId: string): Promise<AccessRequestRecord[]> {
    const rows = await namedQuery<Row>(
      this.db,
      'AccessRequestStore.forDataset',
      sql`select * from ${accessRequests} where dataset_id = ${datasetId}
        order by (status = 'pending') desc, created_at desc`,
    );
    return rows.map(toRequest);
  }

  async find(datasetId: string, id: string): Promise<AccessRequestRecord | undefined> {
    const rows = await namedQuery<Row>(
      this.db,
      'AccessRequestStore.find',
      sql`select * from ${accessRequests} where dataset_id = ${datasetId} and id = ${id}`,
    );
    return rows[0] && toRequest(rows[0]);
  }

  async decide(id: string, d: { status: 'approved' | 'denied'; decidedBy: string; responseMessage: string | null; now: Date }): Promise<AccessRequestRecord> {
    const now = d.now.toISOString();
    const rows = await namedQuery<Row>(
      this.db,
      'AccessRequestStore.decide',
      sql`update ${accessRequests} set status = ${d.status}, decided_by = ${d.decidedBy},
        response_message = ${d.responseMessage}, decided_at = ${now}, updated_at = ${now} where id = ${id} returning *`,
    );
    return toRequest(rows[0]);
  }
}
