import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/relational.js';
import { namedQuery } from '../db/named-query.js';
import { pagedQuery } from '../db/paged-query.js';
import { col, queryRow, queryRows, rowOf } from '../db/rows.js';
import { FINISHED_STATUSES, JOB_KIND_NAMES, JOB_STATUSES, type JobInput, type JobKindName, type JobOutcome, type JobRecord, type JobStatus } from './job.model.js';
import { jobs } from './tables.js';

const JOB_COLUMNS = {
  id: col.text,
  owner_id: col.text,
  kind: col.oneOf(JOB_KIND_NAMES),
  status: col.oneOf(JOB_STATUSES),
  input: col.json(z.record(z.string(), z.unknown())),
  saved_query_id: col.text.nullable(),
  attempts: col.int,
  max_attempts: col.int,
  progress: col.float,
  progress_message: col.text.nullable(),
  error: col.text.nullable(),
  worker_id: col.text.nullable(),
  heartbeat_at: col.timestamp.nullable(),
  result_key: col.text.nullable(),
  result_bytes: col.int.nullable(),
  result_rows: col.int.nullable(),
  result_sha256: col.text.nullable(),
  result_meta: col.json(z.record(z.string(), z.unknown())).nullable(),
  created_at: col.timestamp,
  started_at: col.timestamp.nullable(),
  finished_at: col.timestamp.nullable(),
};

function toJob(r: z.output<z.ZodObject<typeof JOB_COLUMNS>>): JobRecord {
  return {
    id: r.id,
    ownerId: r.owner_id,
    kind: r.kind,
    status: r.status,
    input: r.input,
    savedQueryId: r.saved_query_id,
    attempts: r.attempts,
    maxAttempts: r.max_attempts,
    progress: r.progress,
    progressMessage: r.progress_message,
    error: r.error,
    workerId: r.worker_id,
    heartbeatAt: r.heartbeat_at,
    resultKey: r.result_key,
    resultBytes: r.result_bytes,
    resultRows: r.result_rows,
    resultSha256: r.result_sha256,
    resultMeta: r.result_meta,
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
  };
}

const JOB = rowOf(JOB_COLUMNS, toJob);
/** A claimed job and its owner's turn (the order claims are handed out in). */
const CLAIMED = rowOf({ ...JOB_COLUMNS, turn: col.int }, (r) => ({ job: toJob(r), turn: r.turn }));
/** A cancelled job and the status it had. */
const CANCELLED = rowOf({ ...JOB_COLUMNS, previous: col.oneOf(JOB_STATUSES) }, (r) => ({ job: toJob(r), previous: r.previous }));
/** A held job a heartbeat did not renew: its status now, null when the job is gone. */
const NOT_RENEWED = rowOf({ id: col.text, status: col.oneOf(JOB_STATUSES).nullable() });
const ACTIVE = rowOf({ n: col.int });
/** What a sweep leaves a job whose worker stopped: retried, or out of attempts. */
const RECOVERED_STATUSES = ['queued', 'failed'] as const satisfies readonly JobStatus[];
const RECOVERED = rowOf(
  {
    id: col.text,
    owner_id: col.text,
    kind: col.oneOf(JOB_KIND_NAMES),
    status: col.oneOf(RECOVERED_STATUSES),
    attempts: col.int,
    max_attempts: col.int,
    worker_id: col.text.nullable(),
    progress_message: col.text.nullable(),
    error: col.text.nullable(),
  },
  (r): RecoveredJob => ({
    id: r.id,
    ownerId: r.owner_id,
    kind: r.kind,
    status: r.status,
    attempts: r.attempts,
    maxAttempts: r.max_attempts,
    workerId: r.worker_id,
    detail: String(r.status === 'queued' ? r.progress_message : r.error),
  }),
);

/** The job columns every statement that returns whole jobs selects, from the table aliased `j`. */
const COLUMNS = JOB.columns('j');
// Leases are judged by the database's clock, the one clock every worker shares: hosts' clocks may disagree.
// clock_timestamp(), not now(): the claim's transaction may have waited for its lock.
const NOW = sql.raw('clock_timestamp()');
const FINISHED = sql.raw(FINISHED_STATUSES.map((s) => `'${s}'`).join(', '));

/** A uuid[], int[] or text[] parameter as PostgreSQL's array text (the values are ids, numbers and kinds: no quoting needed). */
const arrayLiteral = (values: readonly (string | number)[]): string => `{${values.join(',')}}`;

export interface NewJob {
  id: string;
  ownerId: string;
  kind: JobKindName;
  input: JobInput;
  savedQueryId: string | null;
  maxAttempts: number;
}

