import type { FastifyBaseLogger } from 'fastify';

/**
 * The name of a kind of job, registered by the subgraph that owns it (`jobKinds` of lib/subgraph.ts): syql (a SyQL
 * export to Apache Arrow, the query subgraph's), graph (a whole-connectome analysis, the graph subgraph's). The
 * table's check constraint lists the names it accepts: a new kind comes with a migration that adds it.
 */
export type JobKindName = string;

/** The kinds the jobs table accepts (its check constraint), and so the kinds a stored job can have. */
export const JOB_KIND_NAMES = ['syql', 'graph'] as const;

export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
/** queued -> running -> succeeded | failed | cancelled; running -> queued again when its worker stopped (a retry). */
export type JobStatus = (typeof JOB_STATUSES)[number];

/** The states a job never leaves (and the only ones a job may be deleted in). */
export const FINISHED_STATUSES: readonly JobStatus[] = ['succeeded', 'failed', 'cancelled'];
export const isFinished = (status: JobStatus): boolean => FINISHED_STATUSES.includes(status);

/** What the executor of the job's kind reads; its shape is the kind's business. */
export type JobInput = Record<string, unknown>;

export interface JobRecord {
  id: string;
  ownerId: string;
  kind: JobKindName;
  status: JobStatus;
  input: JobInput;
  savedQueryId: string | null;
  /** Attempts started so far (each claim by a worker is one). */
  attempts: number;
  maxAttempts: number;
  /** 0..1 */
  progress: number;
  progressMessage: string | null;
  /** Why the job failed: an AppError's message, "internal error", or that its worker stopped. */
  error: string | null;
  /** The worker running the job, or that last ran it. */
  workerId: string | null;
  heartbeatAt: Date | null;
  /** Object storage key of the result; null before success or for results without an object. */
  resultKey: string | null;
  resultBytes: number | null;
  resultRows: number | null;
  /** Lowercase hex SHA-256 of the result object. */
  resultSha256: string | null;
  resultMeta: Record<string, unknown> | null;
  createdAt: Date;
  /** When the latest attempt started. */
  startedAt: Date | null;
  finishedAt: Date | null;
}

/** What a successful executor returns; stored on the job as its result. */
export interface JobOutcome {
  resultKey: string | null;
  resultBytes: number;
  resultRows: number;
  resultSha256: string | null;
  resultMeta: Record<string, unknown>;
}

export interface JobRun {
  /** Aborts when the job is cancelled, or when this worker lost it (its lease expired and another took it). */
  signal: AbortSignal;
  /** Reports progress (fraction 0..1, clamped); written to the store at most about every 500 ms, plus the last. */
  progress(fraction: number, message: string): void;
  /** A child logger carrying the job's id and kind. */
  log: FastifyBaseLogger;
}

/**
 * Runs one job. Throw an AppError for a failure the user should read (its message is stored); any other error is
 * stored as "internal error" and logged. Stop soon after `run.signal` aborts: nothing it returns then is stored,
 * and a result object it wrote is handed to the runner's `onDeleteResult`.
 */
export type JobExecutor = (job: JobRecord, run: JobRun) => Promise<JobOutcome>;
