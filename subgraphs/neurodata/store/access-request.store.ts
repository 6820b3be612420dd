import { sql } from 'drizzle-orm';
import type { Db } from '../../../lib/db/relational.js';
import { col, queryRow, queryRows, rowOf } from '../../../lib/db/rows.js';
import { accessRequests } from './tables.js';

export const ACCESS_REQUEST_STATUSES = ['pending', 'approved', 'denied'] as const;
export type AccessRequestStatus = (typeof ACCESS_REQUEST_STATUSES)[number];

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

const ACCESS_REQUEST = rowOf(
  {
    id: col.text,
    dataset_id: col.text,
    requester_id: col.text,
    status: col.oneOf(ACCESS_REQUEST_STATUSES),
    message: col.text.nullable(),
    response_message: col.text.nullable(),
    decided_by: col.text.nullable(),
    decided_at: col.timestamp.nullable(),
    created_at: col.timestamp,
    updated_at: col.timestamp,
  },
  (r): AccessRequestRecord => ({
    id: r.id,
    datasetId: r.dataset_id,
    requesterId: r.requester_id,
    status: r.status,
    message: r.message,
    responseMessage: r.response_message,
    decidedBy: r.decided_by,
    decidedAt: r.decided_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }),
);

const REQUEST_STATUS = rowOf({ dataset_id: col.text, status: col.oneOf(ACCESS_REQUEST_STATUSES) });

export class AccessRequestStore {
  constructor(private readonly db: Db) {}

  /**
   * Files a request, or re-opens the requester's denied one (a new message, pending again). An approved or pending
   * request is returned unchanged.
   */
  async upsert(r: { id: string; datasetId: string; requesterId: string; message: string | null; now: Date }): Promise<AccessRequestRecord> {
    const now = r.now.toISOString();
    const row = await queryRow(
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
        returning ${ACCESS_REQUEST.columns()}`,
      ACCESS_REQUEST,
    );
    return row!;
  }

  async forRequester(datasetId: string, requesterId: string): Promise<AccessRequestRecord | undefined> {
    return queryRow(
      this.db,
      'AccessRequestStore.forRequester',
      sql`select ${ACCESS_REQUEST.columns()} from ${accessRequests} where dataset_id = ${datasetId} and requester_id = ${requesterId}`,
      ACCESS_REQUEST,
    );
  }

  /** The requester's request status per dataset, for a page of datasets. */
  async statusesFor(datasetIds: readonly string[], requesterId: string): Promise<Map<string, AccessRequestStatus>> {
    if (datasetIds.length === 0) return new Map();
    const rows = await queryRows(
      this.db,
      'AccessRequestStore.statusesFor',
      sql`select ${REQUEST_STATUS.columns()} from ${accessRequests}
        where requester_id = ${requesterId} and dataset_id = any(${`{${datasetIds.join(',')}}`}::uuid[])`,
      REQUEST_STATUS,
    );
    return new Map(rows.map((r) => [r.dataset_id, r.status]));
  }

  /** Every request of a dataset, pending first, then newest first. */
  async forDataset(datasetId: string): Promise<AccessRequestRecord[]> {
    return queryRows(
      this.db,
      'AccessRequestStore.forDataset',
      sql`select ${ACCESS_REQUEST.columns()} from ${accessRequests} where dataset_id = ${datasetId}
        order by (status = 'pending') desc, created_at desc`,
      ACCESS_REQUEST,
    );
  }

  async find(datasetId: string, id: string): Promise<AccessRequestRecord | undefined> {
    return queryRow(
      this.db,
      'AccessRequestStore.find',
      sql`select ${ACCESS_REQUEST.columns()} from ${accessRequests} where dataset_id = ${datasetId} and id = ${id}`,
      ACCESS_REQUEST,
    );
  }

  async decide(id: string, d: { status: 'approved' | 'denied'; decidedBy: string; responseMessage: string | null; now: Date }): Promise<AccessRequestRecord> {
    const now = d.now.toISOString();
    const row = await queryRow(
      this.db,
      'AccessRequestStore.decide',
      sql`update ${accessRequests} set status = ${d.status}, decided_by = ${d.decidedBy},
        response_message = ${d.responseMessage}, decided_at = ${now}, updated_at = ${now} where id = ${id} returning ${ACCESS_REQUEST.columns()}`,
      ACCESS_REQUEST,
    );
    return row!;
  }
}