/** One attempt of a job as a worker holds it: every write of a running job names both, so a stale writer changes nothing. */
export interface HeldJob {
  id: string;
  attempt: number;
}

export interface ClaimRequest {
  workerId: string;
  /** Jobs to claim at most (the worker's free slots). */
  limit: number;
  /** Jobs of one owner running at once, across every worker. */
  perUser: number;
  /** Only jobs of these kinds (those the worker has executors for). */
  kinds: readonly JobKindName[];
}

/** What a sweep did to a running job whose lease had expired. */
export interface RecoveredJob {
  id: string;
  ownerId: string;
  kind: JobKindName;
  /** queued: retried; failed: out of attempts. */
  status: (typeof RECOVERED_STATUSES)[number];
  /** The attempt that was running. */
  attempts: number;
  maxAttempts: number;
  /** The worker that stopped. */
  workerId: string | null;
  /** What the job's record now says happened: its progress message when retried, its error when failed. */
  detail: string;
}

export type JobDeletion = { deleted: JobRecord } | { notFinished: JobRecord } | undefined;

/** query.jobs: every SQL statement of the job queue. */
export class JobStore {
  /** `db` also tells which runners of this process share the store (job-runner.ts `localJobRunners`). */
  constructor(readonly db: Db) {}

  async insert(j: NewJob, db: Db = this.db): Promise<JobRecord> {
    const job = await queryRow(
      db,
      'JobStore.insert',
      sql`insert into ${jobs} as j (id, owner_id, kind, status, input, saved_query_id, attempts, max_attempts, progress, created_at)
        values (${j.id}, ${j.ownerId}, ${j.kind}, 'queued', ${JSON.stringify(j.input)}::jsonb, ${j.savedQueryId}, 0, ${j.maxAttempts}, 0, ${NOW})
        returning ${COLUMNS}`,
      JOB,
    );
    return job!;
  }

  /**
   * Inserts a queued job unless its owner already has `cap` jobs queued or running; then returns how many they have.
   * Submissions of one owner are serialised by a transaction-scoped advisory lock, so concurrent ones cannot all
   * see room under the cap.
   */
  async insertWithin(j: NewJob, cap: number): Promise<{ job: JobRecord } | { active: number }> {
    return this.db.transaction(async (tx) => {
      const db = tx as unknown as Db;
      await namedQuery(db, 'JobStore.lockOwner', sql`select pg_advisory_xact_lock(hashtext(${`query.jobs:owner:${j.ownerId}`}))`);
      const counted = await queryRow(
        db,
        'JobStore.countActive',
        sql`select count(*) as n from ${jobs} j where j.owner_id = ${j.ownerId} and j.status in ('queued', 'running')`,
        ACTIVE,
      );
      const active = counted!.n;
      if (active >= cap) return { active };
      return { job: await this.insert(j, db) };
    });
  }

  async get(id: string): Promise<JobRecord | undefined> {
    return queryRow(this.db, 'JobStore.get', sql`select ${COLUMNS} from ${jobs} j where j.id = ${id}`, JOB);
  }

  /** One page of an owner's jobs, newest first, with the total; `statuses` empty or absent means every status. */
  async listByOwner(ownerId: string, opts: { statuses?: readonly JobStatus[]; limit: number; offset: number }): Promise<{ items: JobRecord[]; total: number }> {
    const where = opts.statuses?.length
      ? sql`j.owner_id = ${ownerId} and j.status = any(${arrayLiteral(opts.statuses)}::text[])`
      : sql`j.owner_id = ${ownerId}`;
    const { rows, total } = await pagedQuery(
      this.db,
      { list: 'JobStore.listByOwner', count: 'JobStore.countByOwner' },
      { shape: JOB, columns: COLUMNS, from: sql`${jobs} j`, where, orderBy: sql`j.created_at desc, j.id desc` },
      opts,
    );
    return { items: rows, total };
  }

