import { describe, it, expect } from 'vitest';
import { sqlRecorder, snapshotText } from '../../test/kit/sql-recorder.js';
import { JobStore } from './job.store.js';

const JOB_ID = '0190f3a4-5b6c-7d8e-9f00-112233445566';
const OWNER = '0190f3a4-5b6c-7d8e-9f00-112233445567';
const AT = '2026-01-01 00:00:00+00';

/** A job row as the store selects it, with the extra columns some statements return (turn, previous, n, total). */
const ROW = {
  id: JOB_ID,
  owner_id: OWNER,
  kind: 'syql',
  status: 'queued',
  input: { syql: 'neurons' },
  saved_query_id: null,
  attempts: 1,
  max_attempts: 3,
  progress: 0,
  progress_message: null,
  error: null,
  worker_id: 'w1',
  heartbeat_at: AT,
  result_key: null,
  result_bytes: '12',
  result_rows: null,
  result_sha256: null,
  result_meta: null,
  created_at: AT,
  started_at: null,
  finished_at: null,
  turn: 1,
  previous: 'running',
  n: '0',
  total: '1',
};

function recorder(rows: unknown[] = [ROW]) {
  const { db, statements } = sqlRecorder(rows);
  return { store: new JobStore(db), statements };
}

const held = { id: JOB_ID, attempt: 1 };
const outcome = { resultKey: 'jobs/r.arrows', resultBytes: 12, resultRows: 3, resultSha256: 'ab', resultMeta: {} };

describe(JobStore.name, () => {
  it('keeps the SQL of its queue statements as reviewed (lib/jobs/__sql__/job.store.sql; vitest -u rewrites it)', async () => {
    const { store, statements } = recorder();
    const job = { id: JOB_ID, ownerId: OWNER, kind: 'syql', input: { syql: 'neurons' }, savedQueryId: null, maxAttempts: 3 };
    await store.insertWithin(job, 5);
    await store.get(JOB_ID);
    await store.listByOwner(OWNER, { statuses: ['queued', 'running'], limit: 20, offset: 0 });
    await store.claim({ workerId: 'w1', limit: 4, perUser: 2, kinds: ['syql', 'graph'] });
    await store.heartbeat('w1', [held]);
    await store.progress('w1', held, 0.5, 'half way');
    await store.succeed('w1', held, outcome);
    await store.fail('w1', held, 'internal error');
    await store.cancel(JOB_ID);
    await store.delete(JOB_ID);
    await store.recoverExpired(30_000, 'w1', [JOB_ID]);
    await expect(snapshotText(statements)).toMatchFileSnapshot('./__sql__/job.store.sql');
  });

  it('reads its rows into jobs: numbers from int8 text, timestamps as dates, nulls kept', async () => {
    const { store } = recorder();
    const job = await store.get(JOB_ID);
    expect(job).toMatchObject({ id: JOB_ID, ownerId: OWNER, kind: 'syql', status: 'queued', input: { syql: 'neurons' }, savedQueryId: null, resultBytes: 12, resultRows: null, resultMeta: null });
    expect(job?.createdAt).toEqual(new Date('2026-01-01T00:00:00Z'));
    expect(await store.cancel(JOB_ID)).toMatchObject({ job: { id: JOB_ID }, previous: 'running' });
  });

  it('refuses a row whose status is none of the job statuses, naming the query and the column', async () => {
    const { store } = recorder([{ ...ROW, status: 'paused' }]);
    await expect(store.get(JOB_ID)).rejects.toThrow(/^JobStore\.get returned a row that does not match its shape: status: /);
  });

  it('hands out claimed jobs in turn order, the older first among equal turns', async () => {
    const row = (id: string, turn: number, createdAt: string) => ({ ...ROW, id, turn, created_at: createdAt });
    const { store } = recorder([row('c', 2, '2026-01-01 00:00:00+00'), row('b', 1, '2026-01-02 00:00:00+00'), row('a', 1, '2026-01-01 00:00:00+00')]);
    const claimed = await store.claim({ workerId: 'w1', limit: 3, perUser: 2, kinds: ['syql'] });
    expect(claimed.map((j) => j.id)).toEqual(['a', 'b', 'c']);
  });
});