  /**
   * Takes up to `limit` queued jobs for `workerId`, in turns between owners: each becomes running with one more
   * attempt and a fresh heartbeat. A queued job's turn is its owner's running jobs (across all workers) plus its
   * place in its owner's queue, so every owner's next job comes before anyone's job after it, and among equal turns
   * the older job goes first (per-user round robin, not first in first out: one owner's long queue never keeps
   * another owner's job waiting behind it). An owner never gets more than `perUser` jobs running across all
   * workers. Claims are serialised by a transaction-scoped advisory lock: without it two workers could each count an
   * owner's running jobs before the other's claim commits and together pass the limit, or give the same turn twice.
   * `for update skip locked` passes over rows another transaction holds (a cancellation under way). Returns the
   * claimed jobs in turn order; fewer than `limit` (or none) when no more may run now.
   */
  async claim(req: ClaimRequest): Promise<JobRecord[]> {
    if (req.limit <= 0 || req.kinds.length === 0) return [];
    const claimed = await this.db.transaction(async (tx) => {
      const db = tx as unknown as Db;
      await namedQuery(db, 'JobStore.lockClaims', sql`select pg_advisory_xact_lock(hashtext('query.jobs:claim'))`);
      return queryRows(
        db,
        'JobStore.claim',
        sql`with running as (
            select r.owner_id, count(*) as n from ${jobs} r where r.status = 'running' group by r.owner_id
          ),
          turns as (
            select q.id, q.created_at,
                   coalesce(running.n, 0) + row_number() over (partition by q.owner_id order by q.created_at, q.id) as turn
            from ${jobs} q left join running on running.owner_id = q.owner_id
            where q.status = 'queued' and q.kind = any(${arrayLiteral(req.kinds)}::text[])
          ),
          picked as (
            select t.id, t.turn from turns t
            where t.turn <= ${req.perUser}
            order by t.turn, t.created_at, t.id
            limit ${req.limit}
          ),
          locked as (
            select c.id, picked.turn from ${jobs} c join picked on picked.id = c.id
            where c.status = 'queued'
            for update of c skip locked
          )
          update ${jobs} j
          set status = 'running', attempts = j.attempts + 1, worker_id = ${req.workerId}, started_at = ${NOW}, heartbeat_at = ${NOW}, progress = 0
          from locked
          where j.id = locked.id
          returning ${COLUMNS}, locked.turn`,
        CLAIMED,
      );
    });
    return claimed
      .sort((a, b) => a.turn - b.turn || a.job.createdAt.getTime() - b.job.createdAt.getTime() || (a.job.id < b.job.id ? -1 : 1))
      .map((c) => c.job);
  }

  /**
   * Renews the lease of the jobs `workerId` runs. Returns those it must stop: `cancelled` (cancelled, or deleted
   * after being cancelled) and `lost` (its lease expired and a sweep requeued or failed it; another worker may run
   * it now).
   */
  async heartbeat(workerId: string, held: readonly HeldJob[]): Promise<{ cancelled: string[]; lost: string[] }> {
    if (held.length === 0) return { cancelled: [], lost: [] };
    const rows = await queryRows(
      this.db,
      'JobStore.heartbeat',
      sql`with held as (
          select h.id, h.attempt from unnest(${arrayLiteral(held.map((h) => h.id))}::uuid[], ${arrayLiteral(held.map((h) => h.attempt))}::int[]) as h(id, attempt)
        ),
        beat as (
          update ${jobs} j set heartbeat_at = ${NOW}
          from held
          where j.id = held.id and j.attempts = held.attempt and j.status = 'running' and j.worker_id = ${workerId}
          returning j.id
        )
        select held.id, j.status from held left join ${jobs} j on j.id = held.id
        where held.id not in (select id from beat)`,
      NOT_RENEWED,
    );
    const cancelled: string[] = [];
    const lost: string[] = [];
    for (const r of rows) (r.status === null || r.status === 'cancelled' ? cancelled : lost).push(r.id);
    return { cancelled, lost };
  }

  /** Writes a running job's progress (and renews its lease); false when the worker no longer holds it. */
  async progress(workerId: string, held: HeldJob, fraction: number, message: string): Promise<boolean> {
    const rows = await namedQuery(
      this.db,
      'JobStore.progress',
      sql`update ${jobs} j set progress = ${fraction}, progress_message = ${message}, heartbeat_at = ${NOW}
        where j.id = ${held.id} and j.attempts = ${held.attempt} and j.status = 'running' and j.worker_id = ${workerId}
        returning j.id`,
    );
    return rows.length > 0;
  }

  /** Running -> succeeded with its result; undefined (nothing written) when the worker no longer holds the job. */
  async succeed(workerId: string, held: HeldJob, outcome: JobOutcome): Promise<JobRecord | undefined> {
    return queryRow(
      this.db,
      'JobStore.succeed',
      sql`update ${jobs} j
        set status = 'succeeded', progress = 1, finished_at = ${NOW}, heartbeat_at = ${NOW}, error = null,
            result_key = ${outcome.resultKey}, result_bytes = ${outcome.resultBytes}, result_rows = ${outcome.resultRows},
            result_sha256 = ${outcome.resultSha256}, result_meta = ${JSON.stringify(outcome.resultMeta ?? {})}::jsonb
        where j.id = ${held.id} and j.attempts = ${held.attempt} and j.status = 'running' and j.worker_id = ${workerId}
        returning ${COLUMNS}`,
      JOB,
    );
  }

  /** Running -> failed with `error`; undefined (nothing written) when the worker no longer holds the job. */
  async fail(workerId: string, held: HeldJob, error: string): Promise<JobRecord | undefined> {
    return queryRow(
      this.db,
      'JobStore.fail',
      sql`update ${jobs} j set status = 'failed', error = ${error}, finished_at = ${NOW}, heartbeat_at = ${NOW}
        where j.id = ${held.id} and j.attempts = ${held.attempt} and j.status = 'running' and j.worker_id = ${workerId}
        returning ${COLUMNS}`,
      JOB,
    );
  }

  /**
   * Queued or running -> cancelled. Returns the job as it now is and the status it had: a job already finished
   * comes back unchanged (`previous` equals its status). Undefined when there is no such job. A running job's
   * worker notices at its next heartbeat.
   */
  async cancel(id: string): Promise<{ job: JobRecord; previous: JobStatus } | undefined> {
    const cancelled = await queryRow(
      this.db,
      'JobStore.cancel',
      sql`with target as (
          select t.id, t.status from ${jobs} t where t.id = ${id} and t.status in ('queued', 'running') for update
        )
        update ${jobs} j set status = 'cancelled', finished_at = ${NOW}
        from target
        where j.id = target.id
        returning ${COLUMNS}, target.status as previous`,
      CANCELLED,
    );
    if (cancelled) return cancelled;
    const job = await this.get(id);
    return job && { job, previous: job.status };
  }

  /** Deletes a finished job; a queued or running one is left alone and returned as `notFinished`. */
  async delete(id: string): Promise<JobDeletion> {
    const deleted = await queryRow(
      this.db,
      'JobStore.delete',
      sql`delete from ${jobs} j where j.id = ${id} and j.status in (${FINISHED}) returning ${COLUMNS}`,
      JOB,
    );
    if (deleted) return { deleted };
    const job = await this.get(id);
    return job && { notFinished: job };
  }

  /**
   * The sweep: every running job whose heartbeat is older than `leaseMs` lost its worker. It goes back to queued
   * (progress reset, a message saying why) while it has attempts left, else fails naming the attempt. A worker
   * that was only slow finds out at its next heartbeat (`lost`) and writes nothing more. The jobs `sweeper`, the
   * worker sweeping, still runs (`runningIds`) are left out: it is alive and only could not renew their leases yet
   * (its sweep waited on a busy database or event loop longer than a lease). Its other jobs are swept like anyone's:
   * an attempt whose outcome it could not write (the database was lost as the job ended) is one it no longer runs.
   */
  async recoverExpired(leaseMs: number, sweeper: string, runningIds: readonly string[]): Promise<RecoveredJob[]> {
    const retry = sql`j.attempts < j.max_attempts`;
    // The sweeper's own job was not lost with a worker: the attempt ended, and writing its outcome failed.
    const own = sql`expired.worker_id is not distinct from ${sweeper}`;
    const what = sql`case when ${own} then 'its outcome could not be recorded' else 'its worker stopped' end`;
    const attempt = sql`' (attempt ' || j.attempts || ' of ' || j.max_attempts || ')'`;
    // The expired rows are locked first (skipping those another sweep or a heartbeat holds), so the worker that
    // stopped can still be named in what is returned.
    return queryRows(
      this.db,
      'JobStore.recoverExpired',
      sql`with expired as (
          select e.id, e.worker_id from ${jobs} e
          where e.status = 'running' and e.heartbeat_at < ${NOW} - ${leaseMs}::int * interval '1 millisecond'
            and not (e.worker_id is not distinct from ${sweeper} and e.id = any(${arrayLiteral(runningIds)}::uuid[]))
          for update skip locked
        )
        update ${jobs} j
        set status = case when ${retry} then 'queued' else 'failed' end,
            progress = case when ${retry} then 0 else j.progress end,
            progress_message = case when ${retry} then 'retried after ' || ${what} || ${attempt} else j.progress_message end,
            error = case when ${retry} then null
              else (case when ${own} then 'its outcome could not be recorded' else 'the worker running this job stopped' end) || ${attempt} end,
            finished_at = case when ${retry} then null else ${NOW} end,
            worker_id = case when ${retry} then null else j.worker_id end,
            heartbeat_at = null
        from expired
        where j.id = expired.id
        returning j.id, j.owner_id, j.kind, j.status, j.attempts, j.max_attempts, expired.worker_id, j.progress_message, j.error`,
      RECOVERED,
    );
  }
}
